# otf2_defs.py: what the analysis checkers (trace_marks.py, trace_pop.py, trace_threads.py)
# read of otf2-print's definitions: the clock's ticks per second and the CPU threads of the
# MPI ranks. Shared so that the three read the definitions one way.
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


def rank_threads(path):
    """(ticks per second, {location id: (rank, thread name)}) of the ranks' CPU threads"""
    tps, threads = None, {}
    for line in open(path):
        m = CLOCK.match(line)
        if m:
            tps = int(m.group(1))
        m = THREAD.match(line)
        if m:
            threads[int(m.group(1))] = (int(m.group(3)), m.group(2))
    if not tps:
        fail("no clock properties in " + path)
    if not threads:
        fail("no CPU thread of an MPI rank in " + path)
    return tps, threads
