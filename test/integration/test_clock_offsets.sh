#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_clock_offsets.sh: the clock-offset path on one host. SCOREP_TEST_CLOCK_SKEW (test only)
# puts some ranks' clocks 1 s ahead of rank 0's; SCOREP_NODE_NAME makes ranks believe they
# are on another host. Checked in the trace read back through the OTF2 reader (otf2-print,
# which applies the ClockOffset definitions): the offsets written, matched messages in
# causal order, and the global time range.
. "$top_srcdir/test/integration/lib.sh"
require_mpi
SKEW=1000000000 # 1 s in clock_gettime ticks (ns)

scorep_cc mpicc -O2 -o late "$PROGRAMS/mpi_late.c"

# offsets EXP: "LOCATION OFFSET" per ClockOffset definition, in the order written
offsets()
{
    otf2-print -C "$1/traces.otf2" >"$1.clock" || fail "otf2-print -C $1"
    awk '$1 == "CLOCK_OFFSET" { o = $0; sub(/.*Offset: \+?/, "", o); sub(/,.*/, "", o)
        print $2, o }' "$1.clock"
}

# messages EXP TOLERANCE: matches every MPI_SEND with its MPI_RECV (per communicator, sender,
# receiver and tag, first come first matched, as MPI does not overtake) on the timestamps
# otf2-print gives, and prints "matched=N unmatched=U late=L" (late: received more than
# TOLERANCE ticks before it was sent)
messages()
{
    trace_defs "$1" | awk '$1 == "LOCATION" { g = $0; sub(/.*Group: "MPI Rank /, "", g)
        sub(/".*/, "", g); print $2, g }' >"$1.ranks"
    trace_events "$1" | awk -v tol="$2" '
        FNR == NR { rank[$1] = $2; next }
        $1 != "MPI_SEND" && $1 != "MPI_RECV" { next }
        {
            peer = $0; sub(/.*(Receiver|Sender): /, "", peer); sub(/ .*/, "", peer)
            tag = $0; sub(/.*Tag: /, "", tag); sub(/,.*/, "", tag)
            comm = $0; sub(/.*Communicator: /, "", comm); sub(/,.*/, "", comm)
            if ($1 == "MPI_SEND") { k = comm SUBSEP rank[$2] SUBSEP peer SUBSEP tag; s[k, ++ns[k]] = $3 }
            else { k = comm SUBSEP peer SUBSEP rank[$2] SUBSEP tag; r[k, ++nr[k]] = $3 }
            keys[k] = 1
        }
        END {
            for (k in keys) {
                n = ns[k] > nr[k] ? ns[k] : nr[k]
                for (i = 1; i <= n; i++) {
                    if (!((k, i) in s) || !((k, i) in r)) { bad++; continue }
                    m++
                    if (r[k, i] + tol < s[k, i]) late++
                }
            }
            printf "matched=%d unmatched=%d late=%d\n", m, bad, late
        }' "$1.ranks" -
}

# time_range EXP SLACK: "ok" when the ClockProperties' range [offset, offset + length] holds
# every event and ends at most 8 ticks (the writer's room for its epilogue records) after the
# last, give or take SLACK ticks (interpolated offsets round differently at another time)
time_range()
{
    trace_defs "$1" | awk '$1 == "CLOCK_PROPERTIES" { o = $0; sub(/.*Global Offset: /, "", o)
        sub(/,.*/, "", o); l = $0; sub(/.*Length: /, "", l); sub(/,.*/, "", l); print o, l }' >"$1.range"
    trace_events "$1" | awk -v slack="$2" 'FNR == NR { lo = $1; len = $2; next }
        { if (min == "" || $3 < min) min = $3; if ($3 > max) max = $3 }
        END { end = lo + len
              if (lo <= min && end + slack >= max && end <= max + 8 + slack) print "ok"
              else printf "offset %s length %s, events %s .. %s\n", lo, len, min, max }' "$1.range" -
}

# 1. Rank 1 on rank 0's node, its clock 1 s ahead: its offset is known exactly, no ping-pong.
run_app same env SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime \
    SCOREP_EXPERIMENT_DIRECTORY=same mpirun -np 1 ./late : \
    -np 1 env SCOREP_TEST_CLOCK_SKEW=$SKEW ./late
