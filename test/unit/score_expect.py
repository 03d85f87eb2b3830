#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# score_expect.py: what scorep-score must print for a Score-P sample, computed without our Cube
# library: regions and system tree from anchor.xml (Python's tarfile/xml), values from CubeLib's
# excl.csv/incl.csv beside it; compares them with scorep-score's output read from stdin.
# The byte model is our trace buffer's (docs/user-guide.md, scorep-score): 16 bytes per enter
# or leave, 24 per metric value (-c), 64 per MPI record, a 32-byte header per 8 KiB page.
import csv
import fnmatch
import gzip
import os
import sys
import tarfile
import xml.etree.ElementTree as ET

COMM = ("mpi", "openmp", "shmem", "pthread", "cuda")
COUNTERS = 0  # -c


def load(d):
    cubex = next(os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".cubex"))
    with tarfile.open(cubex) as t:
        raw = t.extractfile("anchor.xml").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    root = ET.fromstring(raw)
    regions = {}
    for r in root.iter("region"):
        regions[int(r.get("id"))] = (r.findtext("name"), r.findtext("paradigm").split(":")[0],
                                     r.findtext("mangled_name") or r.findtext("name"), r.get("mod"))
    parent, region_of = {}, {}

    def walk(node, par):
        for c in node.findall("cnode"):
            cid = int(c.get("id"))
            parent[cid], region_of[cid] = par, int(c.get("calleeId"))
            walk(c, cid)

    walk(root.find("program"), -1)
    proc_of = {}
    for g in root.iter("locationgroup"):
        for loc in g.findall("location"):
            proc_of[int(loc.get("Id"))] = int(g.get("Id"))
    return regions, parent, region_of, proc_of, read_csv(d, "excl.csv"), read_csv(d, "incl.csv")


def read_csv(d, name):
    vals = {}
    with open(os.path.join(d, name)) as f:
        rows = csv.reader(f)
        head = [h.strip() for h in next(rows)]
        for row in rows:
            rec = dict(zip(head, row))
            vals[(int(rec["Cnode ID"]), int(rec["Thread ID"]))] = {
                k: float(rec[k]) for k in ("visits", "time") if k in rec
            }
    return vals


def group_of_regions(regions, parent, region_of):
    """Score-P's groups: MPI/OMP/SHMEM/CUDA/SCOREP by paradigm, USR else; USR regions with
    communication below one of their call paths are COM."""
    names = {"mpi": "MPI", "openmp": "OMP", "shmem": "SHMEM", "cuda": "CUDA", "measurement": "SCOREP",
             "pthread": "PTHREAD"}
    group = {g: names.get(r[1].lower(), "USR") for g, r in regions.items()}
    for c, g in region_of.items():
        if regions[g][1].lower() in COMM:
            p = parent[c]
            while p >= 0:
                if group[region_of[p]] == "USR":
                    group[region_of[p]] = "COM"
                p = parent[p]
    return group


COLLS = ("Barrier Bcast Gather Gatherv Scatter Scatterv Allgather Allgatherv Alltoall Alltoallv "
         "Alltoallw Reduce Allreduce Reduce_scatter Reduce_scatter_block Scan Exscan").split()


def mpi_records(name):
    """buf_mpi_rec records of one call (src/core/events_mpi.c): one per blocking message,
    two for Sendrecv, for a non-blocking message (request + completion) and collectives."""
    if not name.startswith("MPI_"):
        return 0
    f = name[4:]
    if f in ("Send", "Bsend", "Ssend", "Rsend", "Recv", "Mrecv"):
        return 1
    two = ("Sendrecv", "Sendrecv_replace", "Isend", "Ibsend", "Issend", "Irsend", "Irecv", "Imrecv")
    coll = f in COLLS or (f[:1] == "I" and f[1:] in COLLS) or f.startswith(("Neighbor_", "Ineighbor_"))
    return 2 if f in two or coll else 0


def omp_parallel(name, typ):
    return typ == "OMP" and (name == "!$omp parallel" or name.startswith("!$omp parallel "))


def visit_bytes(name, typ):
    """An enter and a leave (16 bytes each) with COUNTERS metric values (24 bytes each), and
    the MPI records (64 bytes) of the call; THREADS: thread begin, create and wait."""
    if name == "THREADS" and typ == "SCOREP":
        return 3 * 24
    if name == "MEASUREMENT OFF":  # a measurement-off and -on record instead of the call
        return 2 * 24
    if omp_parallel(name, typ):  # team begin and end (fork and join: per team, in streams)
        return 2 * (16 + COUNTERS * 24) + 2 * 24
    return 2 * (16 + COUNTERS * 24) + (mpi_records(name) * 64 if typ == "MPI" else 0)


