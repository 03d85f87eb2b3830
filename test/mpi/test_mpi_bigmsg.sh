#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_bigmsg.sh: message sizes beyond 2 GiB are recorded exactly (large-count
# interfaces, 64-bit through the core into OTF2 and Cube). bigmsg.c sends 2 160 000 000 bytes
# three times (MPI_Send/MPI_Recv, derived-type MPI_Isend/MPI_Probe+MPI_Irecv+MPI_Wait,
# MPI_Bcast), linked with the adapter and under scorep-run, one run at a time. Skipped (77)
# without the MPI adapter, mpirun, or 6 GB of available memory (2 processes x 2.2 GB).
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs bigmsg bigmsg_scorep
avail=$(awk '/^MemAvailable:/ { print int($2 / 1024 / 1024) }' /proc/meminfo)
[ "${avail:-0}" -ge 6 ] || {
    echo "SKIP: ${avail:-?} GB of memory available, 6 needed"
    echo "SKIP-NOT-A-PACKAGE: the machine has too little free memory for two 2.2 GB buffers"
    exit 77
}

B=2160000000
for mode in linked scorep_run; do
    x=$work/$mode
    if [ "$mode" = linked ]; then set -- "$T/bigmsg_scorep"; else set -- "$top_builddir/scorep-run" "$T/bigmsg"; fi
    status=0
    env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$x" \
        SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
        timeout 600 mpirun --oversubscribe --allow-run-as-root -np 2 "$@" >"$mode.out" 2>"$mode.err" ||
        status=$?
    check_profiles
    expect_eq "$status" 0 "$mode: bigmsg runs (it checks the data it receives)"
    _m=$("$MESSAGES" --match "$x/traces.otf2" 2>&1) || fail "$mode: messages do not match: $_m"
    expect_eq "$(echo "$_m" | sed 's/ late=[0-9]*//')" \
        "sends=2 receives=2 matched=2 unmatched=0 mismatched_size=0 probes=1" "$mode: both messages matched"
    "$MESSAGES" "$x/traces.otf2" >"$mode.msgs" 2>&1 || fail "$mode: trace_messages failed: $(cat "$mode.msgs")"
    expect_grep "^SEND rank=0 .* tag=1 bytes=$B id=1 " "$mode.msgs" "$mode: MPI_Send bytes"
    expect_grep "^RECV rank=1 .* tag=1 bytes=$B id=1 " "$mode.msgs" "$mode: MPI_Recv bytes"
    expect_grep "^ISEND rank=0 .* tag=2 bytes=$B id=1 " "$mode.msgs" "$mode: MPI_Isend (derived type) bytes"
    expect_grep "^PROBE rank=1 .* region=MPI_Probe .* tag=2 bytes=$B id=1 " "$mode.msgs" "$mode: MPI_Probe bytes"
    expect_grep "^IRECV rank=1 .* tag=2 bytes=$B id=1 " "$mode.msgs" "$mode: MPI_Irecv/MPI_Wait bytes"
    expect_eq "$(grep -c 'Operation: BCAST, .*, Sent: 4320000000, Received: 2160000000$' "$(trace_file "$x")")" 1 \
        "$mode: MPI_Bcast at the root (2 x sent, own copy received)"
    expect_eq "$(grep -c 'Operation: BCAST, .*, Sent: 0, Received: 2160000000$' "$(trace_file "$x")")" 1 \
        "$mode: MPI_Bcast at rank 1"
    # the profile: bytes_sent / bytes_received of the call paths (Cube's 64-bit values)
    profile_dump "$x" -m bytes_sent,bytes_received >"$mode.prof"
    expect_grep "	MPI_Send	0	bytes_sent=$B	bytes_received=0$" "$mode.prof" "$mode: profile MPI_Send"
    expect_grep "	MPI_Recv	1	bytes_sent=0	bytes_received=$B$" "$mode.prof" "$mode: profile MPI_Recv"
    expect_grep "	MPI_Isend	0	bytes_sent=$B	bytes_received=0$" "$mode.prof" "$mode: profile MPI_Isend"
    expect_grep "	MPI_Wait	1	bytes_sent=0	bytes_received=$B$" "$mode.prof" "$mode: profile MPI_Wait"
    expect_grep "	MPI_Bcast	0	bytes_sent=4320000000	bytes_received=$B$" "$mode.prof" \
        "$mode: profile MPI_Bcast"
done

echo "$checks checks passed"
