#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_transparency.sh: the MPI wrappers are transparent. transparency.c writes every
# status (all bytes, sentinel-filled before each call), error code, flag, index, outcount,
# handle state and received value it observes; the files must be identical uninstrumented,
# linked with the adapter (transparency_scorep) and under scorep-run, and the traces of both
# measured runs must hold exactly the messages that really travelled. Skipped (77) without
# the MPI adapter or mpirun.
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs transparency transparency_scorep

# run NAME [ENV...] -- COMMAND...: 2 processes, observations in NAME.0 and NAME.1
run()
{
    _name=$1
    shift
    status=0
    env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$work/$_name.exp" \
        SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
        timeout 300 mpirun --oversubscribe --allow-run-as-root -np 2 "$@" "$work/$_name" \
        >"$_name.out" 2>"$_name.err" || status=$?
    check_profiles
    expect_eq "$status" 0 "$_name: runs"
}

run plain "$T/transparency"
run linked "$T/transparency_scorep"
run scorep_run "$top_builddir/scorep-run" "$T/transparency"
expect_no_file "$work/plain.exp" "the plain run wrote no experiment"

# what MPI itself does (so the comparison below compares something; error codes are Open
# MPI 4.1's: 6 MPI_ERR_RANK, 8 MPI_ERR_ROOT, 15 MPI_ERR_TRUNCATE, 18 MPI_ERR_IN_STATUS)
expect_eq "$(wc -l <plain.0 | tr -d ' ') $(wc -l <plain.1 | tr -d ' ')" "71 128" "lines observed"
expect_grep '^send to rank 7: rc=6 class=6$' plain.0 "invalid rank returns MPI_ERR_RANK"
expect_grep '^bcast from rank 7: rc=8 class=8$' plain.0 "invalid root returns MPI_ERR_ROOT"
expect_grep '^recv from rank 7 status: source=-77 tag=-88 error=-99 ' plain.1 \
    "a failed receive leaves the status alone"
expect_grep '^truncated recv: rc=15 class=15$' plain.1 "truncation returns MPI_ERR_TRUNCATE"
expect_grep '^waitall with truncation: rc=18 class=18$' plain.1 "MPI_ERR_IN_STATUS"
expect_grep '^waitall status 0: source=0 tag=3 error=15 ' plain.1 "MPI_ERROR of a failed request"
expect_grep '^waitany null index=-32766$' plain.1 "Waitany on null requests: MPI_UNDEFINED"
expect_grep '^testany null index=-32766 flag=1$' plain.1 "Testany on null requests"
expect_grep '^waitsome null outcount=-32766 indices=-5 -5 -5$' plain.1 "Waitsome on null requests"
expect_grep '^wait null status: source=-1 tag=-1 error=-99 ' plain.1 \
    "single completion leaves MPI_ERROR alone"
expect_grep '^test pending flag=0 request=unchanged$' plain.1 "Test of a pending receive"
expect_grep '^test pending status: source=-77 tag=-88 error=-99 ' plain.1 \
    "Test of a pending receive leaves the status alone"
expect_grep '^test inactive flag=1 request=unchanged$' plain.1 "Test of an inactive request"
expect_grep '^wait persistent request=unchanged data=81$' plain.1 "persistent request kept"
expect_grep '^wait persistent truncated request=NULL data=60$' plain.1 \
    "Open MPI releases a persistent request that failed"
expect_grep '^waitsome completed 1 1 1 requests=NULL NULL NULL data=90 91 92$' plain.1 \
    "Waitsome completes each request once"
expect_grep '^wait cancelled request=NULL cancelled=1$' plain.1 "cancelled receive"

# identical with measurement
for mode in linked scorep_run; do
    for r in 0 1; do
        expect_eq "$(diff "plain.$r" "$mode.$r" | head -n 20)" "" "$mode: rank $r observes what it observes uninstrumented"
    done
done

# the traces: the 54 messages that travelled (none for the calls MPI rejected, the three
# truncated receives included; 40 of derived types whose handles MPI reuses), all matched
# with the same size on both sides
for mode in linked scorep_run; do
    x=$work/$mode.exp
    expect_file "$x/traces.otf2" "$mode: trace written"
    _m=$("$MESSAGES" --match "$x/traces.otf2" 2>&1) || fail "$mode: messages do not match: $_m"
    expect_eq "$(echo "$_m" | sed 's/ late=[0-9]*//')" \
        "sends=54 receives=54 matched=54 unmatched=0 mismatched_size=0 probes=2" "$mode: messages matched"
    "$MESSAGES" "$x/traces.otf2" >"$mode.msgs" 2>&1 || fail "$mode: trace_messages failed: $(cat "$mode.msgs")"
    expect_eq "$(grep -c 'to=4294967295' "$mode.msgs")" 0 "$mode: no message to an invalid rank"
    expect_eq "$(grep -c 'tag=4294967291' "$mode.msgs")" 0 "$mode: no message with an invalid tag"
    expect_grep '^RECV rank=1 .* tag=2 bytes=8 id=1 ' "$mode.msgs" "$mode: truncated MPI_Recv recorded"
    expect_grep '^IRECV rank=1 .* tag=3 bytes=8 id=1 ' "$mode.msgs" "$mode: truncated Irecv recorded"
    expect_grep '^IRECV rank=1 .* tag=14 bytes=8 id=1 ' "$mode.msgs" \
        "$mode: truncated persistent receive recorded"
    expect_grep '^IRECV rank=1 .* tag=5 bytes=4 id=1 ' "$mode.msgs" \
        "$mode: the request reusing a failed request's handle is its own"
    expect_eq "$(grep -c '^IRECV rank=1 .* tag=8 ' "$mode.msgs")" 2 "$mode: persistent receives"
    expect_eq "$(grep '^SEND rank=0 .* tag=20 ' "$mode.msgs" | sed 's/.* bytes=\([0-9]*\) .*/\1/' | tr '\n' ' ')" \
        "$(seq 4 4 160 | tr '\n' ' ')" "$mode: sizes of the sends of derived types"
    # the profile's byte counts (the inline hooks of the message path), from the program:
    # rank 0's MPI_Send calls that MPI accepted, 8 (tag 2) + 4 + 8 + 4 + 8 + 12 + 12 + 12
    # bytes and the 40 derived types of 4 to 160 bytes (3280); rank 1's MPI_Recv calls, the
    # truncated one (8 bytes sent), the wildcard (4), 3 ints (12) and the 3280
    expect_eq "$(profile_sum "$x" MPI_Send bytes_sent 0)" 3348 "$mode: profile, bytes of MPI_Send"
    expect_eq "$(profile_sum "$x" MPI_Recv bytes_received 1)" 3304 \
        "$mode: profile, bytes of MPI_Recv"
    # collectives: 1 barrier each, and the two failed ones end without bytes
    expect_eq "$(trace_count "$x" MPI_COLLECTIVE_BEGIN)" 6 "$mode: collectives begun"
    expect_eq "$(trace_count "$x" MPI_COLLECTIVE_END)" 6 "$mode: collectives ended"
    expect_eq "$(grep -c 'MPI_COLLECTIVE_END .*Operation: BCAST.*Sent: 0, Received: 0' "$(trace_file "$x")")" 2 \
        "$mode: the failed MPI_Bcast moved no bytes"
done

echo "$checks checks passed"
