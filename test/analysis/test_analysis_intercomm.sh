#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_analysis_intercomm.sh: collectives on an intercommunicator (docs/analysis.md): intercomm.c
# (4 ranks, groups A = {0, 1} and B = {2, 3} joined by MPI_Intercomm_create, D = 0.2 s) with the
# in-situ analysis, then post-mortem on the same trace. A rank of an intercommunicator
# collective waits for the other group (MPI's intercommunicator semantics): a barrier or an
# allreduce for the last rank of the other group to enter, a broadcast (MPI_ROOT at the root,
# MPI_PROC_NULL at the rest of its group) for the root, the root of a reduce for the last
# sender of the other group. The expected waits follow from the program's design and the times
# its ranks entered the calls (its clock marks "T scenario rank enter seconds absolute", moved
# onto the trace's enters of the calls by trace_marks.py, so that a loaded machine changes the
# expectation, not the verdict), within 0.1% + 0.2 ms, read back from scout.cubex with
# cube_values.py (no code shared with the writer); each semantic is checked against the one it
# could be confused with (a wait for the last of both groups). Also a message on the
# intercommunicator (its peers are ranks of the other group): a Late Sender.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/analysis/lib_analysis.sh"
analysis_needs intercomm_scorep

x=$work/ic
# the marks are moved onto the trace: its timer must be the program's clock
export SCOREP_TIMER=clock_gettime
insitu_then_postmortem 4 "$x" ic.out an.out "$A/intercomm_scorep" $D
expect_grep "^intercomm done" ic.out "intercomm ran to its end"
cat an.out
expect_no_grep "intercommunicator" an.out "no intercommunicator collective left unanalysed"
# the trace has the intercommunicator as OTF2 writes it (both groups)
otf2-print -G "$x/traces.otf2" >defs.txt 2>&1 || fail "otf2-print -G: $(tail -3 defs.txt)"
expect_grep "^INTER_COMM .*Group A: .*Group B: " defs.txt "the trace defines the InterComm"

_check
$CV "$x/scout.cubex" same "$x/scout_insitu.cubex" 1e-6 >same.out ||
    fail "in situ and post-mortem differ: $(cat same.out)"

