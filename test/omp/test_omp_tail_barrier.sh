#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_tail_barrier.sh: an explicit barrier that ends a parallel region, which gcc -O2
# compiles to a tail call of GOMP_barrier (test/omp/tail_barrier.c, plain gcc, run under
# scorep-run on libgomp). Its return address is then the one into libscorep-rt-gomp's own
# call of the outlined function, and until session 22 every such barrier of every program
# was the one region `!$omp barrier @gomp_wrap.c:114` (GROMACS's mdrun has one). Now it is
# named after its parallel construct's line; a barrier followed by more work keeps its own.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

gcc -O2 -g -fopenmp -o tail_barrier_plain "$OMP_SRC/tail_barrier.c" ||
    fail "build: gcc -O2 -fopenmp tail_barrier.c"
disasm_fn tail_barrier_plain main._omp_fn.0 >fn0.s
if ! grep -E -q "$JMP_INSN.*<GOMP_barrier@plt>" fn0.s; then
    echo "SKIP: this gcc does not end main._omp_fn.0 with a tail call of GOMP_barrier"
    exit 77
fi
GCC_OPENMP_RUNTIME=libgomp
omp_run plain tail_barrier
expect_eq "$(cat tail_barrier_plain.out)" "12 24" "output (sums that the barriers make deterministic)"
at() { echo "@tail_barrier.c:$(line tail_barrier "$1")"; }
pt="!\$omp parallel $(at PAR_TAIL)"
pm="!\$omp parallel $(at PAR_MID)"
expect_eq "$(per_loc "$exp" "$pt/!\$omp barrier $(at PAR_TAIL)")" "3 3" \
    "the tail-called barrier: named after its parallel construct, 3 visits per thread"
expect_eq "$(per_loc "$exp" "$pm/!\$omp barrier $(at BARRIER_MID)")" "3 3" \
    "the barrier followed by work: its own line, 3 visits per thread"
profile_dump "$exp" -m visits >paths
expect_no_grep 'gomp_wrap|libscorep' paths "no region named after the runtime's own code"
omp_consistent "$exp" tail_barrier
done_ok
