#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_longjmp_user.sh: a longjmp leaves the user regions (BEGIN, INIT + ENTER, BY_NAME) begun
# in the frames it abandons, with the calls, innermost first; regions of the setjmp caller
# (begun before or after the setjmp) stay open (docs/design.md, "Jumps out of calls").
# test/programs/longjmp_user.c, with gcc's and clang's -finstrument-functions and with user
# regions only; profile and trace. Expected: the call paths with their visits and the
# Enter/Leave order as the program's comments derive them; the gcc profile also read by
# CubeLib's cube_dump where CUBELIB_DUMP names one (or one is on PATH). And a C++ catch in the
# function of a SCOREP_USER_REGION object (test/programs/longjmp_user_catch.cc, g++ and
# clang++, -O0 and -O2) keeps the region.
. "$top_srcdir/test/integration/lib.sh"
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
SRC=$PROGRAMS/longjmp_user.c

# the calls below each setjmp caller's region (outer, inner), with (f) and without (u)
# compiler instrumentation
calls_f="d1 d1/r1 d1/r1/d2 d1/r1/d2/r2 d1/r1/d2/r2/d3 d1/r1/d2/r2/d3/r3 leaf leaf/after"
calls_u="r1 r1/r2 r1/r2/r3 after"
# paths PREFIX-OF-OUTER PREFIX-OF-INNER CALLS: "0 PATH=1" per call path, sorted
paths()
{
    {
        for p in "$1" "$2"; do
            echo "0 ${p%/}=1"
            for c in $3; do echo "0 $p$c=1"; done
        done
    } | sort
}
profile_f=$( (echo "0 main=1"; echo "0 main/case_before=1"; echo "0 main/case_after=1"
    paths main/case_before/outer/ main/case_after/inner/ "$calls_f") | sort)
profile_u=$(paths outer/ inner/ "$calls_u")
# Enter/Leave order: the abandoned calls' Leaves right after the jump, before the next Enter
jump_f="E:d1 E:r1 E:d2 E:r2 E:d3 E:r3 L:r3 L:d3 L:r2 L:d2 L:r1 L:d1 E:leaf E:after L:after L:leaf"
order_f="E:main E:case_before E:outer $jump_f L:outer L:case_before"
order_f="$order_f E:case_after E:inner $jump_f L:inner L:case_after L:main"
jump_u="E:r1 E:r2 E:r3 L:r3 L:r2 L:r1 E:after L:after"
order_u="E:outer $jump_u L:outer E:inner $jump_u L:inner"

# check NAME MODE PROFILE ORDER PROGRAM: run PROGRAM measuring in MODE (profile, trace, both)
check()
{
    e=$1 mode=$2 want_profile=$3 want_order=$4
    shift 4
    p=false t=false
    [ "$mode" = trace ] || p=true
    [ "$mode" = profile ] || t=true
    run_app "$e" env SCOREP_ENABLE_PROFILING=$p SCOREP_ENABLE_TRACING=$t \
        SCOREP_EXPERIMENT_DIRECTORY="$e" "$@"
    expect_eq "$status" 0 "$e: exit status"
    expect_eq "$(cat "$e.out")" "done 4" "$e: program output"
    expect_eq "$(cat "$e.err")" "" "$e: nothing on stderr"
    if [ $p = true ]; then
        expect_eq "$(profile_dump "$e" -m visits | awk -F'\t' '$2 != "." {
                split($4, kv, "="); print $3, $2 "=" kv[2] }' | sort)" "$want_profile" \
            "$e: profile: the abandoned regions left at the jump, the setjmp caller's kept"
    fi
    if [ $t = true ]; then
        expect_eq "$(trace_region_order "$e")" "$want_order" "$e: trace: Enter/Leave order"
        expect_eq "$(trace_check_nesting "$e")" 0 "$e: trace: nesting valid"
        expect_eq "$(trace_check_order "$e")" 0 "$e: trace: timestamps increase"
    fi
}

part "gcc -finstrument-functions and user regions: profile, trace"
scorep_cc --user --instrument=functions gcc -O2 -o lju_gcc "$SRC"
check gcc_profile profile "$profile_f" "$order_f" ./lju_gcc
check gcc_trace trace "$profile_f" "$order_f" ./lju_gcc

part "user regions only (gcc): profile and trace"
scorep_cc --user --nocompiler gcc -O2 -o lju_user "$SRC"
check user_both both "$profile_u" "$order_u" ./lju_user

if command -v clang >/dev/null 2>&1; then
    part "clang -finstrument-functions and user regions; user regions only"
    scorep_cc --user --instrument=functions clang -O2 -o lju_clang "$SRC"
    check clang_both both "$profile_f" "$order_f" ./lju_clang
    scorep_cc --user --nocompiler clang -O0 -o lju_clang_user "$SRC"
    check clang_user_both both "$profile_u" "$order_u" ./lju_clang_user
else
    skip_part clang
fi

part "C++: a catch in the function of a SCOREP_USER_REGION object keeps its region"
# the object's constructor is always inlined, also at -O0: its begin records the function's
# frame, where the handler lands (__cxa_begin_catch's walk leaves strictly lower ones)
for cxx in g++ clang++; do
    command -v $cxx >/dev/null 2>&1 || { skip_part $cxx; continue; }
    for o in -O0 -O2; do
        e=catch_$(echo $cxx | tr + x)$o
        scorep_cc --user --nocompiler $cxx $o -o $e.x "$PROGRAMS/longjmp_user_catch.cc"
        run_app $e env SCOREP_ENABLE_PROFILING=true SCOREP_EXPERIMENT_DIRECTORY=$e ./$e.x
        expect_eq "$status $(cat $e.out)" "0 done 1" "$e: exit status and output"
        expect_eq "$(profile_dump $e -m visits | awk -F'\t' '$2 != "." {
                split($4, kv, "="); print $2 "=" kv[2] }' | sort | tr '\n' ' ')" \
            "catcher/after=1 catcher/thrower=1 catcher=1 " "$e: profile: after under catcher"
    done
done

if [ -n "$CUBELIB_DUMP" ]; then
    part "CubeLib's reading of the profile"
    cubelib_visits "$CUBELIB_DUMP" gcc_profile/profile.cubex >cl.visits
    expect_eq "$(cat cl.visits)" "$profile_f" \
        "CubeLib: the abandoned regions left at the jump, the setjmp caller's kept"
else
    skip_part_here "CubeLib's own reading (cube_dump)" \
        "CubeLib is not packaged for this system (set CUBELIB_DUMP to a built cube_dump)"
fi

done_ok
