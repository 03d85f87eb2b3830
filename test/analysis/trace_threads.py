#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# trace_threads.py: the thread wait states of a trace recomputed from otf2-print's view (no
# code shared with src/analysis), as Scalasca defines them, for test_analysis_pthread.sh,
# test_analysis_omp_locks.sh and test_analysis_omp.sh: expected and measured value then come
# from the same timestamps, so the tests need no allowance for a loaded machine
# (docs/analysis.md, "Timing in the tests"). Locations are named as in scout.cubex: "R:i",
# the i-th location (by id) of the location group "MPI Rank R" (a program without MPI: of its
# one process, R = 0).
#
#   trace_threads.py locks EVENTS DEFS
#     lock contention (Scalasca's Thread.pattern, LockTracking): an acquisition
#     (THREAD_ACQUIRE_LOCK, acquisition order k of its model's lock) waited from the enter of
#     the call it happened in until the last release (THREAD_RELEASE_LOCK) of order k - 1,
#     when that was later; as in src/analysis/an_pattern_lock.c the wait ends at the
#     acquisition at the latest. One line "LOC METRIC CALL seconds" per location, pattern and
#     acquiring call (the innermost region open at the acquisition) with contention.
#     (Every output's fields are separated by tabs: region names hold spaces.)
#   trace_threads.py barriers EVENTS DEFS
#     waits at OpenMP barriers (Scalasca's OMP.pattern, OMP_BARRIER: a member of a team waits
#     from its enter of a barrier until the last member entered the same barrier). A team is
#     one instance of a parallel region on a rank: the n-th entry of the region on each of the
#     rank's locations; a barrier instance the m-th barrier (of that region name) of a thread
#     in its team; the wait ends at the thread's leave at the latest (src/analysis/an_omp.c).
#     And their delay costs (Scalasca's delay_ompbarrier, short-term): the last thread into a
#     barrier instance caused each other member's wait w; its delay against that member is its
#     time per call path in its synchronisation interval (since its previous barrier of the
#     team, or the parallel region's enter) beyond the member's time on that path in the
#     member's interval; each path gets that excess x min(1, w / the excess's sum); a team's
#     first interval on each thread holds, at the parallel region, the time from the master's
#     fork (its THREAD_FORK before the team's enter) to the thread's enter (Scalasca's time
#     maps, TmapCacheHandler's cb_fws_omp_fork). One line
#     "LOC METRIC PARALLEL seconds PATH" per location, metric (omp_ebarrier_wait: "!$omp
#     barrier", omp_ibarrier_wait: "!$omp implicit barrier", delay_ompbarrier), parallel
#     region and call path from the parallel region down, summed over the instances.
#   trace_threads.py idle EVENTS DEFS
#     idle OpenMP threads (as src/analysis/an_omp.c and Scalasca's report have them): while a
#     rank's master thread (its location 0) runs outside parallel regions, each of the rank's
#     OpenMP workers (its other locations that entered a parallel region) is idle for the
#     master's exclusive time on that call path (omp_idle_threads); a worker that did not enter
#     an instance of the master's parallel region is idle for the region's time
#     (omp_limited_parallelism, at its call path); their cause (delay_ompidle, short-term): the
#     master's time on each such path x the number of workers (only on paths without an MPI
#     call, whose wait states it would leave out). Lines "LOC METRIC PATH seconds", PATH the
#     master's call path (region names joined by "/").
#     The master's time from a team's fork to its enter of the parallel region and from its
#     leave to the join (management, below) is the region's, not its caller's (Scalasca).
#   trace_threads.py mgmt EVENTS DEFS
#     OpenMP thread management (Scalasca's OMP.pattern, OMP_MANAGEMENT and OMP_FORK): each
#     member of a team (the n-th instance of a parallel region on each of the rank's
#     locations) spends the time from the master's fork (its THREAD_FORK before the team's
#     enter) to its own enter in omp_fork, and that plus the time from its leave to the
#     master's join (its THREAD_JOIN after the leave) in omp_management (stored inclusive,
#     as scout.cubex holds it). Lines "LOC METRIC PARALLEL seconds", summed over the instances.
#   trace_threads.py regions EVENTS DEFS
#     "LOC REGION enter leave" (seconds since the clock's origin) of every region instance,
#     for the tests' own sums
#   trace_threads.py forks EVENTS DEFS
#     "LOC REGION n fork join" (seconds; "-": none) of each master's parallel region instance:
#     its THREAD_FORK before the enter, its THREAD_JOIN after the leave
import re
import sys

from otf2_defs import fail, rank_threads


