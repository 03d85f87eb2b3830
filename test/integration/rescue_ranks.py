#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# rescue_ranks.py TRACE: reads a recovered OTF2 trace with python3-otf2 (OTF2's own reader,
# which resolves MPI groups through MPI's COMM_LOCATIONS group) and prints, for
# test_rescue_mpi.sh, per world rank r "rank R: LOCATION-GROUP events N" (member r of MPI's
# location group) and per point-to-point message "send|recv LOCATION-GROUP peer PEER-GROUP"
# with the peer's rank resolved in the event's communicator, so a shifted rank shows.
import sys

import otf2


def main(path):
    with otf2.reader.open(path) as trace:
        mpi = [g for g in trace.definitions.groups
               if g.group_type == otf2.GroupType.COMM_LOCATIONS
               and g.paradigm == otf2.Paradigm.MPI]
        if len(mpi) != 1:
            print("MPI location groups: %d" % len(mpi))
            return 1
        for r, loc in enumerate(mpi[0].members):
            print("rank %d: %s events %d" % (r, loc.group.name, loc.number_of_events))
        for location, event in trace.events:
            if isinstance(event, (otf2.events.MpiSend, otf2.events.MpiIsend)):
                kind, rank = "send", event.receiver
            elif isinstance(event, (otf2.events.MpiRecv, otf2.events.MpiIrecv)):
                kind, rank = "recv", event.sender
            else:
                continue
            members = event.communicator.group.members
            peer = members[rank].group.name if rank < len(members) else "INVALID %d" % rank
            print("%s %s peer %s" % (kind, location.group.name, peer))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
