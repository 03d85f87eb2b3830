# SPDX-License-Identifier: BSD-3-Clause
# rma_lib.sh: what test_mpi_rma_remote.sh and test_mpi_rma_many.sh share: building and
# tracing one of test/mpi's RMA programs with 2 ranks under scorep-run, and one location's
# RMA records as a sequence (rma_sequence.py). Sourced after test/integration/lib.sh.

# rma_run PROG: skips without the MPI adapter or MPI; builds test/mpi/PROG.c, runs it traced
# into $work/exp (2 ranks), checks its exit status, its output "PROG: 2 ranks ok", no runtime
# message and clean definitions; sets t to the trace's event file
rma_run()
{
    [ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: the MPI adapter was not built"; exit 77; }
    command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1 ||
        { echo "SKIP: no mpirun or mpicc"; exit 77; }
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    mpicc -O1 -Wall -Wextra -Werror -o "$1" "$top_srcdir/test/mpi/$1.c" || fail "build: $1"
    run_app r env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$work/exp" \
        SCOREP_RUN_LIBDIR="$top_builddir/.libs" TEST_TIMEOUT=120 \
        mpirun -np 2 "$top_builddir/scorep-run" "./$1"
    expect_eq "$status $(cat r.out)" "0 $1: 2 ranks ok" "2 ranks: exit status and output"
    expect_no_grep 'scorep-rt' r.err "no message of the runtime"
    expect_defs_clean exp "$1"
    t=$(trace_file exp)
}

# sequence LOCATION: the location's RMA records in the trace $t, each "NAME@CALL m<k>" (k:
# the operation's order of issue, from its matching id) or for operations
# "NAME@CALL m<k> -> <remote> <bytes>" (test/mpi/rma_sequence.py), joined by ";"
sequence()
{
    awk -v loc="$1" '$2 == loc' "$t" >seq_in.$1 || fail "awk $t"
    python3 "$top_srcdir/test/mpi/rma_sequence.py" <seq_in.$1 || fail "rma_sequence.py"
}
