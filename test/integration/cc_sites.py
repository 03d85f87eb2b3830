#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# cc_sites.py TRACE: reads an OTF2 trace with python3-otf2 (mapping tables applied) and
# prints one line per calling context that CallingContextEnter events use (or lie below), for
# test_unwind_sites.sh: "path<TAB>file:line<TAB>object<TAB>offset<TAB>count", the path the
# region names from the root ("/"-separated), file:line the context's source code location
# ("-" when it has none), object and offset its EXECUTABLE/SHARED OBJECT and INSTRUCTION
# OFFSET properties ("-" when absent; an INSTRUCTION ADDRESS property prints as
# "address" and the address), count the events at it or below it (a frame's context: the
# instrumented calls made through it) summed over the locations.
import collections
import sys

import otf2


def path(cc):
    names = []
    while cc is not None:
        names.append(cc.region.name)
        cc = cc.parent
    return "/".join(reversed(names))


def main():
    counts = collections.Counter()
    with otf2.reader.open(sys.argv[1]) as trace:
        props = collections.defaultdict(dict)
        for p in trace.definitions.calling_context_properties:
            props[p.calling_context][p.name] = p.value
        for _location, event in trace.events:
            if isinstance(event, otf2.events.CallingContextEnter):
                cc = event.calling_context
                while cc is not None:
                    counts[cc] += 1
                    cc = cc.parent
        rows = []
        for cc, n in counts.items():
            scl = cc.source_code_location
            where = f"{scl.file}:{scl.line_number}" if scl is not None else "-"
            pr = props.get(cc, {})
            obj, off = pr.get("EXECUTABLE/SHARED OBJECT", "-"), pr.get("INSTRUCTION OFFSET")
            if off is None and "INSTRUCTION ADDRESS" in pr:
                obj, off = "address", pr["INSTRUCTION ADDRESS"]
            off = "-" if off is None else hex(off)
            rows.append(f"{path(cc)}\t{where}\t{obj}\t{off}\t{n}")
    for r in sorted(rows):
        print(r)


main()
