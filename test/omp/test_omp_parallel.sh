#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_parallel.sh: test/omp/parallel.c (10 regions of 4 threads calling work(); 5 teams of
# 2 that each open a nested team of 3) built with clang and gcc through scorep-cc, and plain
# gcc under scorep-run: forks, joins and team events per thread in the trace; the workers'
# call trees under the call path of the fork in the profile.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"
VARIANTS="$VARIANTS gccomp" # gcc on libomp too

omp_build parallel
FLAT="!\$omp parallel @parallel.c:$(line parallel FLAT)"
OUTER="!\$omp parallel @parallel.c:$(line parallel OUTER)"
INNER="!\$omp parallel @parallel.c:$(line parallel INNER)"
for v in $VARIANTS; do
    omp_run $v parallel
    expect_eq "$(cat parallel_$v.out)" "calls 70" "$v: program output"
    x=$exp
    # trace: the master forks 10 flat, 5 outer and 5 inner teams; the outer team's other
    # thread forks the other 5 inner teams
    expect_eq "$(events $x THREAD_FORK 0)" 20 "$v: THREAD_FORK on the master"
    expect_eq "$(events $x THREAD_JOIN 0)" 20 "$v: THREAD_JOIN on the master"
    expect_eq "$(events $x THREAD_FORK)" 25 "$v: THREAD_FORK in all"
    expect_eq "$(events $x THREAD_TEAM_BEGIN)" 80 "$v: THREAD_TEAM_BEGIN: 10 x 4 + 5 x 2 + 10 x 3"
    expect_eq "$(events $x THREAD_TEAM_END)" 80 "$v: THREAD_TEAM_END"
    expect_eq "$(events $x THREAD_TEAM_BEGIN 0)" 20 "$v: THREAD_TEAM_BEGIN on the master"
    # the flat team is the master's first team: 4 members with 10 begins each
    flat=$(team_begins $x | awk '$1 == 0 { print $2; exit }')
    expect_eq "$(team_begins $x | awk -v t="$flat" '$2 == t { print $3 }' | tr '\n' ' ')" \
        "10 10 10 10 " "$v: team begins per member of the flat team"
    expect_eq "$(events $x ENTER "" "$FLAT")" 40 "$v: ENTER of the flat parallel region"
    expect_eq "$(events $x LEAVE "" "$INNER")" 30 "$v: LEAVE of the inner parallel region"
    omp_consistent $x "$v"
    # profile
    expect_eq "$(per_loc $x "$root$FLAT")" "10 10 10 10" "$v: flat region: 4 threads x 10 visits"
    expect_eq "$(per_loc $x "$root$FLAT/!\$omp implicit barrier @parallel.c:$(line parallel FLAT)")" \
        "10 10 10 10" "$v: flat region's closing barrier per thread"
    expect_eq "$(per_loc $x "$root$OUTER")" "5 5" "$v: outer region: 2 threads x 5 visits"
    expect_eq "$(visits $x "$root$OUTER/$INNER")" 30 "$v: inner region: 10 teams x 3 visits"
    expect_eq "$(visits $x "$root$OUTER/$INNER" 0)" 5 "$v: inner region on the master"
    if [ $v != plain ]; then
        expect_eq "$(per_loc $x "main/$FLAT/work")" "10 10 10 10" "$v: work() in the flat region"
        expect_eq "$(visits $x "main/$OUTER/$INNER/work")" 30 "$v: work() in the inner region"
        expect_eq "$(visits $x main)" 1 "$v: main visited once (by the master)"
        expect_eq "$(profile_values $x main visits)" "0 1" "$v: main's visit on the master"
        workers=$(($(profile_locations $x) - 1))
        expect_eq "$(profile_dump $x -i -m time | awk -F'\t' '$2 == "main" && $3 != 0 &&
            $4 != "time=0" { n++ } END { print n + 0 }')" $workers \
            "$v: main holds the workers' time (inclusive) on every worker"
        expect_eq "$(profile_dump $x -m time | awk -F'\t' '$2 == "main" && $3 != 0 {
            split($4, a, "="); if (a[2] > 1e-9 || a[2] < -1e-9) n++ } END { print n + 0 }')" 0 \
            "$v: main has no exclusive time on the workers"
    fi
    expect_eq "$(profile_dump $x --system | grep -c 'OMP thread')" \
        "$(($(profile_locations $x) - 1))" "$v: worker locations are named OMP thread"
done
done_ok
