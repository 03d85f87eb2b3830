#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# trace_pop.py: the POP efficiencies that a trace gives (docs/analysis.md, "Serialisation and
# transfer efficiency"), computed from otf2-print's view with no code shared with src/analysis,
# so that test_analysis_pop.sh compares scout.cubex's values with what the same timestamps give
# instead of with the program's clock (a loaded machine then changes the expectation, not the
# verdict). Covers what pop.c does: MPI_Send/Ssend/Rsend, MPI_Recv, MPI_Sendrecv and
# MPI_Barrier on MPI_COMM_WORLD, one thread per rank; anything else is refused.
#
#   trace_pop.py EVENTS DEFS      (otf2-print's output, otf2-print -G's)
#
# Per rank (its master thread): time = the sum of its top-level calls (first enter to last
# leave of each: the program region's from ProgramBegin to ProgramEnd), computation = that
# less its MPI calls. Runtime = the largest time, and the critical path as Scalasca defines it:
# from the end of the rank that ends last (with MPI_Finalize on every rank: its Enter on the
# rank that entered it last, back to MPI_Init's Enter), backward; at the end of a wait state of
# the rank it moves to the rank waited for, at the time that rank got there. Wait states: Late
# Sender (a receive entered before the send's call: it waits until
# the send's enter, within the receive), Late Receiver (a blocking MPI_Send/Ssend/Rsend entered
# before the receive was posted, which it waits for within the send), Wait at Barrier (until
# the last rank entered, the lowest such rank when several; within the barrier). The
# critical path's time in MPI calls other than MPI_Init/MPI_Finalize is what an ideal network
# saves. Prints "key value" lines: runtime, computation (the largest), transfer (that MPI time),
# ideal (runtime - transfer, within [computation, runtime]), and the efficiencies
# pop_transfer = ideal / runtime, pop_serialisation = computation / ideal,
# pop_communication = computation / runtime; also pieces (the path's pieces) and hops.
import re
import sys

from otf2_defs import fail, rank_threads


def read_defs(path):
    """(ticks per second, {location: rank}): one thread per rank"""
    tps, threads = rank_threads(path)
    for loc, (rank, name) in threads.items():
        if name != "Master thread":
            fail("location %s (%s): only one thread per rank is covered" % (loc, name))
    return tps, {loc: rank for loc, (rank, name) in threads.items()}


INIT_EXIT = ("MPI_Init", "MPI_Init_thread", "MPI_Finalize")
PROGRAM = "<program region>"
BLOCK_SEND = ("MPI_Send", "MPI_Ssend", "MPI_Rsend")
COVERED = BLOCK_SEND + INIT_EXIT + ("MPI_Recv", "MPI_Sendrecv", "MPI_Barrier",
                                    "MPI_Comm_rank", "MPI_Comm_size")


class Rank:
    def __init__(self):
        self.first = self.last = None
        self.time = 0            # ticks in top-level calls
        self.mpi = []            # (enter, leave, name) of every MPI call
        self.sends, self.recvs, self.barriers = [], [], []
        self.stack = []          # open calls: [name, enter]
        self.sync = []           # (wait_end, peer, peer_time)


def read_events(path, ranks):
    """per rank: its calls, messages and barriers"""
    rk = {r: Rank() for r in ranks.values()}
    pat = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s*(.*)$")
    pending = {}  # rank -> message events of the open MPI call, completed at its leave
    for line in open(path):
        m = pat.match(line)
        if not m or int(m.group(2)) not in ranks:
            continue
        typ, t, rest = m.group(1), int(m.group(3)), m.group(4)
        r = ranks[int(m.group(2))]
        x = rk[r]
        if typ in ("ENTER", "LEAVE", "PROGRAM_BEGIN", "PROGRAM_END"):
            # ProgramBegin/End: the call of the program region, the rank's top-level call
            # (Score-P 6 and later; Scalasca's pearl reads them so)
            name = PROGRAM if typ.startswith("PROGRAM_") else \
                re.match(r'Region: "([^"]*)"', rest).group(1)
            program_end = typ == "PROGRAM_END"
            typ = "ENTER" if typ in ("ENTER", "PROGRAM_BEGIN") else "LEAVE"
            if x.first is None:
                x.first = t
            if not program_end:  # the path starts where the last rank's calls ended
                x.last = t
            if typ == "ENTER":
                if name.startswith("MPI_") and name not in COVERED:
                    fail("rank %d calls %s, which this model does not cover" % (r, name))
                x.stack.append([name, t])
                continue
            if not x.stack or x.stack[-1][0] != name:
                fail("rank %d: leave of %s without its enter" % (r, name))
            _, enter = x.stack.pop()
            if not x.stack:
                x.time += t - enter
            if name.startswith("MPI_"):
                x.mpi.append((enter, t, name))
                for kind, f in pending.pop(r, []):
                    getattr(x, kind).append(f + (enter, t, name))
            continue
        if typ in ("MPI_SEND", "MPI_RECV"):
            f = re.match(r'(Receiver|Sender): (\d+) .*Communicator: "([^"]*)".*Tag: (\d+)', rest)
            if not f or f.group(3) != "MPI_COMM_WORLD":
                fail("rank %d: a message not on MPI_COMM_WORLD: %s" % (r, rest))
            kind = "sends" if typ == "MPI_SEND" else "recvs"
            pending.setdefault(r, []).append((kind, (int(f.group(2)), int(f.group(4)))))
        elif typ == "MPI_COLLECTIVE_END":
            if "Operation: BARRIER" not in rest or 'Communicator: "MPI_COMM_WORLD"' not in rest:
                fail("rank %d: a collective other than MPI_Barrier on MPI_COMM_WORLD: %s" % (r, rest))
            pending.setdefault(r, []).append(("barriers", ()))
        elif typ.startswith("MPI_") and typ != "MPI_COLLECTIVE_BEGIN":
            fail("rank %d: %s events are not covered" % (r, typ))
    for r, x in rk.items():
        if x.first is None or x.stack:
            fail("rank %d: no events, or calls left open" % r)
    return rk


