#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# sampling_paths.py [--enter] TRACE: reads an OTF2 trace with python3-otf2 (mapping tables
# applied by OTF2's reader) and prints "path<TAB>count" per calling context of
# CallingContextSample events (with --enter: of CallingContextEnter events), summed over
# locations; the path is the region names from the root, "/"-separated. With
# --enter-by-location: "location<TAB>path<TAB>unwind distance<TAB>count" of the
# CallingContextEnter events, per location (its name).
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
    args = sys.argv[1:]
    kind = otf2.events.CallingContextSample
    by_location = args and args[0] == "--enter-by-location"
    if by_location:
        kind = otf2.events.CallingContextEnter
        args = args[1:]
    elif args and args[0] == "--enter":
        kind = otf2.events.CallingContextEnter
        args = args[1:]
    with otf2.reader.open(args[0]) as trace:
        for _location, event in trace.events:
            if isinstance(event, kind) and by_location:
                key = (_location.name, path(event.calling_context), event.unwind_distance)
                counts["\t".join(str(k) for k in key)] += 1
            elif isinstance(event, kind):
                counts[path(event.calling_context)] += 1
    for p, n in sorted(counts.items()):
        print(f"{p}\t{n}")


main()
