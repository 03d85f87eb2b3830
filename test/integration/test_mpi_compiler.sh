#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_compiler.sh: an MPI program built with `scorep-cc mpicc` (compiler instrumentation
# plus PMPI wrappers): late MPI initialisation, one profile and one trace for the job with
# exact visits, bytes and messages per rank, link-time and scorep-run giving the same
# messages, and MPI_Abort not hanging the other ranks in the tool.
. "$top_srcdir/test/integration/lib.sh"
require_mpi
MESSAGES="$top_builddir/test/tools/trace_messages"

"$SCOREP_CC" mpicc -O2 -o late "$PROGRAMS/mpi_late.c" || fail "scorep-cc mpicc"
mpicc -O2 -o late_plain "$PROGRAMS/mpi_late.c" || fail "mpicc"

rc=0
# clock_gettime: one clock for the whole host, so a receive is never stamped before its send
# (the TSCs of virtual CPUs may differ by some ticks, which no tolerance fits every machine)
SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime SCOREP_EXPERIMENT_DIRECTORY=exp \
    timeout 120 mpirun -np 4 ./late >out 2>err || rc=$?
expect_eq "$rc" 0 "4 ranks run measured"
expect_eq "$(cat out)" "done 4" "program output unchanged"
expect_eq "$(ls exp | sort | tr '\n' ' ')" "MANIFEST.md profile.cubex scorep.cfg traces traces.def traces.otf2 " \
    "one experiment directory for the job"

# profile: one location per rank, merged call paths, exact values
expect_eq "$("$CUBE_DUMP" --system exp/profile.cubex | cut -f3 | sort -u | tr '\n' ',')" \
    "MPI Rank 0,MPI Rank 1,MPI Rank 2,MPI Rank 3," "system tree: 4 ranks"
expect_eq "$(profile_sum exp main visits)" 4 "main once per rank"
expect_eq "$(profile_sum exp main/before_init visits)" 4 "work before MPI_Init recorded"
expect_eq "$(profile_sum exp main/MPI_Init visits)" 4 "MPI_Init"
expect_eq "$(profile_sum exp main/exchange/MPI_Sendrecv visits)" 12 "3 Sendrecv per rank"
expect_eq "$(profile_sum exp main/exchange/MPI_Sendrecv bytes_sent)" 12000 "bytes sent"
expect_eq "$(profile_sum exp main/exchange/MPI_Sendrecv bytes_received)" 12000 "bytes received"
expect_eq "$(profile_sum exp main/exchange/MPI_Sendrecv bytes_sent 2)" 3000 "bytes sent by rank 2"
expect_eq "$(profile_sum exp main/MPI_Barrier visits)" 4 "barrier"

# trace: every message matched, per-rank counts, no receive before its send (no tolerance)
expect_eq "$("$MESSAGES" --match exp/traces.otf2)" \
    "sends=12 receives=12 matched=12 unmatched=0 mismatched_size=0 probes=0 late=0" \
    "messages matched, none received before it was sent"
"$MESSAGES" exp/traces.otf2 >link.raw || fail "trace_messages exp: $(head -c 500 link.raw)"
sed 's/ time=[0-9]*//' link.raw | sort >link.msgs
expect_eq "$(grep -c '^SEND rank=2 comm=0 from=2 to=3 tag=[012] bytes=1000 id=1 ' link.msgs)" 3 \
    "rank 2 sends 3 x 1000 bytes to rank 3, each the first of its tag"
expect_eq "$(grep -c '^RECV rank=0 comm=0 from=3 to=0 ' link.msgs)" 3 "rank 0 receives from 3"
expect_eq "$(trace_count exp ENTER "" before_init)" 4 "before_init entered on every rank"

# the same program unchanged under scorep-run: the same messages
rc=0
SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=pre SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
    timeout 120 mpirun -np 4 "$top_builddir/scorep-run" ./late_plain >out2 2>err2 || rc=$?
expect_eq "$rc" 0 "scorep-run under mpirun"
expect_defs_clean exp "link time"
expect_defs_clean pre "scorep-run"
"$MESSAGES" pre/traces.otf2 >pre.raw || fail "trace_messages pre: $(head -c 500 pre.raw)"
sed 's/ time=[0-9]*//' pre.raw | sort >pre.msgs
expect_eq "$(cmp -s link.msgs pre.msgs && echo same)" same "link-time and preload messages equal"
expect_eq "$(profile_sum pre MPI_Sendrecv visits)" 12 "preload: Sendrecv at the root"

# MPI_Abort: the job ends (no rank waits in the tool), nothing hangs
rc=0
SCOREP_EXPERIMENT_DIRECTORY=abrt timeout 60 mpirun -np 4 ./late abort >out3 2>err3 || rc=$?
[ "$rc" -ne 124 ] || fail "MPI_Abort run hung"
expect_eq "$([ "$rc" -ne 0 ] && echo nonzero)" nonzero "MPI_Abort ends the job with an error"
expect_file abrt/scorep.cfg "experiment directory of the aborted job"
done_ok
