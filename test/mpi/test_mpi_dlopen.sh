#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_dlopen.sh: `mpirun -np 3 scorep-run ./prog` where prog does not link libmpi but
# dlopens a module that does (dlopen_mpi.c; python3 with mpi4py is such a program, found by
# test/apps/debian_apps.sh): started by mpirun, scorep-run preloads the MPI adapter, so the
# three ranks write one experiment with 3 locations, the ring's 9 MPI_Send and 9 MPI_Recv,
# and a trace whose messages all pair. (Before, each rank measured itself as a serial program
# into the same directory, moving the others' results aside.) `--no-mpi` still says no.
. "$top_srcdir/test/integration/lib.sh"

[ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: the MPI adapter was not built"; exit 77; }
command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1 ||
    { echo "SKIP: no mpirun or mpicc"; exit 77; }
${CC:-cc} -O1 -Wall -Werror -o main "$top_srcdir/test/mpi/dlopen_mpi.c" -ldl || fail "build: the main program"
mpicc -O1 -Wall -Werror -fPIC -shared -DDLOPEN_MPI_MODULE -o module.so "$top_srcdir/test/mpi/dlopen_mpi.c" ||
    fail "build: the MPI module"
run_to needed.txt readelf -d main
expect_eq "$(awk '/NEEDED.*libmpi/ { n++ } END { print n + 0 }' needed.txt)" 0 "the main program does not link libmpi"

run_app r env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$work/exp" \
    SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
    mpirun --oversubscribe --allow-run-as-root -np 3 "$top_builddir/scorep-run" ./main ./module.so
expect_eq "$status $(cat r.out)" "0 ring 9 sum 3" "exit status and output"
expect_eq "$(awk '/moved to/ { n++ } END { print n + 0 }' r.err)" 0 "no rank moved another's results aside"
expect_eq "$(find . -maxdepth 1 -name 'exp*' | sort | tr '\n' ' ')" "./exp " "one experiment for the 3 ranks"
expect_eq "$(profile_locations exp)" 3 "three locations (one per rank)"
expect_eq "$(profile_sum exp MPI_Send visits)" 9 "MPI_Send: 9 visits"
expect_eq "$(profile_sum exp MPI_Recv visits)" 9 "MPI_Recv: 9 visits"
expect_eq "$(profile_values exp MPI_Allreduce visits | awk '{ print $2 }' | tr '\n' ' ')" "1 1 1 " \
    "MPI_Allreduce on each rank"
expect_eq "$(trace_count exp MPI_SEND)" 9 "otf2-print: 9 MPI_SEND events"
expect_eq "$(trace_count exp MPI_RECV)" 9 "otf2-print: 9 MPI_RECV events"
m=$("$top_builddir/test/tools/trace_messages" --match exp/traces.otf2 2>&1) || fail "the messages do not pair: $m"
expect_eq "$(echo "$m" | sed 's/ late=.*//')" \
    "sends=9 receives=9 matched=9 unmatched=0 mismatched_size=0 probes=0" "every message pairs"

# --no-mpi: no adapter (each rank alone, as asked); one rank so that no results are moved
run_app n env SCOREP_EXPERIMENT_DIRECTORY="$work/nompi" SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
    mpirun --oversubscribe --allow-run-as-root -np 1 "$top_builddir/scorep-run" --no-mpi --verbose ./main ./module.so
expect_eq "$status $(cat n.out)" "0 ring 3 sum 0" "--no-mpi: exit status and output"
expect_eq "$(awk '/libscorep-rt-mpi/ { n++ } END { print n + 0 }' n.err)" 0 "--no-mpi: the MPI adapter is not preloaded"
expect_eq "$(profile_sum nompi MPI_Send visits)" 0 "--no-mpi: no MPI regions"
done_ok
