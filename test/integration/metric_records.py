#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# metric_records.py TRACE: reads an OTF2 trace with python3-otf2 (OTF2's own Python reader,
# independent of the runtime's writer) and checks the Metric records around Enter and Leave.
# Prints per location, in location order:
#   "LOCATION events=E records=R classes=C counter=K" (LOCATION: its name, "_" for blanks)
# E: Enter and Leave events; R: Metric records at the time of an Enter or Leave (the values
# read there); C: the distinct metric classes of those records as "OCCURRENCE:M1+M2+..."
# (members in their order; a MetricInstance's class prefixed "INSTANCE@SCOPE=S/R:", see
# below), ";"-separated; K: 1 when the values of the member named
# "events" (test/plugins/synth.c synth_sync: the thread's n-th read is n, the first at the
# location's start) are 2, 3, ... in the location's record order, as the plugin's design
# says, 0 otherwise, "-" without such a member. A trailing "decreasing=N" line counts values
# of accumulated metrics lower than the same location's previous value of that metric.
import collections
import sys

import otf2


def main(path):
    events = collections.Counter()
    records = collections.Counter()
    classes = collections.defaultdict(set)
    counter = {}
    nth = collections.Counter()
    last = {}
    decreasing = 0
    pending = {}  # location -> [(time, metric event)] not yet followed by Enter/Leave
    with otf2.reader.open(path) as trace:
        for location, event in trace.events:
            loc = location
            if isinstance(event, otf2.events.Metric):
                pending.setdefault(loc, []).append(event)
                continue
            if not isinstance(event, (otf2.events.Enter, otf2.events.Leave)):
                continue
            events[loc] += 1
            for m in pending.pop(loc, []):
                if m.time != event.time:
                    continue
                records[loc] += 1
                cls = m.metric
                kind = ""
                if isinstance(cls, otf2.definitions.MetricInstance):
                    # Score-P's scoped sampling set: "INSTANCE@SCOPE_TYPE=S/R:" first, S
                    # "own" when the scope is the recording location's group, R "self"
                    # when the instance's recorder is the recording location
                    kind = "INSTANCE@%s=%s/%s:" % (
                        str(cls.metric_scope).split(".")[-1],
                        "own" if cls.scope == location.group else "other",
                        "self" if cls.recorder == location else "other")
                    cls = cls.metric_class
                members = cls.members
                classes[loc].add("%s%s:%s" % (kind, str(cls.occurrence).split(".")[-1],
                                              "+".join(x.name for x in members)))
                for member, value in zip(members, m.values):
                    key = (loc, member.name)
                    if member.name == "events":
                        nth[loc] += 1
                        ok = value == nth[loc] + 1
                        counter[loc] = counter.get(loc, True) and ok
                    if "ACCUMULATED" in str(member.metric_mode):
                        if key in last and value < last[key]:
                            decreasing += 1
                        last[key] = value
        locations = list(trace.definitions.locations)
    for loc in locations:
        k = "-" if loc not in counter else "1" if counter[loc] else "0"
        print("%s events=%d records=%d classes=%s counter=%s"
              % (loc.name.replace(" ", "_"), events[loc], records[loc],
                 ";".join(sorted(classes[loc])) or "-", k))
    print("decreasing=%d" % decreasing)


if __name__ == "__main__":
    main(sys.argv[1])
