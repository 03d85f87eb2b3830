#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# chrome_check.py: checks a scorep-otf2-to-chrome JSON file against its OTF2 trace, which it
# reads independently with otf2-print: per location as many region events as ENTERs and
# LEAVEs, complete events nested per track, one flow start and end per message, task
# regions on task lanes, counter values equal to the trace's METRIC values. Complete events
# of category "callpath" (calling contexts, with unwinding) are checked for nesting only.
# usage: chrome_check.py trace.json traces.otf2
# Prints one line "key=value ..." (the counts the tests assert) and exits 0, or prints the
# failed checks on stderr and exits 1.
import collections
import decimal
import json
import re
import subprocess
import sys

errors = []


def error(msg):
    if len(errors) < 20:
        errors.append(msg)


def otf2_print(args):
    p = subprocess.run(["otf2-print"] + args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("chrome_check: otf2-print %s failed: %s" % (" ".join(args), p.stderr[:500]))
    return p.stdout.splitlines()


def read_trace(anchor):
    """Location index by OTF2 id, ENTER/LEAVE counts per index, METRIC (name, value) list."""
    index = {}
    for line in otf2_print(["-G", anchor]):
        m = re.match(r"^LOCATION\s+(\d+)\s", line)
        if m:
            index[int(m.group(1))] = len(index)
    enters, leaves, metrics = collections.Counter(), collections.Counter(), []
    for line in otf2_print([anchor]):
        f = line.split()
        if len(f) < 3 or not f[1].isdigit() or not f[2].isdigit():
            continue
        loc = index.get(int(f[1]))
        if f[0] == "ENTER":
            enters[loc] += 1
        elif f[0] == "LEAVE":
            leaves[loc] += 1
        elif f[0] == "METRIC":
            for name, typ, value in re.findall(r'\("([^"]*)" <\d+>; (\w+); ([^)]*)\)', line):
                metrics.append((name, decimal.Decimal(value)))
    return index, enters, leaves, metrics


def check_nesting(events):
    """Complete events of one track: each inside the open one or after its end."""
    bad = 0
    stack = []
    for e in sorted(events, key=lambda e: (e["ts"], -e["dur"])):
        end = e["ts"] + e["dur"]
        while stack and stack[-1] <= e["ts"]:
            stack.pop()
        if stack and end > stack[-1]:
            bad += 1
        stack.append(end)
    return bad


def same_values(a, b):
    """Equal (name, value) multisets; doubles (otf2-print rounds them) to 1e-9 relative."""
    a, b = sorted(a), sorted(b)
    if len(a) != len(b):
        return False
    for (n, x), (m, y) in zip(a, b):
        if n != m or abs(x - y) > abs(y) * decimal.Decimal("1e-9"):
            return False
    return True


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: chrome_check.py trace.json traces.otf2")
    with open(sys.argv[1]) as fp:
        doc = json.load(fp, parse_float=decimal.Decimal)
    events = doc["traceEvents"]
    index, enters, leaves, metrics = read_trace(sys.argv[2])

    names = {}  # (pid, tid) -> thread name; pid -> process name
    for e in events:
        if e["ph"] == "M" and e["name"] == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
        elif e["ph"] == "M" and e["name"] == "process_name":
            names[e["pid"]] = e["args"]["name"]

    allx = [e for e in events if e["ph"] == "X"]
    xs = [e for e in allx if e["cat"] == "region"]
    per_loc = collections.Counter(e["args"]["loc"] for e in xs)
    for loc in set(index.values()) | set(per_loc):
        if not (per_loc[loc] == enters[loc] == leaves[loc]):
            error("location %s: %d region events, %d ENTER, %d LEAVE"
                  % (loc, per_loc[loc], enters[loc], leaves[loc]))
    tracks = collections.defaultdict(list)
    for e in allx:
        if e["dur"] < 0:
            error("negative duration: %r" % e)
        tracks[(e["pid"], e["tid"])].append(e)
    for key, evs in tracks.items():
        if key not in names or key[0] not in names:
            error("track %r has no thread_name or process_name" % (key,))
        bad = check_nesting(evs)
        if bad:
            error("track %r: %d complete events overlap the enclosing one" % (key, bad))

    lanes = {k for k, n in names.items() if isinstance(k, tuple) and n.startswith("OpenMP tasks ")}
    on_lanes = sum(1 for e in xs if (e["pid"], e["tid"]) in lanes and e["name"].startswith("!$omp task "))
    on_threads = sum(1 for e in xs if (e["pid"], e["tid"]) not in lanes and e["name"].startswith("!$omp task "))
    for e in xs:
        if ("task" in e["args"]) != ((e["pid"], e["tid"]) in lanes):
            error("task argument and track disagree: %r" % e)
            break

    starts = collections.Counter(e["id"] for e in events if e["ph"] == "s")
    ends = collections.Counter(e["id"] for e in events if e["ph"] == "f")
    if set(starts) != set(ends) or any(n != 1 for n in starts.values()) or any(n != 1 for n in ends.values()):
        error("flows: %d starts, %d ends, ids not paired one to one" % (sum(starts.values()), sum(ends.values())))
    for e in events:
        # task dependences (cat "task", from the analysis's taskgraph.dot) bind to task regions
        inside = "!$omp task " if e.get("cat") == "task" else "MPI_"
        if e["ph"] in "sf" and not any(x["ts"] <= e["ts"] <= x["ts"] + x["dur"] and x["name"].startswith(inside)
                                       for x in tracks[(e["pid"], e["tid"])]):
            error("flow %s %s is not inside a region %s... of its track" % (e["ph"], e["id"], inside))
            break
        if e["ph"] == "f" and e.get("bp") != "e":
            error("flow end %s does not bind to its enclosing slice" % e["id"])
            break

    counters = [(e["name"].split(" [")[0], decimal.Decimal(e["args"]["value"]))
                for e in events if e["ph"] == "C"]
    if not same_values(counters, metrics):
        error("counter values differ from the trace's METRIC values: %d counters, %d values"
              % (len(counters), len(metrics)))

    if errors:
        for msg in errors:
            print("chrome_check: " + msg, file=sys.stderr)
        sys.exit(1)
    print("processes=%d tracks=%d regions=%d flows=%d lanes=%d task_regions_on_lanes=%d "
          "task_regions_on_threads=%d counters=%d samples=%d callpath=%d"
          % (sum(1 for k in names if not isinstance(k, tuple)), len(tracks), len(xs), len(starts),
             len(lanes), on_lanes, on_threads, len(counters),
             sum(1 for e in events if e["ph"] == "i"), len(allx) - len(xs)))


main()
