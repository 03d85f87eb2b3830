#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""cube_values.py: reads a .cubex file without the project's Cube library (Python's tarfile,
xml and zlib only, following ../shared/reference/cube4-format.md) and answers queries.

  cube_values.py FILE attr KEY          a global attribute
  cube_values.py FILE pop               POP load balance and communication efficiency computed
                                        from the time tree (computation: "execution" without
                                        its sub-metrics)
  cube_values.py FILE metrics             uniq_name, display name, parent uniq_name per metric
  cube_values.py FILE same OTHER TOLERANCE
      every (metric, call path, rank, thread) value of FILE equals OTHER's within TOLERANCE x
      (1 + |value|) (counts exactly); prints the differences and exits 1 if there are any
  cube_values.py FILE value METRIC PATH LOC [LOC...]
      METRIC's value inclusive in the metric tree (what Cube shows for the collapsed metric),
      exclusive in the call tree, summed over the call paths that end with PATH (region names
      joined by '/'; '*' = every call path; PATH/** = the call paths at or below those) and
      over the given locations: R (every thread of rank R), R:T (the location whose rank
      attribute is T in the location group of rank R), '*' (all); =METRIC: exclusive in the
      metric tree (the expanded metric: without its sub-metrics)

Values along the metric tree are read by CubeLib's rule (Cube::get_sev_adv in CubeLib's
CubeCalculationRoutines.cpp): the stored value of a metric is its inclusive value, the
sub-metrics' values included; its exclusive value is the stored value minus the stored
values of its children. A metric without index and data members reads as 0.
  cube_values.py FILE locations         one line per location: R:T, its name
  cube_values.py FILE visitors PATH     the locations (R:T) with visits on a call path PATH
                                        selects, one a line
  cube_values.py batch QUERIES [OUTDIR]
      one process answers many queries (the tests ask hundreds; a Python start and a read of
      the file each took most of test_analysis.sh's time): each line of the file QUERIES ('-':
      standard input, read as the lines come, so that a test can talk to it through a FIFO,
      test/analysis/lib_cv.sh) is the arguments of one of the forms above joined by tabs
      ("FILE<TAB>value<TAB>METRIC<TAB>PATH<TAB>LOC"). The answer: the line "NOUT NERR STATUS"
      followed by the NOUT lines the form prints and the NERR lines of its error message
      (STATUS: its exit status); with OUTDIR, the line "K STATUS" of the K-th query, whose
      output and error message are in OUTDIR/K.out and OUTDIR/K.err. Each file is read once
      (again when its size, time or inode changed).
"""
import gzip
import io
import os
import select
import struct
import sys
import tarfile
import xml.etree.ElementTree as ET
import zlib


def load(path):
    with tarfile.open(path) as t:
        files = {m.name: t.extractfile(m).read() for m in t.getmembers() if m.isfile()}
    raw = files["anchor.xml"]
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    root = ET.fromstring(raw)
    metrics = []  # (id, uniq, disp, dtype, kind, parent id)

    def walk_metrics(node, parent):
        for m in node.findall("metric"):
            mid = int(m.get("id"))
            metrics.append((mid, m.findtext("uniq_name"), m.findtext("disp_name"),
                            m.findtext("dtype"), m.get("type", "EXCLUSIVE"), parent))
            walk_metrics(m, mid)

    walk_metrics(root.find("metrics"), None)
    regions = {int(r.get("id")): r.findtext("name") for r in root.iter("region")}
    deep = []  # cnodes in depth-first pre-order: (cnode id, path of region names)

    def walk_cnodes(node, path):
        for c in node.findall("cnode"):
            p = path + (regions[int(c.get("calleeId"))],)
            deep.append((int(c.get("id")), p))
            walk_cnodes(c, p)

    walk_cnodes(root.find("program"), ())
    ranks = {}  # location id -> rank of its location group
    load.thread = {}  # location id -> its rank attribute (thread number in its group)
    load.name = {}  # location id -> its name
    load.master = set()  # the first location of each group (the master thread)
    for g in root.iter("locationgroup"):
        for i, loc in enumerate(g.findall("location")):
            lid = int(loc.get("Id"))
            ranks[lid] = int(g.findtext("rank"))
            load.thread[lid] = int(loc.findtext("rank"))
            load.name[lid] = loc.findtext("name")
            if i == 0:
                load.master.add(lid)
    if sorted(ranks) != list(range(len(ranks))):
        sys.exit("cube_values.py: location ids are not 0..L-1")
    nloc = len(ranks)
    values = {}  # (metric id, position in deep order, location id) -> value
    for mid, uniq, disp, dtype, kind, parent in metrics:
        if kind != "EXCLUSIVE":
            sys.exit("cube_values.py: only EXCLUSIVE metrics are expected in scout.cubex (%s is %s)"
                     % (uniq, kind))
        idx, data = files.get("%d.index" % mid), files.get("%d.data" % mid)
        if idx is None:
            continue
        assert idx[:11] == b"CUBEX.INDEX"
        end = "<" if struct.unpack("<i", idx[11:15])[0] == 1 else ">"
        kind_byte = idx[17]
        if kind_byte == 1:
            n = struct.unpack(end + "I", idx[18:22])[0]
            pos = struct.unpack(end + "%dI" % n, idx[22:22 + 4 * n])
        else:
            pos = list(range(len(deep)))
        fmt = {"DOUBLE": "d", "UINT64": "Q", "INT64": "q"}[dtype]
        rows = []
        if data[:11] == b"ZCUBEX.DATA":
            cnt = struct.unpack(end + "Q", data[11:19])[0]
            hdr = 19
            base = hdr + 24 * cnt
            for i in range(cnt):
                _, coff, csize = struct.unpack(end + "3Q", data[hdr + 24 * i:hdr + 24 * i + 24])
                blob = zlib.decompress(data[base + coff:base + coff + csize]) if csize else b""
                rows.append(blob)
        else:
            assert data[:10] == b"CUBEX.DATA"
            rl = 8 * nloc
            rows = [data[10 + i * rl:10 + (i + 1) * rl] for i in range(len(pos))]
        for p, row in zip(pos, rows):
            if not row:
                continue
            for loc, v in enumerate(struct.unpack(end + "%d%s" % (nloc, fmt), row)):
                if v:
                    values[(mid, p, loc)] = v
    load.attrs = {a.get("key"): a.get("value") for a in root.findall("attr")}
    return metrics, deep, ranks, values


def keyed(metrics, deep, ranks, values, thread):
    uniq = {m[0]: m[1] for m in metrics}
    out = {}
    for (mid, pos, loc), v in values.items():
        k = (uniq[mid], deep[pos][1], ranks[loc], thread[loc])
        out[k] = out.get(k, 0) + v
    return out


def same(metrics, deep, ranks, values, other, tol):
    a = keyed(metrics, deep, ranks, values, mine_thread)
    b = keyed(*other, load.thread)
    ma = {m[1]: m[3] for m in metrics}
    if sorted(ma.items()) != sorted({m[1]: m[3] for m in other[0]}.items()):
        print("different metric trees")
        sys.exit(1)
    bad = 0
    for k in sorted(set(a) | set(b)):
        x, y = a.get(k, 0), b.get(k, 0)
        t = 0 if ma[k[0]] != "DOUBLE" else tol * (1 + abs(x))
        if abs(x - y) > t:
            print("%s %s rank %d thread %d: %r vs %r" % (k[0], "/".join(k[1]), k[2], k[3], x, y))
            bad += 1
    print("%d values compared, %d differ" % (len(set(a) | set(b)), bad))
    sys.exit(1 if bad else 0)


def select_paths(deep, path):
    """positions in deep order of the call paths PATH selects (see the usage)"""
    if path == "*":
        return list(range(len(deep)))
    if path.endswith("/**"):  # the call paths at or below a node whose path ends with PRE
        pre = tuple(path[:-3].split("/"))
        return [i for i, (_, p) in enumerate(deep)
                if any(p[j:j + len(pre)] == pre for j in range(len(p) - len(pre) + 1))]
    suffix = tuple(path.split("/"))
    return [i for i, (_, p) in enumerate(deep) if p[-len(suffix):] == suffix]


_cache = {}  # path -> ((inode, size, mtime), load's result, load's attributes)


def cached(path):
    """load(path), once per version of the file; sets load's attributes to that file's"""
    st = os.stat(path)
    key = (st.st_ino, st.st_size, st.st_mtime_ns)
    hit = _cache.get(path)
    if hit is None or hit[0] != key:
        data = load(path)
        hit = (key, data, (load.thread, load.name, load.master, load.attrs))
        _cache[path] = hit
    load.thread, load.name, load.master, load.attrs = hit[2]
    return hit[1]


def main(argv):
    metrics, deep, ranks, values = cached(argv[1])
    uniq_of = {m[0]: m[1] for m in metrics}
    if argv[2] == "metrics":
        for mid, uniq, disp, dtype, kind, parent in metrics:
            print("%s\t%s\t%s" % (uniq, disp, uniq_of[parent] if parent is not None else "-"))
        return
    if argv[2] == "attr":  # FILE attr KEY: a global attribute of the report
        print(load.attrs[argv[3]])
        return
    if argv[2] == "pop":  # FILE pop: POP load balance and communication efficiency
        comp, time = {}, {}   # from the values: time outside MPI per rank, time per rank
        uniq = {m[0]: m[1] for m in metrics}
        execution = {m[0] for m in metrics if m[1] == "execution"}
        # mpi, omp_time, pthread_time (not comp, which is the computation itself)
        below = {m[0] for m in metrics if m[5] in execution and m[1] != "comp"}
        for (mid, pos, loc), v in values.items():
            r = ranks[loc]
            if loc not in load.master:
                continue  # the report's POP values are the master threads' (docs/analysis.md)
            if mid in execution:  # computation: execution exclusive in the metric tree
                comp[r] = comp.get(r, 0) + v
            if mid in below:
                comp[r] = comp.get(r, 0) - v
            if uniq[mid] == "time":  # inclusive: the whole time tree
                time[r] = time.get(r, 0) + v
        avg = sum(comp.values()) / len(ranks)
        print("%.4f %.4f" % (avg / max(comp.values()), max(comp.values()) / max(time.values())))
        return
    if argv[2] == "locations":
        for lid in sorted(ranks):
            print("%d:%d\t%s" % (ranks[lid], load.thread[lid], load.name[lid]))
        return
    if argv[2] == "same":
        global mine_thread
        mine_thread = dict(load.thread)
        return same(metrics, deep, ranks, values, cached(argv[3]), float(argv[4]))
    if argv[2] == "visitors":
        vis = [m[0] for m in metrics if m[1] == "visits"]
        pos = set(select_paths(deep, argv[3]))
        found = sorted({l for (m, p, l), v in values.items() if m in vis and p in pos and v})
        for lid in found:
            print("%d:%d" % (ranks[lid], load.thread[lid]))
        return
    metric, path, want = argv[3], argv[4], argv[5:]
    own = metric.startswith("=")  # =METRIC: exclusive in the metric tree
    metric = metric.lstrip("=")
    ids = [m[0] for m in metrics if m[1] == metric]
    if not ids:
        sys.exit("cube_values.py: no metric " + metric)
    # CubeLib: inclusive = the stored value; exclusive = stored minus the children's stored
    plus = set(ids)
    minus = {m[0] for m in metrics if m[5] in plus} if own else set()
    pos = select_paths(deep, path)
    locs = [l for l, r in ranks.items() if "*" in want or str(r) in want or
            "%d:%d" % (r, load.thread[l]) in want]
    if not locs:
        sys.exit("cube_values.py: no location %s" % " ".join(want))
    total = sum(values.get((m, p, l), 0) for m in plus for p in pos for l in locs) - \
        sum(values.get((m, p, l), 0) for m in minus for p in pos for l in locs)
    print("%.9g" % total)




def answer(argv):
    """runs one query (the arguments of one call): (its output, its error message, its exit
    status) as the one-shot form would give them"""
    out, err, status = io.StringIO(), io.StringIO(), 0
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        main([sys.argv[0]] + argv)
    except SystemExit as e:
        if isinstance(e.code, int):
            status = e.code
        elif e.code is not None:  # sys.exit(message): the message on stderr, status 1
            err.write("%s\n" % e.code)
            status = 1
    except Exception as e:  # a bad query or file: said, and the next query is answered
        err.write("cube_values.py %s: %s: %s\n" % (" ".join(argv), type(e).__name__, e))
        status = 1
    finally:
        sys.stdout, sys.stderr = saved
    return out.getvalue(), err.getvalue(), status


def batch(queries, outdir):
    """answers the queries of the file QUERIES ('-': standard input, read as the lines come:
    a FIFO) one after the other; in OUTDIR (when given) the k-th query's output and error
    message go to k.out and k.err and the answer line is "k STATUS", else the answer is
    "NOUT NERR STATUS" and those lines. Stops at the end of QUERIES, or when the process that
    started this one is gone (a writer of the FIFO left open by one of its children must not
    keep it alive)."""
    count = [0]

    def reply(line):
        out, err, status = answer(line.split("\t"))
        count[0] += 1
        if outdir:
            for ext, text in (("out", out), ("err", err)):
                with open(os.path.join(outdir, "%d.%s" % (count[0], ext)), "w") as f:
                    f.write(text)
            sys.stdout.write("%d %d\n" % (count[0], status))
        else:
            o, e = out.splitlines(), err.splitlines()
            sys.stdout.write("%d %d %d\n" % (len(o), len(e), status))
            sys.stdout.write("".join(x + "\n" for x in o + e))
        sys.stdout.flush()

    if queries != "-":
        with open(queries) as f:
            for line in f:
                reply(line.rstrip("\n"))
        return
    parent, buf = os.getppid(), b""
    while True:
        ready, _, _ = select.select([0], [], [], 5)
        if not ready:
            if os.getppid() != parent:
                return
            continue
        chunk = os.read(0, 65536)
        if not chunk:
            return
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            reply(line.decode())


if len(sys.argv) in (3, 4) and sys.argv[1] == "batch":
    batch(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None)
else:
    main(sys.argv)