snap_marks "$x" ic.out ic.snap
mark()
{
    awk -v s="$1" -v r="$2" '$1 == "T" && $2 == s && $3 == r && $4 == "enter" {
        print $5; f = 1 } END { exit !f }' ic.snap || fail "intercomm printed no mark $1 $2"
}
calc()
{
    awk "function pos(x) { return x > 0 ? x : 0 }
         function max2(a, b) { return a > b ? a : b }
         function min2(a, b) { return a < b ? a : b }
         BEGIN { printf \"%.6f\", ($1) }"
}
# near FILE METRIC PATH RANK SECONDS: the value is SECONDS within 0.1% + 0.2 ms
near()
{
    _check
    v=$($CV "$1" value "$2" "$3" "$4") || fail "cube_values.py $*"
    awk -v v="$v" -v e="$5" 'BEGIN { t = 0.001 * e + 0.0002; exit !(v >= e - t && v <= e + t) }' ||
        fail "$2 at $3 on rank $4 ($1): expected $5 s (0.1% + 0.2 ms), got $v s"
    echo "ok: $2 at $3 rank $4 = $v (expected $5)"
}
# far FILE METRIC PATH RANK SECONDS WHY: the value is not SECONDS (by more than 1 ms + 0.1%):
# what the semantics WHY would give. The design keeps the two D apart (a rank of the other
# group enters D later); a rank that got to its deadline D late would make them meet.
far()
{
    _check
    v=$($CV "$1" value "$2" "$3" "$4") || fail "cube_values.py $*"
    awk -v v="$v" -v e="$5" 'BEGIN { t = 0.001 * e + 0.001; exit !(v < e - t || v > e + t) }' ||
        fail "$2 at $3 on rank $4 ($1): $v s is what $6 would give ($5 s)"
    echo "ok: $2 at $3 rank $4 = $v is not $5 ($6)"
}

for f in "$x/scout.cubex" "$x/scout_insitu.cubex"; do
    # barrier and allreduce: a rank waits for the last rank of the other group
    for sc in ic_barrier ic_allreduce; do
        e0=$(mark $sc 0) e1=$(mark $sc 1) e2=$(mark $sc 2) e3=$(mark $sc 3)
        la="max2($e0, $e1)" lb="max2($e2, $e3)"
        m=mpi_barrier_wait p=$sc/MPI_Barrier
        [ $sc = ic_barrier ] || m=mpi_wait_nxn p=$sc/MPI_Allreduce
        near "$f" $m $p 0 "$(calc "pos($lb - $e0)")"
        near "$f" $m $p 1 "$(calc "pos($lb - $e1)")"
        near "$f" $m $p 2 "$(calc "pos($la - $e2)")"
        near "$f" $m $p 3 "$(calc "pos($la - $e3)")"
    done
    # the semantics it could be confused with: a wait for the last rank of both groups would
    # give rank 2 2D (not D) at the barrier, rank 3 2D (not D) at the allreduce
    all="max2(max2($(mark ic_barrier 0), $(mark ic_barrier 1)), max2($(mark ic_barrier 2), $(mark ic_barrier 3)))"
    far "$f" mpi_barrier_wait ic_barrier/MPI_Barrier 2 "$(calc "pos($all - $(mark ic_barrier 2))")" \
        "a wait for the last of both groups"
    all="max2(max2($(mark ic_allreduce 0), $(mark ic_allreduce 1)), max2($(mark ic_allreduce 2), $(mark ic_allreduce 3)))"
    far "$f" mpi_wait_nxn ic_allreduce/MPI_Allreduce 3 "$(calc "pos($all - $(mark ic_allreduce 3))")" \
        "a wait for the last of both groups"
    # broadcasts: the other group waits for the root (A's rank 0, then B's rank 1 = world 3);
    # the root's own group takes no part (MPI_PROC_NULL)
    near "$f" mpi_latebroadcast ic_bcast_a/MPI_Bcast 2 "$(calc "pos($(mark ic_bcast_a 0) - $(mark ic_bcast_a 2))")"
    near "$f" mpi_latebroadcast ic_bcast_a/MPI_Bcast 3 "$(calc "pos($(mark ic_bcast_a 0) - $(mark ic_bcast_a 3))")"
    near "$f" mpi_latebroadcast ic_bcast_a/MPI_Bcast 0 0
    near "$f" mpi_latebroadcast ic_bcast_a/MPI_Bcast 1 0
    near "$f" mpi_latebroadcast ic_bcast_b/MPI_Bcast 0 "$(calc "pos($(mark ic_bcast_b 3) - $(mark ic_bcast_b 0))")"
    near "$f" mpi_latebroadcast ic_bcast_b/MPI_Bcast 1 "$(calc "pos($(mark ic_bcast_b 3) - $(mark ic_bcast_b 1))")"
    near "$f" mpi_latebroadcast ic_bcast_b/MPI_Bcast 2 0
    near "$f" mpi_latebroadcast ic_bcast_b/MPI_Bcast 3 0
    # reduce to A's rank 1 (world 1): it waits for the last sender of group B (Scalasca 2.6's
    # Early Reduce on an intracommunicator: until the latest sender entered)
    near "$f" mpi_earlyreduce ic_reduce/MPI_Reduce 1 \
        "$(calc "pos(max2($(mark ic_reduce 2), $(mark ic_reduce 3)) - $(mark ic_reduce 1))")"
    far "$f" mpi_earlyreduce ic_reduce/MPI_Reduce 1 \
        "$(calc "pos(min2($(mark ic_reduce 2), $(mark ic_reduce 3)) - $(mark ic_reduce 1))")" \
        "a wait for the first sender"
    for r in 0 2 3; do
        near "$f" mpi_earlyreduce ic_reduce/MPI_Reduce $r 0
    done
    # a message on the intercommunicator: world 0 sends to B's rank 1 (world 3) after D
    near "$f" mpi_latesender ic_p2p/MPI_Recv 3 "$(calc "pos($(mark ic_p2p 0) - $(mark ic_p2p 3))")"
done
# both sides of that message were matched (its sender resolved in the other group)
expect_no_grep "without their peer" an.out "the intercommunicator message is matched"
expect_eq "$($CV "$x/scout.cubex" value mpi_cls_count ic_p2p/MPI_Recv 3)" 1 \
    "one Late Sender count on the intercommunicator receive"

done_ok
