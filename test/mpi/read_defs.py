#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# read_defs.py TRACE: reads an OTF2 trace with python3-otf2 (OTF2's own Python reader) and
# prints "reader_fix=F inter_comms=N inter_sends=S inter_receives=R paired=P invalid_peers=I":
# messages on InterComm definitions, their peers resolved in the group the process is not in.
# F=1: the reader's InterComm had to be corrected first (see fix_inter_comm_fields).
import collections
import sys

import otf2


def fix_inter_comm_fields():
    """python3-otf2 3.0.2 gives InterComm the fields of its base class Comm followed by its
    own (name, group, parent, flags, groupA, groupB, parent, flags), so it reads the
    callback's (name, groupA, groupB, commonCommunicator, flags) into the wrong fields and
    fails on every InterComm definition (groupB looked up as a communicator); and it types
    the common communicator as an InterComm, where OTF2 allows a Comm too. Keeps name and
    InterComm's own fields, in OTF2's order, the common communicator typed Comm; 1 if the
    correction was needed."""
    d = otf2.definitions
    fields = d.InterComm._fields
    names = [f.name for f in fields]
    if names[:4] != ["name", "group", "parent", "flags"] or "groupA" not in names:
        return 0
    own = [f._replace(type=d.Comm) if f.name == "parent" else f for f in fields[4:]]
    d.InterComm._fields = (fields[0],) + tuple(own)
    return 1


def peer_location(comm, location, rank):
    """The location of rank `rank` of the group of `comm` that `location` is not in."""
    a, b = comm.groupA.members, comm.groupB.members
    other = b if location in a else a if location in b else None
    return other[rank] if other is not None and rank < len(other) else None


def main(path):
    sends, recvs = collections.Counter(), collections.Counter()
    invalid = 0
    fixed = fix_inter_comm_fields()
    with otf2.reader.open(path) as trace:
        inter = list(trace.definitions.inter_comms)
        for location, event in trace.events:
            if isinstance(event, (otf2.events.MpiSend, otf2.events.MpiIsend)):
                is_send, rank = True, event.receiver
            elif isinstance(event, (otf2.events.MpiRecv, otf2.events.MpiIrecv)):
                is_send, rank = False, event.sender
            else:
                continue
            comm = event.communicator
            if not isinstance(comm, otf2.definitions.InterComm):
                continue
            peer = peer_location(comm, location, rank)
            if peer is None:
                invalid += 1
                continue
            src, dst = (location, peer) if is_send else (peer, location)
            key = (comm._ref, src._ref, dst._ref, event.msg_tag, event.msg_length)
            (sends if is_send else recvs)[key] += 1
    paired = sum((sends & recvs).values())
    print("reader_fix=%d inter_comms=%d inter_sends=%d inter_receives=%d paired=%d "
          "invalid_peers=%d" % (fixed, len(inter), sum(sends.values()), sum(recvs.values()),
                                paired, invalid))


if __name__ == "__main__":
    main(sys.argv[1])
