#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_fortran_locks.sh: the lock routines of a Fortran program on libgomp (test/omp/
# locks_f.f90): gfortran calls omp_set_lock_ & co., which libgomp serves with its C routines
# inside itself, past the C wrappers; the Fortran entry points are wrapped too. Built with
# scorep-cc gfortran and, plain, run under scorep-run. Derived from the program's design,
# as for a C program (test_omp_locks.sh): per thread of the team of 2 one omp_set_lock and
# one omp_unset_lock, two omp_set_nest_lock and omp_unset_nest_lock (the inner pair regions
# only); lock acquisitions: the simple lock 3 times (once per thread, then omp_test_lock on
# the initial thread), the nest lock twice (the outer sets), the critical section twice:
# 7 ThreadAcquireLock and 7 ThreadReleaseLock, on three locks. The initial thread
# initialises and destroys both locks once (omp_init_lock_ & co., wrapped as well).
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"
command -v gfortran >/dev/null 2>&1 || { echo "SKIP: no gfortran"; exit 77; }

scorep_cc gfortran -g -fopenmp -o locks_f_cc "$OMP_SRC/locks_f.f90"
gfortran -g -fopenmp -o locks_f_plain "$OMP_SRC/locks_f.f90" || fail "build: gfortran -fopenmp"
for v in cc plain; do
    exp=exp_locks_f_$v
    if [ $v = plain ]; then
        set -- "$SCOREP_RUN" ./locks_f_plain
        root=""
    else
        set -- ./locks_f_cc
        root="main/MAIN__/"
    fi
    run_app locks_f_$v env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=$exp "$@"
    expect_eq "$status" 0 "$v: exit status"
    expect_eq "$(cat locks_f_$v.out)" "s 7" "$v: program output"
    expect_eq "$(cat locks_f_$v.err)" "" "$v: nothing on stderr"
    omp_consistent $exp "$v"
    par="${root}!\$omp parallel @locks_f.f90:$(grep -n '!\$omp parallel' "$OMP_SRC/locks_f.f90" | cut -d: -f1)"
    expect_eq "$(per_loc $exp "$par/omp_set_lock")" "1 1" "$v: omp_set_lock once per thread"
    expect_eq "$(per_loc $exp "$par/omp_unset_lock")" "1 1" "$v: omp_unset_lock once per thread"
    expect_eq "$(per_loc $exp "$par/omp_set_nest_lock")" "2 2" "$v: omp_set_nest_lock twice per thread"
    expect_eq "$(per_loc $exp "$par/omp_unset_nest_lock")" "2 2" \
        "$v: omp_unset_nest_lock twice per thread"
    expect_eq "$(visits $exp "${root}omp_unset_lock")" 1 "$v: omp_unset_lock after omp_test_lock"
    for r in omp_init_lock omp_init_nest_lock omp_destroy_lock omp_destroy_nest_lock; do
        expect_eq "$(per_loc $exp "$root$r")" 1 "$v: $r once, on the initial thread"
    done
    expect_eq "$(events $exp THREAD_ACQUIRE_LOCK)" 7 "$v: lock acquisitions"
    expect_eq "$(events $exp THREAD_RELEASE_LOCK)" 7 "$v: lock releases"
    expect_eq "$(trace_other $exp | awk '$1 == "THREAD_ACQUIRE_LOCK" {
            match($0, /Lock: [0-9]+/); n[substr($0, RSTART, RLENGTH)]++ }
        END { for (k in n) print n[k] }' | sort -n | tr '\n' ' ')" "2 2 3 " \
        "$v: acquisitions per lock (critical, nest lock, simple lock)"
done
done_ok
