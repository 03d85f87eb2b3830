#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""cube_rule.py: checks a .cubex report against CubeLib's reading of the metric tree, read
with nothing but Python's tarfile, xml and zlib (no code shared with the project's writer or
with cube_values.py), from the Cube4 format documentation (../shared/reference/cube4-format.md:
tar members, anchor.xml, sparse index, plain or zlib data rows) and CubeLib's sources:

  CubeLib's Cube::get_sev_adv (CubeCalculationRoutines.cpp) gives a metric's value in the
  metric tree as the metric's own stored value (its inclusive value: what Cube shows for a
  collapsed metric) and, for an expanded metric (CUBE_CALCULATE_EXCLUSIVE), that value minus
  the inclusive values of its children. A metric without index and data members reads as 0.

So for every metric M, call path and location: inclusive(M) = exclusive(M) + the sum of its
children's inclusive values, and a report means what it says only if exclusive(M) >= 0
everywhere (a pattern contains its sub-patterns). The checks (each failure one line):
  * every metric has its index and data members (unless --data-optional: Score-P omits them
    for a metric without values, which reads right for a metric without children);
  * exclusive(M) >= 0 for every metric, call path and location (doubles within 1e-9 relative,
    counts exactly; Scalasca's own files break this for counts: it counts an operation where
    it was issued (comms_send at MPI_Isend) and its Late Receiver where it waited
    (mpi_clr_count at the MPI_Wait after it));
  * --zero M,...: exclusive(M) = 0 everywhere (a metric defined as the sum of its children);
  * --positive M,...: inclusive(M) summed over everything > 0 (the program has it);
  * --regions: no region without a name or named "?", and every region named MPI_* has
    paradigm "mpi" and module "MPI" (as Score-P's MPI adapter writes them).
  * every tar member is where CubeLib 4.4's tar reader (TarReader::readHeaders and
    calculate_pos_of_next_header) looks for it: it steps from a member of S > 0 bytes to
    512 + (S // 512 + 1) * 512 bytes after the member's header, one block beyond POSIX tar's
    next header when S is a multiple of 512, and loses the member there (a metric read as 0);
  * --cubelib CUBE_DUMP: CubeLib itself (its cube_dump, where installed) gives every metric's
    inclusive and exclusive value along the metric tree, summed over the call tree and the
    threads, as this reading does (MIN/MAXDOUBLE metrics aside; counts exactly, doubles
    within 1e-4 relative + 1e-6 per row: cube_dump prints 6 significant digits).
Prints "N metrics, V values checked" and exits 0, or the failures and exits 1.
Usage: cube_rule.py FILE.cubex [--data-optional] [--zero M,..] [--positive M,..] [--regions]
                    [--cubelib CUBE_DUMP]
       cube_rule.py FILE.cubex --show M      M's inclusive and exclusive totals, one line
"""
import csv
import gzip
import io
import struct
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET
import zlib

FMT = {"DOUBLE": "d", "MINDOUBLE": "d", "MAXDOUBLE": "d", "UINT64": "Q", "INT64": "q"}


def read(path):
    with tarfile.open(path) as t:
        members = {m.name: t.extractfile(m).read() for m in t.getmembers() if m.isfile()}
    anchor = members["anchor.xml"]
    if anchor[:2] == b"\x1f\x8b":
        anchor = gzip.decompress(anchor)
    root = ET.fromstring(anchor)
    metrics = {}  # id -> (uniq, dtype, kind, parent id)

    def walk(node, parent):
        for m in node.findall("metric"):
            mid = int(m.get("id"))
            metrics[mid] = (m.findtext("uniq_name"), m.findtext("dtype"),
                            m.get("type", "EXCLUSIVE"), parent)
            walk(m, mid)

    walk(root.find("metrics"), None)
    # the call tree's two enumerations (format documentation): deep = depth-first pre-order
    # over the roots (EXCLUSIVE metrics); wide = per root: the root, then every visited node
    # lists all its children before any is descended into (INCLUSIVE metrics)
    deep, wide = [], []
    up = {}  # cnode id -> parent cnode id (None for a root)

    def walk_deep(c, parent=None):
        deep.append(int(c.get("id")))
        up[deep[-1]] = parent
        for k in c.findall("cnode"):
            walk_deep(k, deep[-1])

    def walk_wide(c):
        kids = c.findall("cnode")
        wide.extend(int(k.get("id")) for k in kids)
        for k in kids:
            walk_wide(k)

    for c in root.find("program").findall("cnode"):
        walk_deep(c)
        wide.append(int(c.get("id")))
        walk_wide(c)
    nloc = len(list(root.iter("location")))
    regions = [(r.findtext("name"), r.findtext("paradigm"), r.get("mod"))
               for r in root.iter("region")]
    values = {}  # metric id -> {(cnode id, location): value}
    has_data = set()
    for mid, (uniq, dtype, kind, parent) in metrics.items():
        idx, data = members.get("%d.index" % mid), members.get("%d.data" % mid)
        values[mid] = {}
        if idx is None or data is None:
            continue
        has_data.add(mid)
        if idx[:11] != b"CUBEX.INDEX":
            sys.exit("cube_rule.py: %d.index: no CUBEX.INDEX marker" % mid)
        end = "<" if struct.unpack("<i", idx[11:15])[0] == 1 else ">"
        order = wide if kind == "INCLUSIVE" else deep
        if idx[17] == 1:
            n = struct.unpack(end + "I", idx[18:22])[0]
            pos = struct.unpack(end + "%dI" % n, idx[22:22 + 4 * n])
        else:
            pos = range(len(order))
        fmt = end + "%d%s" % (nloc, FMT[dtype])
        rows = []
        if data[:11] == b"ZCUBEX.DATA":
            cnt = struct.unpack(end + "Q", data[11:19])[0]
            base = 19 + 24 * cnt
            for i in range(cnt):
                _, off, size = struct.unpack(end + "3Q", data[19 + 24 * i:43 + 24 * i])
                rows.append(zlib.decompress(data[base + off:base + off + size]) if size else None)
        elif data[:10] == b"CUBEX.DATA":
            rl = 8 * nloc
            rows = [data[10 + i * rl:10 + (i + 1) * rl] for i in range(len(pos))]
        else:
            sys.exit("cube_rule.py: %d.data: no data marker" % mid)
        if len(rows) != len(pos):
            sys.exit("cube_rule.py: metric %s: %d index entries, %d rows" % (uniq, len(pos),
                                                                              len(rows)))
        for p, row in zip(pos, rows):
            if row is None:
                continue
            for loc, v in enumerate(struct.unpack(fmt, row)):
                if v:
                    values[mid][(order[p], loc)] = v
    read.up = up
    return metrics, values, has_data, regions


def tar_walk(path):
    """The members with content (an empty one holds nothing a Cube reader needs) that
    CubeLib 4.4's tar reader does not find where POSIX tar (tarfile) does; the failures"""
    with open(path, "rb") as f:
        buf = f.read()
    theirs, pos = {}, 0
    while pos + 512 <= len(buf):
        size = int(buf[pos + 124:pos + 136].split(b"\0")[0].strip() or b"0", 8)
        name = buf[pos:pos + 100].split(b"\0")[0].decode("latin-1")
        if name:
            theirs[name] = pos + 512
        pos += 512 + ((size // 512 + 1) * 512 if size else 0)
    with tarfile.open(path) as t:
        return ["tar member %s (%d bytes) at %d: CubeLib's tar reader does not find it there"
                % (m.name, m.size, m.offset_data) for m in t.getmembers()
                if m.isfile() and m.size > 0 and theirs.get(m.name) != m.offset_data]


def cubelib(tool, path, metrics, values, exclusive):
    """CubeLib's totals (cube_dump: -x along the metric tree, -z incl -c roots -t aggr: over
    the call tree's roots and the threads) against this reading's; the failures"""
    bad = []
    for x in ("incl", "excl"):
        run = subprocess.run([tool, "-m", "all", "-x", x, "-z", "incl", "-c", "roots", "-t",
                              "aggr", "-s", "csv2", path], capture_output=True, text=True)
        if run.returncode != 0:
            return ["cube_dump -x %s failed: %s" % (x, run.stderr.strip()[:300])]
        rows = list(csv.reader(io.StringIO(run.stdout)))
        head = [h.strip() for h in rows[0]]
        for mid, (uniq, dtype, kind, parent) in metrics.items():
            if dtype in ("MINDOUBLE", "MAXDOUBLE"):
                continue  # their inclusive view is a maximum or minimum, not a sum
            if uniq not in head:
                bad.append("cube_dump -x %s: no column %s" % (x, uniq))
                continue
            col = head.index(uniq)
            theirs = sum(float(r[col]) for r in rows[1:] if r[col])
            vals = values[mid] if x == "incl" else exclusive(mid)
            # over the call tree: an INCLUSIVE metric's roots hold their subtrees already
            mine = sum(v for (c, _), v in vals.items()
                       if kind != "INCLUSIVE" or read.up[c] is None)
            if FMT[dtype] != "d" and mine < 0:
                mine += 2 ** 64  # CubeLib's unsigned arithmetic
            tol = 0 if FMT[dtype] != "d" else 1e-4 * abs(mine) + 1e-6 * len(rows)
            if abs(theirs - mine) > tol:
                bad.append("%s: CubeLib gives %s %r, this reading %r" % (uniq, x, theirs, mine))
    return bad


def main(argv):
    path, opts = argv[1], argv[2:]
    metrics, values, has_data, regions = read(path)
    by_name = {u: mid for mid, (u, _, _, _) in metrics.items()}
    children = {mid: [k for k, m in metrics.items() if m[3] == mid] for mid in metrics}

    def names(flag):
        if flag not in opts:
            return []
        return opts[opts.index(flag) + 1].split(",")

    def exclusive(mid):
        """CubeLib's exclusive value along the metric tree, per (cnode, location)"""
        out = dict(values[mid])
        for k in children[mid]:
            for key, v in values[k].items():
                out[key] = out.get(key, 0) - v
        return out

    if "--show" in opts:
        mid = by_name[names("--show")[0]]
        print("%.9g %.9g" % (sum(values[mid].values()), sum(exclusive(mid).values())))
        return 0
    bad = tar_walk(path)
    checked = 0
    for mid, (uniq, dtype, kind, parent) in sorted(metrics.items()):
        if mid not in has_data and "--data-optional" not in opts:
            bad.append("%s: no index and data members (CubeLib reads it as 0)" % uniq)
        is_int = FMT[dtype] != "d"
        incls = values[mid]
        for key, x in exclusive(mid).items():
            checked += 1
            incl = incls.get(key, 0)
            tol = 0 if is_int else 1e-9 * max(abs(incl), 1e-3)
            if x < -tol:
                bad.append("%s: exclusive %r < 0 at cnode %d location %d (inclusive %r)"
                           % (uniq, x, key[0], key[1], incl))
            if uniq in names("--zero") and abs(x) > tol:
                bad.append("%s: exclusive %r, not 0, at cnode %d location %d"
                           % (uniq, x, key[0], key[1]))
    for uniq in names("--zero") + names("--positive"):
        if uniq not in by_name:
            bad.append("%s: no such metric" % uniq)
    for uniq in names("--positive"):
        if uniq in by_name and not sum(values[by_name[uniq]].values()) > 0:
            bad.append("%s: inclusive total %r, not > 0" % (uniq,
                                                           sum(values[by_name[uniq]].values())))
    if "--regions" in opts:
        for name, paradigm, mod in regions:
            if not name or name == "?":
                bad.append("a region without a name (%r)" % name)
            elif name.startswith("MPI_") and (paradigm != "mpi" or mod != "MPI"):
                bad.append("region %s: paradigm %r, module %r (not mpi, MPI)"
                           % (name, paradigm, mod))
    if "--cubelib" in opts:
        bad += cubelib(names("--cubelib")[0], path, metrics, values, exclusive)
    for line in bad[:40]:
        print(line)
    if len(bad) > 40:
        print("... %d failures in all" % len(bad))
    print("%d metrics, %d values checked, %d failures" % (len(metrics), checked, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv))
