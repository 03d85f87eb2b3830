#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# substrate_cc_trace.py TRACE [PLUGINFILE...]: the calling-context events of an OTF2 trace
# (python3-otf2, mapping tables applied) as test/plugins/substrate_cc.c writes the ones it
# received: one line per event in order per location, "KIND PATH PREVPATH DISTANCE GEN" (E:
# CallingContextEnter, X: CallingContextLeave, S: CallingContextSample). The previous
# context is derived here from the trace alone, as Score-P defines it: the context of the
# previous calling-context event of the location, after a leave the context of the innermost
# call still open (the enters not yet left); a leave's distance is 1, as Score-P passes it;
# the others' distances from OTF2's definition (checked against the trace's own where no
# task ran on the location). An OpenMP task's region (Score-P's TASK_BEGIN and _END, no
# calling-context event) is not listed: it only holds the contexts of the events inside.
# GEN: the sample's interrupt generator's position among the definitions, from 1 (0 else).
# Each CPU location's sequence ends with Score-P's final sample of its deactivation, and an
# OpenMP worker's has one at each of its teams' ends. An untied task's regions, which the
# trace leaves where the task is suspended and enters again where it resumes, keep their
# contexts of before the suspension (the plugin's stack moves with the task) and make no
# event there.
#
# Without PLUGINFILE: prints "LOCATION LINE" (LOCATION: its group's and its name, spaces as
# '_'). With them (the plugin's files, one per rank, lines "LOC LINE"): compares each
# location's sequence with the trace's, locations matched by their sequences (the plugin
# knows local ids, the trace names); prints what differs and exits 1 when any location's
# sequence has no equal on the other side.
import collections
import re
import sys

import otf2

# an OpenMP task's region ("!$omp task @file:line"; not taskwait, taskyield, create task)
TASK = re.compile(r"^!\$omp task( untied)?( @|$)")


def path(cc):
    if cc is None:
        return "-"
    names = []
    while cc is not None:
        names.append(cc.region.name)
        cc = cc.parent
    return "/".join(reversed(names))


def depth(cc):
    n = 0
    while cc is not None:
        n += 1
        cc = cc.parent
    return n


def common(a, b):
    while depth(a) > depth(b):
        a = a.parent
    while depth(b) > depth(a):
        b = b.parent
    while a != b:
        a, b = a.parent, b.parent
    return a


def distance(prev, cc):
    """OTF2's unwind distance: 1 + the contexts entered since prev's deepest common
    ancestor with cc."""
    return depth(cc) - depth(common(prev, cc)) + 1


def is_task(cc):
    return TASK.match(cc.region.name) is not None


class Moved:
    """A context below an untied task's contexts after it moved: the trace's context (below
    the ones entered again where the task resumed) with its part above them replaced by the
    task's contexts of before its suspension, as the plugin's stack has them."""

    def __init__(self, cc, parent):
        self.region = cc.region
        self.parent = parent


def rebase(st, cc):
    if cc is None:
        return None
    if id(cc) in st["moved"]:
        return st["moved"][id(cc)]
    parent = rebase(st, cc.parent)
    if parent is cc.parent:
        return cc
    key = (id(parent), id(cc))
    if key not in st["proxies"]:
        st["proxies"][key] = Moved(cc, parent)
    return st["proxies"][key]


def task_key(ev):
    return (id(ev.thread_team), ev.creating_thread, ev.generation_number)


def parking_leaves(events):
    """Indices of the leaves of an untied task's suspension: a run of leaves at one time, the
    last of a task's region, followed on the location by a task switch (its completion has
    ThreadTaskComplete in between). The trace leaves the task's regions there
    and enters them again where it resumes; plugins get neither (scorep-rt's moving contexts,
    Score-P's view: the task is only switched away from)."""
    per_loc = collections.defaultdict(list)
    for i, (loc, ev) in enumerate(events):
        per_loc[id(loc)].append(i)
    park = set()
    for idx in per_loc.values():
        k = 0
        while k < len(idx):
            if not isinstance(events[idx[k]][1], otf2.events.CallingContextLeave):
                k += 1
                continue
            j = k
            while j < len(idx) and isinstance(events[idx[j]][1], otf2.events.CallingContextLeave):
                j += 1
            run = [events[i][1] for i in idx[k:j]]
            if (j < len(idx) and isinstance(events[idx[j]][1], otf2.events.ThreadTaskSwitch)
                    and is_task(run[-1].calling_context)):
                # left at one time, each record a tick after the one before (the writer's
                # strictly increasing times): the regions open in the task, not the exits
                # before its suspension
                first = j - 1
                while first > k and events[idx[first]][1].time - events[idx[first - 1]][1].time <= 1:
                    first -= 1
                park.update(idx[first:j])
            k = j
    return park


