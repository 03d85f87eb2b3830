#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_score_locks.sh: lock tests that fail and that succeed, in the trace and in
# scorep-score's estimate (session 26). test/omp/score_locks.c (a team of 2, then POSIX
# mutexes on the initial thread) makes known numbers of each: as Score-P's OMPT adapter, an
# omp_test_lock or omp_test_nest_lock that gets the lock is a region of that name with the
# ThreadAcquireLock inside, one that does not records nothing; every pthread_mutex_trylock
# is a region, with a ThreadAcquireLock only when it got the mutex. The estimate (docs/
# user-guide.md, "How the trace size is estimated") must equal what the buffers used: the
# ALL row's max_buf = the process's buffer bytes (SCOREP_VERBOSE) + the program root's 64;
# the rows of the tests, trylock and unlock as the program's counts and the record sizes
# give them. The three builds: clang (libomp, OMPT), gcc (libgomp's wrappers), plain gcc
# under scorep-run.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

# score_locks.c's counts
N_FAIL=300 N_OK=500 N_NEST_FAIL=200 N_NEST_OK=100 N_TRY_FAIL=400 N_TRY_OK=250
# record bytes plus a 32-byte header per 8 KiB page (8160 bytes of records each)
hdr() { echo $(($1 + ($1 + 8159) / 8160 * 32)); }

