#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_msgpath.sh: the records of the message path are exact in every mode, whichever
# step wrote them (the fast steps of core/events_mpi.h: a send's Enter with its MpiSend /
# MpiIsend, a receive's MpiRecv with its Leave; the general events where a fast step does
# not apply). msgpath.c on 2 ranks: N blocking round trips (tag 5, 16 bytes), N
# non-blocking ones completed by MPI_Waitall (tag 6, 24 bytes), N completed by an MPI_Wait
# per request (tag 12, 24 bytes: the completion and the Leave in one step), one MPI_Send to
# MPI_PROC_NULL per rank. Checked:
# every message id 1..N in order per sender / receiver and kind, sizes, matching; each
# MpiSend / MpiIsend one tick after the Enter of its call and before its Leave, each MpiRecv
# after the Enter of its call and one tick before its Leave, the Leave of MPI_Irecv,
# MPI_Waitall and MPI_Wait one tick after their last event (docs/mpi.md, "Timestamps");
# every MpiIrecv and MpiIsendComplete with the request id of an MpiIrecvRequest / MpiIsend
# before it on its location, each completed once; the profile's visits and bytes per call
# path. "msgpath K mixed" (K = 20), in each mode: what the
# adapter's caches of the message path (the type sent last, the message-id counter used
# last) must not change: every message's id and bytes in the order of the records, with
# types and tags changing at every send, the ids of cancelled receives taken again (the last
# one handed out, and one from the list of ids given back), a wildcard receive's id before
# the one of a receive posted after it; the profile's bytes. "msgpath P poll" (P = 40): the
# completions by MPI_Test, Testany, Testall, Testsome, Waitany and Waitsome (below, "The
# poll run"), also with xreqtest and under MPI_THREAD_MULTIPLE.
# Skipped (77) without the MPI adapter.
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs msgpath msgpath_scorep
N=300