def with_pages(b, rec=16):
    """Record bytes plus a 32-byte header per 8 KiB page (buf_page: 24 until session 17); a
    page holds whole REC-byte records: 127 MPI records of 64 bytes, not 127.5 (session 26)."""
    room = (8192 - 32) // rec * rec
    return b + (b + room - 1) // room * 32


def rows(d):
    regions, parent, region_of, proc_of, excl, incl = load(d)
    group = group_of_regions(regions, parent, region_of)
    procs = sorted(set(proc_of.values()))
    reg = {}
    for (c, l), v in excl.items():
        g = region_of[c]
        r = reg.setdefault(g, {"visits": 0, "excl": 0.0, "incl": 0.0, "loc": {}, "visited": set(), "proc": {}}
        )
        r["visits"] += int(v["visits"])
        r["excl"] += v["time"]
        r["loc"][l] = r["loc"].get(l, 0.0) + v["time"]
        if v["visits"] > 0:
            r["visited"].add(l)
        r["proc"][proc_of[l]] = (r["proc"].get(proc_of[l], 0)
                                 + int(v["visits"]) * visit_bytes(regions[g][0], group[g]))
    for (c, l), v in incl.items():  # inclusive time of the outermost calls of each region
        p, outer = parent[c], True
        while p >= 0 and outer:
            outer = region_of[p] != region_of[c]
            p = parent[p]
        if outer:
            reg[region_of[c]]["incl"] += v["time"]
    for r in reg.values():  # record bytes in raw, with the page headers they need in proc
        r["raw"] = r["proc"]
        r["proc"] = {p: with_pages(b) for p, b in r["raw"].items()}
    return regions, group, procs, proc_of, reg


def row_of(typ, name, r, total):
    """Expected numbers of one table row: type, max_buf, visits, time, time%, time/visit."""
    tpv = r["excl"] / r["visits"] * 1e6 if r["visits"] else 0.0
    pct = 100.0 * r["excl"] / total if total > 0 else 0.0
    return {"type": typ, "name": name, "max_buf": max(r["proc"].values(), default=0),
            "visits": r["visits"], "time": r["excl"], "pct": pct, "tpv": tpv}


def stream_bytes(d, procs, removed):
    """Per process: the ALL row's bytes as the buffers hold them, one stream per location and
    call depth for enters/leaves, one for metric values, one for MPI records, each stream
    with the headers of its pages; regions in removed left out (a filter)."""
    regions, parent, region_of, proc_of, excl, incl = load(d)
    group = group_of_regions(regions, parent, region_of)
    def threads_root(g):  # the profile's root of the threads: begin, create, wait records
        return regions[g][0] == "THREADS" and group[g] == "SCOREP"

    depth = {}
    for c in parent:
        k, e = 0, parent[c]
        while e >= 0:
            k, e = k + (not threads_root(region_of[e])), parent[e]
        depth[c] = k
    streams = {}
    for (c, l), v in excl.items():
        g, n = region_of[c], int(v["visits"])
        if g in removed or n == 0:
            continue
        if regions[g][0] == "MEASUREMENT OFF":
            streams[(l, "other")] = streams.get((l, "other"), 0) + 48 * n
            continue
        if threads_root(g):
            streams[(l, "thread")] = streams.get((l, "thread"), 0) + 24 * n
            streams[(-1 - proc_of[l], "creator")] = streams.get((-1 - proc_of[l], "creator"), 0) + 48 * n
            continue
        if omp_parallel(regions[g][0], group[g]):  # + fork and join on the team's opener
            opener = parent[c] < 0 or excl.get((parent[c], l), {}).get("visits", 0) > 0
            streams[(l, "thread")] = streams.get((l, "thread"), 0) + n * (96 if opener else 48)
        for key, b in (((l, depth[c]), 32), ((l, "metric"), COUNTERS * 48),
                       ((l, "mpi"), 64 * mpi_records(regions[g][0]) if group[g] == "MPI" else 0)):
            streams[key] = streams.get(key, 0) + n * b
    out = {p: 0 for p in procs}
    for (l, kind), b in streams.items():
        out[proc_of[l] if l >= 0 else -1 - l] += with_pages(b, 64 if kind == "mpi" else 16)
    return out


