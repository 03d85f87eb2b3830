#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# scalasca_invariants.py TRACE: what Scalasca 2.6's scout.mpi requires of an OTF2 trace, checked
# with OTF2's own Python reader (python3-otf2, no code shared with the writer), so that a trace
# can be tested where Scalasca is not installed (docs/analysis.md, "What Scalasca requires of a
# trace"). One line per invariant, "ok NAME: detail" or "violated NAME: detail"; exit status 1
# if one is violated.
#   program_region  each ProgramBegin names a region of role ARTIFICIAL and paradigm
#                   MEASUREMENT_SYSTEM whose name is the program name without its path and
#                   whose canonical name is the program name followed by its arguments, each
#                   after a blank (pearl's Otf2EvtCallbacks.cpp, otf2EvtCbProgramBegin: else
#                   "Unable to find program region in global definitions!")
#   program_region_present  the trace has such a region at all (printed separately, so that a
#                   test can tell "not written" from "written wrong")
#   mpi_file        every region of paradigm MPI has the source file "MPI", and every region
#                   with that file is named MPI_* (pearl's Region.cpp, classify: Scalasca takes
#                   a region for MPI by its file and classifies it by the name after "MPI_")
#   cpu_locations   every location is of type CPU_THREAD (pearl's Otf2DefCallbacks.cpp,
#                   otf2DefCbLocation: else "Locations of non-CPU type not yet supported!"
#                   and scout reads nothing); metric values, also of per-host plugins, are
#                   recorded on CPU locations
#   mpi_init, mpi_finalize  in an MPI trace, every process (location group) has exactly one
#                   Enter and one Leave of MPI_Init or MPI_Init_thread, and of MPI_Finalize
#                   (scout's MpiCommunicationHandler.cpp: the first Leave of each triggers an
#                   MPI_Allreduce over MPI_COMM_WORLD; the critical path starts at
#                   MPI_Finalize's Leave, CriticalPath.pattern)
import os
import sys

import otf2

# python3-otf2 3.0.2 cannot read InterComm definitions; test/mpi/read_defs.py corrects it
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi"))
from read_defs import fix_inter_comm_fields  # noqa: E402


def main(path):
    fix_inter_comm_fields()
    out, bad = [], 0

    def say(ok, name, detail):
        nonlocal bad
        out.append("%s %s: %s" % ("ok" if ok else "violated", name, detail))
        bad += not ok

    with otf2.reader.open(path) as trace:
        regions = list(trace.definitions.regions)
        locations = list(trace.definitions.locations)
        processes = sorted({g.name for g in trace.definitions.location_groups
                            if g.location_group_type == otf2.LocationGroupType.PROCESS})
        enters, leaves, programs = {}, {}, []
        for loc, ev in trace.events:
            group = loc.group.name
            if isinstance(ev, otf2.events.ProgramBegin):
                programs.append((group, ev.program_name, list(ev.program_arguments)))
            elif isinstance(ev, (otf2.events.Enter, otf2.events.Leave)):
                name = ev.region.name
                if name in ("MPI_Init", "MPI_Init_thread", "MPI_Finalize"):
                    key = (group, "MPI_Finalize" if name == "MPI_Finalize" else "MPI_Init")
                    d = enters if isinstance(ev, otf2.events.Enter) else leaves
                    d[key] = d.get(key, 0) + 1
    artificial = [r for r in regions if r.region_role == otf2.RegionRole.ARTIFICIAL and
                  r.paradigm == otf2.Paradigm.MEASUREMENT_SYSTEM]
    out.append("%s program_region_present: %d artificial measurement-system region(s)" %
               ("ok" if artificial else "absent", len(artificial)))
    if not programs:
        say(False, "program_region", "no ProgramBegin event")
    for group, prog, args in programs:
        canon = " ".join([prog] + args)
        found = [r for r in artificial if r.name == os.path.basename(prog) and
                 r.canonical_name == canon]
        say(bool(found), "program_region", "%s: ProgramBegin %r -> region name %r canonical %r" %
            (group, prog, os.path.basename(prog), canon))
    non_cpu = ["%s (%s)" % (loc.name, loc.type.name) for loc in locations
               if loc.type != otf2.LocationType.CPU_THREAD]
    say(not non_cpu, "cpu_locations", "%d locations; not CPU_THREAD: %s" %
        (len(locations), ", ".join(non_cpu[:5]) or "none"))
    mpi = [r for r in regions if r.paradigm == otf2.Paradigm.MPI]
    wrong = [r.name for r in mpi if r.source_file != "MPI"]
    say(not wrong, "mpi_file", "%d MPI regions; without source file \"MPI\": %s" %
        (len(mpi), ", ".join(wrong[:5]) or "none"))
    misnamed = [r.name for r in regions if r.source_file == "MPI" and not r.name.startswith("MPI_")]
    say(not misnamed, "mpi_file", "regions of file \"MPI\" not named MPI_*: %s" %
        (", ".join(misnamed[:5]) or "none"))
    if mpi:
        groups = processes
        for call in ("MPI_Init", "MPI_Finalize"):
            odd = ["%s %d/%d" % (g, enters.get((g, call), 0), leaves.get((g, call), 0))
                   for g in groups
                   if enters.get((g, call), 0) != 1 or leaves.get((g, call), 0) != 1]
            say(not odd, call.lower(), "%d processes; without one Enter/Leave: %s" %
                (len(groups), ", ".join(odd[:5]) or "none"))
    print("\n".join(out))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: scalasca_invariants.py TRACE (its traces.otf2)")
    sys.exit(main(sys.argv[1]))
