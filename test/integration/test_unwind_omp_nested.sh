#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_unwind_omp_nested.sh: SCOREP_ENABLE_UNWINDING at nested OpenMP parallel regions
# (OMP_MAX_ACTIVE_LEVELS=2), as test_unwind_omp.sh for one level: an unmodified program
# (test/programs/unwind_omp_nested.c) under scorep-run shows, on every thread of both
# levels, the call paths below the outer fork's frames (main/compute/!$omp parallel/outer/
# !$omp parallel/work/!$omp critical), exact visits per location, and per location the
# trace's calling contexts with their unwind distances (the master's from main, a worker's
# from its own parallel region); on libgomp and on LLVM's libomp, gcc's and clang's code.
. "$top_srcdir/test/integration/lib.sh"
command -v gcc >/dev/null 2>&1 || { echo "SKIP: no gcc"; exit 77; }
export SCOREP_RUN_LIBDIR="$top_builddir/.libs"
python3=$(python3_with_otf2)
# CubeLib's cube_dump (not packaged: /work/ref's build, or CUBELIB_DUMP) reads the profiles too
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}

part "nested parallel regions (OMP_MAX_ACTIVE_LEVELS=2; both runtimes, gcc's and clang's code)"
# test/programs/unwind_omp_nested.c: main -> compute -> parallel of 2 { outer -> parallel of 2
# { work -> critical } } ("nest"), and main -> direct -> parallel of 2 { parallel of 2 {
# work -> critical } } ("direct"): 4 threads at once (work waits for all of them). Which
# location plays which part is the runtime's choice, so each location's table is one line
# ("path=visits" of its visited paths, ";"-separated) and the lines are sorted; source lines
# are left out (libomp dates gcc's parallel regions at their body's brace).
gcc -g -O0 -fopenmp -o uw_nest "$PROGRAMS/unwind_omp_nested.c" || fail "gcc -fopenmp nested"
CR='!$omp critical'
# nest_expect FUNCTION FRAME: the 4 locations' tables; FRAME "/outer" or empty (direct)
nest_expect()
{
    P="main/$1/!\$omp parallel"
    Q="$P$2/!\$omp parallel"
    # below the outer region: the frames of the outer body, the inner region, work (a frame
    # below the inner body), the critical construct and its structured block, the barriers
    _team="$P=1;${2:+$P$2=1;}$Q=1;$Q/work=1;$Q/work/$CR=1;$Q/work/$CR/$CR sblock=1;$Q/!\$omp implicit barrier=1;$P/!\$omp implicit barrier=1"
    _inner="$Q=1;$Q/work=1;$Q/work/$CR=1;$Q/work/$CR/$CR sblock=1;$Q/!\$omp implicit barrier=1"
    {
        # the master: main and the function unwound at the outer fork, visited once
        echo "$_team;main=1;main/$1=1" | tr ';' '\n' | LC_ALL=C sort | paste -s -d';'
        # the outer team's worker: its tree below the outer fork's call path (no visits of
        # main and the function), outer and the inner region its own
        echo "$_team" | tr ';' '\n' | LC_ALL=C sort | paste -s -d';'
        # the inner teams' 2 workers, below their fork's call path (main/F/parallel[/outer])
        for _i in 1 2; do
            echo "$_inner" | tr ';' '\n' | LC_ALL=C sort | paste -s -d';'
        done
    } | LC_ALL=C sort
}
# nest_table EXPDIR: the locations' tables of EXPDIR's profile
nest_table()
{
    profile_dump "$1" -m visits | awk -F'\t' '$2 != "." {
            p = $2; gsub(/ @unwind_omp_nested\.c:[0-9]+/, "", p)
            split($4, kv, "="); if (kv[2] + 0 > 0) print $3 "\t" p "=" kv[2] }' |
        LC_ALL=C sort -t'	' -k1,1 -k2,2 | awk -F'\t' 'BEGIN { l = "-" }
            $1 != l { if (NR > 1) print s; s = $2; l = $1; next } { s = s ";" $2 }
            END { print s }' | LC_ALL=C sort
}
# nest_trace_expect FUNCTION FRAME: the 4 locations' calling contexts "path:unwind
# distance=count" (the master's from main, a worker's from its own parallel region, as
# Score-P's unwinding stops at the runtime's thread start); the distance is 1 + the contexts
# entered since the previous calling-context event
nest_trace_expect()
{
    # _rest PARALLEL-PATH INNER-DISTANCE: the contexts below the outer region
    _rest()
    {
        echo "$1/!\$omp implicit barrier:2=1"
        echo "$1$2/!\$omp parallel:$3=1"
        _q="$1$2/!\$omp parallel"
        echo "$_q/!\$omp implicit barrier:2=1"
        echo "$_q/work/$CR:3=1"
        echo "$_q/work/$CR/$CR sblock:2=1"
    }
    _d=2 # the inner region: 1 + itself, and outer's frame where there is one
    [ -z "$2" ] || _d=3
    {
        { echo "main/$1/!\$omp parallel:4=1"; _rest "main/$1/!\$omp parallel" "$2" $_d; } |
            LC_ALL=C sort | paste -s -d';'
        { echo "!\$omp parallel:2=1"; _rest "!\$omp parallel" "$2" $_d; } |
            LC_ALL=C sort | paste -s -d';'
        for _i in 1 2; do
            printf '%s\n' "!\$omp parallel:2=1" "!\$omp parallel/!\$omp implicit barrier:2=1" \
                "!\$omp parallel/work/$CR:3=1" "!\$omp parallel/work/$CR/$CR sblock:2=1" |
                LC_ALL=C sort | paste -s -d';'
        done
    } | LC_ALL=C sort
}
nest_trace()
{
    "$python3" "$top_srcdir/test/integration/sampling_paths.py" --enter-by-location \
        "$1/traces.otf2" >"$1.ctx" || fail "sampling_paths.py --enter-by-location $1"
    sed 's/ @unwind_omp_nested\.c:[0-9]*//g' "$1.ctx" | awk -F'\t' '{ print $1 "\t" $2 ":" $3 "=" $4 }' |
        LC_ALL=C sort -t'	' -k1,1 -k2,2 | awk -F'\t' 'BEGIN { l = "-" }
            $1 != l { if (NR > 1) print s; s = $2; l = $1; next } { s = s ";" $2 }
            END { print s }' | LC_ALL=C sort
}
have_clang=
! command -v clang >/dev/null 2>&1 || have_clang=1
for cfg in gcc:libgomp gcc:libomp clang:libomp; do
    c=${cfg%%:*}
    rt=${cfg#*:}
    if [ $rt = libomp ] && ! ldconfig -p 2>/dev/null | grep -q 'libomp\.so'; then
        skip_part_here "nested on libomp" "LLVM's libomp is not installed"
        continue
    fi
    if [ $c = clang ] && [ -z "$have_clang" ]; then
        skip_part_here "clang's nested regions on libomp" "clang is not installed"
        continue
    fi
    [ $c = gcc ] || [ -x uw_nest_clang ] ||
        clang -g -O0 -fopenmp -o uw_nest_clang "$PROGRAMS/unwind_omp_nested.c" ||
        fail "clang -fopenmp nested"
    exe=./uw_nest
    [ $c = gcc ] || exe=./uw_nest_clang
    for v in nest direct; do
        n=n_${c}_${rt}_$v
        rc=0
        OMP_MAX_ACTIVE_LEVELS=2 SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS= \
            SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=$n \
            timeout 60 "$top_builddir/scorep-run" --openmp-runtime=$rt $exe $v >$n.out \
            2>$n.err || rc=$?
        expect_eq "$rc $(cat $n.out) $(grep -c . $n.err || :)" "0 sum 66 levels 2 0" \
            "$n: the program runs, its output, no message"
        frame=/outer
        fn=compute
        [ $v = nest ] || { frame= && fn=direct; }
        expect_eq "$(nest_table $n)" "$(nest_expect $fn "$frame")" \
            "$n: each location's call paths and visits"
        expect_eq "$(profile_paths $n | grep -E -c -i 'omp_fn|gomp|kmp|scorep|omp_outlined' || :)" \
            0 "$n: no frame of the OpenMP runtime, the outlined bodies or the runtime"
        if [ -n "$CUBELIB_DUMP" ]; then
            # over all locations; its call tree names a region by its first word
            # (cubelib_visits): the expected tables with each name cut the same way
            expect_eq "$(cubelib_visits "$CUBELIB_DUMP" $n/profile.cubex | sed 's/^[^ ]* //' |
                LC_ALL=C sort | paste -s -d';')" \
                "$(nest_expect $fn "$frame" | sed 's/ [^/;=]*//g' | tr ';' '\n' | LC_ALL=C sort |
                    paste -s -d';')" "$n: CubeLib's cube_dump reads the same visits"
        else
            skip_part_here "CubeLib's reading" \
                "CubeLib is not packaged for this system (set CUBELIB_DUMP to a built cube_dump)"
        fi
        if [ -n "$python3" ]; then
            expect_eq "$(nest_trace $n)" "$(nest_trace_expect $fn "$frame")" \
                "$n: each location's calling contexts and unwind distances"
        else
            skip_part_here "the trace's calling contexts" "python3 with the otf2 module (python3-otf2)"
        fi
    done
done

done_ok
