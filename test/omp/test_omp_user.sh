#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_user.sh: test/omp/user_params.c (user API inside and around a parallel region of 3
# threads) with clang and gcc: the parameter call path of the fork (n=4) visited on the master
# only and continued without visits by the workers, a string parameter per thread, the user
# metric per thread; check_profiles checks every profile's consistency.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

for c in clang gcc; do
    scorep_cc --user $c -fopenmp -o "user_$c" "$OMP_SRC/user_params.c"
    run_app "user_$c" env SCOREP_EXPERIMENT_DIRECTORY="exp_$c" "./user_$c"
    expect_eq "$status" 0 "$c: exit status"
    expect_eq "$(cat "user_$c.out")" 1498500 "$c: program output"
    x=exp_$c
    p="main/outer/n=4/!\$omp parallel"
    expect_eq "$(nper_loc $x main/outer/n=4)" 1 "$c: n=4 visited once, by the master"
    expect_eq "$(nper_loc $x "$p")" "1 1 1" "$c: parallel region once per thread"
    expect_eq "$(nper_loc $x "$p/inner")" "1 1 1" "$c: inner once per thread"
    expect_eq "$(nper_loc $x "$p/inner/role=master")" 1 "$c: role=master on one thread"
    expect_eq "$(nper_loc $x "$p/inner/role=worker")" "1 1" "$c: role=worker on two threads"
    expect_eq "$(profile_dump $x -m items | awk -F'\t' '{ q = $2; gsub(/ @[^\/]*/, "", q);
        split($4, kv, "="); n[q] += kv[2] } END { for (k in n) if (n[k]) print k "=" n[k] }' | sort | tr '\n' ,)" \
        "$p/inner/role=master=10,$p/inner/role=worker=20," "$c: user metric items per call path"
done
done_ok
