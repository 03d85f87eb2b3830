#!/usr/bin/env python3
# score_expect.py: what scorep-score must print for a Score-P sample, computed without our Cube
# library: regions and system tree from anchor.xml (Python's tarfile/xml), values from CubeLib's
# excl.csv/incl.csv beside it; compares them with scorep-score's output read from stdin.
import csv
import gzip
import os
import sys
import tarfile
import xml.etree.ElementTree as ET

COMM = ("mpi", "openmp", "shmem")


def load(d):
    cubex = next(os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(".cubex"))
    with tarfile.open(cubex) as t:
        raw = t.extractfile("anchor.xml").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    root = ET.fromstring(raw)
    regions = {}
    for r in root.iter("region"):
        regions[int(r.get("id"))] = (r.findtext("name"), r.findtext("paradigm").split(":")[0])
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
    names = {"mpi": "MPI", "openmp": "OMP", "shmem": "SHMEM", "cuda": "CUDA", "measurement": "SCOREP"}
    group = {g: names.get(p.lower(), "USR") for g, (n, p) in regions.items()}
    for c, g in region_of.items():
        if regions[g][1].lower() in COMM:
            p = parent[c]
            while p >= 0:
                if group[region_of[p]] == "USR":
                    group[region_of[p]] = "COM"
                p = parent[p]
    return group


def visit_bytes(n_regions):
    """An Enter and a Leave record per visit: 9-byte timestamp, 1 type byte and the region
    reference as OTF2's compressed integer (1 byte for 0, else 1 + significant bytes)."""
    v, size = n_regions - 1, 1
    while v > 0:
        size += 1
        v >>= 8
    return 2 * (9 + 1 + size)


def rows(d):
    regions, parent, region_of, proc_of, excl, incl = load(d)
    group = group_of_regions(regions, parent, region_of)
    per_visit = visit_bytes(len(regions))
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
        r["proc"][proc_of[l]] = r["proc"].get(proc_of[l], 0) + int(v["visits"]) * per_visit
    for (c, l), v in incl.items():  # inclusive time of the outermost calls of each region
        p, outer = parent[c], True
        while p >= 0 and outer:
            outer = region_of[p] != region_of[c]
            p = parent[p]
        if outer:
            reg[region_of[c]]["incl"] += v["time"]
    return regions, group, procs, proc_of, reg


def row_of(typ, name, r, total):
    """Expected numbers of one table row: type, max_buf, visits, time, time%, time/visit."""
    tpv = r["excl"] / r["visits"] * 1e6 if r["visits"] else 0.0
    pct = 100.0 * r["excl"] / total if total > 0 else 0.0
    return {"type": typ, "name": name, "max_buf": max(r["proc"].values(), default=0),
            "visits": r["visits"], "time": r["excl"], "pct": pct, "tpv": tpv}


def groups(d):
    regions, group, procs, proc_of, reg = rows(d)
    acc = {}
    for g, r in reg.items():
        for k in ("ALL", group[g]):
            a = acc.setdefault(k, {"visits": 0, "excl": 0.0, "proc": {p: 0 for p in procs}})
            a["visits"] += r["visits"]
            a["excl"] += r["excl"]
            for p, b in r["proc"].items():
                a["proc"][p] += b
    total = acc["ALL"]["excl"]
    out = [row_of(k, k, a, total) for k, a in acc.items()
           if k == "ALL" or a["visits"] > 0 or a["excl"] != 0]
    return out, acc, proc_of


def human(b):
    units = [" bytes", "kB", "MB", "GB", "TB", "PB", "EB"]
    e = 0
    while b > 4 * 1024 and e < 6:
        b //= 1024
        e += 1
    return "%d%s" % (b + 1, units[e])


def summary(d):
    _, acc, proc_of = groups(d)
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
        if f[:2] == ["flt", "type"]:
            on = True
        elif on and len(f) >= 7:
            out.append({"type": f[0], "max_buf": int(f[1].replace(",", "")),
                        "visits": int(f[2].replace(",", "")), "time": f[3], "pct": f[4],
                        "tpv": f[5], "name": " ".join(f[6:])})
    return out


def compare_rows(actual, want, key, what, n=None, must=()):
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
        if not ok:
            errors.append("%s: row %s: got %s %d %d %s %s %s, want %s %d %d %.2f %.1f %.2f" % (
                what, a["name"], a["type"], a["max_buf"], a["visits"], a["time"], a["pct"], a["tpv"],
                w["type"], w["max_buf"], w["visits"], w["time"], w["pct"], w["tpv"]))
    keys = [a[key] if key != "time" else float(a["time"]) for a in actual]
    if keys != sorted(keys, reverse=True):
        errors.append("%s: rows not sorted by %s: %s" % (what, key, keys))
    return errors


def check_summary(d, lines):
    want = summary(d)
    got = [l.split(":", 1)[1].strip() for l in lines if l.startswith("Estimated ")]
    return [] if got == want else ["summary: got %s, want %s" % (got, want)]


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
    mode, d, lines = argv[1], argv[2], sys.stdin.read().splitlines()
    if mode == "table":
        errors = check_summary(d, lines)
        errors += compare_rows([r for r in parse_table(lines) if r["name"] == r["type"]],
                               groups(d)[0], "max_buf", "groups")
    elif mode == "regions":
        key, n = argv[3], int(argv[4])
        want, must = regions_top(d, "excl" if key == "time" else key, n)
        errors = compare_rows([r for r in parse_table(lines) if r["name"] != r["type"]], want, key,
                              "regions", min(n, len(want)), must)
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