omp_build score_locks
for v in $VARIANTS; do
    exp=exp_score_locks_$v
    root="main/"
    if [ $v = plain ]; then
        root=""
        set -- "$SCOREP_RUN" --openmp-runtime=$GCC_OPENMP_RUNTIME ./score_locks_plain
    else
        set -- ./score_locks_$v
    fi
    run_app sl_$v env SCOREP_ENABLE_TRACING=true SCOREP_VERBOSE=true SCOREP_EXPERIMENT_DIRECTORY=$exp "$@"
    expect_eq "$status:$(cat sl_$v.out)" \
        "0:test_lock $((2 * N_OK)) test_nest_lock $((2 * N_NEST_OK)) trylock $N_TRY_OK bad 0" \
        "$v: exit status and output"
    omp_consistent $exp "$v"
    p="$root!\$omp parallel @score_locks.c:$(grep -n '^#pragma omp parallel' "$OMP_SRC/score_locks.c" | cut -d: -f1)"
    # LLVM's libomp before 18 reports the tests with the kinds of omp_set_lock and
    # omp_set_nest_lock (docs/openmp.md): their successful ones are recorded as those
    test=omp_test_lock ntest=omp_test_nest_lock
    if [ $v = clang ] && [ -z "$(per_loc $exp "$p/omp_test_lock")" ]; then
        test=omp_set_lock ntest=omp_set_nest_lock
        echo "note: $v: libomp reports omp_test_lock as omp_set_lock (LLVM before 18)"
    fi
    # the failed tests (thread 1's N_FAIL and N_NEST_FAIL) are no visits; thread 0's lock
    # and nest lock taken before them are
    if [ $test = omp_test_lock ]; then
        expect_eq "$(per_loc $exp "$p/omp_test_lock")" "$N_OK $N_OK" "$v: omp_test_lock: the successful tests per thread"
        expect_eq "$(per_loc $exp "$p/omp_test_nest_lock")" "$N_NEST_OK $N_NEST_OK" \
            "$v: omp_test_nest_lock: the successful tests per thread"
        expect_eq "$(per_loc $exp "$p/omp_set_lock") $(per_loc $exp "$p/omp_set_nest_lock")" "1 1" \
            "$v: omp_set_lock and omp_set_nest_lock: thread 0's"
    else
        expect_eq "$(per_loc $exp "$p/omp_set_lock")" "$N_OK $((N_OK + 1))" \
            "$v: omp_set_lock: the successful tests per thread (and thread 0's lock)"
        expect_eq "$(per_loc $exp "$p/omp_set_nest_lock")" "$N_NEST_OK $((N_NEST_OK + 1))" \
            "$v: omp_set_nest_lock: the successful tests per thread (and thread 0's lock)"
    fi
    expect_eq "$(visits $exp "${root}pthread_mutex_trylock")" $((N_TRY_FAIL + N_TRY_OK)) \
        "$v: pthread_mutex_trylock: every try"
    # the trace: each successful test's acquisition inside its region; the trylocks' only
    # in the successful ones; the held locks' (2 OpenMP, 1 POSIX) in omp_set_*lock and
    # pthread_mutex_lock
    trace_events $exp | awk '
        $1 == "ENTER" || $1 == "LEAVE" { r = $0; sub(/.*Region: "/, "", r); sub(/".*/, "", r) }
        $1 == "ENTER" { st[$2, ++d[$2]] = r }
        $1 == "LEAVE" { d[$2]-- }
        $1 == "THREAD_ACQUIRE_LOCK" { n[st[$2, d[$2]]]++ }
        END { for (k in n) print k "=" n[k] }' | sort | tr '\n' ' ' >$exp.acq
    if [ $test = omp_test_lock ]; then
        want="omp_set_lock=1 omp_set_nest_lock=1 omp_test_lock=$((2 * N_OK)) omp_test_nest_lock=$((2 * N_NEST_OK))"
    else
        want="omp_set_lock=$((2 * N_OK + 1)) omp_set_nest_lock=$((2 * N_NEST_OK + 1))"
    fi
    expect_eq "$(cat $exp.acq)" "$want pthread_mutex_lock=1 pthread_mutex_trylock=$N_TRY_OK " \
        "$v: ThreadAcquireLock records by the region they lie in"
    expect_eq "$(events $exp THREAD_RELEASE_LOCK)" $((3 + 2 * N_OK + 2 * N_NEST_OK + N_TRY_OK)) \
        "$v: ThreadReleaseLock records"

    used=$(sed -n 's/^\[scorep-rt\] trace buffer of rank 0 location [0-9]*: \([0-9]*\) bytes used in [0-9]* pages, 0 flushes$/\1/p' sl_$v.err |
        awk '{ s += $1 } END { print s + 0 }')
    expect_eq "$(grep -c 'trace buffer of rank 0' sl_$v.err)" 2 "$v: 2 locations reported their buffers"
    "$SCOREP_SCORE" -r $exp >$exp.score 2>$exp.score.err || fail "$v: scorep-score -r: $(cat $exp.score.err)"
    expect_eq "$(awk '$1 == "ALL" && $NF == "ALL" { gsub(",", "", $2); print $2; exit }' $exp.score)" \
        "$((used + 64))" "$v: max_buf = the process's $used buffer bytes + the program root's 64"
    # per row: Enter and Leave 32 bytes, a lock record 24: a successful test 56; a trylock
    # 32 (its acquisition is charged to the unlock, as Score-P's estimate charges it), an
    # unlock 32 + 2 x 24 (the N_TRY_OK unlocks and the held mutex's), pthread_mutex_lock 32
    # (the omp_set_lock row holds the tests when libomp reports them so)
    if [ $test = omp_test_lock ]; then
        want="omp_test_lock=$(hdr $((2 * N_OK * 56))) omp_test_nest_lock=$(hdr $((2 * N_NEST_OK * 56)))"
    else
        want="omp_set_lock=$(hdr $(((2 * N_OK + 1) * 56))) omp_set_nest_lock=$(hdr $(((2 * N_NEST_OK + 1) * 56)))"
    fi
    expect_eq "$(awk -v t=$test -v n=$ntest '($1 == "OMP" || $1 == "PTHREAD") &&
            ($NF == t || $NF == n || $NF ~ /^pthread_mutex_(lock|trylock|unlock)$/) {
            gsub(",", "", $2); print $NF "=" $2 }' $exp.score | sort | tr '\n' ' ')" \
        "$want pthread_mutex_lock=$(hdr 32) pthread_mutex_trylock=$(hdr $(((N_TRY_FAIL + N_TRY_OK) * 32))) pthread_mutex_unlock=$(hdr $(((N_TRY_OK + 1) * 80))) " \
        "$v: max_buf of the tests, trylocks and unlocks"
done
done_ok
