#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""taskgraph_dot.py: reads a taskgraph.dot (docs/openmp.md "Task graph") with its own small
parser of DOT's node and edge statements (no code shared with the writer) and prints, for the
tests, one line per task node and per edge:
  node ID<TAB>LABEL<TAB>DURATION<TAB>THREAD<TAB>RANK<TAB>RED   (RED: 1 when color=red)
  edge FROM<TAB>TO<TAB>KIND<TAB>RED                            (KIND: dep, create, sync)
  join ID                                                      (a point-shaped join node)
  merged                                                       (the file says it merged)
Exit status 1 with a message on a line it cannot read."""
import re
import sys

ID = r'"((?:[^"\\]|\\.)*)"'
ATTR = re.compile(r'(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^\s\]]+))')


def attrs(text):
    return {m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
            for m in ATTR.finditer(text)}


def main(path):
    out = []
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or not any(l.startswith("digraph") for l in lines):
        sys.exit("%s: no digraph" % path)
    for n, line in enumerate(lines, 1):
        s = line.strip()
        if s.startswith("//"):
            if "merged:" in s:
                out.append("merged")
            continue
        if s.startswith("digraph") or s == "}" or not s:
            continue
        m = re.fullmatch(ID + r'\s*->\s*' + ID + r'\s*\[(.*)\];', s)
        if m:
            a = attrs(m.group(3))
            kind = a.get("kind", "dep")
            out.append("edge\t%s\t%s\t%s\t%d" % (m.group(1), m.group(2), kind,
                                                 a.get("color") == "red"))
            continue
        m = re.fullmatch(ID + r'\s*\[(.*)\];', s)
        if m:
            a = attrs(m.group(2))
            if a.get("shape") == "point":
                out.append("join\t%s" % m.group(1))
                continue
            for k in ("label", "duration", "thread", "rank"):
                if k not in a:
                    sys.exit("%s:%d: node without %s" % (path, n, k))
            label = a["label"].replace('\\"', '"').replace("\\\\", "\\")
            out.append("node\t%s\t%s\t%s\t%s\t%s\t%d" % (m.group(1), label, a["duration"],
                                                         a["thread"], a["rank"],
                                                         a.get("color") == "red"))
            continue
        sys.exit("%s:%d: cannot read: %s" % (path, n, line))
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