# run MODE PROFILING TRACING [ARGS]: msgpath_scorep (N, or ARGS) into experiment MODE, with
# the settings in run_env too; status 77 (no MPI_THREAD_MULTIPLE) only where may_skip is set
run()
{
    rm -rf "${work:?}/$1"
    status=0
    _mode=$1 _prof=$2 _trace=$3
    shift 3
    [ $# -gt 0 ] || set -- "$N"
    # shellcheck disable=SC2086 # run_env is split into settings on purpose
    env ${run_env:-} SCOREP_ENABLE_PROFILING="$_prof" SCOREP_ENABLE_TRACING="$_trace" SCOREP_EXPERIMENT_DIRECTORY="$work/$_mode" \
        timeout 300 mpirun --oversubscribe --allow-run-as-root -np 2 "$T/msgpath_scorep" "$@" \
        >"$_mode.out" 2>"$_mode.err" || status=$?
    set -- "$_mode"
    [ "$status" -eq 77 ] && [ -n "${may_skip:-}" ] && return
    check_profiles
    expect_eq "$status" 0 "$1: msgpath runs measured (it checks what it receives)"
}

# check_trace MODE: the messages and their place between the Enter and Leave of their call
# messages_matched MODE SENDS WHAT: every message of MODE's trace matched (SENDS of them each
# way), the messages listed in MODE.msgs; x is the experiment
messages_matched()
{
    x=$work/$1
    _m=$("$MESSAGES" --match "$x/traces.otf2" 2>&1) || fail "$1: messages do not match: $_m"
    expect_eq "$(echo "$_m" | sed 's/ late=[0-9]*//')" \
        "sends=$2 receives=$2 matched=$2 unmatched=0 mismatched_size=0 probes=0" "$1: $3"
    "$MESSAGES" "$x/traces.otf2" >"$1.msgs" 2>&1 || fail "$1: trace_messages failed: $(cat "$1.msgs")"
}

check_trace()
{
    messages_matched "$1" $((6 * N)) "all messages matched"
    # per (kind, rank, tag): ids 1, 2, ... N in the order of the records, size by tag
    expect_eq "$(awk '
        {
            for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
            k = $1 " rank=" v["rank"] " tag=" v["tag"]
            n[k]++
            if (v["id"] != n[k] || v["comm"] != 0 || v["bytes"] != (v["tag"] == 5 ? 16 : 24)) bad++
        }
        END { for (k in n) print k, n[k]; print "bad", bad + 0 }' "$1.msgs" | sort | tr '\n' ' ')" \
        "IRECV rank=0 tag=12 $N IRECV rank=0 tag=6 $N IRECV rank=1 tag=12 $N IRECV rank=1 tag=6 $N ISEND rank=0 tag=12 $N ISEND rank=0 tag=6 $N ISEND rank=1 tag=12 $N ISEND rank=1 tag=6 $N RECV rank=0 tag=5 $N RECV rank=1 tag=5 $N SEND rank=0 tag=5 $N SEND rank=1 tag=5 $N bad 0 " \
        "$1: message ids 1..$N in order, communicator and sizes"
    # per location: Enter, message, Leave of one call in a row, with the timestamps above;
    # the send to MPI_PROC_NULL an Enter and a Leave of MPI_Send with nothing between
    expect_eq "$(trace_events "$x" | awk '
        {
            l = $2
            r = "-"
            i = index($0, "Region: \"")
            if (i) { r = substr($0, i + 9); r = substr(r, 1, index(r, "\"") - 1) }
            if ($1 == "LEAVE" && t1[l] == "MPI_SEND" && t0[l] == "ENTER" && r0[l] == "MPI_Send" &&
                r == "MPI_Send" && s1[l] == s0[l] + 1 && $3 > s1[l]) sends++
            if ($1 == "LEAVE" && t1[l] == "MPI_ISEND" && t0[l] == "ENTER" && r0[l] == "MPI_Isend" &&
                r == "MPI_Isend" && s1[l] == s0[l] + 1 && $3 > s1[l]) isends++
            if ($1 == "LEAVE" && t1[l] == "MPI_RECV" && t0[l] == "ENTER" && r0[l] == "MPI_Recv" &&
                r == "MPI_Recv" && s1[l] > s0[l] && $3 == s1[l] + 1) recvs++
            if ($1 == "LEAVE" && t1[l] == "ENTER" && r1[l] == "MPI_Send" && r == "MPI_Send") nulls++
            # the Leave of a call whose events follow its PMPI call: one tick after the last
            if ($1 == "LEAVE" && t1[l] != "ENTER" && t1[l] != "LEAVE" && $3 == s1[l] + 1) {
                if (r == "MPI_Irecv") irecvs++
                if (r == "MPI_Waitall") waits++
                if (r == "MPI_Wait") wait1++
            }
            if ($1 == "MPI_SEND" || $1 == "MPI_ISEND" || $1 == "MPI_RECV") msgs++
            t0[l] = t1[l]; r0[l] = r1[l]; s0[l] = s1[l]
            t1[l] = $1; r1[l] = r; s1[l] = $3
        }
        END {
            printf "sends=%d isends=%d recvs=%d nulls=%d messages=%d irecvs=%d waitalls=%d waits=%d\n",
                sends, isends, recvs, nulls, msgs, irecvs, waits, wait1
        }')" \
        "sends=$((2 * N)) isends=$((4 * N)) recvs=$((2 * N)) nulls=2 messages=$((8 * N)) irecvs=$((4 * N)) waitalls=$((2 * N)) waits=$((4 * N))" \
        "$1: each message one tick from the Enter (send) or the Leave (receive) of its call"
    # per location: each completion (MpiIrecv, MpiIsendComplete) carries the request id of an
    # MpiIrecvRequest / MpiIsend recorded before it there and not completed yet; none left
    expect_eq "$(trace_events "$x" | awk '
        $1 ~ /^MPI_(IRECV_REQUEST|ISEND|IRECV|ISEND_COMPLETE)$/ {
            i = index($0, "Request: ")
            id = i ? substr($0, i + 9) + 0 : -1
            k = $2 " " id
            if ($1 == "MPI_IRECV_REQUEST" || $1 == "MPI_ISEND") {
                if (k in open) bad++
                open[k] = $1 == "MPI_ISEND" ? "MPI_ISEND_COMPLETE" : "MPI_IRECV"
            } else if (open[k] == $1) {
                done++
                delete open[k]
            } else {
                bad++
            }
        }
        END { left = 0; for (k in open) left++; printf "completed=%d bad=%d left=%d\n", done, bad + 0, left }')" \
        "completed=$((8 * N)) bad=0 left=0" "$1: every request completed once with its own request id"
}

# check_profile MODE: visits and bytes of the message calls on each rank
check_profile()
{
    profile_dump "$work/$1" -m visits,bytes_sent,bytes_received >"$1.prof"
    for r in 0 1; do
        expect_grep "	MPI_Send	$r	visits=$((N + 1))	bytes_sent=$((16 * N))	bytes_received=0$" "$1.prof" \
            "$1: profile MPI_Send of rank $r"
        expect_grep "	MPI_Recv	$r	visits=$N	bytes_sent=0	bytes_received=$((16 * N))$" "$1.prof" \
            "$1: profile MPI_Recv of rank $r"
        expect_grep "	MPI_Isend	$r	visits=$((2 * N))	bytes_sent=$((48 * N))	bytes_received=0$" "$1.prof" \
            "$1: profile MPI_Isend of rank $r"
        expect_grep "	MPI_Irecv	$r	visits=$((2 * N))	bytes_sent=0	bytes_received=0$" "$1.prof" \
            "$1: profile MPI_Irecv of rank $r"
        expect_grep "	MPI_Wait	$r	visits=$((2 * N))	bytes_sent=0	bytes_received=$((24 * N))$" "$1.prof" \
            "$1: profile MPI_Wait of rank $r (the receives' bytes)"
        expect_grep "	MPI_Waitall	$r	visits=$N	bytes_sent=0	bytes_received=$((24 * N))$" "$1.prof" \
            "$1: profile MPI_Waitall of rank $r"
    done
}

# The mixed run: K rounds of 3 sends from rank 0 to rank 1 (tag 8: 12 then 10 bytes, tag 9:
# 24 bytes), tag 10: 3 messages of 4 bytes (three cancelled receives after the first), tag 11: 3 (the
# second one taken by a wildcard receive, recorded as an MpiIrecv at its MPI_Wait).
K=20
# expected_mixed: "KIND rank tag id:bytes ..." per kind, rank and tag, from msgpath.c's design
expected_mixed()
{
    for kr in "SEND rank=0" "RECV rank=1"; do
        printf '%s tag=8' "$kr"
        i=1
        while [ $i -le $((2 * K)) ]; do
            printf ' %d:%d' $i $((i % 2 == 1 ? 12 : 10))
            i=$((i + 1))
        done
        printf '\n%s tag=9' "$kr"
        i=1
        while [ $i -le $K ]; do
            printf ' %d:24' $i
            i=$((i + 1))
        done
        printf '\n%s tag=10 1:4 2:4 3:4\n' "$kr"
    done
    printf 'SEND rank=0 tag=11 1:4 2:4 3:4\nRECV rank=1 tag=11 1:4 3:4\nIRECV rank=1 tag=11 2:4\n'
}

check_mixed_trace()
{
    messages_matched "$1" $((3 * K + 6)) "all messages of the mixed run matched"
    expect_eq "$(awk '
        {
            for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
            k = $1 " rank=" v["rank"] " tag=" v["tag"]
            if (!(k in l)) order[++nk] = k
            l[k] = l[k] " " v["id"] ":" v["bytes"]
        }
        END { for (j = 1; j <= nk; j++) print order[j] l[order[j]] }' "$1.msgs" | sort)" \
        "$(expected_mixed | sort)" "$1: mixed run: message ids and bytes of every message in order"
}

check_mixed_profile()
{
    profile_dump "$work/$1" -m visits,bytes_sent,bytes_received >"$1.prof"
    expect_grep "	MPI_Send	0	visits=$((3 * K + 6))	bytes_sent=$((46 * K + 24))	bytes_received=0$" \
        "$1.prof" "$1: mixed run: profile MPI_Send of rank 0"
    expect_grep "	MPI_Recv	1	visits=$((3 * K + 5))	bytes_sent=0	bytes_received=$((46 * K + 20))$" \
        "$1.prof" "$1: mixed run: profile MPI_Recv of rank 1"
    expect_grep "	MPI_Wait	1	visits=4	bytes_sent=0	bytes_received=4$" \
        "$1.prof" "$1: mixed run: profile MPI_Wait of rank 1 (the wildcard receive's bytes)"
}

# The poll run (msgpath.c, poll()): for each of MPI_Test, MPI_Testany, MPI_Testall,
# MPI_Testsome, MPI_Waitany and MPI_Waitsome, P rounds on both ranks of 4 receives (tags
# 32 + 4c + i, 4(i + 1) bytes, posted in the order of i into shuffled array positions) and 4
# sends, completed in two halves out of the order of posting, with calls that find nothing
# before. Each completion must carry the request id of the request posted for its message
# (a receive's: the one posted with its tag), be recorded in the call of its kind on the
# location that started it, and each request complete once, the Leave of a call one tick
# after its last completion (docs/mpi.md, "Timestamps"); with xreqtest, every
# RequestTest names a request still open there, at least one per request each call that
# finds nothing tests (20 a round per rank). Below and under MPI_THREAD_MULTIPLE (the
# records taken before the call, mpi_wait.h).
P=40
poll_calls="MPI_Test MPI_Testany MPI_Testall MPI_Testsome MPI_Waitany MPI_Waitsome"
check_poll_trace()
{
    messages_matched "$1" $((48 * P)) "poll run: all messages matched"
    expect_eq "$(awk '
        {
            for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
            k = $1 " rank=" v["rank"] " tag=" v["tag"]
            if (!(k in n)) keys++
            n[k]++
            if (v["id"] != n[k] || v["comm"] != 0 || v["bytes"] != 4 * ((v["tag"] - 32) % 4 + 1) ||
                v["tag"] < 32 || v["tag"] > 55 || ($1 != "ISEND" && $1 != "IRECV")) bad++
        }
        END { printf "keys=%d bad=%d\n", keys, bad + 0 }' "$1.msgs")" \
        "keys=96 bad=0" "$1: poll run: message ids 1..$P per tag in order, sizes"
    expect_eq "$(trace_events "$x" | awk -v P=$P -v calls="$poll_calls" '
        function attr(name,    i, s) {
            i = index($0, name ": ")
            if (!i) return -1
            s = substr($0, i + length(name) + 2)
            return s + 0
        }
        BEGIN { split(calls, call, " ") }
        {
            l = $2
            if ($1 == "ENTER") {
                i = index($0, "Region: \"")
                r = substr($0, i + 9); r = substr(r, 1, index(r, "\"") - 1)
                stack[l, ++depth[l]] = r
                next
            }
            if ($1 == "LEAVE") {
                # the Leave of a call whose last event is a completion: one tick after it
                if (last[l] == "MPI_IRECV" || last[l] == "MPI_ISEND_COMPLETE")
                    late += $3 != lts[l] + 1
                depth[l]--
                last[l] = $1
                next
            }
            last[l] = $1
            lts[l] = $3
            q = attr("Request")
            in_call = stack[l, depth[l]]
            if ($1 == "MPI_IRECV_REQUEST") {
                k = nrecv[l]++
                tag[l, q] = 32 + 4 * int(k / (4 * P)) + k % 4
                open[l, q] = "MPI_IRECV"
            } else if ($1 == "MPI_ISEND") {
                tag[l, q] = attr("Tag")
                open[l, q] = "MPI_ISEND_COMPLETE"
            } else if ($1 == "MPI_IRECV" || $1 == "MPI_ISEND_COMPLETE") {
                if (open[l, q] != $1 || in_call != call[int((tag[l, q] - 32) / 4) + 1] ||
                    ($1 == "MPI_IRECV" && (attr("Tag") != tag[l, q] ||
                                           attr("Length") != 4 * ((tag[l, q] - 32) % 4 + 1))))
                    bad++
                else
                    done++
                delete open[l, q]
            } else if ($1 == "MPI_REQUEST_TEST") {
                if (!((l, q) in open) || (in_call != "MPI_Test" && in_call != "MPI_Testany" &&
                                          in_call != "MPI_Testall" && in_call != "MPI_Testsome"))
                    bad++
                tests[l]++
            }
        }
        END {
            left = 0
            for (k in open) left++
            mintests = 0
            for (k in tests) if (tests[k] >= 20 * P) mintests++
            printf "completed=%d bad=%d left=%d tests=%d late_leaves=%d\n", done, bad + 0, left,
                mintests, late + 0
        }')" \
        "completed=$((96 * P)) bad=0 left=0 tests=${2:-0} late_leaves=0" \
        "$1: poll run: every completion in its call, on its location, with its own request id"
}

check_poll_profile()
{
    profile_dump "$work/$1" -m bytes_received >"$1.prof"
    for call in $poll_calls; do
        for r in 0 1; do
            expect_grep "	$call	$r	bytes_received=$((40 * P))$" "$1.prof" \
                "$1: poll run: profile $call of rank $r (its receives' bytes)"
        done
    done
}

run poll_trace false true "$P" poll
check_poll_trace poll_trace
run poll_both true true "$P" poll
check_poll_trace poll_both
check_poll_profile poll_both
run_env=SCOREP_MPI_ENABLE_GROUPS=default,xreqtest
run poll_xreqtest false true "$P" poll
run_env=
check_poll_trace poll_xreqtest 2
may_skip=1
run poll_multiple true true "$P" poll multiple
may_skip=
if [ "$status" -eq 77 ]; then
    echo "poll run under MPI_THREAD_MULTIPLE skipped: not provided"
else
    check_poll_trace poll_multiple
    check_poll_profile poll_multiple
fi

run mixed_trace false true "$K" mixed
check_mixed_trace mixed_trace
run mixed_profile true false "$K" mixed
check_mixed_profile mixed_profile
run mixed_both true true "$K" mixed
check_mixed_trace mixed_both
check_mixed_profile mixed_both

run trace false true
check_trace trace
run profile true false
check_profile profile
run both true true
check_trace both
check_profile both

echo "$checks checks passed"