def filtered_regions(regions, group, patterns):
    """Regions an 'EXCLUDE pattern...' filter removes: Score-P's rule, only USR, COM, CUDA and
    LIB regions (never MEASUREMENT OFF), matched by name with fnmatch."""
    if patterns is None:
        return set()
    return {g for g, r in regions.items() if group[g] in ("USR", "COM", "CUDA", "LIB")
            and r[0] != "MEASUREMENT OFF" and any(fnmatch.fnmatchcase(r[0], p) for p in patterns)}


def groups(d, patterns=None):
    """Group rows; with patterns (a filter) also the rows of what the filter keeps (named
    TYPE-FLT) and removes (FLT)."""
    regions, group, procs, proc_of, reg = rows(d)
    out_set = filtered_regions(regions, group, patterns)
    acc, kept = {}, {}

    def add(table, k, r):
        a = table.setdefault(k, {"visits": 0, "excl": 0.0, "proc": {p: 0 for p in procs}})
        a["visits"] += r["visits"]
        a["excl"] += r["excl"]
        for p, b in r["raw"].items():
            a["proc"][p] += b

    for g, r in reg.items():
        for k in ("ALL", group[g]):
            add(acc, k, r)
        if patterns is not None:
            for k in ("FLT",) if g in out_set else ("ALL", group[g]):
                add(kept, k, r)
    for a in list(acc.values()) + list(kept.values()):  # groups page their record sums
        a["proc"] = {p: with_pages(b) for p, b in a["proc"].items()}
    acc["ALL"]["proc"] = stream_bytes(d, procs, set())
    if patterns is not None:
        kept["ALL"]["proc"] = stream_bytes(d, procs, out_set)
    total = acc["ALL"]["excl"]
    out = [row_of(k, k, a, total) for k, a in acc.items() if k == "ALL" or sum(a["proc"].values())]
    kout = [row_of(k, k if k == "FLT" else k + "-FLT", a, total) for k, a in kept.items()
            if sum(a["proc"].values())]
    return out, acc if patterns is None else kept, proc_of, kout


def human(b):
    units = [" bytes", "kB", "MB", "GB", "TB", "PB", "EB"]
    e = 0
    while b > 4 * 1024 and e < 6:
        b //= 1024
        e += 1
    return "%d%s" % (b + 1, units[e])


def summary(d, patterns=None):
    _, acc, proc_of, _ = groups(d, patterns)
    per_proc = acc["ALL"]["proc"]
    max_buf = max(per_proc.values())
    page = 2 * 1024 * 1024
    locs = max(list(proc_of.values()).count(p) for p in set(proc_of.values()))
    return [human(sum(per_proc.values())), human(max_buf), human(max(max_buf, page) + page * locs)]


def regions_top(d, key, n):
    """The rows of the n regions with the largest key, and those tied with the n-th (any of
    them may be printed); the second list holds the rows that must be printed."""
    regions, group, procs, proc_of, reg = rows(d)
    total = sum(r["excl"] for r in reg.values())
    ranked = sorted(reg.items(), key=lambda kv: -kv[1][key])
    if len(ranked) <= n:
        must = ranked
    else:
        last = ranked[n - 1][1][key]
        must = [kv for kv in ranked if kv[1][key] > last]
        ranked = [kv for kv in ranked if kv[1][key] >= last]
    return ([row_of(group[g], regions[g][0], r, total) for g, r in ranked],
            [regions[g][0] for g, r in must])


def min_max(r):
    """Exclusive time per location, over the locations that visited the region."""
    t = [r["loc"][l] for l in r["visited"]]
    return (min(t), max(t)) if t else (0.0, 0.0)


def top(d, n):
    regions, group, procs, proc_of, reg = rows(d)
    best = sorted(reg.items(), key=lambda kv: -kv[1]["excl"])[:n]
    return [{"name": regions[g][0], "excl": r["excl"], "incl": r["incl"], "visits": r["visits"],
             "min": min_max(r)[0], "max": min_max(r)[1]} for g, r in best]


# ----------------------------------------------------------- comparing with the output
# CubeLib's CSVs hold 6 significant digits: times may differ by that, plus the printed
# rounding; counts and bytes are exact.
def close(actual, want, decimals):
    return abs(float(actual) - want) <= 2e-5 * abs(want) + 0.51 * 10 ** -decimals