expect_eq "$status" 0 "same node: exit status"
expect_eq "$(cat same.out)" "done 2" "same node: program output"
expect_eq "$(offsets same | tr '\n' ',')" "0 0,0 0,1 -$SKEW,1 -$SKEW," \
    "same node: rank 0 offset 0, rank 1 offset -1 s exactly, at MPI_Init and finalize"
# without the offsets rank 1's sends would lie 1 s after their receives on rank 0
expect_eq "$(messages same 0)" "matched=6 unmatched=0 late=0" \
    "same node: 6 messages, each received after it was sent (no tolerance)"
# the same through the OTF2 reader API, which applies the offsets once
"$top_builddir/test/tools/trace_messages" --match same/traces.otf2 >same.match ||
    fail "trace_messages --match same: $(cat same.match)"
expect_eq "$(cat same.match)" \
    "sends=6 receives=6 matched=6 unmatched=0 mismatched_size=0 probes=0 late=0" \
    "same node: trace_messages pairs the 6 messages, none received before its send"
expect_eq "$(trace_check_order same)" 0 "same node: timestamps increase per location"
expect_eq "$(time_range same 0)" ok "same node: the global time range is on rank 0's clock"

# 2. Ranks 1 and 2 on another node, clocks 1 s ahead: rank 0 measures their offsets by
# ping-pong. Whatever the load, a measured offset is off by at most half its round trip.
run_app other env SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime SCOREP_VERBOSE=true \
    SCOREP_EXPERIMENT_DIRECTORY=other mpirun -np 1 ./late : \
    -np 2 env SCOREP_NODE_NAME=other-node SCOREP_TEST_CLOCK_SKEW=$SKEW ./late
expect_eq "$status" 0 "other node: exit status"
expect_eq "$(cat other.out)" "done 3" "other node: program output"
sed -n 's/.*clock offset of rank \([0-9]*\): \(-*[0-9]*\) ticks, round trip \([0-9]*\) ticks$/\1 \2 \3/p' \
    other.err >other.measured
expect_eq "$(cut -d' ' -f1 other.measured | sort | uniq -c | awk '{ print $2 "x" $1 }' | tr '\n' ' ')" \
    "1x2 2x2 " "other node: ranks 1 and 2 measured twice each (MPI_Init, finalize)"
expect_eq "$(awk -v skew=$SKEW '{ e = $2 + skew; if (e < 0) e = -e; if (e > int(($3 + 1) / 2)) bad++ }
    END { print bad + 0 }' other.measured)" 0 "other node: each offset within half its round trip of -1 s"
# the trace holds exactly the measured offsets (rank R's location R here)
expect_eq "$(offsets other | awk '$1 != 0' | sort -s -k1,1n | tr '\n' ',')" \
    "$(sort -s -k1,1n other.measured | cut -d' ' -f1,2 | tr '\n' ',')" \
    "other node: the ClockOffset definitions are the measured offsets"
expect_eq "$(offsets other | awk '$1 == 0' | tr '\n' ',')" "0 0,0 0," "other node: rank 0 offset 0"
# corrected receive times may precede their sends by the error of both ends' offsets
tol=$(awk '{ h = int(($3 + 1) / 2); if (h > m) m = h } END { print 2 * m + 2 }' other.measured)
expect_eq "$(messages other "$tol")" "matched=9 unmatched=0 late=0" \
    "other node: 9 messages, none received before it was sent (beyond the measured error)"
expect_eq "$(time_range other 1)" ok "other node: the global time range is on rank 0's clock"

# 3. The test variable is refused where it cannot work, with a message saying why.
printf 'int main(void) { return 0; }\n' >tiny.c
scorep_cc gcc -o tiny tiny.c
run_app tod env SCOREP_TIMER=gettimeofday SCOREP_TEST_CLOCK_SKEW=5 ./tiny
expect_eq "$([ "$status" -ne 0 ] && echo failed)" failed "skew with gettimeofday: the run fails"
expect_grep 'SCOREP_TEST_CLOCK_SKEW needs SCOREP_TIMER=clock_gettime' tod.err \
    "skew with gettimeofday: message"
run_app bad env SCOREP_TIMER=clock_gettime SCOREP_TEST_CLOCK_SKEW=1s ./tiny
expect_eq "$([ "$status" -ne 0 ] && echo failed)" failed "skew not a number: the run fails"
expect_grep "SCOREP_TEST_CLOCK_SKEW='1s': expected an integer" bad.err "skew not a number: message"
done_ok
