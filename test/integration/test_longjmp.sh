#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_longjmp.sh: a longjmp, _longjmp, siglongjmp or fortified __longjmp_chk out of
# instrumented calls leaves the calls it abandons at the jump, innermost first
# (adapters/compiler/longjmp.c): the calls made after the jump are children of the frame
# that called setjmp. test/programs/longjmp_calls.c: a jump out of 3 levels, one that
# abandons nothing, nested setjmp, one in a pthread, a siglongjmp out of a SIGALRM handler
# that interrupted an instrumented call, on the thread's stack and on an alternate one.
# Under gcc's and clang's -finstrument-functions and the GCC and LLVM plugins, with
# -D_FORTIFY_SOURCE=2 (__longjmp_chk), and unchanged under scorep-run
# (-finstrument-functions, the runtime preloaded); profiling, tracing and both.
# Expected: the call paths with their visits and each location's Enter/Leave order as the
# program's comments derive them; the profile read by scorep-cube-dump and, where
# CUBELIB_DUMP names CubeLib's cube_dump (or one is on PATH), by CubeLib.
. "$top_srcdir/test/integration/lib.sh"
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
SRC=$PROGRAMS/longjmp_calls.c

# "LOCATION CALLPATH=VISITS" below the program root, sorted: every call once
expected_profile=$(sort <<'EOF'
0 main=1
0 main/a1=1
0 main/a1/a2=1
0 main/a1/a2/a3=1
0 main/a_after=1
0 main/none=1
0 main/none/none_after=1
0 main/n1=1
0 main/n1/n2=1
0 main/n1/n2/n3=1
0 main/n1/n1_mid=1
0 main/n1/n4=1
0 main/n_after=1
0 main/pthread_create=1
0 main/pthread_join=1
0 main/s1=1
0 main/s1/s2=1
0 main/s1/s2/on_alarm=1
0 main/s_after=1
0 main/k1=1
0 main/k1/k2=1
0 main/k1/k2/on_alt=1
0 main/k_after=1
1 THREADS=1
1 THREADS/t_main=1
1 THREADS/t_main/t1=1
1 THREADS/t_main/t1/t2=1
1 THREADS/t_main/t_after=1
EOF
)
# the Enter/Leave order of the program's functions per location (E: Enter, L: Leave; the
# pthread adapter's regions left out): the abandoned calls' Leaves, innermost first, right
# after their last Enter, before the next call
expected_main="E:main E:a1 E:a2 E:a3 L:a3 L:a2 L:a1 E:a_after L:a_after"
expected_main="$expected_main E:none E:none_after L:none_after L:none"
expected_main="$expected_main E:n1 E:n2 E:n3 L:n3 L:n2 E:n1_mid L:n1_mid E:n4 L:n4 L:n1"
expected_main="$expected_main E:n_after L:n_after"
expected_main="$expected_main E:s1 E:s2 E:on_alarm L:on_alarm L:s2 L:s1 E:s_after L:s_after"
expected_main="$expected_main E:k1 E:k2 E:on_alt L:on_alt L:k2 L:k1 E:k_after L:k_after L:main"
expected_thread="E:t_main E:t1 E:t2 L:t2 L:t1 E:t_after L:t_after L:t_main"

# order EXPDIR LOCATION: the Enter/Leave order of LOCATION in the trace
order()
{
    trace_events "$1" | awk -v loc="$2" '
        ($1 == "ENTER" || $1 == "LEAVE") && $2 == loc {
            i = index($0, "Region: \""); r = substr($0, i + 9); r = substr(r, 1, index(r, "\"") - 1)
            if (r !~ /^pthread_/) printf "%s%s:%s", sep, substr($1, 1, 1), r; sep = " "
        }'
}

# check NAME MODE COMMAND...: run the program (NAME.out), measuring in MODE (profile, trace,
# both), and check its profile and trace
check()
{
    e=$1 mode=$2
    shift 2
    p=false t=false
    [ "$mode" = trace ] || p=true
    [ "$mode" = profile ] || t=true
    run_app "$e" env SCOREP_ENABLE_PROFILING=$p SCOREP_ENABLE_TRACING=$t \
        SCOREP_EXPERIMENT_DIRECTORY="$e" "$@"
    expect_eq "$status" 0 "$e: exit status"
    expect_eq "$(cat "$e.out")" "done 11111115" "$e: program output"
    expect_eq "$(cat "$e.err")" "" "$e: nothing on stderr"
    if [ $p = true ]; then
        expect_eq "$(profile_dump "$e" -m visits | awk -F'\t' '$2 != "." {
                split($4, kv, "="); print $3, $2 "=" kv[2] }' | sort)" "$expected_profile" \
            "$e: profile: every call once, the calls after each jump under the setjmp caller"
    fi
    if [ $t = true ]; then
        expect_eq "$(order "$e" 0)" "$expected_main" "$e: trace: main thread's Enter/Leave order"
        expect_eq "$(order "$e" "$(loc_id 0 1)")" "$expected_thread" "$e: trace: the pthread's Enter/Leave order"
        expect_eq "$(trace_check_nesting "$e")" 0 "$e: trace: nesting valid"
        expect_eq "$(trace_check_order "$e")" 0 "$e: trace: timestamps increase"
    fi
}

part "gcc -finstrument-functions: profile, trace, both"
scorep_cc --instrument=functions gcc -O2 -o lj_functions "$SRC"
for mode in profile trace both; do
    check functions_$mode $mode ./lj_functions
done

part "GCC plugin: profile, trace, both"
scorep_cc --instrument=plugin gcc -O2 -o lj_plugin "$SRC"
for mode in profile trace both; do
    check plugin_$mode $mode ./lj_plugin
done

part "-D_FORTIFY_SOURCE=2: the program calls __longjmp_chk"
scorep_cc --instrument=functions gcc -O2 -D_FORTIFY_SOURCE=2 -o lj_fortify "$SRC"
expect_eq "$(nm lj_fortify | awk '$1 == "U" && $2 ~ /longjmp/ { sub(/@.*/, "", $2); print $2 }' | sort -u | tr '\n' ' ')" \
    "__longjmp_chk " "fortified build: every jump through __longjmp_chk"
check fortify_both both ./lj_fortify

if command -v clang >/dev/null 2>&1; then
    part "clang -finstrument-functions"
    scorep_cc --instrument=functions clang -O2 -o lj_clang "$SRC"
    check clang_both both ./lj_clang
    if [ -e "$SCOREP_CC_LLVM_PLUGIN" ]; then
        part "LLVM plugin"
        scorep_cc --instrument=plugin clang -O2 -o lj_clang_plugin "$SRC"
        check clang_plugin_both both ./lj_clang_plugin
    else
        skip_part_here "LLVM plugin" "not built in this build tree (cross_aarch64.sh builds none)"
    fi
else
    skip_part clang
fi

part "scorep-run: the runtime preloaded into a -finstrument-functions program"
gcc -O2 -finstrument-functions -pthread -o lj_plain "$SRC" || fail "build: gcc -finstrument-functions"
check preload_both both "$top_builddir/scorep-run" ./lj_plain

if [ -n "$CUBELIB_DUMP" ]; then
    part "CubeLib's reading of the profile"
    cubelib_visits "$CUBELIB_DUMP" functions_both/profile.cubex >cl.visits
    expect_eq "$(cat cl.visits)" "$expected_profile" \
        "CubeLib: every call once, the calls after each jump under the setjmp caller"
else
    skip_part_here "CubeLib's own reading (cube_dump)" \
        "CubeLib is not packaged for this system (set CUBELIB_DUMP to a built cube_dump)"
fi

done_ok
