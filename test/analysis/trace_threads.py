#!/usr/bin/env python3
# trace_threads.py: the thread wait states of a trace recomputed from otf2-print's view (no
# code shared with src/analysis), as Scalasca defines them, for test_analysis_pthread.sh,
# test_analysis_omp_locks.sh and test_analysis_omp.sh: expected and measured value then come
# from the same timestamps, so the tests need no allowance for a loaded machine
# (docs/analysis.md, "Timing in the tests"). Locations are named as in scout.cubex: "R:i",
# the i-th location (by id) of the location group "MPI Rank R".
#
#   trace_threads.py locks EVENTS DEFS
#     lock contention (Scalasca's Thread.pattern, LockTracking): an acquisition
#     (THREAD_ACQUIRE_LOCK, acquisition order k of its model's lock) waited from the enter of
#     the call it happened in until the last release (THREAD_RELEASE_LOCK) of order k - 1,
#     when that was later; as in src/analysis/an_pattern_lock.c the wait ends at the
#     acquisition at the latest. One line "LOC METRIC CALL seconds" per location, pattern and
#     acquiring call (the innermost region open at the acquisition) with contention.
#   trace_threads.py barriers EVENTS DEFS
#     waits at OpenMP barriers (Scalasca's OMP.pattern, OMP_BARRIER: a member of a team waits
#     from its enter of a barrier until the last member entered the same barrier). A team is
#     one instance of a parallel region on a rank: the n-th entry of the region on each of the
#     rank's locations; a barrier instance the m-th barrier (of that region name) of a thread
#     in its team. One line "LOC METRIC PARALLEL seconds" per location, barrier kind
#     (omp_ebarrier_wait: "!$omp barrier", omp_ibarrier_wait: "!$omp implicit barrier") and
#     parallel region name, summed over the instances.
#   trace_threads.py regions EVENTS DEFS
#     "LOC REGION enter leave" (seconds) of every region instance, for the test's own sums
import re
import sys


def fail(msg):
    print("trace_threads.py: " + msg)
    sys.exit(1)


def read_defs(path):
    """(ticks per second, {location id: "R:i"})"""
    tps, groups = None, {}
    for line in open(path):
        m = re.match(r"CLOCK_PROPERTIES\s+Ticks per Seconds: (\d+)", line)
        if m:
            tps = int(m.group(1))
        m = re.match(r'LOCATION\s+(\d+)\s+Name: .*Type: CPU_THREAD.*Group: "MPI Rank (\d+)"', line)
        if m:
            groups.setdefault(int(m.group(2)), []).append(int(m.group(1)))
    if not tps:
        fail("no clock properties in " + path)
    if not groups:
        fail("no CPU thread of an MPI rank in " + path)
    names = {}
    for rank, locs in groups.items():
        for i, loc in enumerate(sorted(locs)):
            names[loc] = "%d:%d" % (rank, i)
    return tps, names


EV = re.compile(r"^([A-Z_]+)\s+(\d+)\s+(\d+)\s+(.*)$")
REGION = re.compile(r'Region: "([^"]*)"')
LOCK = re.compile(r"Model: (\w+), Lock: (\d+), Acquisition Order: (\d+)")


def read_events(path, names):
    """per location (its name): [(type, ticks, attributes)] in the trace's order"""
    ev = {n: [] for n in names.values()}
    for line in open(path):
        m = EV.match(line)
        if m and int(m.group(2)) in names:
            ev[names[int(m.group(2))]].append((m.group(1), int(m.group(3)), m.group(4)))
    return ev


def region(attrs):
    m = REGION.search(attrs)
    return m.group(1) if m else None


def lock_metric(model, call):
    if model == "PTHREAD":
        if call in ("pthread_mutex_lock", "pthread_mutex_trylock"):
            return "pthread_lock_contention_mutex_lock"
        if call in ("pthread_cond_wait", "pthread_cond_timedwait"):
            return "pthread_lock_contention_conditional"
    elif model == "OPENMP":
        if call.startswith("!$omp critical ") and not call.startswith("!$omp critical sblock"):
            return "omp_lock_contention_critical"
        if call in ("omp_set_lock", "omp_set_nest_lock", "omp_test_lock", "omp_test_nest_lock"):
            return "omp_lock_contention_api"
    return None