def parse_table(lines):
    """Rows of scorep-score's table: type, max_buf, visits, time, time%, time/visit, region."""
    out, on = [], False
    for line in lines:
        f = line.split()
        flt = " "
        if f[:1] and f[0] in ("+", "-", "*"):
            flt, f = f[0], f[1:]
        if f[:3] == ["flt", "type", "max_buf[B]"]:
            on = True
        elif on and len(f) >= 7:
            out.append({"flt": flt, "type": f[0], "max_buf": int(f[1].replace(",", "")),
                        "visits": int(f[2].replace(",", "")), "time": f[3], "pct": f[4],
                        "tpv": f[5], "name": " ".join(f[6:])})
    return out


def compare_rows(actual, want, key, what, n=None, must=(), fixed_first=False):
    """Every actual row equals its expected row; n rows (default: all expected ones), with
    the names in must among them; sorted by key."""
    errors = []
    n = len(want) if n is None else n
    if len(actual) != n:
        errors.append("%s: %d rows, want %d" % (what, len(actual), n))
    missing = set(must) - {a["name"] for a in actual}
    if missing:
        errors.append("%s: rows missing: %s" % (what, sorted(missing)))
    by_name = {w["name"]: w for w in want}
    for a in actual:
        w = by_name.get(a["name"])
        if w is None:
            errors.append("%s: unexpected row %s" % (what, a["name"]))
            continue
        ok = (a["type"] == w["type"] and a["max_buf"] == w["max_buf"] and a["visits"] == w["visits"]
              and close(a["time"], w["time"], 2) and close(a["pct"], w["pct"], 1)
              and close(a["tpv"], w["tpv"], 2))
        if a.get("flt", " ") == " " and fixed_first:
            ok = False
        if not ok:
            errors.append("%s: row %s: got %s %d %d %s %s %s, want %s %d %d %.2f %.1f %.2f" % (
                what, a["name"], a["type"], a["max_buf"], a["visits"], a["time"], a["pct"], a["tpv"],
                w["type"], w["max_buf"], w["visits"], w["time"], w["pct"], w["tpv"]))
    keys = [a[key] if key != "time" else float(a["time"]) for a in actual[1 if fixed_first else 0:]]
    if keys != sorted(keys, reverse=True):
        errors.append("%s: rows not sorted by %s: %s" % (what, key, keys))
    return errors


def check_summary(d, lines):
    want = summary(d)
    got = [l.split(":", 1)[1].strip() for l in lines if l.startswith("Estimated ")]
    return [] if got == want else ["summary: got %s, want %s" % (got, want)]


FLT_MARK = {"ALL": "*", "FLT": "+", "USR": "*", "COM": "*", "CUDA": "*", "LIB": "*"}


def check_filter(d, patterns, lines):
    """scorep-score -f (a filter 'EXCLUDE patterns') -r: the estimate of the filtered run,
    the group rows marked '-', the kept/removed rows and the region rows marked + / -."""
    want = summary(d, patterns)
    got = [l.split(":", 1)[1].strip() for l in lines if l.startswith("Estimated ")]
    errors = [] if got == want else ["filter summary: got %s, want %s" % (got, want)]
    table = parse_table(lines)
    out, _, _, kout = groups(d, patterns)
    regions, group, procs, proc_of, reg = rows(d)
    out_set = filtered_regions(regions, group, patterns)
    grp = [r for r in table if r["name"] == r["type"] != "FLT"]
    kept = [r for r in table if r["name"] == "FLT" or r["name"].endswith("-FLT")]
    regs = [r for r in table if r not in grp and r not in kept]
    errors += compare_rows(grp, out, "max_buf", "groups")
    # ALL-FLT comes first, the other rows sorted after it (Score-P sorts from the second)
    errors += compare_rows(kept, kout, "max_buf", "kept groups", fixed_first=True)
    total = sum(r["excl"] for r in reg.values())
    want_regs = [row_of(group[g], regions[g][0], r, total) for g, r in reg.items()
                 if sum(r["proc"].values())]
    errors += compare_rows(regs, want_regs, "max_buf", "regions")
    for r in grp:
        if r["flt"] != "-":
            errors.append("group %s marked %r, want '-'" % (r["name"], r["flt"]))
    for r in kept:
        if r["flt"] != FLT_MARK.get(r["type"], "-"):
            errors.append("kept group %s marked %r" % (r["name"], r["flt"]))
    removed = {regions[g][0] for g in out_set}
    for r in regs:
        if r["flt"] != ("+" if r["name"] in removed else "-"):
            errors.append("region %s marked %r" % (r["name"], r["flt"]))
    return errors


