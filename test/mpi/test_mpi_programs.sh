#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_programs.sh: runs the MPI test programs of test/mpi under mpirun, first plain
# (they must pass uninstrumented), then linked with the MPI adapter with tracing on, and
# checks their traces: every message matched by (communicator, sender, receiver, tag,
# message id) and size (test/tools/trace_messages --match, exact counts), and the events each
# program's known communication must give; then the plain programs under scorep-run must
# give the same messages and events. Skipped (77) when the MPI adapter was not built.
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs p2p_modes p2p_modes_scorep

# mpirun_np N COMMAND...: the exit status is left in $status
mpirun_np()
{
    _np=$1
    shift
    status=0
    timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$_np" "$@" || status=$?
}

# measure NAME NP [VAR=VALUE...]: runs NAME_scorep with tracing into experiment NAME
measure()
{
    _prog=$1
    _np=$2
    shift 2
    rm -rf "$work/$_prog"
    status=0
    env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$work/$_prog" "$@" \
        timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$_np" \
        "$T/${_prog}_scorep" >"$_prog.out" 2>"$_prog.err" || status=$?
    check_profiles
}

# events EXP TYPE: number of events of this type in the trace
events()
{
    count_lines "^$2 " "$(trace_file "$1")"
}

# messages EXP: the message events (trace_messages) without times, in a file
messages()
{
    "$MESSAGES" "$1/traces.otf2" >"$1.raw" 2>"$1.err" || fail "trace_messages $1 failed: $(cat "$1.err")"
    sed 's/ time=[0-9]*//' "$1.raw" >"$1.msgs"
    echo "$1.msgs"
}

# match EXP: trace_messages --match; prints its counts without 'late' (receives that end
# before their send by the synchronised clocks)
match()
{
    _m=$("$MESSAGES" --match "$1/traces.otf2" 2>&1) || fail "messages of $1 do not match: $_m"
    echo "$_m" | sed 's/ late=[0-9]*//'
}

