#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_paced.sh: bench/mpi_bench.c's paced ping-pong (`mpi_bench paced N D`; issue #31,
# docs/mpi.md, "A paced ping-pong") does what its figures are read as, on 2 ranks:
# - traced: the pace lies between the tool's Leave of each MPI_Recv and the Enter of the
#   MPI_Send after it (at least D ns apart in the trace, on every paced turn of both ranks),
#   so it absorbs none of the tool's work on the message's path; N turns per rank, and on
#   rank 1 one more receive and the send of its overshoot figures; all 2N + 2 messages
#   matched (N + 1 each way);
# - uninstrumented: its two lines, every one-way figure at least D (each one-way message
#   holds one spin to its deadline), the pace echoed;
# - bad arguments (no round trips, a negative pace, one rank, a pace not in whole ns): a
#   message naming them and a failed run, within a timeout.
# Nothing else about time is asserted: the lower bounds hold by construction on any machine.
# Skipped (77) without the MPI adapter.
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs mpi_bench mpi_bench_scorep
N=200 D=20000

# traced run, profile off (the trace is what is read)
status=0
SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$work/tr" \
    timeout 120 mpirun --oversubscribe --allow-run-as-root -np 2 "$T/mpi_bench_scorep" paced "$N" "$D" \
    >tr.out 2>tr.err || status=$?
expect_eq "$status" 0 "the traced paced ping-pong runs ($(head -c 300 tr.err))"
_m=$("$MESSAGES" --match "$work/tr/traces.otf2" 2>&1) || fail "messages do not match: $_m"
expect_eq "$(echo "$_m" | sed 's/ late=[0-9]*//')" \
    "sends=$((2 * N + 2)) receives=$((2 * N + 2)) matched=$((2 * N + 2)) unmatched=0 mismatched_size=0 probes=0" \
    "all messages matched, N + 1 each way"
# ticks per second of the trace's timer
trace_defs "$work/tr" >defs.txt
tps=$(sed -n 's/.*[Tt]icks per [Ss]econds*: *\([0-9][0-9]*\).*/\1/p' defs.txt | head -n 1)
[ -n "$tps" ] || fail "no timer resolution in otf2-print -G's output: $(grep -i -m 3 clock defs.txt)"
expect_ge "$tps" 1000000 "the trace's timer ticks at 1 MHz or more"
# per location: the gaps from a Leave of MPI_Recv to the Enter of MPI_Send that comes next
# among the MPI calls; how many, and how many of the first N fall short of D ns
trace_events "$work/tr" >ev.txt
expect_eq "$(awk -v n="$N" -v min="$(echo "$tps $D" | awk '{ printf "%.0f", $1 * $2 * 1e-9 * 0.999 }')" '
    {
        i = index($0, "Region: \"")
        if (!i) next
        r = substr($0, i + 9); r = substr(r, 1, index(r, "\"") - 1)
        if (r !~ /^MPI_/) next
        l = $2
        if ($1 == "ENTER" && r == "MPI_Send" && prev[l] == "MPI_Recv") {
            gaps[l]++
            if (gaps[l] <= n && $3 - leave[l] < min) short[l]++
        }
        prev[l] = ($1 == "LEAVE" ? r : "")
        if ($1 == "LEAVE") leave[l] = $3
    }
    END { for (l in gaps) printf "loc %s gaps %d short %d\n", l, gaps[l], short[l] }' ev.txt | sort | tr '\n' ' ')" \
    "loc 0 gaps $N short 0 loc 1 gaps $((N + 1)) short 0 " \
    "each paced turn's MPI_Send enters >= $D ns after its MPI_Recv left (per location)"

# uninstrumented: the figures' format and lower bounds
status=0
timeout 120 mpirun --oversubscribe --allow-run-as-root -np 2 "$T/mpi_bench" paced "$N" "$D" \
    >plain.out 2>plain.err || status=$?
expect_eq "$status" 0 "the uninstrumented paced ping-pong runs ($(head -c 300 plain.err))"
expect_eq "$(grep -c '^paced one-way ns mean [0-9.]* block [0-9.]* median [0-9.]* iqm [0-9.]* min [0-9.]*$' plain.out)" 1 \
    "one line of one-way figures"
expect_eq "$(grep -c "^paced pace ns $D ticks/ns [0-9.]* overshoot ns median [0-9.]* [0-9.]* p99 [0-9.]* [0-9.]*\$" plain.out)" 1 \
    "one line with the pace and both ranks' overshoot"
for k in mean block median iqm min; do
    expect_ge "$(sed -n "s/^paced one-way .* $k \([0-9.]*\).*/\1/p" plain.out)" "$D" "one-way $k holds the pace"
done

# bad arguments: refused with a message naming them
bad() { # bad NP ARGS...: the run fails and says why
    _np=$1
    shift
    status=0
    timeout 60 mpirun --oversubscribe --allow-run-as-root -np "$_np" "$T/mpi_bench" paced "$@" \
        >bad.out 2>bad.err || status=$?
    expect_eq "$([ "$status" != 0 ] && [ "$status" != 124 ] && echo failed)" failed "paced $* on $_np ranks fails"
    expect_grep "paced N D needs N >= 1 round trips, 0 <= D <= 10.8 ns and 2 ranks" bad.err "paced $* says why"
}
bad 2 0 500
bad 2 10 -1
bad 1 10 500
bad 2 10 1e3
done_ok
