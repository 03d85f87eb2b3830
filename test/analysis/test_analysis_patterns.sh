#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_analysis_patterns.sh: the parts of Scalasca 2.6's metric tree that waitstates.c does not
# reach (docs/analysis.md), on patterns.c (2 ranks, D = 0.2 s; in situ and post-mortem):
# - the tree itself: unique name, display name and parent of each new metric, as Scalasca
#   2.6 has them (scout's pattern files; square's scout.spec for the ones square derives);
# - synchronisation counts by design: one Late Sender without bytes in sync_ls and one in
#   sync_wo, which is in wrong order (mpi_sls_count 2, mpi_slswo_count 1, at rank 1's
#   MPI_Recv), one Late Receiver without bytes in sync_lr (mpi_slr_count 1, at rank 0's
#   MPI_Ssend); none of communications (no message has bytes);
# - visit counts of one-sided and file operations (comms_rma_puts 1, comms_rma_gets 1,
#   syncs_rma_active 4, mpi_file_iwops 2, mpi_file_cwops 2, mpi_file_cops 6: open,
#   write_at_all, close per rank); the one-sided bytes: rank 0 puts 8 (bytes_put at its
#   MPI_Put), rank 1 gets 16 (bytes_get at its MPI_Get), bytes_rma 24;
# - the window collectives' waits (Scalasca's MPI_RMA.pattern): rank 0 waits for rank 1 in
#   MPI_Win_create (mpi_rma_wait_at_create), the closing MPI_Win_fence
#   (mpi_rma_wait_at_fence) and MPI_Win_free (mpi_rma_wait_at_free): at least from rank 0's
#   enter to rank 1's less near's tolerance, at most the call's time; rank 1, the last to
#   enter create and free, waits 0 there;
# - the time tree's categories: rank 0 waits for rank 1, which comes D late, in MPI_Comm_dup
#   (mpi_mgmt_comm), MPI_Win_create (mpi_mgmt_win), the closing MPI_Win_fence
#   (mpi_rma_sync_active) and MPI_File_open (mpi_mgmt_file): each at least from rank 0's
#   enter to rank 1's (the program's marks; about D), at most the call's time; MPI_Put's
#   time is one-sided communication, MPI_File_write_at's individual and
#   MPI_File_write_at_all's collective file I/O (each all of the call's time); each rank
#   computes about D in "work" (comp: the time between its marks there);
# - the performance-impact tree: both ranks work about D at once in "work", the critical path
#   runs through one of them: each rank's activity impact there is between the shorter work
#   and its own, the non-critical-path impact at most their difference; rank 0's time before
#   its late send in sync_ls is on the path (activity impact: that time, from its marks);
# - the computational imbalance tree (CubeLib's remapper, as square derives it): rank 0 alone
#   computes in solo/solo_work; its overload there is all single participant, rank 1's
#   underload all singularity, each half of rank 0's time there (its marks);
# - trace.stat, Scalasca's pattern statistics: the two Late Senders (one in wrong order) and
#   the Late Receiver, D each, at the cnode ids of their calls in scout.cubex; in situ the
#   same patterns, counts and instances as post-mortem.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/analysis/lib_analysis.sh"
analysis_needs patterns_scorep

x=$work/pat
insitu_then_postmortem 2 "$x" pat.out an.out "$A/patterns_scorep" $D "$work/pat.dat"
cat an.out
grep '^T ' pat.out
# mark SCENARIO RANK WHAT: the program's mark (seconds after the scenario's start)
mark()
{
    awk -v s="$1" -v r="$2" -v w="$3" '$1 == "T" && $2 == s && $3 == r && $4 == w { print $5; f = 1 }
        END { exit !f }' pat.out || fail "no mark $1 $2 $3 in the program's output"
}
_check
$CV "$x/scout.cubex" same "$x/scout_insitu.cubex" 1e-6 >same.out ||
    fail "in situ and post-mortem differ: $(cat same.out)"

# CubeLib's rule (cube_rule.py; and CubeLib's own reading where CUBELIB_DUMP names a
# cube_dump) with the one-sided values: bytes and bytes_rma only sum their children, the
# bytes and the window collectives' waits are there
for f in scout.cubex scout_insitu.cubex; do
    _check
    python3 "$top_srcdir/test/analysis/cube_rule.py" "$x/$f" --zero bytes,bytes_rma --positive \
        bytes_rma,bytes_put,bytes_get,mpi_rma_wait_at_create,mpi_rma_wait_at_fence,mpi_rma_wait_at_free,imbalance_above_single,imbalance_below_singularity \
        ${CUBELIB_DUMP:+--cubelib "$CUBELIB_DUMP"} >rule.out 2>&1 || fail "cube_rule.py $f: $(cat rule.out)"