def read_defs(path):
    """(ticks per second, {location id: "R:i"}): the i-th thread of rank R by location id"""
    tps, threads = rank_threads(path)
    groups = {}
    for loc, (rank, _) in threads.items():
        groups.setdefault(rank, []).append(loc)
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
        print("%s\t%s\t%s\t%.9f" % (k[0], k[1], k[2], sums[k] / tps))


def barriers(events, defs):
    tps, names = read_defs(defs)
    ev = read_events(events, names)
    fjs = {n.split(":")[0]: master_fork_join(ev[n]) for n in ev if n.endswith(":0")}
    # (rank, parallel, its n, barrier, its m): {loc: (enter, leave, {path: seconds of the
    # thread's synchronisation interval before it})}
    calls = {}
    for loc, es in ev.items():
        rank = loc.split(":")[0]
        seen = {}  # parallel region: instances entered
        stack = []  # open regions (names)
        par = None  # (parallel region, instance, its depth in stack)
        nbar, open_bar, interval, prev_t = {}, None, {}, None
        for typ, t, attrs in es:
            if par is not None and prev_t is not None and t > prev_t:
                path = "/".join(stack[par[2]:])
                interval[path] = interval.get(path, 0) + t - prev_t
            prev_t = t
            r = region(attrs)
            if typ == "ENTER":
                stack.append(r)
                if r.startswith("!$omp parallel "):
                    seen[r] = seen.get(r, 0) + 1
                    par, nbar, interval = (r, seen[r], len(stack) - 1), {}, {}
                    fork = fjs.get(rank, {}).get((r, seen[r]), (None, None))[0]
                    if fork is not None and fork < t:
                        interval[r] = t - fork  # the fork, at the region
                elif par and (r.startswith("!$omp barrier ") or
                              r.startswith("!$omp implicit barrier ")):
                    nbar[r] = nbar.get(r, 0) + 1
                    open_bar = ((rank, par[0], par[1], r, nbar[r]), t, interval)
            elif typ == "LEAVE":
                if not stack or stack[-1] != r:
                    fail("%s: LEAVE %s does not match the open region" % (loc, r))
                stack.pop()
                if open_bar and r == open_bar[0][3]:
                    calls.setdefault(open_bar[0], {})[loc] = (open_bar[1], t, open_bar[2])
                    open_bar, interval = None, {}  # the next interval begins here
                elif par and r == par[0] and len(stack) == par[2]:
                    par = None
    sums = {}

    def add(loc, metric, par, path, v):
        k = (loc, metric, par, path)
        sums[k] = sums.get(k, 0) + v

    for (rank, par, _, bar, _), team in calls.items():
        metric = "omp_ebarrier_wait" if bar.startswith("!$omp barrier ") else "omp_ibarrier_wait"
        late = max(team, key=lambda l: (team[l][0], l))
        last = team[late][0]
        for loc, (enter, leave, interval) in team.items():
            wait = min(last, leave) - enter
            add(loc, metric, par, par + "/" + bar, max(wait, 0))
            if loc == late or wait <= 0:
                continue
            # the delay costs of that wait (Scalasca's short-term delay_ompbarrier, limited to
            # the wait as src/analysis/an_omp.c does): the late thread's time per call path in
            # its synchronisation interval beyond this thread's, scaled to at most the wait
            mine = team[late][2]
            delay = {p: mine[p] - interval.get(p, 0) for p in mine if mine[p] > interval.get(p, 0)}
            total = sum(delay.values())
            scale = min(1.0, wait / total) if total > 0 else 0
            for p, d in delay.items():
                add(late, "delay_ompbarrier", par, p, scale * d)
    for k in sorted(sums):
        print("%s\t%s\t%s\t%.9f\t%s" % (k[0], k[1], k[2], sums[k] / tps, k[3]))


def master_fork_join(es):
    """the master's (fork, join) ticks per parallel region instance (region, n): the last
    THREAD_FORK before its enter, the first THREAD_JOIN after its leave (None: none)"""
    out, seen, fork, left = {}, {}, None, None
    for typ, t, attrs in es:
        r = region(attrs)
        if typ == "THREAD_FORK":
            fork = t
        elif typ == "THREAD_JOIN" and left is not None:
            out[left][1] = t
            left = None
        elif typ == "ENTER" and r.startswith("!$omp parallel "):
            seen[r] = seen.get(r, 0) + 1
            out[(r, seen[r])] = [fork, None]
            fork = None
        elif typ == "LEAVE" and r.startswith("!$omp parallel "):
            left = (r, seen[r])
    return out


