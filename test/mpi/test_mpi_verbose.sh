#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_verbose.sh: SCOREP_VERBOSE=true in an MPI job (2 ranks, dlopen_mpi.c under
# scorep-run) names the experiment directory once, rank 0's, when it has been made at
# MPI_Init. Until session 22 every rank said "measurement started, experiment directory ''"
# (the directory is made after the start in MPI runs; found with GROMACS, test/apps/gromacs.sh).
. "$top_srcdir/test/integration/lib.sh"

[ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: the MPI adapter was not built"; exit 77; }
command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1 ||
    { echo "SKIP: no mpirun or mpicc"; exit 77; }
${CC:-cc} -O1 -Wall -Werror -o main "$top_srcdir/test/mpi/dlopen_mpi.c" -ldl || fail "build: the main program"
mpicc -O1 -Wall -Werror -fPIC -shared -DDLOPEN_MPI_MODULE -o module.so "$top_srcdir/test/mpi/dlopen_mpi.c" ||
    fail "build: the MPI module"
run_app r env SCOREP_VERBOSE=true SCOREP_EXPERIMENT_DIRECTORY="$work/exp" \
    SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
    mpirun --oversubscribe --allow-run-as-root -np 2 "$top_builddir/scorep-run" ./main ./module.so
expect_eq "$status $(cat r.out)" "0 ring 6 sum 1" "exit status and output"
expect_eq "$(grep -c "^\[scorep-rt\] experiment directory '$work/exp'\$" r.err)" 1 \
    "one line names the experiment directory"
expect_no_grep "directory ''" r.err "no empty experiment directory named"
expect_eq "$(grep -c '^\[scorep-rt\] measurement started' r.err)" 2 "each rank says it started"
expect_file exp/profile.cubex "the profile written where the line says"
done_ok
