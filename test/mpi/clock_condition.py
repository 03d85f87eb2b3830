#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# clock_condition.py TRACE [-v]: the clock condition of an OTF2 trace, read with python3-otf2
# (OTF2's own reader, not the runtime's code): every message's receive must complete no
# earlier than its send began, and a collective must not end on a rank before the ranks whose
# data it needs began it. Prints
#   "sends=S receives=R matched=M unmatched=U cancelled=C violations=V collectives=K
#    coll_violations=W"
# and, with -v, every violation on stderr.
# Messages: MpiSend/MpiIsend paired with MpiRecv/MpiIrecv by (communicator, sending rank,
# receiving rank, tag, mpi_message_id attribute) when the trace has the attribute, else in
# order per (communicator, sender, receiver, tag) (MPI does not overtake). An MpiIsend whose
# request is later MpiRequestCancelled on its location was cancelled: no message (an
# MpiIsendComplete of the request ends the chance). Collectives: the k-th collective on a
# communicator of each rank (blocking: MpiCollectiveBegin .. MpiCollectiveEnd; non-blocking:
# NonBlockingCollectiveRequest .. NonBlockingCollectiveComplete, ordered by request, as MPI
# orders both kinds together), intracommunicators only. Causality as MPI's semantics imply it:
#   barrier: every end >= every begin;
#   allreduce, allgather(v), reduce_scatter(_block): the end of a rank that receives >= the
#     begin of every other rank that sends;
#   bcast, scatter(v): the end of a non-root that receives >= the root's begin;
#   reduce, gather(v): the root's end >= the begin of every non-root that sends.
# Alltoall(v/w), scans and the rest are counted, not checked (a rank's data need not reach
# every other rank; neighbourhood collectives carry their global counterpart's operation).
import collections
import os
import sys

import otf2
from otf2 import events as ev
from otf2.enums import CollectiveOp as Op

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from read_defs import fix_inter_comm_fields  # noqa: E402 (python3-otf2's InterComm fields)

N2N = {Op.ALLREDUCE, Op.ALLGATHER, Op.ALLGATHERV, Op.REDUCE_SCATTER, Op.REDUCE_SCATTER_BLOCK}
ONE2N = {Op.BCAST, Op.SCATTER, Op.SCATTERV}
N2ONE = {Op.REDUCE, Op.GATHER, Op.GATHERV}


def rank_of(location):
    """The process (location group) of a location: threads send as their process."""
    return location.group


def peer_process(comm, location, rank):
    """The process of rank `rank` of `comm` as seen from `location` (on an InterComm: in the
    group `location` is not in); None when undefined."""
    if isinstance(comm, otf2.definitions.InterComm):
        a, b = comm.groupA.members, comm.groupB.members
        me = rank_of(location)
        in_a = any(rank_of(m) == me for m in a)
        other = b if in_a else a
    else:
        other = comm.group.members
    return rank_of(other[rank]) if rank < len(other) else None


