#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_score_sync.sh: scorep-score's trace estimate of the records CP2K showed it left out
# (session 25: CP2K's buffer 4,443,072 bytes, estimated 3,879,232): the lock records of
# OpenMP critical constructs (acquire and release per visit) and of omp_set_lock and
# omp_unset_lock (one each), and the CommCreate and CommDestroy records of the calls that
# make and free communicators. score_sync.c on 2 ranks x 2 threads under scorep-run, traced
# with SCOREP_VERBOSE: the ALL row's max_buf = the largest rank's buffer bytes + the program
# root's 64 (its enter and leave: counted as Score-P counts them, not in the buffer); the rows
# of the critical construct, omp_set_lock, MPI_Comm_dup and MPI_Comm_free as the record sizes
# give them. And the same for POSIX threads' mutex calls (score_mutex.c).
. "$top_srcdir/test/integration/lib.sh"

[ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: the MPI adapter was not built"; exit 77; }
command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1 ||
    { echo "SKIP: no mpirun or mpicc"; exit 77; }
mpicc -O1 -fopenmp -Wall -Werror -o score_sync "$top_srcdir/test/mpi/score_sync.c" 2>build.err ||
    fail "build: score_sync.c: $(cat build.err)"
run_app r env SCOREP_ENABLE_TRACING=true SCOREP_VERBOSE=true SCOREP_EXPERIMENT_DIRECTORY="$work/exp" \
    SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
    mpirun --oversubscribe --allow-run-as-root -np 2 "$top_builddir/scorep-run" ./score_sync
expect_eq "$status:$(sort r.out | tr '\n' ' ')" \
    "0:rank 0 critical 2000 locked 2000 sizes 100 rank 1 critical 2000 locked 2000 sizes 100 " \
    "exit status and output"
used=$(sed -n 's/^\[scorep-rt\] trace buffer of rank \([0-9]*\) location [0-9]*: \([0-9]*\) bytes used in [0-9]* pages, 0 flushes$/\1 \2/p' r.err |
    awk '{ b[$1] += $2 } END { for (r in b) if (b[r] > m) m = b[r]; print m + 0 }')
expect_eq "$(grep -c 'trace buffer of rank' r.err)" 4 "4 locations reported their buffers"
"$SCOREP_SCORE" -r exp >score.txt 2>score.err || fail "scorep-score -r: $(cat score.err)"
est=$(awk '$1 == "ALL" && $NF == "ALL" { gsub(",", "", $2); print $2; exit }' score.txt)
expect_eq "$est" "$((used + 64))" "max_buf = the largest rank's $used buffer bytes + the program root's 64"
# per rank: 2000 visits of the critical construct (Enter and Leave 32 bytes together, 2 lock
# records of 24: 80 bytes), of omp_set_lock (32 + 24), 200 of MPI_Comm_free and 50 of
# MPI_Comm_dup (32 + a 64-byte record); a 32-byte header per 8 KiB page
expect_eq "$(awk '($1 == "OMP" || $1 == "MPI") && (($NF ~ /^@/ && $(NF - 1) == "critical") || $NF == "omp_set_lock" || $NF == "MPI_Comm_dup" || $NF == "MPI_Comm_free") {
        gsub(",", "", $2); n = $NF ~ /^@/ ? "critical" : $NF; print n "=" $2 }' score.txt | sort | tr '\n' ' ')" \
    "MPI_Comm_dup=4832 MPI_Comm_free=19296 critical=160640 omp_set_lock=112448 " \
    "max_buf of the critical construct (2000 x 80 + 20 x 32), omp_set_lock (2000 x 56 + 14 x 32), MPI_Comm_free (200 x 96 + 3 x 32), MPI_Comm_dup (50 x 96 + 32)"

# POSIX threads: score_mutex.c's 2 threads take and give back a mutex 1000 times each (the
# runtime records the program's mutex calls in every build: pthread_mutex_lock a region
# and a ThreadAcquireLock, pthread_mutex_unlock a region and a ThreadReleaseLock)
${CC:-cc} -O1 -pthread -Wall -Werror -o score_mutex "$top_srcdir/test/mpi/score_mutex.c" 2>build.err ||
    fail "build: score_mutex.c: $(cat build.err)"
run_app m env SCOREP_ENABLE_TRACING=true SCOREP_VERBOSE=true SCOREP_EXPERIMENT_DIRECTORY="$work/mexp" \
    SCOREP_RUN_LIBDIR="$top_builddir/.libs" "$top_builddir/scorep-run" ./score_mutex
expect_eq "$status:$(cat m.out)" "0:counter 2000" "pthread: exit status and output"
used=$(sed -n 's/^\[scorep-rt\] trace buffer of rank 0 location [0-9]*: \([0-9]*\) bytes used in [0-9]* pages, 0 flushes$/\1/p' m.err |
    awk '{ s += $1 } END { print s + 0 }')
"$SCOREP_SCORE" -r mexp >mscore.txt 2>mscore.err || fail "scorep-score -r mexp: $(cat mscore.err)"
expect_eq "$(awk '$1 == "ALL" && $NF == "ALL" { gsub(",", "", $2); print $2; exit }' mscore.txt)" "$((used + 64))" \
    "pthread: max_buf = the process's $used buffer bytes + the program root's 64"
# per process: 2000 lock and 2000 unlock visits; since session 26 the acquisition is charged
# to the unlock, as Score-P's estimate charges it (a trylock may fail: test_omp_score_locks.sh):
# a lock 32 bytes (8 page headers), an unlock 32 + 2 x 24 (20 page headers)
expect_eq "$(awk '$1 == "PTHREAD" && ($NF == "pthread_mutex_lock" || $NF == "pthread_mutex_unlock") { gsub(",", "", $2); print $NF "=" $2 }' mscore.txt | sort | tr '\n' ' ')" \
    "pthread_mutex_lock=64256 pthread_mutex_unlock=160640 " "pthread: max_buf of the lock and unlock calls (2000 x 32 + 8 x 32, 2000 x 80 + 20 x 32)"
