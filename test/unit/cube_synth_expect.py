#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""cube_synth_expect.py: checks scorep-cube-dump's output of a scorep-cube-synth profile
against values derived here from the generator's documented formulas (not from its code):
  cube_synth_expect.py SHAPE CNODES LOCATIONS METRICS EXCL_DUMP INCL_DUMP
The call tree of binary, linear and flat is built here and numbered depth-first; every
(call path, location) must appear once with exact integers and times within 1e-9."""
import sys


def tree(shape, n):
    if shape == "binary":
        gen = [-1] + [(i - 1) // 2 for i in range(1, n)]
    elif shape == "linear":
        gen = [-1] + list(range(n - 1))
    elif shape == "flat":
        gen = [-1] + [0] * (n - 1)
    else:
        sys.exit("shape %s: no independent model" % shape)
    kids = [[] for _ in range(n)]
    for i in range(1, n):
        kids[gen[i]].append(i)
    order, stack = [], [0]
    while stack:
        v = stack.pop()
        order.append(v)
        stack.extend(reversed(kids[v]))
    new = {v: k for k, v in enumerate(order)}
    return [-1 if gen[v] < 0 else new[gen[v]] for v in order]


def main():
    shape, C, L, M = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    parent = tree(shape, C)
    names = ["main"] + ["region_%d" % c for c in range(1, C)]
    path = []
    for c in range(C):
        path.append(names[c] if parent[c] < 0 else path[parent[c]] + "/" + names[c])
    metrics = ["time", "visits"] + ["metric_%d" % k for k in range(2, M)]

    def excl(k, c, l):
        if k == 0:
            return ((31 * c + 17 * l) % 97 + 1) / 1000.0
        if k == 1:
            return (c + l) % 5 + 1
        return (k * c + l) % 1000

    kids = [[] for _ in range(C)]
    for c in range(1, C):
        kids[parent[c]].append(c)
    failures = 0
    for dump, inclusive in ((sys.argv[5], False), (sys.argv[6], True)):
        seen = set()
        for line in open(dump):
            f = line.rstrip("\n").split("\t")
            c, l = int(f[0]), int(f[2])
            if f[1] != path[c]:
                failures += 1
                print("%s: cnode %d path %s, expected %s" % (dump, c, f[1], path[c]))
            seen.add((c, l))
            got = dict(kv.split("=", 1) for kv in f[3:])
            for k, name in enumerate(metrics[:M]):
                if inclusive:
                    stack, want = [c], 0
                    while stack:
                        v = stack.pop()
                        want += excl(k, v, l)
                        stack.extend(kids[v])
                else:
                    want = excl(k, c, l)
                g = float(got[name])
                if abs(g - want) > 1e-9 * max(1.0, abs(want)):
                    failures += 1
                    if failures < 10:
                        print("%s: (%d,%d) %s = %s, expected %r" % (dump, c, l, name, got[name], want))
        if len(seen) != C * L:
            failures += 1
            print("%s: %d (cnode, location) pairs, expected %d" % (dump, len(seen), C * L))
    print("cube_synth_expect: %s %dx%d: %d failures" % (shape, C, L, failures))
    return 1 if failures else 0


sys.exit(main())