class Checker:
    def __init__(self, verbose):
        self.verbose = verbose
        self.sends = {}  # key -> [time, cancelled] in order
        self.recvs = {}
        self.pending = {}  # (location, request) -> send record (MpiIsend not completed)
        self.cancelled = 0
        self.by_id = False
        self.coll = collections.defaultdict(list)  # (comm, process) -> [instance]
        self.nbc = {}  # (location, request) -> instance (its request event)
        self.open_coll = {}  # location -> its blocking collective begun and not ended
        self.seq = 0  # order of the begins (per process, the communicator's order)
        self.margins = []  # -v: (receive - send ticks, tag, id, send event) of each message

    def msg_id(self, event):
        for attr, value in (event.attributes or {}).items():
            if attr.name == "mpi_message_id":
                self.by_id = True
                return value
        return None

    def message(self, location, event, is_send):
        comm = event.communicator
        me = rank_of(location)
        peer = peer_process(comm, location, event.receiver if is_send else event.sender)
        src, dst = (me, peer) if is_send else (peer, me)
        key = (comm, src, dst, event.msg_tag, self.msg_id(event))
        rec = [event.time, False, location, type(event).__name__]
        (self.sends if is_send else self.recvs).setdefault(key, []).append(rec)
        if isinstance(event, ev.MpiIsend):
            self.pending[(location, event.request_id)] = rec

    def collective_begin(self, location, time, request=None):
        inst = {"begin": time, "loc": location, "end": None}
        if request is None:
            self.open_coll[location] = inst
        else:
            self.nbc[(location, request)] = inst
        # the communicator is known at the end: instances are put in order of their begins
        self.seq += 1
        inst["seq"] = self.seq

    def collective_end(self, location, event, inst):
        if inst is None:
            return
        inst.update(end=event.time, op=event.collective_op, root=event.root,
                    sent=event.size_sent, received=event.size_received)
        self.coll[(event.communicator, rank_of(location))].append(inst)

    def read(self, path):
        fix_inter_comm_fields()
        with otf2.reader.open(path) as trace:
            for location, event in trace.events:
                if isinstance(event, (ev.MpiSend, ev.MpiIsend)):
                    self.message(location, event, True)
                elif isinstance(event, (ev.MpiRecv, ev.MpiIrecv)):
                    self.message(location, event, False)
                elif isinstance(event, ev.MpiIsendComplete):
                    self.pending.pop((location, event.request_id), None)
                elif isinstance(event, ev.MpiRequestCancelled):
                    rec = self.pending.pop((location, event.request_id), None)
                    if rec is not None:
                        rec[1] = True
                        self.cancelled += 1
                elif isinstance(event, ev.MpiCollectiveBegin):
                    self.collective_begin(location, event.time)
                elif isinstance(event, ev.MpiCollectiveEnd):
                    self.collective_end(location, event,
                                        self.open_coll.pop(location, None))
                elif isinstance(event, ev.NonBlockingCollectiveRequest):
                    self.collective_begin(location, event.time, event.request_id)
                elif isinstance(event, ev.NonBlockingCollectiveComplete):
                    self.collective_end(location, event,
                                        self.nbc.pop((location, event.request_id), None))

    def report(self, what, *args):
        if self.verbose:
            print("violation: " + what % args, file=sys.stderr)

    def check_messages(self):
        sends = recvs = matched = unmatched = late = 0
        for key in set(self.sends) | set(self.recvs):
            s = [x for x in self.sends.get(key, []) if not x[1]]
            r = self.recvs.get(key, [])
            sends += len(s)
            recvs += len(r)
            pairs = min(len(s), len(r))
            matched += pairs
            unmatched += len(s) + len(r) - 2 * pairs
            for snd, rcv in zip(s, r):
                if self.verbose:
                    self.margins.append((rcv[0] - snd[0], key[3], key[4], snd[3]))
                if rcv[0] < snd[0]:
                    late += 1
                    comm, src, dst, tag, mid = key
                    self.report("%s at %d (%s) before %s at %d (%s): comm %s, %s -> %s, tag %d, "
                                "id %s, %d ticks", rcv[3], rcv[0], rcv[2].name, snd[3], snd[0],
                                snd[2].name, comm.name, src.name, dst.name, tag, mid,
                                snd[0] - rcv[0])
        return sends, recvs, matched, unmatched, late

    def check_collectives(self):
        by_comm = collections.defaultdict(dict)
        for (comm, proc), insts in self.coll.items():
            if isinstance(comm, otf2.definitions.InterComm):
                continue
            by_comm[comm][proc] = sorted(insts, key=lambda i: i["seq"])
        count = bad = 0
        for comm, procs in by_comm.items():
            members = [rank_of(m) for m in comm.group.members]
            n = min(len(v) for v in procs.values()) if procs else 0
            if any(p not in procs for p in members):
                n = 0  # a member without collectives on it: nothing to line up
            for k in range(n):
                count += 1
                inst = {p: procs[p][k] for p in members}
                bad += self.check_instance(comm, k, members, inst)
        return count, bad

    def check_instance(self, comm, k, members, inst):
        op = inst[members[0]]["op"]
        need = []  # (process that waits, process it waits for)
        if op == Op.BARRIER:
            need = [(p, q) for p in members for q in members if p != q]
        elif op in N2N:
            need = [(p, q) for p in members for q in members
                    if p != q and inst[p]["received"] and inst[q]["sent"]]
        elif op in ONE2N or op in N2ONE:
            root = inst[members[0]]["root"]
            if root >= len(members):
                return 0
            r = members[root]
            if op in ONE2N:
                need = [(p, r) for p in members if p != r and inst[p]["received"]]
            else:
                need = [(r, q) for q in members if q != r and inst[q]["sent"]]
        bad = 0
        for p, q in need:
            if inst[p]["end"] < inst[q]["begin"]:
                bad += 1
                self.report("collective %s #%d on %s: %s ends at %d before %s begins at %d",
                            op, k, comm.name, p.name, inst[p]["end"], q.name, inst[q]["begin"])
        return 1 if bad else 0


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print("usage: clock_condition.py TRACE [-v]", file=sys.stderr)
        return 2
    c = Checker("-v" in argv[2:])
    c.read(argv[1])
    sends, recvs, matched, unmatched, late = c.check_messages()
    count, bad = c.check_collectives()
    if c.verbose:
        print("closest messages (receive - send ticks, tag, id, send event): %s"
              % sorted(c.margins)[:5], file=sys.stderr)
    print("sends=%d receives=%d matched=%d unmatched=%d cancelled=%d violations=%d "
          "collectives=%d coll_violations=%d"
          % (sends, recvs, matched, unmatched, c.cancelled, late, count, bad))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