done

# the metric tree: Scalasca 2.6's names and places
$CV "$x/scout.cubex" metrics >metrics.txt || fail "cube_values.py cannot read scout.cubex"
while IFS='|' read -r uniq disp parent; do
    _check
    grep -qxF "$uniq	$disp	$parent" metrics.txt || fail "metric '$uniq $disp $parent' missing"
done <<'EOF'
comp|Computation|execution
mpi_management|Management|mpi
mpi_init_exit|Init/Finalize|mpi_management
mpi_mgmt_comm|Communicator|mpi_management
mpi_mgmt_file|File|mpi_management
mpi_mgmt_win|Window|mpi_management
mpi_rma_wait_at_create|MPI Wait at Window Create|mpi_mgmt_win
mpi_rma_wait_at_free|MPI Wait at Window Free|mpi_mgmt_win
mpi_rma_synchronization|One-sided|mpi_synchronization
mpi_rma_sync_active|Active Target|mpi_rma_synchronization
mpi_rma_wait_at_fence|MPI Wait at Fence|mpi_rma_sync_active
mpi_rma_sync_passive|Passive Target|mpi_rma_synchronization
mpi_rma_communication|One-sided|mpi_communication
mpi_io|File I/O|mpi
mpi_io_individual|Individual|mpi_io
mpi_io_collective|Collective|mpi_io
omp_time|OpenMP|execution
omp_ordered|Ordered|omp_synchronization
omp_taskwait|Task Wait|omp_synchronization
omp_flush|Flush|omp_time
mpi_slr_count|MPI Late Receiver Instances (Synchronizations)|syncs_send
mpi_sls_count|MPI Late Sender Instances (Synchronizations)|syncs_recv
mpi_slswo_count|MPI Late Sender, Wrong Order Instances (Synchronizations)|mpi_sls_count
syncs_rma|One-sided|syncs
syncs_rma_active|Active target|syncs_rma
syncs_rma_passive|Passive target|syncs_rma
comms_rma|One-sided|comms
comms_rma_puts|Puts|comms_rma
comms_rma_gets|Gets|comms_rma
comms_rma_atomics|Atomics|comms_rma
bytes_rma|One-sided|bytes
bytes_put|MPI one-sided bytes sent|bytes_rma
bytes_get|MPI one-sided bytes received|bytes_rma
mpi_file_ops|MPI file operations|-
mpi_file_iops|Individual|mpi_file_ops
mpi_file_irops|Reads|mpi_file_iops
mpi_file_iwops|Writes|mpi_file_iops
mpi_file_cops|Collective|mpi_file_ops
mpi_file_crops|Reads|mpi_file_cops
mpi_file_cwops|Writes|mpi_file_cops
performance_impact|Performance impact|-
performance_impact_criticalpath|Critical-path activities|performance_impact
critical_path_activities|Activity impact|performance_impact_criticalpath
critical_imbalance_impact|Critical-path imbalance impact|performance_impact_criticalpath
intra_partition_imbalance|Intra-partition imbalance|critical_imbalance_impact
inter_partition_imbalance|Inter-partition imbalance|critical_imbalance_impact
non_critical_path_activities|Non-critical-path activities|performance_impact
imbalance|Computational imbalance|-
imbalance_above|Overload|imbalance
imbalance_above_single|Single participant|imbalance_above
imbalance_below|Underload|imbalance
imbalance_below_bypass|Non-participation|imbalance_below
imbalance_below_singularity|Singularity|imbalance_below_bypass
EOF

