#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_hybrid_crash.sh: a hybrid MPI + OpenMP job that dies inside a parallel region
# (test/omp/hybrid_crash.c, 2 ranks x 2 threads, scorep-cc --openmp-runtime=libomp mpicc -fopenmp):
# rank 1's master calls MPI_Abort there, or sends itself SIGKILL there after a checkpoint
# written inside the region (SCOREP_CHECKPOINT_INTERVAL=1); mpirun ends rank 0 (waiting in
# an MPI_Barrier inside the region) with SIGTERM. scorep-recover's profile of each, read by
# our reader (profile_check accepts it) and by CubeLib's cube_dump: every location of the
# normal run, no location's time beyond the run's wall time, the visits the program fixes
# (the parallel region once per thread, 4 tasks and 4 calls of work per rank, the MPI calls
# before the crash), and the metrics of the normal run's profile (an MPI job:
# bytes_sent / bytes_received) with its bytes sent. Mpirun's exit status and the program's
# output are those of the uninstrumented program. The same program built with
# OMPI_CC=clang scorep-cc mpicc (the LLVM plugin; before session 25 scorep-cc gave clang gcc's
# plugin and built nothing): its normal end and the abort.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

omp_require_mpi
export OMPI_MCA_rmaps_base_oversubscribe=1
export TEST_TIMEOUT=120 # a job that hangs fails the test (run_app: timeout)
# mpirun ends the other rank with SIGCONT, SIGTERM this many seconds later and SIGKILL as
# many seconds after that: rank 0 writes its piece at SIGTERM, a small one (test_rescue_mpi.sh
# gives its larger pieces 20 s; here that would be 40 s per job)
export OMPI_MCA_odls_base_sigkill_timeout=3
RECOVER="$top_builddir/scorep-recover"
find_cubelib_dump
# gcc under mpicc on LLVM's libomp (through OMPT: the runtime of the session's fixes inside a
# parallel region: task migrations, the workers' implicit tasks); the plain build on libomp too
scorep_cc --openmp-runtime=libomp mpicc -fopenmp -o hc_m "$OMP_SRC/hybrid_crash.c"
mpicc -fopenmp -o hc_u "$OMP_SRC/hybrid_crash.c" || fail "build: mpicc -fopenmp hybrid_crash.c"

# job NAME BINARY HOW [VAR=VALUE...]: mpirun -np 2 BINARY HOW NAME.go; once both ranks are
# inside the region (for kill: after rank 1's second checkpoint written from then on, which
# was taken inside the region) the file NAME.go lets rank 1 end. Sorted output in
# NAME.sorted, exit status in $status, the run's wall time (s) in $wall.
job()
{
    _n=$1 _b=$2 _h=$3
    shift 3
    _t0=$(date +%s.%N)
    start_app "$_n" env "$@" mpirun -np 2 "./$_b" "$_h" "$work/$_n.go"
    wait_lines "$_n.out" ' inside$' 2 "$_n: the ranks did not reach the region"
    if [ "$_h" = kill ] && [ "$_b" = hc_m ]; then
        wait_checkpoints "exp_$_h/rescue/rank-1.piece" "$_n"
    fi
    touch "$_n.go"
    wait_app 120
    wall=$(echo "$(date +%s.%N) $_t0" | awk '{ print $1 - $2 }')
    sort "$_n.out" >"$_n.sorted"
}

P="main/!\$omp parallel @hybrid_crash.c:$(line hybrid_crash PAR)"
# the MPI_Barrier inside the region: gcc's master construct calls no runtime function (no
# region of its own); clang's calls __kmpc_masked (the region "!$omp masked")
BR="$P/MPI_Barrier"

# ours_visits EXPDIR: "LOCATION PATH=VISITS" of every call path below the root with visits, the
# names cut at their first blank as cubelib_visits reads them (sorted)
ours_visits()
{
    profile_dump "$1" -m visits | awk -F'\t' '$2 != "." { split($4, kv, "="); if (kv[2] == 0) next
        n = split($2, c, "/"); q = ""
        for (i = 1; i <= n; i++) { sub(/ .*/, "", c[i]); q = q (i > 1 ? "/" : "") c[i] }
        print $3, q "=" kv[2] }' | sort
}

# rank_sum EXPDIR CALLPATH METRIC RANK: METRIC of CALLPATH summed over the rank's two
# locations (2 RANK and 2 RANK + 1: the system tree checked below)
rank_sum()
{
    echo $(($(profile_sum "$1" "$2" "$3" $((2 * $4))) + $(profile_sum "$1" "$2" "$3" $((2 * $4 + 1)))))
}

