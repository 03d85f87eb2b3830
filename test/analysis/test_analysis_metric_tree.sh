#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_analysis_metric_tree.sh: scout.cubex read as CubeLib reads it (docs/analysis.md, "How
# the report stores its values"): a stored value is the metric with its sub-metrics, its
# exclusive value the stored value minus its children's (CubeLib's Cube::get_sev_adv). On the
# reports of a real analysis, in situ and post-mortem, of waitstates.c (4 ranks: Late Sender,
# wrong order, Late Receiver, collectives, delays, critical path) and of omp_waits.c (OpenMP
# barriers and idle threads), read by cube_rule.py (Python's tarfile/xml/zlib, written from
# the format documentation and CubeLib's sources, no code shared with the writer or with
# cube_values.py): every metric has its data, no metric's exclusive value is negative anywhere,
# the metrics that Scalasca defines as the sum of their sub-metrics have exclusive value 0,
# the parents of the program's wait states show them (Time, MPI, Point-to-point, Late Sender,
# Messages in Wrong Order, Delay Costs, Critical path: not 0), and the regions carry their
# paradigm and module (MPI regions: mpi, "MPI"; no unnamed "?" regions). The profile.cubex
# of the same run: the same rule (its metrics are roots). Where CubeLib's cube_dump is
# installed (on the PATH, or CUBELIB_DUMP=/path/to/cube_dump), CubeLib itself gives every
# metric's inclusive and exclusive totals as cube_rule.py reads them.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/analysis/lib_analysis.sh"
analysis_needs waitstates_scorep
export SCOREP_TOTAL_MEMORY=256M
RULE="python3 $top_srcdir/test/analysis/cube_rule.py"
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
if [ -n "$CUBELIB_DUMP" ]; then
    CUBELIB="--cubelib $CUBELIB_DUMP"
else
    CUBELIB=
    skip_part_here "CubeLib's own reading (cube_dump)" \
        "CubeLib is not packaged for this system (set CUBELIB_DUMP to a built cube_dump)"
fi

# Scalasca's sums of sub-metrics (scout's pattern files: a count's parent, the delay-cost
# aggregates and their parents, the classification of the point-to-point wait states, wrong
# order = different + same source)
ZERO=syncs,syncs_p2p,comms,comms_p2p,comms_coll,bytes,bytes_p2p,bytes_coll
ZERO=$ZERO,delay,delay_mpi,delay_p2p,delay_collective,delay_latesender_aggregate
ZERO=$ZERO,delay_latereceiver_aggregate,delay_barrier_aggregate,delay_n2n_aggregate
ZERO=$ZERO,delay_12n_aggregate,delay_n21_aggregate,mpi_latesender_wo
ZERO=$ZERO,waitstates_direct_vs_indirect,mpi_wait_direct,mpi_wait_indirect
ZERO=$ZERO,waitstates_propagating_vs_terminal,mpi_wait_propagating,mpi_wait_terminal
# and the sums of Scalasca 2.6's time tree and performance-impact tree (square's scout.spec:
# POSTDERIVED, and Execution, whose Computation is its time outside the other children)
ZERO=$ZERO,execution,mpi_management,mpi_synchronization,mpi_communication
ZERO=$ZERO,mpi_rma_synchronization,mpi_io,performance_impact,performance_impact_criticalpath
ZERO=$ZERO,syncs_rma,comms_rma,mpi_file_ops,bytes_rma
# the parents that the program's wait states lie under, and the wait states themselves
POS=time,execution,mpi,mpi_communication,mpi_point2point,mpi_latesender,mpi_latesender_wo
POS=$POS,mpi_lswo_different,mpi_latereceiver,mpi_collective,mpi_synchronization
POS=$POS,mpi_sync_collective,mpi_barrier_wait,delay,delay_mpi,delay_p2p
POS=$POS,delay_latesender_aggregate,critical_path,comms,comms_p2p,comms_recv,mpi_cls_count
POS=$POS,mpi_clswo_count,syncs,bytes,bytes_p2p
POS=$POS,comp,mpi_management,mpi_init_exit,mpi_mgmt_comm,performance_impact
POS=$POS,performance_impact_criticalpath,critical_path_activities

# check FILE WHAT ARGS...: cube_rule.py FILE ARGS passes
check()
{
    _f=$1 _what=$2
    shift 2
    $RULE "$_f" "$@" $CUBELIB >rule.out 2>&1 || fail "$_what: $(cat rule.out)"
    echo "ok: $_what: $(tail -1 rule.out)"
}

x=$work/ws
insitu_then_postmortem 4 "$x" ws.out an.out "$A/waitstates_scorep" $D
for f in scout_insitu.cubex scout.cubex; do
    check "$x/$f" "waitstates $f" --zero "$ZERO" --positive "$POS" --regions
done
check "$x/profile.cubex" "waitstates profile.cubex" --data-optional

# the reading itself: Late Sender's value (as Cube shows the collapsed metric) holds its
# wrong-order part, which is all of ls_wrong_order's Late Sender waiting
$RULE "$x/scout.cubex" --show mpi_latesender >ls.txt || fail "cube_rule.py --show"
$RULE "$x/scout.cubex" --show mpi_latesender_wo >wo.txt || fail "cube_rule.py --show"
expect_eq "$(awk 'NR == FNR { ls = $1; next } { print (ls > $1 && $1 > 0 && $2 < 1e-9) }' \
    ls.txt wo.txt)" 1 "Late Sender ($(cat ls.txt)) holds Messages in Wrong Order ($(cat wo.txt))"

# OpenMP: barriers, idle threads and their delay costs (one rank, 3 threads)
if ! command -v clang >/dev/null 2>&1 || ! command -v mpicc >/dev/null 2>&1; then
    skip_part "clang or mpicc (the OpenMP report)"
elif ! nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$'; then
    skip_part_here "the OpenMP report" "the runtime was built without its OMPT tool"
else
    export KMP_BLOCKTIME=0 OMP_NUM_THREADS=3
    OMPI_CC=clang "$SCOREP_CC" --user --nocompiler mpicc -g -O1 -fopenmp -o omp_waits \
        "$top_srcdir/test/analysis/omp_waits.c" || fail "build: scorep-cc mpicc -fopenmp omp_waits.c"
    insitu_then_postmortem 1 "$work/ow" ow.out owan.out ./omp_waits $D
    OZERO=delay,delay_omp,delay_ompbarrier_aggregate,delay_ompidle_aggregate
    OZERO=$OZERO,execution,omp_time,omp_synchronization,omp_barrier
    OPOS=time,execution,comp,omp_time,omp_synchronization,omp_barrier,omp_ebarrier,omp_ebarrier_wait
    OPOS=$OPOS,omp_ibarrier,omp_ibarrier_wait,omp_idle_threads,delay,delay_omp
    for f in scout_insitu.cubex scout.cubex; do
        check "$work/ow/$f" "omp_waits $f" --zero "$OZERO" --positive "$OPOS" --regions
    done
fi
done_ok
