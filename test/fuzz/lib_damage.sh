# SPDX-License-Identifier: BSD-3-Clause
# lib_damage.sh: what the damaged-experiment tests of test/fuzz share, sourced after lib.sh:
# a SKIP unless scorep-analyze, mpicc and mpirun are there; late_experiment makes the 2-rank
# late-sender experiment they damage.
ANALYZE="$top_builddir/scorep-analyze"
MPIRUN="mpirun --oversubscribe --allow-run-as-root"
export OMPI_MCA_mpi_yield_when_idle=1
[ -x "$ANALYZE" ] || { echo "SKIP: the analysis (scorep-analyze) was not built"; exit 77; }
command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
command -v mpicc >/dev/null 2>&1 || { echo "SKIP: no mpicc"; exit 77; }

# late_experiment DIR ROUNDS: test/fuzz/late_loop.c on 2 ranks, ROUNDS rounds, with a profile
# and a trace, into experiment directory DIR
late_experiment()
{
    [ -x late_loop ] || scorep_cc mpicc -O2 -o late_loop "$top_srcdir/test/fuzz/late_loop.c"
    SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$1" \
        timeout 300 $MPIRUN -np 2 ./late_loop "$2" >"$1.out" 2>&1 ||
        fail "late_loop $2: $(cat "$1.out")"
    expect_file "$1/traces/1.evt" "late_loop wrote a trace"
    expect_file "$1/profile.cubex" "late_loop wrote a profile"
}