def trace_sequences(name):
    seqs = collections.OrderedDict()
    with otf2.reader.open(name) as trace:
        gens = list(trace.definitions.interrupt_generators)
        state = {}
        events = list(trace.events)
        park = parking_leaves(events)
        parked = {}  # untied task -> its contexts at its suspension, outermost first
        for i, (loc, ev) in enumerate(events):
            key = f"{loc.group.name}/{loc.name}".replace(" ", "_")
            st = state.setdefault(key, {"prev": None, "stack": [], "tasks": False, "task": None,
                                        "moved": {}, "proxies": {}, "reenter": []})
            lines = seqs.setdefault(key, [])
            if isinstance(ev, otf2.events.ThreadFork):
                st["fork"] = True
                continue
            if isinstance(ev, otf2.events.ThreadTeamBegin):
                # the location that forked is the team's master, the others are its workers,
                # activated at their team's begin
                st.setdefault("roles", []).append("master" if st.pop("fork", False) else "worker")
                st["active"] = True
                continue
            if isinstance(ev, otf2.events.ThreadTeamEnd):
                if st.get("roles") and st["roles"].pop() == "worker":
                    # Score-P's final sample of a worker's deactivation at its team's end
                    lines.append(f"S - {path(st['prev'])} 1 0")
                    st["prev"] = None
                    st["active"] = False
                continue
            if isinstance(ev, otf2.events.ThreadTaskSwitch):
                st["task"] = task_key(ev)
                if st["task"] in parked:
                    # the resumption: the trace enters the task's regions again; the
                    # plugin's stack gets the task's contexts back
                    st["reenter"] = parked.pop(st["task"])
                    st["stack"].extend(st["reenter"])
                    st["tasks"] = True
                continue
            if i in park:
                cc = rebase(st, ev.calling_context)
                if not st["stack"] or st["stack"][-1] is not cc:
                    sys.exit(f"{key}: suspension's leave of {path(cc)} that is not the innermost")
                parked.setdefault(st["task"], []).insert(0, st["stack"].pop())
                continue
            if isinstance(ev, otf2.events.CallingContextEnter) and st["reenter"]:
                # entered again at the resumption: the moved context stands for it
                st["moved"][id(ev.calling_context)] = st["reenter"].pop(0)
                st["proxies"].clear()
                continue
            if isinstance(ev, otf2.events.CallingContextEnter):
                cc = rebase(st, ev.calling_context)
                parent = st["stack"][-1] if st["stack"] else None
                st["stack"].append(cc)
                if is_task(cc):
                    # Score-P's unwinding sees no task region: no event, the previous
                    # context stays; the events inside lie below it
                    st["tasks"] = True
                    continue
                # the frames unwound at an enter are new at every enter: the distance
                # counts from the deepest common ancestor of the caller's and prev
                d = distance(common(st["prev"], parent), cc)
                if not st["tasks"] and d != ev.unwind_distance:
                    sys.exit(f"{key}: the trace's unwind distance {ev.unwind_distance} of "
                             f"{path(cc)} is not {d}")
                lines.append(f"E {path(cc)} {path(st['prev'])} {d} 0")
                st["prev"] = cc
            elif isinstance(ev, otf2.events.CallingContextLeave):
                cc = rebase(st, ev.calling_context)
                if not st["stack"] or st["stack"][-1] is not cc:
                    sys.exit(f"{key}: leave of {path(cc)} that is not the innermost enter")
                st["stack"].pop()
                if is_task(cc):
                    continue
                lines.append(f"X {path(cc)} {path(st['prev'])} 1 0")
                # the caller's context is the current one again (its unwound frames left)
                st["prev"] = st["stack"][-1] if st["stack"] else None
            elif isinstance(ev, otf2.events.CallingContextSample):
                cc = rebase(st, ev.calling_context)
                d = distance(st["prev"], cc)
                if not st["tasks"] and d != ev.unwind_distance:
                    sys.exit(f"{key}: the trace's unwind distance {ev.unwind_distance} of a "
                             f"sample at {path(cc)} is not {d}")
                g = gens.index(ev.interrupt_generator) + 1
                lines.append(f"S {path(cc)} {path(st['prev'])} {d} {g}")
                st["prev"] = cc
        # Score-P's final sample at a thread's deactivation (its end; an OpenMP worker's at
        # each team's end, above), which the trace does not record: no context, the last
        # context as the previous one, distance 1
        for loc in trace.definitions.locations:
            if loc.type == otf2.LocationType.CPU_THREAD:
                key = f"{loc.group.name}/{loc.name}".replace(" ", "_")
                if key in state and not state[key].get("active", True):
                    continue  # a worker deactivated at its last team's end
                prev = state[key]["prev"] if key in state else None
                seqs.setdefault(key, []).append(f"S - {path(prev)} 1 0")
    return {k: v for k, v in seqs.items() if v}


def plugin_sequences(files):
    seqs = collections.OrderedDict()
    for f in files:
        with open(f) as fh:
            for line in fh:
                loc, _, rest = line.rstrip("\n").partition(" ")
                if loc.isdigit() and rest[:2] in ("E ", "X ", "S "):
                    seqs.setdefault(f"{f}:{loc}", []).append(rest)
    return seqs


def main():
    trace = trace_sequences(sys.argv[1])
    if len(sys.argv) == 2:
        for key, lines in trace.items():
            for line in lines:
                print(f"{key} {line}")
        return
    plugin = plugin_sequences(sys.argv[2:])
    unmatched = dict(trace)
    bad = []
    for key, lines in plugin.items():
        match = next((k for k, v in unmatched.items() if v == lines), None)
        if match is None:
            bad.append(key)
        else:
            del unmatched[match]
    for key in bad:
        lines = plugin[key]
        # the trace's location whose sequence shares the longest prefix: the first difference
        best, common = None, -1
        for k, v in unmatched.items():
            n = 0
            while n < min(len(v), len(lines)) and v[n] == lines[n]:
                n += 1
            if n > common:
                best, common = k, n
        print(f"plugin {key}: {len(lines)} events, no equal location in the trace; "
              f"closest {best}: first difference at event {common + 1}:")
        if best is not None:
            print(f"  trace:  {(unmatched[best] + ['(end)'])[common]}")
        print(f"  plugin: {(lines + ['(end)'])[max(common, 0)]}")
    for key in unmatched:
        if not bad:
            print(f"trace {key}: {len(unmatched[key])} events, no equal location in the plugin's")
    print(f"locations: plugin {len(plugin)}, trace {len(trace)}, equal {len(plugin) - len(bad)}; "
          f"events {sum(len(v) for v in plugin.values())}")
    sys.exit(1 if bad or unmatched else 0)


main()