def wait_states(rk):
    """each rank's synchronisation points: (end of the wait, rank waited for, its time)"""
    queues = {}
    for s, x in rk.items():
        for peer, tag, enter, leave, name in x.sends:
            queues.setdefault((s, peer, tag), [[], []])[0].append((enter, leave, name))
    for r, x in rk.items():
        for peer, tag, enter, leave, name in x.recvs:
            queues.setdefault((peer, r, tag), [[], []])[1].append((enter, leave, name))
    for (s, r, tag), (sends, recvs) in queues.items():
        if len(sends) != len(recvs):
            fail("%d messages from rank %d to %d (tag %d), %d receives" %
                 (len(sends), s, r, tag, len(recvs)))
        for (s_in, s_out, s_name), (r_in, r_out, _) in zip(sends, recvs):  # MPI's message order
            until = min(s_in, r_out)
            if until > r_in:  # Late Sender
                rk[r].sync.append((until, s, s_in))
            if s_name in BLOCK_SEND and s_in < r_in <= s_out:  # Late Receiver
                rk[s].sync.append((r_in, r, r_in))
    n = {len(x.barriers) for x in rk.values()}
    if len(n) != 1:
        fail("the ranks entered different numbers of barriers: %s" % sorted(n))
    for k in range(n.pop()):
        last = max(x.barriers[k][0] for x in rk.values())
        who = min(r for r, x in rk.items() if x.barriers[k][0] == last)
        for r, x in rk.items():
            enter, leave = x.barriers[k][0], x.barriers[k][1]
            until = min(last, leave)
            if until > enter and who != r:
                x.sync.append((until, who, min(last, until)))
    for x in rk.values():
        x.sync.sort(key=lambda s: s[0])


def first_call(x, names):
    """(enter, leave) of the rank's first call of one of NAMES, or None"""
    return next(((e, l) for e, l, n in x.mpi if n in names), None)


def critical_path(rk):
    """the path's pieces: (rank, from, to). As Scalasca: with MPI_Finalize on every rank, from
    the Enter of MPI_Finalize of the (lowest) rank that entered it last back to MPI_Init's
    Enter; else from the end of the rank that ends last back to the first event."""
    fin = {r: first_call(x, ("MPI_Finalize",)) for r, x in rk.items()}
    init = {r: first_call(x, ("MPI_Init", "MPI_Init_thread")) for r, x in rk.items()}
    if all(fin.values()):
        latest = max(f[0] for f in fin.values())
        owner = min(r for r in rk if fin[r][0] == latest)
        at = fin[owner][0]
    else:
        owner = min(rk, key=lambda r: (-rk[r].last, r))
        at = rk[owner].last
    lo = {r: init[r][0] if all(init.values()) else x.first for r, x in rk.items()}
    pieces = []
    for _ in range(sum(len(x.sync) for x in rk.values()) + 1):
        before = [s for s in rk[owner].sync if s[0] < at]
        if not before or before[-1][0] <= lo[owner]:
            break
        wait_end, peer, peer_time = before[-1]
        pieces.append((owner, wait_end, at))
        owner, at = peer, peer_time
    else:
        fail("the critical path does not end")
    pieces.append((owner, lo[owner], at))
    return pieces


def main():
    if len(sys.argv) != 3:
        fail("usage: trace_pop.py EVENTS DEFS")
    tps, ranks = read_defs(sys.argv[2])
    rk = read_events(sys.argv[1], ranks)
    wait_states(rk)
    pieces = critical_path(rk)
    xfer = 0
    for r, a, b in pieces:
        for enter, leave, name in rk[r].mpi:
            if name not in INIT_EXIT:
                xfer += max(0, min(b, leave) - max(a, enter))
    runtime = max(x.time for x in rk.values()) / tps
    comp = max(x.time - sum(l - e for e, l, _ in x.mpi) for x in rk.values()) / tps
    xfer /= tps
    ideal = min(max(runtime - xfer, comp), runtime)
    print("runtime %.9f" % runtime)
    print("computation %.9f" % comp)
    print("transfer %.9f" % xfer)
    print("ideal %.9f" % ideal)
    print("pop_transfer %.6f" % (ideal / runtime if runtime > 0 else 1))
    print("pop_serialisation %.6f" % (comp / ideal if ideal > 0 else 1))
    print("pop_communication %.6f" % (comp / runtime if runtime > 0 else 1))
    print("pieces %d" % len(pieces))
    print("hops %d" % (len(pieces) - 1))


main()