# check_run EXPDIR WHAT WALL [RANK1BARRIER]: the profile of a run of 2 ranks x 2 threads
# against the program's design: every location of the normal run, none with more time than
# the run's wall time WALL (s), nor a worker with more than its master; the visits; the normal
# run's metrics and bytes; CubeLib reads the same visits and metric definitions.
# RANK1BARRIER: rank 1's calls of MPI_Barrier inside the region (0: it ended before).
check_run()
{
    _x=$1 _w=$2 _wall=$3 _b1=${4:-1}
    check_profiles
    expect_eq "$(profile_dump $_x --system | cut -f2-)" "$SYSTEM" "$_w: the normal run's locations"
    for _l in 0 1 2 3; do
        _t=$(profile_isum $_x . time $_l)
        echo "$_w: location $_l: $_t s (wall time $_wall s)"
        expect_eq "$(echo "$_t $_wall" | awk '{ print ($1 > 0 && $1 <= $2) }')" 1 \
            "$_w: location $_l's time $_t s within the run's wall time $_wall s"
    done
    for _r in 0 1; do
        expect_eq "$(echo "$(profile_isum $_x . time $((2 * _r + 1))) $(profile_isum $_x . time $((2 * _r)))" |
            awk '{ print ($1 <= $2) }')" 1 "$_w: rank $_r's worker has no more time than its master"
    done
    expect_eq "$(profile_values $_x . visits | tr '\n' ,)" "0 1,2 1," \
        "$_w: the program root visited once on each master, never on a worker"
    expect_eq "$(per_loc $_x "$P")" "1 1 1 1" "$_w: the parallel region entered once per thread"
    for _r in 0 1; do
        expect_eq "$(rank_sum $_x "$T" visits $_r):$(rank_sum $_x "$T/work" visits $_r)" 4:4 \
            "$_w: rank $_r: 4 tasks, each calling work once"
    done
    expect_eq "$(profile_values $_x main/MPI_Sendrecv visits | tr '\n' ,)" "0 5,2 5," \
        "$_w: MPI_Sendrecv 5 times per rank before the region"
    expect_eq "$(profile_values $_x main/MPI_Barrier visits | tr '\n' ,)" "0 5,2 5," \
        "$_w: MPI_Barrier 5 times per rank before the region"
    _pb="0 1,"
    [ "$_b1" = 0 ] || _pb="0 1,2 1,"
    expect_eq "$(profile_values $_x "$BR" visits | awk '$2 > 0' | tr '\n' ,)" "$_pb" \
        "$_w: MPI_Barrier in the region on rank 0's master$([ "$_b1" = 0 ] || echo " and rank 1's")"
    expect_eq "$(metric_list $_x)" "$METRICS" "$_w: the normal run's metrics"
    expect_eq "$(profile_values $_x main/MPI_Sendrecv bytes_sent | tr '\n' ,):$(profile_values $_x main/MPI_Sendrecv bytes_received | tr '\n' ,)" \
        "0 2000,2 2000,:0 2000,2 2000," "$_w: bytes sent and received by MPI_Sendrecv (5 x 400 per rank)"
    if [ -n "$CUBELIB_DUMP" ]; then
        cubelib_visits "$CUBELIB_DUMP" $_x/profile.cubex >$_x.cl.visits
        expect_eq "$(cat $_x.cl.visits)" "$(ours_visits $_x)" "$_w: CubeLib reads the visits of every call path"
        cubelib_metrics "$CUBELIB_DUMP" $_x/profile.cubex $_x.cl.metrics
        expect_eq "$(cat $_x.cl.metrics)" "$(cat normal.cl.metrics)" \
            "$_w: CubeLib reads the normal run's metric definitions"
    fi
}

# the normal end: the reference of locations and metrics
job plain_normal hc_u normal
expect_eq "$status:$(tr '\n' , <plain_normal.sorted)" "0:rank 0 done,rank 0 inside,rank 1 done,rank 1 inside," \
    "unmeasured normal run: exit status and output"
