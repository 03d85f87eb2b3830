#!/bin/sh
# test_analysis_omp.sh: the OpenMP patterns of the wait-state analysis (docs/analysis.md,
# src/analysis/an_omp.c) on omp_waits.c (1 rank, 3 threads, D = 0.2 s; built with clang through
# scorep-cc): Wait at explicit and implicit barriers, idle threads during a serial section and
# limited parallelism in a team of 2, each the value the program's design and its own clock
# readings give (within 10% + 15 ms), read from scout.cubex with cube_values.py (no code shared
# with the writer); the workers' visits exactly. Post-mortem (scorep-analyze) and in situ
# (SCOREP_ENABLE_ANALYSIS) give the same report.
. "$top_srcdir/test/integration/lib.sh"

command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1 ||
    { echo "SKIP: no mpicc/mpirun"; exit 77; }
command -v clang >/dev/null 2>&1 || { echo "SKIP: no clang"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
[ -x "$top_builddir/scorep-analyze" ] || { echo "SKIP: the analysis was not built"; exit 77; }
nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$' ||
    { echo "SKIP: the runtime was built without its OMPT tool"; exit 77; }
MPIRUN="timeout 300 mpirun --oversubscribe --allow-run-as-root"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# threads waiting in a barrier sleep at once (libomp), so that the spinning thread runs
export OMPI_MCA_mpi_yield_when_idle=1 KMP_BLOCKTIME=0 OMP_NUM_THREADS=3
CV="python3 $top_srcdir/test/analysis/cube_values.py"
SRC="$top_srcdir/test/analysis/omp_waits.c"
D=0.2

# clang: an explicit barrier of gcc-compiled code reaches libomp's OMPT as an implicit one
OMPI_CC=clang "$SCOREP_CC" --user --nocompiler mpicc -g -O1 -fopenmp -o omp_waits "$SRC" ||
    fail "build: scorep-cc --user mpicc (clang) -fopenmp omp_waits.c"
x=$work/ow
env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_ANALYSIS=true SCOREP_EXPERIMENT_DIRECTORY="$x" \
    $MPIRUN -np 1 ./omp_waits $D >ow.out 2>&1 || fail "omp_waits: $(cat ow.out)"
expect_file "$x/scout.cubex" "the in-situ analysis wrote scout.cubex"
mv "$x/scout.cubex" "$x/scout_insitu.cubex"
$MPIRUN -np 1 "$top_builddir/scorep-analyze" "$x" >an.out 2>&1 ||
    fail "scorep-analyze: $(cat an.out)"
expect_file "$x/scout.cubex" "scorep-analyze wrote scout.cubex"
expect_grep "Idle threads .* of time" an.out "the summary lists the idle threads"

mark()
{
    awk -v s="$1" -v r="$2" -v w="$3" '$1 == "T" && $2 == s && $3 == r && $4 == w {
        print $5; f = 1 } END { exit !f }' ow.out || fail "omp_waits printed no mark $*"
}
calc()
{
    awk "function pos(x) { return x > 0 ? x : 0 }
         function max3(a, b, c) { return a > b ? (a > c ? a : c) : (b > c ? b : c) }
         function wait3(a, b, c) { return 3 * max3(a, b, c) - a - b - c }
         BEGIN { printf \"%.6f\", ($1) }"
}
value() { $CV "$x/scout.cubex" value "$@"; }
near()
{
    v=$(value "$1" "$2" 0) || fail "cube_values.py $*"
    awk -v v="$v" -v e="$3" 'BEGIN { t = 0.1 * e + 0.015; exit !(v >= e - t && v <= e + t) }' ||
        fail "$1 at $2: expected $3 s (10% + 15 ms), got $v s"
    echo "ok: $1 at $2 = $v (expected $3)"
}
line() { grep -n "/\* $1 \*/" "$SRC" | cut -d: -f1; }

# explicit barrier: thread 1 arrives after D, threads 0 and 2 wait for it
b0=$(mark ebarrier 0 bar) b1=$(mark ebarrier 1 bar) b2=$(mark ebarrier 2 bar)
near omp_ebarrier_wait 'ebarrier/**' "$(calc "wait3($b0, $b1, $b2)")"
near omp_ibarrier_wait 'ebarrier/**' 0
# implicit barrier at the end of the parallel region: thread 2 arrives after D
e0=$(mark ibarrier 0 end) e1=$(mark ibarrier 1 end) e2=$(mark ibarrier 2 end)
near omp_ibarrier_wait 'ibarrier/**' "$(calc "wait3($e0, $e1, $e2)")"
near omp_ebarrier_wait 'ibarrier/**' 0
# the workers' time is in the report: 3 threads x D in the region
near execution 'ibarrier/**' "$(calc "3 * max3($e0, $e1, $e2)")"
# serial section: 2 of the 3 threads idle
near omp_idle_threads serial "$(calc "2 * ($(mark serial 0 end) - $(mark serial 0 begin))")"
near omp_idle_threads 'ebarrier/**' 0.0
# a team of 2 of 3 threads: 1 thread idle while it runs; thread 0 waits for thread 1 at its end
lp=$(calc "$(mark limited 0 join) - $(mark limited 0 fork)")
near omp_limited_parallelism 'limited/**' "$lp"
near omp_ibarrier_wait 'limited/**' "$lp"
near omp_limited_parallelism 'ebarrier/**' 0
# exact visits of the workers: each of the 3 threads enters the team and the barrier once
P="!\$omp parallel @omp_waits.c:$(line PAR_E)"
expect_eq "$(value visits "ebarrier/$P" 0)" 3 "visits of the parallel region (3 threads)"
expect_eq "$(value visits "ebarrier/$P/!\$omp barrier @omp_waits.c:$(line BAR_E)" 0)" 3 \
    "visits of the explicit barrier (3 threads)"
expect_eq "$(value visits "limited/!\$omp parallel @omp_waits.c:$(line PAR_L)" 0)" 2 \
    "visits of the team of 2"
# Scalasca's names and tree
$CV "$x/scout.cubex" metrics >metrics.txt || fail "cube_values.py metrics"
for m in "omp|OMP|execution" "omp_synchronization|Synchronization|omp" \
    "omp_barrier|Barrier|omp_synchronization" "omp_ebarrier|Explicit|omp_barrier" \
    "omp_ebarrier_wait|Wait at Barrier|omp_ebarrier" "omp_ibarrier|Implicit|omp_barrier" \
    "omp_ibarrier_wait|Wait at Barrier|omp_ibarrier" "omp_idle_threads|Idle threads|time" \
    "omp_limited_parallelism|Limited parallelism|omp_idle_threads"; do
    expect_eq "$(awk -F'\t' -v u="${m%%|*}" '$1 == u { print $1 "|" $2 "|" $3 }' metrics.txt)" \
        "$m" "metric ${m%%|*}: display name and parent"
done
# in situ (the workers' in-memory buffers) and post-mortem (their trace locations) agree:
# counts exactly, times within 1 us + 1e-6 of the value (test_analysis.sh says why)
$CV "$x/scout.cubex" same "$x/scout_insitu.cubex" 1e-6 >same.out ||
    fail "in situ and post-mortem differ: $(cat same.out)"
expect_eq "$(awk -v v="$($CV "$x/scout_insitu.cubex" value omp_ebarrier_wait 'ebarrier/**' 0)" \
    'BEGIN { print (v > 0.1) }')" 1 "in situ: the explicit barrier's wait is there"
done_ok
