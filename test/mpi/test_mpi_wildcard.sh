#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_wildcard.sh: a process whose first receives are MPI_Irecv(MPI_ANY_SOURCE,
# MPI_ANY_TAG) (wildcard_first.c, after MPICH's pt2pt/anyall, which ended in SIGSEGV under
# tracing: in Open MPI both wildcards are -1, whose key was the message-id counters' "no
# key", so the first such receive took its id through no counter). Profiling and tracing
# runs end normally; in the trace every one of the program's 31 messages has its receive,
# by (communicator, ranks, tag, message id) and size (trace_messages --match). And the
# rescue thread starts in a program linked with the C library before the runtime.
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs wildcard_first_scorep
for mode in profile trace; do
    x=$work/exp_$mode
    tracing=false
    [ $mode = profile ] || tracing=true
    status=0
    env SCOREP_ENABLE_TRACING=$tracing SCOREP_ENABLE_PROFILING=true SCOREP_EXPERIMENT_DIRECTORY="$x" \
        timeout 120 mpirun --oversubscribe --allow-run-as-root -np 2 "$T/wildcard_first_scorep" \
        >run_$mode.out 2>run_$mode.err || status=$?
    expect_eq "$status" 0 "$mode: the run ends normally (run.err: $(tail -n 3 run_$mode.err))"
    expect_eq "$(count_lines 'ends without MPI_Finalize' run_$mode.err)" 0 "$mode: no rank died"
    # the program is linked by libtool with the C library before the runtime, where the
    # runtime's dlsym(RTLD_NEXT, "pthread_create") finds nothing: the rescue thread must
    # start all the same (rescue.c), or a signal would end the process without its data
    expect_eq "$(count_lines 'cannot start the rescue thread' run_$mode.err)" 0 \
        "$mode: the rescue thread started on every rank"
done
# 30 messages on MPI_COMM_WORLD and 1 on its duplicate, each matched once
m=$("$MESSAGES" --match "$work/exp_trace/traces.otf2" 2>&1) || fail "messages do not match: $m"
expect_eq "$(echo "$m" | sed 's/ probes=.*//')" "sends=31 receives=31 matched=31 unmatched=0 mismatched_size=0" \
    "every message has its receive"

echo "$checks checks passed"
