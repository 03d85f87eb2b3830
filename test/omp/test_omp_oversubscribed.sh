#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_oversubscribed.sh: test/omp/parallel.c with 8 threads on this 2-core machine, in
# the three builds: exact team events and visits per thread although threads are descheduled.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

omp_build parallel
FLAT="!\$omp parallel @parallel.c:$(line parallel FLAT)"
for v in $VARIANTS; do
    omp_run $v parallel 8
    expect_eq "$(cat parallel_$v.out)" "calls 110" "$v: program output"
    x=$exp
    omp_consistent $x "$v"
    expect_eq "$(events $x THREAD_FORK 0)" 20 "$v: THREAD_FORK on the master"
    expect_eq "$(events $x THREAD_TEAM_BEGIN)" 120 "$v: THREAD_TEAM_BEGIN: 10 x 8 + 5 x 2 + 10 x 3"
    flat=$(team_begins $x | awk '$1 == 0 { print $2; exit }')
    expect_eq "$(team_begins $x | awk -v t="$flat" '$2 == t { print $3 }' | tr '\n' ' ')" \
        "10 10 10 10 10 10 10 10 " "$v: team begins per member of the 8-thread team"
    expect_eq "$(per_loc $x "$root$FLAT")" "10 10 10 10 10 10 10 10" "$v: flat region per thread"
    [ $v = plain ] || expect_eq "$(per_loc $x "main/$FLAT/work")" "10 10 10 10 10 10 10 10" \
        "$v: work() per thread"
done
done_ok