threads_skipped=0
for spec in p2p_modes:2 completion:2 probes:2 collectives:4 comms:4 rma:3 threads:2 requests:2; do
    name=${spec%:*}
    np=${spec#*:}
    mpirun_np "$np" "$T/$name" >"$name.plain.out" 2>&1
    if [ "$name" = threads ] && [ "$status" = 77 ]; then
        threads_skipped=1
        echo "threads: MPI_THREAD_MULTIPLE not provided, skipped"
        continue
    fi
    expect_eq "$status" 0 "$name runs uninstrumented with $np processes"
    measure "$name" "$np"
    expect_eq "$status" 0 "$name runs measured"
    expect_file "$work/$name/traces.otf2" "$name wrote a trace"
    expect_defs_clean "$work/$name" "$name"
    expect_file "$work/$name/profile.cubex" "$name wrote a profile"
done

# p2p_modes: 8 messages 0 -> 1 (tag 1, ids 1..8), then 2 each way with tag 2
x=$work/p2p_modes
expect_eq "$(match "$x")" "sends=12 receives=12 matched=12 unmatched=0 mismatched_size=0 probes=0" \
    "p2p_modes: all messages matched"
m=$(messages "$x")
expect_eq "$(grep -c '^SEND rank=0 .*tag=1 bytes=16' "$m")" 4 "p2p_modes: blocking sends"
expect_eq "$(grep -c '^ISEND rank=0 .*tag=1 bytes=16' "$m")" 4 "p2p_modes: non-blocking sends"
expect_grep '^ISEND rank=0 comm=0 from=0 to=1 tag=1 bytes=16 id=8 ' "$m" "p2p_modes: eighth message id"
expect_eq "$(grep -c 'tag=3' "$m")" 0 "p2p_modes: MPI_PROC_NULL gives no message"
expect_eq "$(events "$x" MPI_ISEND_COMPLETE)" 4 "p2p_modes: Isend completions"
# Timestamps of blocking messages (docs/mpi.md, "Timestamps"): MpiSend one tick after the
# Enter of its call, MpiRecv one tick before the Leave of its call (they share one timer
# reading). p2p_modes has 8 blocking sends (MPI_Send, Bsend, Ssend, Rsend of rank 0 and a
# Sendrecv and a Sendrecv_replace on each of ranks 0 and 1) and 7 blocking receives (3
# MPI_Recv of rank 1 and the 4 of the Sendrecv calls).
expect_eq "$(awk '
    $3 !~ /^[0-9]+$/ || $2 !~ /^[0-9]+$/ || $1 !~ /^[A-Z][A-Z0-9_]*$/ { next }
    {
        l = $2
        if ($1 == "MPI_SEND" && prev[l] == "ENTER" && $3 == pts[l] + 1) sends++
        if ($1 == "LEAVE" && prev[l] == "MPI_RECV" && $3 == pts[l] + 1) recvs++
        prev[l] = $1
        pts[l] = $3
    }
    END { printf "sends=%d receives=%d\n", sends, recvs }' "$(trace_file "$x")")" \
    "sends=8 receives=7" "p2p_modes: blocking messages stamped next to the Enter / Leave of their call"

# completion: 54 messages; the cancelled receive returns its id
x=$work/completion
expect_eq "$(match "$x")" "sends=54 receives=54 matched=54 unmatched=0 mismatched_size=0 probes=0" \
    "completion: all messages matched"
expect_eq "$(events "$x" MPI_REQUEST_CANCELLED)" 1 "completion: one cancelled request"
expect_eq "$(events "$x" MPI_IRECV_REQUEST)" 54 "completion: receive requests (incl. cancelled)"
expect_eq "$(events "$x" MPI_IRECV)" 53 "completion: completed receives"
expect_eq "$(events "$x" MPI_ISEND)" 53 "completion: sends started (persistent ones each time)"
expect_eq "$(events "$x" MPI_ISEND_COMPLETE)" 53 "completion: send completions"
expect_grep '^RECV rank=1 comm=0 from=0 to=1 tag=99 bytes=4 id=1 ' "$(messages "$x")" \
    "completion: id of the cancelled receive reused"

# probes: 8 messages; Probe twice, Iprobe, Mprobe, Improbe
x=$work/probes
expect_eq "$(match "$x")" "sends=8 receives=8 matched=8 unmatched=0 mismatched_size=0 probes=5" \
    "probes: all messages matched"
m=$(messages "$x")
expect_eq "$(grep -c '^PROBE rank=1 region=MPI_Probe comm=0 from=0 to=1 tag=10 bytes=4 id=1 handle=0' "$m")" 2 \
    "probes: a repeated probe names the same message"
expect_grep '^PROBE rank=1 region=MPI_Iprobe comm=0 from=0 to=1 tag=10 bytes=4 id=2 handle=0' "$m" \
    "probes: wildcard Iprobe"
expect_grep '^PROBE rank=1 region=MPI_Mprobe .* tag=11 bytes=4 id=1 handle=1' "$m" "probes: Mprobe"
expect_grep '^RECV rank=1 .* tag=11 bytes=4 id=1 handle=1' "$m" "probes: Mrecv of handle 1"
expect_grep '^PROBE rank=1 region=MPI_Improbe .* tag=12 bytes=4 id=1 handle=2' "$m" "probes: Improbe"
expect_grep '^IRECV rank=1 .* tag=12 bytes=4 id=1 handle=2' "$m" "probes: Imrecv of handle 2"
expect_grep '^IRECV rank=1 .* tag=20 bytes=4 id=2 ' "$m" "probes: specific receive completed first"
expect_grep '^IRECV rank=1 .* tag=20 bytes=4 id=1 ' "$m" "probes: earlier wildcard receive"

# collectives: 26 blocking and 26 non-blocking ones per process
x=$work/collectives
expect_eq "$(events "$x" MPI_COLLECTIVE_END)" 104 "collectives: blocking collectives"
expect_eq "$(events "$x" NON_BLOCKING_COLLECTIVE_REQUEST)" 104 "collectives: non-blocking started"
expect_eq "$(events "$x" NON_BLOCKING_COLLECTIVE_COMPLETE)" 104 "collectives: non-blocking completed"
expect_grep 'MPI_COLLECTIVE_END +0 .*Operation: BCAST, Communicator: "MPI_COMM_WORLD" <0>, Root: 0 [^,]*, Sent: 16, Received: 4' \
    "$(trace_file "$x")" "collectives: bytes of MPI_Bcast at the root"

# comms: messages on every kind of communicator match across processes
x=$work/comms
expect_eq "$(match "$x")" "sends=62 receives=62 matched=62 unmatched=0 mismatched_size=0 probes=0" \
    "comms: all messages matched"
expect_eq "$(events "$x" COMM_CREATE)" "$(events "$x" COMM_DESTROY)" "comms: created = freed"
expect_ge "$(events "$x" COMM_CREATE)" 1256 "comms: communicator creations"

# rma (3 processes)
x=$work/rma
expect_eq "$(events "$x" RMA_WIN_CREATE)" 6 "rma: windows"
expect_eq "$(events "$x" RMA_WIN_DESTROY)" 6 "rma: windows freed"
expect_eq "$(events "$x" RMA_PUT)" 12 "rma: puts"
expect_eq "$(events "$x" RMA_GET)" 9 "rma: gets"
expect_eq "$(events "$x" RMA_ATOMIC)" 18 "rma: atomics"
expect_eq "$(events "$x" RMA_OP_COMPLETE_BLOCKING) $(events "$x" RMA_OP_COMPLETE_NON_BLOCKING) $(events "$x" RMA_OP_COMPLETE_REMOTE)" "0 39 30" \
    "rma: every operation completed locally, 10 remotely per process (as Score-P: test_substrate_mpp.sh)"
expect_eq "$(events "$x" RMA_REQUEST_LOCK)" 12 "rma: locks requested (4 per process)"
expect_eq "$(events "$x" RMA_RELEASE_LOCK)" 12 "rma: locks released"
expect_eq "$(events "$x" RMA_GROUP_SYNC)" 12 "rma: post/start/complete/wait"

# requests: the request table's edge cases (requests.c, N = 3000): growth to N outstanding
# requests on each side, equal handle values of sends outstanding at once, handle values
# reused after completion, MPI_Request_free of an active send and of an active receive,
# Waitsome/Testsome with MPI_REQUEST_NULL entries and MPI_UNDEFINED, persistent requests.
# 2N + 100 + 3 + 8 + 40 = 6151 messages; the one the freed receive took has no receive event
# (trace_messages --match exits 1 for it); every other one matches.
x=$work/requests
status=0
out=$("$MESSAGES" --match "$x/traces.otf2" 2>&1) || status=$?
expect_eq "$status" 1 "requests: trace_messages --match reports the one unmatched send"
expect_eq "$(echo "$out" | sed 's/ late=[0-9]*//')" \
    "sends=6151 receives=6150 matched=6150 unmatched=1 mismatched_size=0 probes=0" \
    "requests: all messages matched but the one the freed receive took"
m=$(messages "$x")
expect_eq "$(awk '{ print $1 ":" $6 }' "$m" | sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')" \
    "IRECV:tag=1=3000 IRECV:tag=2=3000 IRECV:tag=3=100 IRECV:tag=6=4 IRECV:tag=7=4 IRECV:tag=8=40 ISEND:tag=1=3000 ISEND:tag=2=3000 ISEND:tag=4=1 ISEND:tag=8=40 RECV:tag=4=1 RECV:tag=5=1 SEND:tag=3=100 SEND:tag=5=2 SEND:tag=6=4 SEND:tag=7=4 " \
    "requests: messages per kind and tag"
expect_grep '^SEND rank=0 comm=0 from=0 to=1 tag=5 bytes=4 id=1 ' "$m" "requests: the message the freed receive took"
expect_grep '^RECV rank=1 comm=0 from=0 to=1 tag=5 bytes=4 id=2 ' "$m" "requests: the next receive has the next id"
expect_eq "$(events "$x" MPI_ISEND)" 6041 "requests: sends started (3000 + 3000 + 1 freed + 40 persistent)"
expect_eq "$(events "$x" MPI_ISEND_COMPLETE)" 6040 "requests: send completions (none of the freed send)"
expect_eq "$(events "$x" MPI_IRECV_REQUEST)" 6149 "requests: receive requests (the freed one included)"
expect_eq "$(events "$x" MPI_IRECV)" 6148 "requests: completed receives"
expect_eq "$(events "$x" MPI_REQUEST_CANCELLED)" 0 "requests: nothing cancelled"
# the premises: equal handle values outstanding at once, handle values reused
expect_ge "$(sed -n 's/^sends with the handle value of the first: \([0-9]*\) of 2999$/\1/p' requests.out)" 1 \
    "requests: sends outstanding with one handle value (Open MPI's ompi_request_empty)"
expect_ge "$(sed -n 's/^handle values reused: \([0-9]*\) of 99$/\1/p' requests.out)" 1 \
    "requests: handle values reused after completion"

if [ "$threads_skipped" = 0 ]; then
    x=$work/threads
    expect_eq "$(match "$x")" "sends=800 receives=800 matched=800 unmatched=0 mismatched_size=0 probes=40" \
        "threads: messages of concurrent threads matched"
    # The profile of MPI with threads has several roots per process: the MPI calls of the
    # master (no compiler instrumentation) and THREADS, once per thread (check_profiles
    # checks its consistency).
    expect_eq "$(profile_values "$x" THREADS visits | awk '{ print $2 }' | tr '\n' ' ')" \
        "1 1 1 1 " "threads: THREADS visited once on each of the 4 thread locations"
    expect_eq "$(profile_sum "$x" THREADS/MPI_Send visits)" 400 "threads: THREADS/MPI_Send visits"
    expect_eq "$(profile_sum "$x" THREADS/MPI_Recv visits)" 400 "threads: THREADS/MPI_Recv visits"
    expect_eq "$(profile_sum "$x" THREADS/MPI_Probe visits)" 40 "threads: THREADS/MPI_Probe visits"
    expect_eq "$(profile_values "$x" MPI_Init_thread visits | tr '\n' ' ')" "0 1 3 1 " \
        "threads: MPI_Init_thread is a root on both master threads"
    # rank 1's threads send with MPI_Isend at the same time (one handle value for both, Open
    # MPI's completed request): each send completed once, under its own request id (a record
    # taken by the other thread before it was written completed a stale id: session 18), on
    # the location that started it ("RANK ID LOCATION")
    request_ids "$x" MPI_ISEND >isend.ids
    request_ids "$x" MPI_ISEND_COMPLETE >isend_complete.ids
    sort isend.ids >isend.sorted
    sort isend_complete.ids >isend_complete.sorted
    expect_eq "$(wc -l <isend.sorted | tr -d ' ') $(uniq -d isend.sorted | wc -l | tr -d ' ')" "400 0" \
        "threads: 400 MPI_Isend requests, each id once"
    expect_eq "$(cmp -s isend.sorted isend_complete.sorted && echo same)" same \
        "threads: every MPI_Isend request completed once, on its own thread"
fi

# the plain programs under scorep-run (LD_PRELOAD): the same messages and the same events as
# linked (ENTER/LEAVE left out: the Test loops of completion and rma spin as timing says)
event_counts()
{
    trace_summary "$1" | awk '$1 != "ENTER" && $1 != "LEAVE" && $1 != "BUFFER_FLUSH" { n[$1] += $3 }
        END { for (t in n) print t, n[t] }' | sort
}
for spec in p2p_modes:2 completion:2 probes:2 collectives:4 comms:4 rma:3 threads:2 requests:2; do
    name=${spec%:*}
    [ "$name" != threads ] || [ "$threads_skipped" = 0 ] || continue
    x=$work/${name}_run
    status=0
    env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$x" \
        SCOREP_RUN_LIBDIR="$top_builddir/.libs" timeout 300 mpirun --oversubscribe \
        --allow-run-as-root -np "${spec#*:}" "$top_builddir/scorep-run" "$T/$name" \
        >"${name}_run.out" 2>"${name}_run.err" || status=$?
    check_profiles
    expect_eq "$status" 0 "$name runs under scorep-run"
    linked=$(messages "$work/$name")
    run=$(messages "$x")
    expect_eq "$(sort "$run" | md5sum)" "$(sort "$linked" | md5sum)" \
        "$name under scorep-run: the messages ($(wc -l <"$linked" | tr -d ' ')) of the linked run"
    expect_eq "$(event_counts "$x" | tr '\n' ' ')" "$(event_counts "$work/$name" | tr '\n' ' ')" \
        "$name under scorep-run: the events of the linked run"
done

# SCOREP_MPI_ENABLE_GROUPS
measure completion 2 SCOREP_MPI_ENABLE_GROUPS=p2p
expect_eq "$status" 0 "groups=p2p runs"
expect_no_grep 'Region: "MPI_Barrier"' "$(trace_file "$work/completion")" "groups=p2p: no collectives"
expect_grep 'Region: "MPI_Waitall"' "$(trace_file "$work/completion")" "groups=p2p: requests"
measure completion 2 SCOREP_MPI_ENABLE_GROUPS='all,~coll'
expect_grep 'Region: "MPI_Comm_rank"' "$(trace_file "$work/completion")" "groups=all: cg"
expect_no_grep 'Region: "MPI_Barrier"' "$(trace_file "$work/completion")" "groups=~coll"
expect_ge "$(events "$work/completion" MPI_REQUEST_TEST)" 1 "groups=all: xreqtest"
measure completion 2 SCOREP_MPI_ENABLE_GROUPS=bogus
[ "$status" != 0 ] || fail "an invalid SCOREP_MPI_ENABLE_GROUPS must stop the program"
expect_grep "SCOREP_MPI_ENABLE_GROUPS='bogus' is invalid" completion.err "groups: invalid value reported"

echo "$checks checks passed"
