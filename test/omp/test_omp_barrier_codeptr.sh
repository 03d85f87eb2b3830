#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_barrier_codeptr.sh: the master's explicit barrier keeps its own region on LLVM's
# libomp while its workers leave critical constructs (test/omp/critical_barrier.c, gcc, plain
# under scorep-run --openmp-runtime=libomp). libomp's __kmpc_end_critical reads the return
# address stored for global thread 0, the master's, not its caller's: a worker releasing a
# critical between the master's GOMP_barrier/__kmpc_barrier and its barrier callback took the
# master's code pointer, which then came as none (the region of the enclosing parallel
# construct) or as an address inside libomp (a barrier without a line); 36 + 36 of 20000
# barriers in one run, and test_unwind_omp.sh's chance failure (a sixth calling context of
# the master). The runtime now takes such a barrier's code pointer from the stack
# (omp_parallel.c, barrier_codeptr).
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

if ! nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$'; then
    echo "SKIP: the runtime was built without its OMPT tool"
    exit 77
fi
if ! ldconfig -p 2>/dev/null | grep -q 'libomp\.so'; then
    echo "SKIP: LLVM's libomp is not installed"
    exit 77
fi
command -v gcc >/dev/null 2>&1 || { echo "SKIP: no gcc"; exit 77; }
gcc -O0 -g -fopenmp -o critical_barrier_plain "$OMP_SRC/critical_barrier.c" ||
    fail "build: gcc -fopenmp critical_barrier.c"
# many barriers: the race hits 1 in 300 to 1 in 10000 of them (idle to loaded) without the fix;
# a profile only (a trace of 100000 barriers takes the trace checks a minute)
N=100000
exp=exp_critical_barrier
run_app critical_barrier_plain env SCOREP_EXPERIMENT_DIRECTORY=$exp \
    "$SCOREP_RUN" --openmp-runtime=libomp ./critical_barrier_plain $N
expect_eq "$status" 0 "exit status"
expect_eq "$(cat critical_barrier_plain.err)" "" "nothing on stderr"
expect_eq "$(cat critical_barrier_plain.out)" "count $((2 * N))" "output (the critical's count)"
at() { echo "@critical_barrier.c:$(line critical_barrier "$1")"; }
PAR="!\$omp parallel $(at PAR)"
# every call path with its visits on threads 0, 1, 2: the explicit barrier N times on each,
# under its own line (libomp 14 reports it with the kind of an implicit one), the closing
# barrier once, named after the parallel construct; the critical on the workers only
LC_ALL=C sort >cb.exp <<EOT
$PAR=1,1,1
$PAR/!\$omp critical $(at CRIT)=0,$N,$N
$PAR/!\$omp critical $(at CRIT)/!\$omp critical sblock $(at CRIT)=0,$N,$N
$PAR/BARRIER $(at BAR)=$N,$N,$N
$PAR/!\$omp implicit barrier $(at PAR)=1,1,1
EOT
got=$(profile_dump "$exp" -m visits | awk -F'\t' '$2 != "." {
        split($4, kv, "="); v[$2, $3] += kv[2]; p[$2] = 1 }
    END { for (k in p) printf "%s=%d,%d,%d\n", k, v[k, 0], v[k, 1], v[k, 2] }' |
    sed "s#/!\\\$omp \\(implicit \\)\\{0,1\\}barrier $(at BAR)=#/BARRIER $(at BAR)=#" | LC_ALL=C sort)
expect_eq "$got" "$(cat cb.exp)" "the call paths and their visits per thread"
done_ok
