# SPDX-License-Identifier: BSD-3-Clause
# otf2_defs.py: what the analysis checkers (trace_marks.py, trace_pop.py, trace_threads.py)
# read of otf2-print's definitions: the clock's ticks per second and the CPU threads of the
# MPI ranks (of the one process of a program without MPI: rank 0). Shared so that the three
# read the definitions one way.
import os
import re
import sys


def fail(msg):
    """the checker's name, the message, exit status 1"""
    print("%s: %s" % (os.path.basename(sys.argv[0]), msg))
    sys.exit(1)


CLOCK = re.compile(r"CLOCK_PROPERTIES\s+Ticks per Seconds: (\d+)")
THREAD = re.compile(r'LOCATION\s+(\d+)\s+Name: "([^"]*)".*Type: CPU_THREAD.*'
                    r'Group: "MPI Rank (\d+)"')
# a program without MPI: the CPU threads of its one process (rank 0 to the analysis)
PROCESS_THREAD = re.compile(r'LOCATION\s+(\d+)\s+Name: "([^"]*)".*Type: CPU_THREAD.*'
                            r'Group: "([^"]*)" <(\d+)>')


def rank_threads(path):
    """(ticks per second, {location id: (rank, thread name)}) of the ranks' CPU threads"""
    tps, threads, plain = None, {}, {}
    for line in open(path):
        m = CLOCK.match(line)
        if m:
            tps = int(m.group(1))
        m = THREAD.match(line)
        if m:
            threads[int(m.group(1))] = (int(m.group(3)), m.group(2))
        m = PROCESS_THREAD.match(line)
        if m:
            plain[int(m.group(1))] = (int(m.group(4)), m.group(2))
    if not tps:
        fail("no clock properties in " + path)
    if not threads and plain and len(set(g for g, _ in plain.values())) == 1:
        threads = {loc: (0, name) for loc, (_, name) in plain.items()}
    if not threads:
        fail("no CPU thread of an MPI rank (or of one process without MPI) in " + path)
    return tps, threads
