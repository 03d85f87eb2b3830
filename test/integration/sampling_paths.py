#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# sampling_paths.py [--enter] TRACE: reads an OTF2 trace with python3-otf2 (mapping tables
# applied by OTF2's reader) and prints "path<TAB>count" per calling context of
# CallingContextSample events (with --enter: of CallingContextEnter events), summed over
# locations; the path is the region names from the root, "/"-separated. With
# --enter-by-location: "location<TAB>path<TAB>unwind distance<TAB>count" of the
# CallingContextEnter events, per location (its name). With --tail PREFIX: per location that
# has CallingContextSample events whose path starts with PREFIX, "index<TAB>seconds" (index:
# the location's place among the trace's locations, by id) from the last of them to the location's next sample (or its last event when none
# follows): the wall-clock time in which the CPU time after that sample can have run before
# a sample outside PREFIX took it (test_sampling.sh's lower bound of a function's sampled
# time).
import collections
import sys

import otf2


def path(cc):
    names = []
    while cc is not None:
        names.append(cc.region.name)
        cc = cc.parent
    return "/".join(reversed(names))


def tail(prefix, trace_path):
    last_in = {}  # location -> time of its last sample below prefix
    after = {}  # location -> time of its first sample after that one
    last_event = {}
    with otf2.reader.open(trace_path) as trace:
        res = trace.definitions.clock_properties.timer_resolution
        for loc, event in trace.events:
            last_event[loc] = event.time
            if not isinstance(event, otf2.events.CallingContextSample):
                continue
            p = path(event.calling_context)
            if p == prefix or p.startswith(prefix + "/"):
                last_in[loc] = event.time
                after.pop(loc, None)
            elif loc in last_in and loc not in after:
                after[loc] = event.time
        index = {loc: i for i, loc in enumerate(trace.definitions.locations)}
    for loc in sorted(last_in, key=lambda l: index[l]):
        end = after.get(loc, last_event[loc])
        print(f"{index[loc]}\t{(end - last_in[loc]) / res:.6f}")


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
    if args and args[0] == "--tail":
        tail(args[1], args[2])
        return
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
