#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# trace_marks.py: moves the clock marks an analysis test program printed onto the events of
# its trace (otf2-print's view), so that a test's expected values come from the same
# timestamps the analysis reads and no longer from the program's clock readings around them:
# a rank descheduled between its mark and the MPI call then changes the expectation, not the
# verdict (docs/analysis.md, Tests). Needs a trace taken with SCOREP_TIMER=clock_gettime on
# one node (the trace's ticks are then the CLOCK_MONOTONIC nanoseconds the program reads).
#
#   trace_marks.py snap EVENTS DEFS MARKS AFTER...
#     EVENTS: otf2-print's output; DEFS: otf2-print -G's; MARKS: the program's output with
#     lines "T scenario rank what seconds absolute" (seconds after the scenario's start, and
#     the node's clock). A mark is moved to the first ENTER at or after it on the rank's
#     master thread (it must be an MPI call or, for "begin", the scenario's region); a mark
#     whose name is among AFTER to the last LEAVE of an MPI call at or before it. Prints
#     "T scenario rank what seconds" with the event's time after the same scenario start;
#     lines without an absolute time (values the program derived) are printed as they are.
#     Each moved mark must lie inside its scenario's region on that rank. For each "begin" it
#     adds "T scenario rank sync seconds": the leave of the MPI call before it (the
#     synchronisation that starts the scenario).
#   trace_marks.py calls EVENTS DEFS MARKS SCENARIO RANK REGION...
#     prints "enter leave" (seconds after SCENARIO's start on RANK) of each call of one of
#     REGIONs inside SCENARIO's region on RANK.
import bisect
import re
import sys

from otf2_defs import fail, rank_threads


def read_defs(path):
    """(ticks per second, {location: rank}) of the master threads of MPI ranks"""
    tps, threads = rank_threads(path)
    if tps != 1000000000:
        fail("the trace's timer does not count nanoseconds (%s ticks per second): record it "
             "with SCOREP_TIMER=clock_gettime" % tps)
    ranks = {loc: rank for loc, (rank, name) in threads.items() if name == "Master thread"}
    if not ranks:
        fail("no master thread of an MPI rank in the definitions")
    return tps, ranks


def read_events(path, ranks):
    """per rank: [(type, seconds, region)] of its master thread's ENTER and LEAVE events"""
    ev = {r: [] for r in ranks.values()}
    pat = re.compile(r'^(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "([^"]*)"')
    for line in open(path):
        m = pat.match(line)
        if m and int(m.group(2)) in ranks:
            ev[ranks[int(m.group(2))]].append((m.group(1), int(m.group(3)) * 1e-9, m.group(4)))
    return ev


def read_marks(path):
    marks = []
    for line in open(path):
        f = line.split()
        if len(f) >= 5 and f[0] == "T":
            marks.append(f)
    if not marks:
        fail("%s has no marks" % path)
    return marks


def instance(ev, scenario):
    """(enter, leave) of the scenario's region in one rank's events"""
    b = e = None
    for typ, t, reg in ev:
        if reg == scenario and typ == "ENTER" and b is None:
            b = t
        elif reg == scenario and typ == "LEAVE" and b is not None:
            e = t
            break
    return b, e


def snap(events, defs, marks_path, after):
    _, ranks = read_defs(defs)
    ev = read_events(events, ranks)
    # per rank: the times of its ENTERs and of its LEAVEs of MPI calls (ascending: the trace's
    # timestamps rise along a location), for a binary search
    enters = {r: [x for x in e if x[0] == "ENTER"] for r, e in ev.items()}
    leaves = {r: [x for x in e if x[0] == "LEAVE" and x[2].startswith("MPI_")]
              for r, e in ev.items()}
    et = {r: [x[1] for x in e] for r, e in enters.items()}
    lt = {r: [x[1] for x in e] for r, e in leaves.items()}
    inst = {}
    for f in read_marks(marks_path):
        sc, rank, what = f[1], int(f[2]), f[3]
        if len(f) < 6:
            print(" ".join(f[:5]))
            continue
        if rank not in ev:
            fail("no master thread of rank %d in the trace" % rank)
        t0 = float(f[5]) - float(f[4])
        m = float(f[5])
        if what in after:
            i = bisect.bisect_right(lt[rank], m) - 1
            hit = leaves[rank][i] if i >= 0 else None
        else:
            i = bisect.bisect_left(et[rank], m)
            hit = enters[rank][i] if i < len(et[rank]) else None
        if hit is None:
            fail("%s rank %d: no event for mark %s at %.9f" % (sc, rank, what, m))
        typ, t, reg = hit
        want = sc if what == "begin" else None
        if (want and reg != want) or (not want and not reg.startswith("MPI_")):
            fail("%s rank %d: mark %s is followed by %s %s, not by %s" %
                 (sc, rank, what, typ, reg, want or "an MPI call"))
        if (sc, rank) not in inst:
            inst[sc, rank] = instance(ev[rank], sc)
        b, e = inst[sc, rank]
        if b is None or e is None or not (b <= t <= e):
            fail("%s rank %d: mark %s (%s %s at %.9f) lies outside the scenario's region" %
                 (sc, rank, what, typ, reg, t))
        print("T %s %d %s %.9f" % (sc, rank, what, t - t0))
        if what == "begin":
            # the synchronisation the scenario starts from: the leave of the MPI call before
            i = bisect.bisect_right(lt[rank], m) - 1
            if i < 0:
                fail("%s rank %d: no MPI call before the scenario" % (sc, rank))
            print("T %s %d sync %.9f" % (sc, rank, leaves[rank][i][1] - t0))


def calls(events, defs, marks_path, sc, rank, regions):
    _, ranks = read_defs(defs)
    ev = read_events(events, ranks)
    rank = int(rank)
    t0 = [float(f[5]) - float(f[4]) for f in read_marks(marks_path)
          if f[1] == sc and int(f[2]) == rank and len(f) >= 6]
    if not t0:
        fail("%s rank %d: no mark" % (sc, rank))
    b, e = instance(ev.get(rank, []), sc)
    if b is None or e is None:
        fail("%s rank %d: no instance of the scenario's region" % (sc, rank))
    start = None
    for typ, t, reg in ev[rank]:
        if t < b or t > e or reg not in regions:
            continue
        if typ == "ENTER":
            start = t
        elif start is not None:
            print("%.9f %.9f" % (start - t0[0], t - t0[0]))
            start = None


def main():
    a = sys.argv[1:]
    if len(a) >= 4 and a[0] == "snap":
        snap(a[1], a[2], a[3], set(a[4:]))
    elif len(a) >= 7 and a[0] == "calls":
        calls(a[1], a[2], a[3], a[4], a[5], set(a[6:]))
    else:
        fail("usage: snap EVENTS DEFS MARKS AFTER... | calls EVENTS DEFS MARKS SCENARIO RANK REGION...")


main()