def gen_params(arg):
    p = {"bufferpercent": 1.0, "timepervisit": 1.0, "visits": 0, "bufferabsolute": 0.0, "type": "usr"}
    for item in filter(None, arg.lower().replace(" ", "").split(",")):
        k, v = item.split("=")
        p[k] = v if k == "type" else float(v)
    return p


def check_gen(d, arg, path, lines):
    """scorep-score -g ARG: the MANGLED entries of initial_scorep.filter, in max_buf order:
    USR (type=usr) regions with max_buf >= bufferpercent% of the run's max_buf, time per
    visit <= timepervisit us, >= visits visits, >= bufferabsolute MiB."""
    p = gen_params(arg)
    regions, group, procs, proc_of, reg = rows(d)
    _, acc, _, _ = groups(d)
    run_max = max(acc["ALL"]["proc"].values())
    types = {"usr": ("USR",), "com": ("COM",), "both": ("USR", "COM")}[p["type"]]
    want = []
    for g, r in sorted(reg.items(), key=lambda kv: (-max(kv[1]["proc"].values(), default=0), kv[0])):
        mb = max(r["proc"].values(), default=0)
        if (r["visits"] and group[g] in types and regions[g][0] != "MEASUREMENT OFF"
                and 100.0 * mb / run_max >= p["bufferpercent"]
                and r["excl"] / r["visits"] * 1e6 <= p["timepervisit"]
                and r["visits"] >= p["visits"] and mb / 1048576.0 >= p["bufferabsolute"]):
            want.append(regions[g][2])
    with open(path) as f:
        text = f.read().splitlines()
    got = [l.split("MANGLED ", 1)[1].replace("\\", "") for l in text if l.strip().startswith("MANGLED ")]
    errors = [] if got == want else ["-g %s: entries %s, want %s" % (arg, got, want)]
    if text[-1:] != ["SCOREP_REGION_NAMES_END"] or "  EXCLUDE" not in text:
        errors.append("-g: file does not end with SCOREP_REGION_NAMES_END or lacks EXCLUDE")
    if not any("at least %g%% of the estimated trace buffer" % p["bufferpercent"] in l for l in text):
        errors.append("-g: header does not state bufferpercent=%g" % p["bufferpercent"])
    return errors


def check_top(d, n, lines):
    want, errors = top(d, n), []
    got = [l.split() for l in lines[1:] if l.strip()]
    if len(got) != len(want):
        return ["--top %d: %d rows, want %d" % (n, len(got), len(want))]
    for i, (f, w) in enumerate(zip(got, want)):
        ok = (f[0] == str(i + 1) and " ".join(f[1:-5]) == w["name"] and int(f[-3]) == w["visits"]
              and all(close(f[j], w[k], 6) for j, k in ((-5, "excl"), (-4, "incl"), (-2, "min"),
                                                         (-1, "max"))))
        if not ok:
            errors.append("--top %d: row %s, want %s" % (n, " ".join(f), w))
    return errors


def main(argv):
    """score_expect.py MODE DIR [ARGS] < scorep-score output; prints one line per mismatch
    and exits 1 if there is any. Modes: table (groups), regions KEY N (-r -t N -s KEY rows),
    top N (--top N)."""
    global COUNTERS
    mode, d, lines = argv[1], argv[2], sys.stdin.read().splitlines()
    if mode == "table":
        COUNTERS = int(argv[3]) if len(argv) > 3 else 0
        errors = check_summary(d, lines)
        errors += compare_rows([r for r in parse_table(lines) if r["name"] == r["type"]],
                               groups(d)[0], "max_buf", "groups")
    elif mode == "regions":
        key, n = argv[3], int(argv[4])
        want, must = regions_top(d, "excl" if key == "time" else key, n)
        errors = compare_rows([r for r in parse_table(lines) if r["name"] != r["type"]], want, key,
                              "regions", min(n, len(want)), must)
    elif mode == "filter":
        errors = check_filter(d, argv[3].split(","), lines)
    elif mode == "gen":
        errors = check_gen(d, argv[3], argv[4], lines)
    elif mode == "top":
        errors = check_top(d, int(argv[3]), lines)
    else:
        sys.exit("usage: score_expect.py table|regions KEY N|top N DIR < scorep-score-output")
    for e in errors:
        print(e)
    n = len([l for l in lines if l.strip()])
    print("%s: %s (%d lines of scorep-score output)" % (mode, "mismatch" if errors else "ok", n))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main(sys.argv)