for f in scout.cubex scout_insitu.cubex; do
    value() { $CV "$x/$f" value "$@"; }
    echo "== $f"
    # the synchronisation counts, exactly
    expect_eq "$(value mpi_sls_count sync_ls/MPI_Recv 1)" 1 "$f: sync_ls: one Late Sender (sync)"
    expect_eq "$(value mpi_sls_count sync_wo/MPI_Recv 1)" 1 "$f: sync_wo: one Late Sender (sync)"
    expect_eq "$(value mpi_sls_count '*' '*')" 2 "$f: two Late Senders of synchronisations"
    expect_eq "$(value mpi_slswo_count sync_wo/MPI_Recv 1)" 1 "$f: sync_wo: in wrong order"
    expect_eq "$(value mpi_slswo_count '*' '*')" 1 "$f: one in wrong order"
    expect_eq "$(value mpi_slr_count sync_lr/MPI_Ssend 0)" 1 "$f: sync_lr: one Late Receiver (sync)"
    expect_eq "$(value mpi_slr_count '*' '*')" 1 "$f: one Late Receiver of a synchronisation"
    for m in mpi_cls_count mpi_clr_count; do
        expect_eq "$(value $m '*' '*')" 0 "$f: no $m (no message has bytes)"
    done
    # the visit counts of one-sided and file operations: rank 0's MPI_Put, two fences on each
    # rank, each rank's MPI_File_write_at (individual), MPI_File_open, MPI_File_write_at_all
    # and MPI_File_close (collective)
    expect_eq "$(value comms_rma_puts fence/MPI_Put 0)" 1 "$f: one put"
    expect_eq "$(value comms_rma_gets fence/MPI_Get 1)" 1 "$f: one get"
    expect_eq "$(value comms_rma '*' '*')" 2 "$f: two one-sided communications"
    # the one-sided bytes: a double put by rank 0, two doubles got by rank 1
    expect_eq "$(value bytes_put fence/MPI_Put 0)" 8 "$f: rank 0 put 8 bytes"
    expect_eq "$(value bytes_put '*' '*')" 8 "$f: 8 bytes put in all"
    expect_eq "$(value bytes_get fence/MPI_Get 1)" 16 "$f: rank 1 got 16 bytes"
    expect_eq "$(value bytes_get '*' '*')" 16 "$f: 16 bytes got in all"
    expect_eq "$(value bytes_rma '*' '*')" 24 "$f: 24 one-sided bytes"
    expect_eq "$(value syncs_rma_active fence/MPI_Win_fence '*')" 4 "$f: 4 fences"
    expect_eq "$(value syncs_rma '*' '*')" 4 "$f: 4 one-sided synchronisations"
    for m in "mpi_file_iwops 2" "mpi_file_iops 2" "mpi_file_irops 0" "mpi_file_cwops 2" \
        "mpi_file_crops 0" "mpi_file_cops 6" "mpi_file_ops 8"; do
        set -- $m
        expect_eq "$(value "$1" '*' '*')" "$2" "$f: $2 of $1"
    done
    # the time tree: the waits of rank 0 for the late rank 1, by category: at least from rank
    # 0's enter to rank 1's (their marks, less near's tolerance), at most the call's whole
    # time (the call's own cost comes on top: MPI_File_open took 40 ms, MPI_Comm_dup 0.25 s
    # more once at load 10)
    for c in "mpi_mgmt_comm comm MPI_Comm_dup" "mpi_mgmt_win win MPI_Win_create" \
        "mpi_rma_sync_active fence MPI_Win_fence" "mpi_mgmt_file file_open MPI_File_open"; do
        set -- $c
        w=$(awk -v a="$(mark "$2" 1 enter)" -v b="$(mark "$2" 0 enter)" 'BEGIN { print a - b }')
        within "$1" "$2/$3" 0 "$(awk -v w="$w" -v r="$NEAR_REL" 'BEGIN { print w * (1 - r) }')" \
            "$(value time "$2/$3" 0)"
    done
    # the window collectives' waits: rank 0's as above (the fence's call path has both
    # fences); rank 1, which enters create and free last, waits 0 there (unless the scheduler
    # held rank 0 back longer: then as rank 0's above, from the marks the other way round)
    for c in "mpi_rma_wait_at_create win MPI_Win_create" "mpi_rma_wait_at_fence fence MPI_Win_fence" \
        "mpi_rma_wait_at_free win_free MPI_Win_free"; do
        set -- $c
        w=$(awk -v a="$(mark "$2" 1 enter)" -v b="$(mark "$2" 0 enter)" 'BEGIN { print a - b }')
        within "$1" "$2/$3" 0 "$(awk -v w="$w" -v r="$NEAR_REL" 'BEGIN { print w * (1 - r) }')" \
            "$(value time "$2/$3" 0)"
        [ "$1" != mpi_rma_wait_at_fence ] || continue
        if awk -v w="$w" 'BEGIN { exit !(w > 0) }'; then
            expect_eq "$(value "$1" "$2/$3" 1)" 0 "$f: rank 1 waits not in $3"
        else
            within "$1" "$2/$3" 1 "$(awk -v w="$w" -v r="$NEAR_REL" 'BEGIN { print -w * (1 - r) }')" \
                "$(value time "$2/$3" 1)"
        fi
    done
    # a call's whole time is in its category
    set -f # the locations "*" below are no file patterns
    for c in "mpi_rma_communication fence/MPI_Put 0" "mpi_io_individual MPI_File_write_at *" \
        "mpi_io_collective file_all/MPI_File_write_at_all *" "mpi_mgmt_win win_free/MPI_Win_free *" \
        "mpi_mgmt_file MPI_File_close *"; do
        set -- $c
        t=$(value time "$2" "$3") || fail "value time $2 $3"
        v=$(value "$1" "$2" "$3") || fail "value $1 $2 $3"
        expect_eq "$(awk -v t="$t" -v v="$v" 'BEGIN { print (t > 0 && v == t) }')" 1 \
            "$f: $1 at $2 on $3 is the call's time ($v of $t s)"
    done
    set +f
    # each rank's work (from its marks); the path runs through one rank's work: each rank's
    # activity impact there is the shorter of its own and that, the non-critical-path impact
    # at most their difference
    w0=$(awk -v a="$(mark work 0 end)" -v b="$(mark work 0 begin)" 'BEGIN { print a - b }')
    w1=$(awk -v a="$(mark work 1 end)" -v b="$(mark work 1 begin)" 'BEGIN { print a - b }')
    lo=$(awk -v a="$w0" -v b="$w1" 'BEGIN { print a < b ? a : b }')
    hi=$(awk -v a="$w0" -v b="$w1" 'BEGIN { print a < b ? b : a }')
    near comp work 0 "$w0"
    near comp work 1 "$w1"
    within critical_path_activities work 0 "$(awk -v l="$lo" -v w="$w0" 'BEGIN { print l < w ? l : w }')" "$w0"
    within critical_path_activities work 1 "$(awk -v l="$lo" -v w="$w1" 'BEGIN { print l < w ? l : w }')" "$w1"
    within non_critical_path_activities work '*' 0 "$(awk -v a="$lo" -v b="$hi" 'BEGIN { print b - a }')"
    # the imbalance tree at the call path only rank 0 visits: half its time there above the
    # average on rank 0, all of it single participant; as much below on rank 1, all of it
    # singularity (rank 1 does not visit it)
    h=$(awk -v a="$(mark solo 0 end)" -v b="$(mark solo 0 begin)" 'BEGIN { print (a - b) / 2 }')
    for c in "imbalance 0" "imbalance_above 0" "imbalance_above_single 0" "imbalance 1" \
        "imbalance_below 1" "imbalance_below_bypass 1" "imbalance_below_singularity 1"; do
        set -- $c
        near "$1" solo/solo_work "$2" "$h"
    done
    for c in "imbalance_below 0" "imbalance_above 1"; do
        set -- $c
        expect_eq "$(value "$1" solo/solo_work "$2")" 0 "$f: no $1 at solo_work on $2"
    done
    # rank 0's time before its late send in sync_ls is on the path
    near critical_path_activities sync_ls 0 \
        "$(awk -v a="$(mark sync_ls 0 send)" -v b="$(mark sync_ls 0 begin)" 'BEGIN { print a - b }')"