def mgmt(events, defs):
    tps, names = read_defs(defs)
    ev = read_events(events, names)
    sums = {}

    def add(loc, metric, par, v):
        sums[(loc, metric, par)] = sums.get((loc, metric, par), 0) + v

    for master in [n for n in ev if n.endswith(":0")]:
        rank = master.split(":")[0]
        fj = master_fork_join(ev[master])
        for loc, es in ev.items():
            if loc.split(":")[0] != rank:
                continue
            seen, depth = {}, 0  # a worker's team: its top-level parallel region instance
            for typ, t, attrs in es:
                r = region(attrs) or ""
                depth += (typ == "ENTER") - (typ == "LEAVE")
                top = loc == master or depth == (1 if typ == "ENTER" else 0)
                if not r.startswith("!$omp parallel ") or not top:
                    continue
                if typ == "ENTER":
                    seen[r] = seen.get(r, 0) + 1
                    fork = fj.get((r, seen[r]), (None, None))[0]
                    if fork is not None and t > fork:
                        add(loc, "omp_fork", r, t - fork)
                        add(loc, "omp_management", r, t - fork)
                elif typ == "LEAVE":
                    join = fj.get((r, seen.get(r, 0)), (None, None))[1]
                    if join is not None and join > t:
                        add(loc, "omp_management", r, join - t)
    for k in sorted(sums):
        print("%s\t%s\t%s\t%.9f" % (k[0], k[1], k[2], sums[k] / tps))


def idle(events, defs):
    tps, names = read_defs(defs)
    ev = read_events(events, names)
    sums = {}

    def add(loc, metric, path, v):
        k = (loc, metric, path)
        sums[k] = sums.get(k, 0) + v

    for master in [n for n in ev if n.endswith(":0")]:
        rank = master.split(":")[0]
        # the rank's OpenMP workers: its other locations that entered a parallel region; the
        # parallel region instances each entered (region: instances)
        workers = {}
        for loc, es in ev.items():
            if loc == master or loc.split(":")[0] != rank:
                continue
            n = {}
            for typ, _, attrs in es:
                r = region(attrs)
                if typ == "ENTER" and r.startswith("!$omp parallel "):
                    n[r] = n.get(r, 0) + 1
            if n:
                workers[loc] = n
        # the master's exclusive time per call path outside parallel regions, and its
        # parallel region instances (call path, region, instance, seconds)
        stack, excl, teams, seen = [], {}, [], {}
        fj = master_fork_join(ev[master])
        for typ, t, attrs in ev[master]:
            r = region(attrs)
            if typ == "ENTER":
                if r.startswith("!$omp parallel ") and stack:
                    # the fork's time is the region's, not its caller's (Scalasca)
                    fork = fj[(r, seen.get(r, 0) + 1)][0]
                    stack[-1][2] += t - fork if fork is not None and fork < t else 0
                stack.append([r, t, 0])
            elif typ == "LEAVE":
                if not stack or stack[-1][0] != r:
                    fail("%s: LEAVE %s does not match the open region" % (master, r))
                path = "/".join(x[0] for x in stack)
                _, b, inner = stack.pop()
                if stack:
                    stack[-1][2] += t - b
                if r.startswith("!$omp parallel "):
                    seen[r] = seen.get(r, 0) + 1
                    teams.append((path, r, seen[r], t - b))
                    join = fj[(r, seen[r])][1]
                    if stack and join is not None and join > t:
                        stack[-1][2] += join - t  # the join's time: the region's
                elif "!$omp parallel " not in path:
                    excl[path] = excl.get(path, 0) + t - b - inner
        for path, v in excl.items():
            if v <= 0:
                continue
            for w in workers:
                add(w, "omp_idle_threads", path, v)
            if not any(x.startswith("MPI_") for x in path.split("/")):
                add(master, "delay_ompidle", path, len(workers) * v)
        for path, r, k, v in teams:
            for w, n in workers.items():
                if n.get(r, 0) < k:
                    add(w, "omp_limited_parallelism", path, v)
    for k in sorted(sums):
        print("%s\t%s\t%s\t%.9f" % (k[0], k[1], k[2], sums[k] / tps))


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
                print("%s\t%s\t%.9f\t%.9f" % (loc, r, b / tps, t / tps))


def forks(events, defs):
    tps, names = read_defs(defs)
    ev = read_events(events, names)
    for master in sorted(n for n in ev if n.endswith(":0")):
        for (r, n), (f, j) in sorted(master_fork_join(ev[master]).items()):
            print("%s\t%s\t%d\t%s\t%s" % (master, r, n, "-" if f is None else "%.9f" % (f / tps),
                                          "-" if j is None else "%.9f" % (j / tps)))


def main():
    a = sys.argv[1:]
    cmds = {"locks": locks, "barriers": barriers, "idle": idle, "mgmt": mgmt, "regions": regions,
            "forks": forks}
    if len(a) != 3 or a[0] not in cmds:
        fail("usage: locks|barriers|idle|mgmt|regions|forks EVENTS DEFS")
    cmds[a[0]](a[1], a[2])


main()
