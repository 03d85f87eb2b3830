#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# scout_cmp.py: compares two wait-state reports (Scalasca's scout.cubex and ours) metric by
# metric, per call path and location, as CubeLib's cube_dump reads them (no code shared with
# our writer or reader); used by the optional Scalasca parts of the analysis tests and by hand.
#   scout_cmp.py CUBE_DUMP A.cubex B.cubex [-m m1,m2,...] [-a ABS] [-r REL] [-q] [-t|-p]
# Call paths are keyed by their region names from the root ("main/foo/MPI_Recv"), locations
# by "rank:k" (k-th thread of the rank in the system tree), so that the two files' ids need
# not agree. Values are exclusive along the call tree and inclusive along the metric tree
# (Scalasca's raw report is a flat metric list; ours holds the tree). Without -m: every
# metric of A. Prints one line per metric ("equal", "DIFF", "ABSENT in ...") and, for a
# DIFF, each differing call path and location (-q: not); -t compares each metric's total over
# call paths and locations only, -p each call path's total over the locations (where a value
# may lie on another thread of the same call path: a barrier's exit on the critical path);
# exit status 1 if any metric listed with -m differs (without
# -m: 0, a report). Tolerance: |a - b| <= ABS + REL x max(|a|, |b|) (default 1e-5, 1e-6).
import re
import subprocess
import sys


def structure(cd, f):
    out = subprocess.run([cd, "-w", f], capture_output=True, text=True, check=True).stdout
    paths, locs, metrics = {}, {}, []
    sec, stack, rank, k = None, [], None, 0
    for line in out.splitlines():
        if "METRIC DIMENSION" in line:
            sec = "m"
            continue
        if "CALL TREE" in line:
            sec = "c"
            continue
        if "SYSTEM DIMENSION" in line:
            sec = "s"
            continue
        if "=====" in line or "-----" in line:
            sec = None
            continue
        if sec == "m":
            mm = re.search(r"\( id=\d+, ([A-Za-z_0-9]+),", line)
            if mm:
                metrics.append(mm.group(1))
        elif sec == "c":
            mm = re.match(r"^([ |]*\|-)?(\S.*?)\s+\[ \( id=(\d+),", line)
            if not mm:
                continue
            # the column of "|-" grows with the depth (a last child's subtree is indented
            # by fewer characters than its siblings', so the column is compared, not counted)
            col = len(mm.group(1)) if mm.group(1) else 0
            while stack and stack[-1][0] >= col:
                stack.pop()
            stack.append((col, mm.group(2)))
            paths[mm.group(3)] = "/".join(n for _, n in stack)
        elif sec == "s":
            mp = re.search(r"\(id=\d+, type=process, rank=(\d+)", line)
            if mp:
                rank, k = mp.group(1), 0
                continue
            mt = re.search(r"\(id=(\d+), type=thread", line)
            if mt:
                locs[mt.group(1)] = "%s:%d" % (rank, k)
                k += 1
    return paths, locs, metrics


def values(cd, f, st, m):
    p = subprocess.run([cd, "-m", m, "-x", "incl", "-z", "excl", "-c", "all", "-s", "csv2", f],
                       capture_output=True, text=True)
    paths, locs = st[0], st[1]
    if m not in st[2]:
        return None
    v = {}
    for line in p.stdout.splitlines()[1:]:
        parts = line.split(",")
        if len(parts) < 3:
            continue
        try:
            x = float(parts[2])
        except ValueError:
            continue
        key = (paths.get(parts[0], "?" + parts[0]), locs.get(parts[1], "?" + parts[1]))
        v[key] = v.get(key, 0.0) + x
    return v


def by_path(v):
    out = {}
    for (path, _), x in v.items():
        out[(path, "*")] = out.get((path, "*"), 0.0) + x
    return out


def main():
    args = sys.argv[1:]
    ms, tol_a, tol_r, quiet, totals, paths = None, 1e-5, 1e-6, False, False, False
    pos = []
    while args:
        a = args.pop(0)
        if a == "-m":
            ms = args.pop(0).split(",")
        elif a == "-a":
            tol_a = float(args.pop(0))
        elif a == "-r":
            tol_r = float(args.pop(0))
        elif a == "-q":
            quiet = True
        elif a == "-t":
            totals = True
        elif a == "-p":
            paths = True
        else:
            pos.append(a)
    if len(pos) != 3:
        sys.exit("usage: scout_cmp.py CUBE_DUMP A.cubex B.cubex [-m m1,m2] [-a ABS] [-r REL] [-q] [-t|-p]")
    cd, fa, fb = pos
    sa, sb = structure(cd, fa), structure(cd, fb)
    strict = ms is not None
    if ms is None:
        ms = sa[2]
    bad = 0
    for m in ms:
        va, vb = values(cd, fa, sa, m), values(cd, fb, sb, m)
        if va is None or vb is None:
            print("%-36s ABSENT in %s" % (m, "A" if va is None else "B"))
            bad += 1
            continue
        ta, tb = sum(va.values()), sum(vb.values())
        diffs = []
        if totals:
            va, vb = {("(total)", "*"): ta}, {("(total)", "*"): tb}
        elif paths:
            va, vb = by_path(va), by_path(vb)
        for key in sorted(set(va) | set(vb)):
            x, y = va.get(key, 0.0), vb.get(key, 0.0)
            if abs(x - y) > tol_a + tol_r * max(abs(x), abs(y)):
                diffs.append((key, x, y))
        if diffs:
            bad += 1
        print("%-36s %14.6f %14.6f  %s" % (m, ta, tb, "DIFF %.6g" % (tb - ta) if diffs else "equal"))
        if not quiet:
            for (path, loc), x, y in diffs:
                print("    %-5s %-60s %12.6f %12.6f  %+.6f" % (loc, path, x, y, y - x))
    sys.exit(1 if strict and bad else 0)


main()