done

# trace.stat (Scalasca's pattern statistics; post-mortem: the in-situ file was overwritten):
# the Late Senders of sync_ls and sync_wo (the latter in wrong order) and the Late Receiver
# of sync_lr, D each, listed with the ids that scout.cubex gives their call paths (read from
# its anchor.xml by Python's tarfile and xml: the cnode of CALLEE below region PARENT)
expect_file "$x/trace.stat" "trace.stat beside scout.cubex"
cnode_id()
{
    python3 -c '
import sys, tarfile, xml.etree.ElementTree as ET
root = ET.fromstring(tarfile.open(sys.argv[1]).extractfile("anchor.xml").read())
names = {r.get("id"): r.findtext("name") for r in root.iter("region")}
def walk(n, parent):
    for c in n.findall("cnode"):
        if names[c.get("calleeId")] == sys.argv[3] and parent == sys.argv[2]:
            print(c.get("id"))
        walk(c, names[c.get("calleeId")])
walk(root.find("program"), None)' "$x/scout.cubex" "$1" "$2"
}
ls_id=$(cnode_id sync_ls MPI_Recv) wo_id=$(cnode_id sync_wo MPI_Recv) lr_id=$(cnode_id sync_lr MPI_Ssend)
echo "cnode ids: sync_ls/MPI_Recv $ls_id, sync_wo/MPI_Recv $wo_id, sync_lr/MPI_Ssend $lr_id"
cat "$x/trace.stat"
expect_eq "$(head -1 "$x/trace.stat" | tr -s ' ')" \
    "PatternName Count Mean Median Minimum Maximum Sum Variance Quartil25 Quartil75" \
    "trace.stat: Scalasca's header"