def locks(events, defs):
    tps, names = read_defs(defs)
    ev = read_events(events, names)
    acq, rel = [], {}  # acquisitions; (model, lock, order): last release
    for loc, es in ev.items():
        stack = []  # (region, enter ticks)
        for typ, t, attrs in es:
            if typ == "ENTER":
                stack.append((region(attrs), t))
            elif typ == "LEAVE":
                if not stack or stack[-1][0] != region(attrs):
                    fail("%s: LEAVE %s does not match the open region" % (loc, region(attrs)))
                stack.pop()
            elif typ in ("THREAD_ACQUIRE_LOCK", "THREAD_RELEASE_LOCK"):
                m = LOCK.search(attrs)
                if not m:
                    fail("%s: cannot read the lock record: %s" % (loc, attrs))
                key = (m.group(1), int(m.group(2)), int(m.group(3)))
                if typ == "THREAD_RELEASE_LOCK":
                    rel[key] = max(rel.get(key, t), t)
                elif stack:
                    acq.append((loc, key, t, stack[-1][0], stack[-1][1]))
    sums = {}
    for loc, (model, lock, order), t, call, enter in acq:
        prev = rel.get((model, lock, order - 1))
        metric = lock_metric(model, call)
        if prev is None or metric is None:
            continue
        wait = min(prev, t) - enter
        if wait > 0:
            k = (loc, metric, call)
            sums[k] = sums.get(k, 0) + wait
    for k in sorted(sums):
        print("%s %s %s %.9f" % (k[0], k[1], k[2].replace(" ", "_"), sums[k] / tps))


def barriers(events, defs):
    tps, names = read_defs(defs)
    ev = read_events(events, names)
    enters = {}  # (rank, parallel, its n, barrier, its m): {loc: enter ticks}
    for loc, es in ev.items():
        rank = loc.split(":")[0]
        seen = {}  # parallel region: instances entered
        par = None  # (parallel region, instance) the thread is in
        nbar = {}
        for typ, t, attrs in es:
            r = region(attrs)
            if typ == "ENTER" and r and r.startswith("!$omp parallel "):
                seen[r] = seen.get(r, 0) + 1
                par, nbar = (r, seen[r]), {}
            elif typ == "LEAVE" and r and r.startswith("!$omp parallel "):
                par = None
            elif typ == "ENTER" and r and par and (r.startswith("!$omp barrier ") or
                                                   r.startswith("!$omp implicit barrier ")):
                nbar[r] = nbar.get(r, 0) + 1
                enters.setdefault((rank, par[0], par[1], r, nbar[r]), {})[loc] = t
    sums = {}
    for (rank, par, _, bar, _), team in enters.items():
        last = max(team.values())
        metric = "omp_ebarrier_wait" if bar.startswith("!$omp barrier ") else "omp_ibarrier_wait"
        for loc, t in team.items():
            k = (loc, metric, par)
            sums[k] = sums.get(k, 0) + last - t
    for k in sorted(sums):
        print("%s %s %s %.9f" % (k[0], k[1], k[2].replace(" ", "_"), sums[k] / tps))


def regions(events, defs):
    tps, names = read_defs(defs)
    ev = read_events(events, names)
    for loc, es in ev.items():
        stack = []
        for typ, t, attrs in es:
            if typ == "ENTER":
                stack.append((region(attrs), t))
            elif typ == "LEAVE" and stack:
                r, b = stack.pop()
                print("%s %s %.9f %.9f" % (loc, r.replace(" ", "_"), b / tps, t / tps))


def main():
    a = sys.argv[1:]
    cmds = {"locks": locks, "barriers": barriers, "regions": regions}
    if len(a) != 3 or a[0] not in cmds:
        fail("usage: locks|barriers|regions EVENTS DEFS")
    cmds[a[0]](a[1], a[2])


main()
