#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# metric_instances.py TRACE [NAME...]: reads an OTF2 trace with python3-otf2 (OTF2's own
# reader, independent of the runtime's writer) and prints, sorted, what Score-P's scoped
# sampling sets look like in it:
#   "INSTANCE M OCCURRENCE KIND recorder=G/L scope=TYPE:S" per MetricInstance: M its class's
#   members ("+"-joined), G/L the recorder location's group and name, S the scope's name
#   (a system-tree node, a location group, or G/L of a location);
#   "VALUES G/L M via=V n=N values=X" per location and metric of its Metric records: V
#   "instance" when the records name an instance (whose recorder must be this location:
#   "instance-elsewhere" otherwise) or the class's occurrence, N the number of values, X the
#   values in record order ","-joined for the metrics named on the command line, "-" else.
import collections
import sys

import otf2


def where(loc):
    return "%s/%s" % (loc.group.name, loc.name)


def scope_name(inst):
    s = inst.scope
    if isinstance(s, otf2.definitions.Location):
        return where(s)
    return s.name


def main(path, named):
    out = []
    values = collections.defaultdict(list)
    via = {}
    with otf2.reader.open(path) as trace:
        for inst in trace.definitions.metric_instances:
            cls = inst.metric_class
            out.append("INSTANCE %s %s %s recorder=%s scope=%s:%s" % (
                "+".join(m.name for m in cls.members), str(cls.occurrence).split(".")[-1],
                str(cls.recorder_kind).split(".")[-1], where(inst.recorder),
                str(inst.metric_scope).split(".")[-1], scope_name(inst)))
        for location, event in trace.events:
            if not isinstance(event, otf2.events.Metric):
                continue
            cls = event.metric
            if isinstance(cls, otf2.definitions.MetricInstance):
                how = "instance" if cls.recorder == location else "instance-elsewhere"
                cls = cls.metric_class
            else:
                how = str(cls.occurrence).split(".")[-1]
            for member, value in zip(cls.members, event.values):
                key = (where(location), member.name)
                values[key].append(value)
                via.setdefault(key, set()).add(how)
    for (loc, name), v in values.items():
        out.append("VALUES %s %s via=%s n=%d values=%s" % (
            loc, name, "+".join(sorted(via[(loc, name)])), len(v),
            ",".join(str(x) for x in v) if name in named else "-"))
    for line in sorted(out):
        print(line)


if __name__ == "__main__":
    main(sys.argv[1], set(sys.argv[2:]))