# PATTERN COUNT: the pattern's line has COUNT instances, its minimum and maximum within D
stat_line()
{
    _check
    awk -v p="$1" -v n="$2" -v d="$D" -v r="$NEAR_REL" -v a="$NEAR_ABS" '
        $1 == p { found = 1; t = r * d + a
                  ok = $2 == n && $5 >= d - t && $6 <= d + t && $7 >= n * (d - t) }
        END { exit !(found && ok) }' "$x/trace.stat" ||
        fail "trace.stat: $1: expected $2 instances of $D s"
    echo "ok: trace.stat: $1: $2 instances of $D s"
}
# PATTERN CNODE RANK: an instance of PATTERN at CNODE on RANK, D long, its exit after its
# enter (a wrong-order instance: from the earlier message's send, which may come after the
# receive began, to the receive of that message, as Scalasca's statistics take it)
stat_instance()
{
    _check
    awk -v p="$1" -v c="$2" -v k="$3" -v d="$D" -v r="$NEAR_REL" -v a="$NEAR_ABS" '
        /^[a-z]/ { cur = $1 }
        cur == p && $1 == "-" && $3 == c && $11 == k { t = r * d + a
            if ($9 >= d - t && $9 <= d + t && $7 > $5) found = 1 }
        END { exit !found }' "$x/trace.stat" ||
        fail "trace.stat: no $1 instance at cnode $2 on rank $3 of $D s"
    echo "ok: trace.stat: $1 at cnode $2 on rank $3"
}
# in situ as post-mortem: the same patterns, counts, and instances (call path and rank)
shape() { awk '/^[a-z]/ { print $1, $2 } $1 == "-" { print $3, $11 }' "$1"; }
expect_file "$x/trace_insitu.stat" "the in-situ analysis wrote trace.stat"
expect_eq "$(shape "$x/trace_insitu.stat")" "$(shape "$x/trace.stat")" \
    "trace.stat: in situ as post-mortem"
stat_line mpi_latesender 2
stat_instance mpi_latesender "$ls_id" 1
stat_instance mpi_latesender "$wo_id" 1
stat_line mpi_latesender_wo 1
stat_instance mpi_latesender_wo "$wo_id" 1
stat_line mpi_latereceiver 1
stat_instance mpi_latereceiver "$lr_id" 0

# Optional: square (Scalasca 2.6, SQUARE) derives critical_path_imbalance from our report by
# scout.spec's formula (CubeLib's evaluation of it); ours must be that, per call path and rank:
# on patterns.c the time without waiting leaves out the window collectives' waits too (Wait at
# Window Create, Free, Fence: in scout.spec's list, 0 in Scalasca's own report, where pearl
# ignores the records; docs/analysis.md)
part "square's critical_path_imbalance"
SQUARE=${SQUARE:-$(command -v square || true)}
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
if [ -z "$SQUARE" ] || [ -z "$CUBELIB_DUMP" ]; then
    skip_part_here "square's critical_path_imbalance" \
        "Scalasca and CubeLib are not packaged for this system (set SQUARE and CUBELIB_DUMP)"
else
    q=$(square_run "$x/scout.cubex" sq.out) || fail "square on ours: $(tail -c 600 sq.out)"
    python3 "$top_srcdir/test/analysis/scout_cmp.py" "$CUBELIB_DUMP" "$q" "$x/scout.cubex" \
        -m critical_path_imbalance -a 2e-6 -r 1e-5 >sq.cmp 2>&1 ||
        fail "square's critical_path_imbalance from our report is not ours: $(cat sq.cmp)"
    echo "ok: square from our report = ours: $(head -1 sq.cmp)"
fi
_check
echo "PASS"