job normal hc_m normal SCOREP_EXPERIMENT_DIRECTORY=exp_normal
expect_eq "$status:$(cat normal.sorted)" "0:$(cat plain_normal.sorted)" "normal: exit status and output"
# the tasks' region (its line is the compiler's: gcc names the loop's)
T=$(profile_paths exp_normal | grep -F "$P/!\$omp task @hybrid_crash.c:" | grep -v '/work$')
expect_eq "$(echo "$T" | wc -l)" 1 "normal: one region of the tasks ($T)"
SYSTEM="Linux/vm	MPI Rank 0	Master thread	0
Linux/vm	MPI Rank 0	OMP thread 1	0
Linux/vm	MPI Rank 1	Master thread	1
Linux/vm	MPI Rank 1	OMP thread 1	1"
SYSTEM=$(echo "$SYSTEM" | sed "s|^Linux/vm|$(profile_dump exp_normal --system | head -n 1 | cut -f2)|")
METRICS="visits time min_time max_time task_migration_loss task_migration_win bytes_sent bytes_received "
[ -z "$CUBELIB_DUMP" ] || cubelib_metrics "$CUBELIB_DUMP" exp_normal/profile.cubex normal.cl.metrics
check_run exp_normal normal "$wall"

for how in abort kill; do
    part "rank 1 ends by $how inside the parallel region"
    e=exp_$how
    job plain_$how hc_u $how
    plain=$status
    ck=
    [ $how != kill ] || ck=SCOREP_CHECKPOINT_INTERVAL=1
    job meas_$how hc_m $how SCOREP_EXPERIMENT_DIRECTORY=$e $ck
    expect_eq "$status" "$plain" "$how: mpirun's exit status as without measurement ($plain)"
    expect_eq "$(cat meas_$how.sorted)" "$(cat plain_$how.sorted)" "$how: program output unchanged"
    expect_eq "$(tr '\n' , <meas_$how.sorted)" "rank 0 inside,rank 1 inside," "$how: both ranks inside the region"
    expect_no_file $e/profile.cubex "$how: no profile before scorep-recover"
    expect_eq "$(entries $e/rescue '^rank-[0-9]\.piece$')" 2 "$how: a piece of every rank"
    run_to recover_$how.out "$RECOVER" $e
    expect_grep "2 of 2 ranks recovered" recover_$how.out "$how: scorep-recover"
    check_run $e "$how" "$wall" 0
done
expect_eq "$(sed -n 's/^- rank 1: \(.*\), at .*/\1/p' exp_abort/MANIFEST.md)" "MPI_Abort (error code 3)" \
    "abort: MANIFEST.md says how rank 1 ended"
expect_eq "$(sed -n 's/^- rank 1: \(.*\), at .*/\1/p' exp_kill/MANIFEST.md)" \
    "killed (SIGKILL?); data up to its last checkpoint" "kill: MANIFEST.md says how rank 1 ended"

# clang under mpicc (OMPI_CC=clang): the LLVM plugin instruments (before session 25 scorep-cc
# passed gcc's plugin, which clang cannot load: nothing was built); the normal end and the
# abort inside the region, as above
part "OMPI_CC=clang scorep-cc mpicc"
OMPI_CC=clang scorep_cc mpicc -fopenmp -o hc_c "$OMP_SRC/hybrid_crash.c"
readelf -d hc_c >hc_c.dyn
expect_grep 'NEEDED.*\[libomp\.so' hc_c.dyn "clang: the program runs on libomp"
job clang_normal hc_c normal SCOREP_EXPERIMENT_DIRECTORY=exp_cnormal
expect_eq "$status:$(cat clang_normal.sorted)" "0:$(cat plain_normal.sorted)" "clang, normal: exit status and output"
T=$(profile_paths exp_cnormal | grep -F "$P/!\$omp task @hybrid_crash.c:" | grep -v '/work$')
expect_eq "$(echo "$T" | wc -l)" 1 "clang, normal: one region of the tasks ($T)"
BR="$P/!\$omp masked @hybrid_crash.c:$(line hybrid_crash MASTER)/MPI_Barrier"
check_run exp_cnormal "clang, normal" "$wall"
job clang_abort hc_c abort SCOREP_EXPERIMENT_DIRECTORY=exp_cabort
expect_eq "$status:$(cat clang_abort.sorted)" "$(cat plain_abort.sorted | sed '1s/^/3:/')" \
    "clang, abort: exit status and output"
run_to recover_cabort.out "$RECOVER" exp_cabort
expect_grep "2 of 2 ranks recovered" recover_cabort.out "clang, abort: scorep-recover"
check_run exp_cabort "clang, abort" "$wall" 0
done_ok
