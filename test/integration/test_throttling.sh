#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_throttling.sh: a compiler-instrumented function whose call path reaches
# SCOREP_THROTTLING_CALLS visits with a short mean is no longer timed or traced; its visits
# stay exact, the rest counted under scorep_throttled_from_visit=N; slow functions and
# SCOREP_THROTTLING=false are not affected. Run under both instrumentations of scorep-cc:
# -finstrument-functions, and the plugins' inline throttle check (no call once throttled): the
# GCC plugin with gcc, the LLVM pass plugin with clang (tc=clang, names prefixed clang_), the
# GCC plugin with gfortran (bind(C) names, so the same expectations hold: throttle_f.f90 and
# throttle_shlib_f.F90): two callers, threads, shared libraries, OpenMP teams, more throttled
# functions than slots.
. "$top_srcdir/test/integration/lib.sh"
tc=gcc tag= # the compiler of the checks below, and the prefix of their names

# The mean below which a call path is throttled. The default 10 us is a sum of 10 ms over the
# first 1000 calls: a loaded machine that preempts the program that long while tiny() runs
# would keep tiny measured. 40 us keeps every such decision a property of the programs:
# their tiny functions take nanoseconds, slowish() sleeps 50 us (never less) per call.
MEAN=40us

check_throttle() # MODE
{
    im=$1 m=$tag$1 src=$PROGRAMS/throttle.c
    r=main # Fortran: gfortran's main calls the main program MAIN__
    [ "$tc" != gfortran ] || src=$PROGRAMS/throttle_f.f90 r=main/MAIN__
    # gfortran inlines the module's caller() into the main program: instrumented before
    # inlining (#31) it stays the region the checks below count
    keep=
    [ "$tc" != gfortran ] || keep=--instrument-inlined
    # shellcheck disable=SC2086 # $keep is empty or one option
    scorep_cc --instrument="$im" $keep "$tc" -O2 -o "throttle_$m" "$src"
    run_app "th_$m" env SCOREP_THROTTLING=true SCOREP_THROTTLING_CALLS=1000 SCOREP_THROTTLING_MEAN=$MEAN \
        SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="exp_$m" "./throttle_$m"
    expect_eq "$status" 0 "$m: exit status"
    expect_eq "$(cat "th_$m.out")" "done 12497545" "$m: program output"
    expect_eq "$(cat "th_$m.err")" "" "$m: no warning"

    # profile: timed visits up to the threshold, then counted without time
    e=exp_$m
    expect_eq "$(profile_sum "$e" "$r/tiny" visits)" 5000 "$m: every call of tiny from main"
    expect_eq "$(profile_sum "$e" "$r/tiny/scorep_throttled_from_visit=1001" visits)" 4000 \
        "$m: 4000 of them not measured, from visit 1001 on"
    expect_eq "$(profile_sum "$e" "$r/tiny/scorep_throttled_from_visit=1001" time)" 0 \
        "$m: ... no time"
    expect_eq "$(profile_sum "$e" "$r/caller/tiny" visits)" 10 "$m: every call from caller"
    expect_eq "$(profile_sum "$e" "$r/caller/tiny/scorep_throttled_from_visit=1" visits)" 10 \
        "$m: a new call path of a throttled function is unmeasured from its first visit"
    expect_eq "$(profile_sum "$e" "$r/caller" visits)" 1 "$m: caller"
    expect_eq "$(profile_sum "$e" "$r/slowish" visits)" 1100 "$m: slowish (50 us, above the 40 us mean) timed"
    expect_eq "$(profile_paths "$e" | grep -c 'slowish/scorep_throttled')" 0 \
        "$m: slowish not throttled"

    # trace: the throttled region is absent after the threshold
    expect_eq "$(trace_count "$e" ENTER 0 tiny)" 1000 "$m: trace: tiny's first 1000 calls only"
    expect_eq "$(trace_count "$e" LEAVE 0 tiny)" 1000 "$m: ... with their leaves"
    expect_eq "$(trace_count "$e" ENTER 0 slowish)" 1100 "$m: trace: every slowish call"
    expect_eq "$(trace_count "$e" ENTER 0 caller)" 1 "$m: trace: caller"
    expect_eq "$(trace_check_nesting "$e")" 0 "$m: nesting valid"

    # SCOREP_THROTTLING=false: everything measured
    run_app "off_$m" env SCOREP_THROTTLING=false SCOREP_THROTTLING_CALLS=1000 SCOREP_THROTTLING_MEAN=$MEAN \
        SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="off_$m" "./throttle_$m"
    expect_eq "$(profile_sum "off_$m" "$r/tiny" visits)" 5000 "$m: off: all 5000 calls timed"
    expect_eq "$(profile_sum "off_$m" "$r/caller/tiny" visits)" 10 "$m: off: all 10 calls timed"
    expect_eq "$(trace_count "off_$m" ENTER 0 tiny)" 5010 "$m: off: all 5010 calls traced"
}

# Two callers, then three threads (their start routine uninstrumented): every visit counted
# on its own call path and location; the threads' direct calls are settled at thread end.
check_paths() # MODE
{
    im=$1 m=$tag$1
    scorep_cc --instrument="$im" "$tc" -O2 -pthread -o "throttle_paths_$m" "$PROGRAMS/throttle_paths.c"
    run_app "pa_$m" env SCOREP_THROTTLING=true SCOREP_THROTTLING_CALLS=1000 SCOREP_THROTTLING_MEAN=$MEAN \
        SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="paths_$m" "./throttle_paths_$m"
    expect_eq "$status" 0 "$m: paths: exit status"
    expect_eq "$(cat "pa_$m.out")" "done 18003404" "$m: paths: program output"
    e=paths_$m
    expect_eq "$(profile_sum "$e" main/left/tiny visits)" 3000 "$m: paths: left's calls"
    expect_eq "$(profile_sum "$e" main/left/tiny/scorep_throttled_from_visit=1001 visits)" 2000 \
        "$m: paths: left's calls from visit 1001 on"
    expect_eq "$(profile_sum "$e" main/right/tiny visits)" 2000 "$m: paths: right's calls"
    expect_eq "$(profile_sum "$e" main/right/tiny/scorep_throttled_from_visit=1 visits)" 2000 \
        "$m: paths: right's calls, all throttled"
    for t in 1 2 3; do
        expect_eq "$(profile_sum "$e" THREADS/left/tiny visits "$t")" 3000 \
            "$m: paths: thread $t: left's calls"
        expect_eq "$(profile_sum "$e" THREADS/tiny visits "$t")" 1234 \
            "$m: paths: thread $t: calls from the uninstrumented start routine"
        expect_eq "$(profile_sum "$e" THREADS/tiny/scorep_throttled_from_visit=1 visits "$t")" \
            1234 "$m: paths: thread $t: ... all throttled"
        expect_eq "$(trace_count "$e" ENTER "$t" tiny)" 0 "$m: paths: thread $t: no tiny traced"
    done
    expect_eq "$(trace_count "$e" ENTER 0 tiny)" 1000 "$m: paths: main: tiny traced 1000 times"
    expect_eq "$(trace_check_nesting "$e")" 0 "$m: paths: nesting valid"
}

# 2 threads calling one throttled function at the same time, a million times each
# (throttle_threads.c): the inline check's counters are per thread, so every visit counts (a
# counter shared by the threads, without atomics, would lose some).
check_threads() # MODE
{
    im=$1 m=$tag$1
    scorep_cc --instrument="$im" "$tc" -O2 -pthread -o "throttle_threads_$m" \
        "$PROGRAMS/throttle_threads.c"
    run_app "tt_$m" env SCOREP_THROTTLING=true SCOREP_THROTTLING_CALLS=1000 SCOREP_THROTTLING_MEAN=$MEAN \
        SCOREP_EXPERIMENT_DIRECTORY="threads_$m" "./throttle_threads_$m"
    expect_eq "$status" 0 "$m: threads: exit status"
    expect_eq "$(cat "tt_$m.out")" "done 2004000" "$m: threads: program output"
    e=threads_$m
    expect_eq "$(profile_sum "$e" main/tiny visits 0)" 2000 "$m: threads: main's calls"
    for t in 1 2; do
        expect_eq "$(profile_sum "$e" THREADS/work/tiny visits "$t")" 1000000 \
            "$m: threads: thread $t: every call"
        expect_eq "$(profile_sum "$e" THREADS/work/tiny/scorep_throttled_from_visit=1 visits "$t")" \
            1000000 "$m: threads: thread $t: ... all throttled"
    done
}

# A linked shared library and a dlopen'ed module: names, file and line of their functions as
# in the executable, exact visits when throttled.
check_shlib() # MODE [MODE OF THE LINKED LIBRARY]
{
    m=$1 lm=${2:-$1} src="$PROGRAMS/throttle_shlib.c" libsrc="$PROGRAMS/throttle_shlib.c"
    mc=$tc # the program stays C
    [ "$tc" != gfortran ] || libsrc=$PROGRAMS/throttle_shlib_f.F90 mc=gcc
    n=$tag$m${2:+_lib_$2} # names of files and checks
    mkdir "lib_$n"
    scorep_cc --instrument="$lm" "$tc" -O2 -fPIC -shared -DSHLIB_LINKED -o "lib_$n/libtl.so" "$libsrc"
    scorep_cc --instrument="$m" "$tc" -O2 -fPIC -shared -DSHLIB_MODULE -o "lib_$n/mod.so" "$libsrc"
    scorep_cc --instrument="$m" "$mc" -O2 -o "shlib_$n" "$src" -L"lib_$n" -ltl \
        -Wl,-rpath,"$work/lib_$n" -ldl
    run_app "sh_$n" env SCOREP_THROTTLING=true SCOREP_THROTTLING_CALLS=1000 SCOREP_THROTTLING_MEAN=$MEAN \
        SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="shlib_$n.e" "./shlib_$n" \
        "$work/lib_$n/mod.so"
    expect_eq "$status" 0 "$n: shlib: exit status"
    expect_eq "$(cat "sh_$n.out")" "done 6504500" "$n: shlib: program output"
    e=shlib_$n.e
    expect_eq "$(profile_paths "$e" | tr '\n' ' ')" "main main/lib_tiny main/lib_tiny/scorep_throttled_from_visit=1001 main/mod_tiny main/mod_tiny/scorep_throttled_from_visit=1001 " \
        "$n: shlib: call paths"
    expect_eq "$(profile_sum "$e" main/lib_tiny visits)" 3000 "$n: shlib: lib_tiny visits"
    expect_eq "$(profile_sum "$e" main/mod_tiny visits)" 2000 "$n: shlib: mod_tiny visits"
    expect_eq "$(profile_sum "$e" main/mod_tiny/scorep_throttled_from_visit=1001 visits)" 1000 \
        "$n: shlib: mod_tiny's throttled visits"
    trace_defs "$e" >"shlib_$n.defs"
    for fn in lib_tiny mod_tiny; do
        def=$(grep '^REGION ' "shlib_$n.defs" | grep -F "Name: \"$fn\"")
        expect_eq "$(echo "$def" | sed 's/.*File: "\([^"]*\)".*/\1/')" "$libsrc" "$n: shlib: file of $fn"
        expect_eq "$(echo "$def" | sed 's/.*Begin: \([0-9]*\).*/\1/')" \
            "$(grep -n -E "int $fn\(int i\)$|function $fn\(i\)" "$libsrc" | cut -d: -f1)" \
            "$n: shlib: line of $fn"
    done
}

# 70 throttled functions: -finstrument-functions throttles all; the plugin has 63 slots, the
# last 7 functions to qualify stay measured (a soft limit, never a wrong count). A generous
# mean: every call path must qualify even with the first call's set-up in its time.
check_many() # MODE THROTTLED
{
    im=$1 m=$tag$1
    scorep_cc --instrument="$im" "$tc" -O2 -o "many_$m" "$PROGRAMS/throttle_many.c"
    run_app "ma_$m" env SCOREP_THROTTLING=true SCOREP_THROTTLING_CALLS=100 SCOREP_THROTTLING_MEAN=$MEAN \
        SCOREP_THROTTLING_MEAN=1ms SCOREP_ENABLE_TRACING=true \
        SCOREP_EXPERIMENT_DIRECTORY="many_$m.e" "./many_$m"
    expect_eq "$(cat "ma_$m.out")" "done 35000" "$m: many: program output"
    e=many_$m.e
    expect_eq "$(profile_dump "$e" -m visits |
        awk -F'\t' '$2 ~ /^main\/f[0-9]+$/ && $4 == "visits=500"' | wc -l | tr -d ' ')" 70 \
        "$m: many: every function 500 visits"
    expect_eq "$(profile_paths "$e" | grep -c '/scorep_throttled_from_visit=101$')" "$2" \
        "$m: many: $2 throttled from visit 101"
    expect_eq "$(trace_count "$e" ENTER 0 f69)" \
        "$([ "$2" = 70 ] && echo 100 || echo 500)" "$m: many: f69 traced"
    expect_eq "$(trace_count "$e" ENTER 0 f00)" 100 "$m: many: f00 traced until throttled"
}

# OpenMP teams: the workers' throttled calls are settled at their OpenMP events (the team's
# call path is attached and detached around each implicit task): exact visits in all.
check_omp() # MODE
{
    im=$1 m=$tag$1 src=throttle_omp.c r=main noinline=
    # Fortran: main calls MAIN__; gfortran's two teams may get two call paths (the OMPT
    # return address of each GOMP_parallel call gives the construct its line). gfortran 12
    # has no NOINLINE attribute: -fno-inline keeps work() a call, as throttle_omp.c's
    # noinline does (gfortran -O2 inlines it into the team's body, and so does the plugin's
    # build, which inlines what gcc inlines: #31)
    [ "$tc" != gfortran ] || src=throttle_omp_f.f90 r=main/MAIN__ noinline=-fno-inline
    # shellcheck disable=SC2086
    scorep_cc --instrument="$im" "$tc" -O2 $noinline -fopenmp -o "omp_$m" "$PROGRAMS/$src"
    run_app "om_$m" env SCOREP_THROTTLING=true SCOREP_THROTTLING_CALLS=500 SCOREP_THROTTLING_MEAN=$MEAN OMP_NUM_THREADS=2 \
        SCOREP_EXPERIMENT_DIRECTORY="omp_$m.e" "./omp_$m"
    expect_eq "$(cat "om_$m.out")" "done 8997000" "$m: omp: program output"
    # clang's worksharing loop is a construct of its own (its OMPT events name it)
    profile_paths "omp_$m.e" | grep -E "^$r/!\\\$omp parallel @${src%.*}\\.[cf90]*:[0-9]*(/!\\\$omp for/do @${src%.*}\\.[cf90]*:[0-9]*)?/work\$" \
        >"omp_$m.paths" || true
    expect_ge "$(grep -c . "omp_$m.paths")" 1 "$m: omp: work below the parallel region"
    [ "$tc" = gfortran ] || expect_eq "$(grep -c . "omp_$m.paths")" 1 \
        "$m: omp: one call path of work: $(tr '\n' ' ' <"omp_$m.paths")"
    v=0 v0=0
    while read -r wpath; do
        v=$((v + $(profile_sum "omp_$m.e" "$wpath" visits)))
        v0=$((v0 + $(profile_sum "omp_$m.e" "$wpath" visits 0)))
    done <"omp_$m.paths"
    expect_eq "$v" 6000 "$m: omp: work's visits over both threads and teams"
    expect_eq "$v0" 3000 "$m: omp: master's share"
}

# A function filtered at run time (slowish) counts into the plugins' discard slot, whose mask
# bit the flush maps back to that slot (profile/throttle_pending.c, slot_of_bit) and drops:
# 1099 discarded calls, none of them in another region's count or on a call path of its own.
check_filtered() # MODE
{
    m=$tag$1
    printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE slowish\nSCOREP_REGION_NAMES_END\n' >noslow.flt
    run_app "fi_$m" env SCOREP_THROTTLING=true SCOREP_THROTTLING_CALLS=1000 SCOREP_THROTTLING_MEAN=$MEAN \
        SCOREP_FILTERING_FILE=noslow.flt SCOREP_EXPERIMENT_DIRECTORY="filtered_$m" "./throttle_$m"
    expect_eq "$status" 0 "$m: filtered: exit status"
    e=filtered_$m
    expect_eq "$(profile_paths "$e" | tr '\n' ' ')" "main main/caller main/caller/tiny main/caller/tiny/scorep_throttled_from_visit=1 main/tiny main/tiny/scorep_throttled_from_visit=1001 " \
        "$m: filtered: call paths (slowish's calls discarded)"
    expect_eq "$(profile_sum "$e" main/tiny visits)" 5000 "$m: filtered: tiny's visits"
    expect_eq "$(profile_sum "$e" main/caller/tiny visits)" 10 "$m: filtered: caller's tiny"
    expect_eq "$(profile_sum "$e" main visits)" 1 "$m: filtered: main"
}

# check_count_insn WHAT DISASSEMBLY: on x86-64 the inline count is one addq of 1 to the thread's
# slot, addressed by the descriptor's word alone as %fs:(reg) (base-only: plugin_region.h), its
# zero flag takes the rare mark branch; and the function starts a 64-byte line so that its
# throttled path is fetched as one (design-reduction.md, "throttled calls")
check_count_insn()
{
    # AArch64 (cross_aarch64.sh, under qemu): the portable count, one load and one store of the
    # slot at the thread's counters indexed by the word (x[i, lsl #3]), the pointer from tpidr_el0
    if [ "$(build_machine)" = aarch64 ]; then
        expect_eq "$(count_lines 'str[[:space:]]+x[0-9]+, \[x[0-9]+, x[0-9]+, lsl #3\]' "$2")" 1 \
            "$1: aarch64: one count, by slot index"
        expect_ge "$(count_lines 'mrs[[:space:]]+x[0-9]+, tpidr_el0' "$2")" 1 "$1: aarch64: ... in TLS"
        return 0
    fi
    [ "$(build_machine)" = x86_64 ] || { skip_part_here "$1: the count instruction" "$(build_machine)"; return 0; }
    # a portable build (base/arch.h, test_portable_paths.sh) counts by slot index: no
    # base-only %fs access, but the index into the counters' array
    if [ "$(count_out '^hot paths: +portable' "$SCOREP_INFO" build)" = 1 ]; then
        expect_eq "$(count_lines 'addq +\$0x1,%fs:\(%r[a-z0-9]+\)$' "$2")" 0 \
            "$1: portable: no base-only count"
        expect_eq "$(count_lines 'addq +\$0x1,%fs:\(%r[a-z0-9]+,%r[a-z0-9]+,8\)$' "$2")" 1 \
            "$1: portable: one count, by slot index"
        return 0
    fi
    expect_eq "$(count_lines 'addq +\$0x1,%fs:\(' "$2")" 1 "$1: tiny counts with one addq"
    expect_eq "$(count_lines 'addq +\$0x1,%fs:\(%r[a-z0-9]+\)$' "$2")" 1 \
        "$1: ... at %fs:(reg), base-only"
    a=$(sed -n '1s/^0*\([0-9a-f][0-9a-f]*\) <.*>:$/\1/p' "$2")
    expect_eq "$((0x${a:-1} % 64))" 0 "$1: tiny starts a 64-byte line (at 0x$a)"
}

check_throttle functions
check_paths functions
check_threads functions
check_shlib functions
check_many functions 70
if nm -D "$top_builddir/.libs/libscorep-rt.so" | grep -q ' T ompt_start_tool$'; then
    check_omp functions
    [ ! -f "$SCOREP_CC_GCC_PLUGIN" ] || check_omp plugin
else
    skip_part "OMPT (omp-tools.h)"
fi
if [ -f "$SCOREP_CC_GCC_PLUGIN" ]; then
    check_throttle plugin
    check_filtered plugin
    check_paths plugin
    check_threads plugin
    check_shlib plugin
    # both instrumentations in one program: the linked library through the hooks
    check_shlib plugin functions
    check_many plugin 63
    # the plugin's inline check: tiny calls no runtime function once throttled (it has one
    # call of scorep_plugin_enter and one of scorep_plugin_leave, none of the hooks)
    objdump -d throttle_plugin >throttle_plugin.dis || fail "objdump -d throttle_plugin"
    awk '/<tiny>:/,/^$/' throttle_plugin.dis >tiny.dis
    expect_eq "$(count_lines "${CALL_INSN}.*scorep_plugin_enter" tiny.dis)" \
        1 "plugin: tiny calls scorep_plugin_enter once (on its measured path)"
    expect_eq "$(count_lines "${CALL_INSN}.*__cyg_profile_func" throttle_plugin.dis)" 0 \
        "plugin: no -finstrument-functions hooks"
    check_count_insn plugin tiny.dis
    # the ABI's version (throttle_pending.h): the inserted code binds the versioned counters
    # at load, so an object of another plugin version cannot run with this runtime
    expect_eq "$(count_out ' U scorep_throttle_slots_v3$' nm -D throttle_plugin)" 1 \
        "plugin: the program needs scorep_throttle_slots_v3 at load"
    expect_eq "$(count_out 'scorep_throttle_slots_v[0-24-9]|scorep_throttle_pending$' \
        nm -D "$top_builddir/.libs/libscorep-rt.so")" 0 \
        "the runtime defines no other version of the counters"
else
    skip_part "the GCC plugin (gcc-12-plugin-dev)"
fi

# clang with the LLVM pass plugin: the same checks; its objects call no hook either
if command -v clang >/dev/null 2>&1 && [ -f "$SCOREP_CC_LLVM_PLUGIN" ]; then
    tc=clang tag=clang_
    check_throttle plugin
    check_filtered plugin
    check_paths plugin
    check_threads plugin
    check_shlib plugin
    check_shlib plugin functions
    check_many plugin 63
    if nm -D "$top_builddir/.libs/libscorep-rt.so" | grep -q ' T ompt_start_tool$'; then
        check_omp plugin
    fi
    # a small leaf's measured path is a copy of its own (scorep_llvm_plugin.cc, split): tiny
    # itself calls nothing and keeps no frame (no push), and jumps to the copy when measured;
    # the copy enters and leaves once each
    disasm_fn throttle_clang_plugin tiny >tiny_clang.dis
    expect_eq "$(count_lines 'call|push' tiny_clang.dis)" 0 \
        "clang plugin: tiny calls nothing and keeps no frame"
    expect_eq "$(count_lines 'jmp.*<tiny\.scorep_measured>' tiny_clang.dis)" 1 \
        "clang plugin: tiny's measured path is a tail call of its copy"
    check_count_insn "clang plugin" tiny_clang.dis
    expect_eq "$(count_out ' U scorep_throttle_slots_v3$' nm -D throttle_clang_plugin)" 1 \
        "clang plugin: the program needs scorep_throttle_slots_v3 at load"
    disasm_fn throttle_clang_plugin tiny.scorep_measured >tiny_measured.dis
    expect_eq "$(count_lines "${CALL_INSN}.*scorep_plugin_(enter|leave)" tiny_measured.dis)" 2 \
        "clang plugin: the copy enters and leaves once each"
    expect_eq "$(count_out "${CALL_INSN}.*__cyg_profile_func" objdump -d throttle_clang_plugin)" 0 \
        "clang plugin: no -finstrument-functions hooks"
    # clang's -finstrument-functions with the same runtime: the hooks' path
    check_throttle functions
else
    skip_part "clang with the LLVM plugin (llvm-N-dev)"
fi
# gfortran with the GCC plugin (bind(C) names): throttling, shared libraries
if command -v gfortran >/dev/null 2>&1 && [ -f "$SCOREP_CC_GCC_PLUGIN" ]; then
    tc=gfortran tag=f_
    check_throttle plugin
    check_shlib plugin
    check_shlib plugin functions
    if nm -D "$top_builddir/.libs/libscorep-rt.so" | grep -q ' T ompt_start_tool$'; then
        check_omp plugin
    fi
    expect_eq "$(count_out "${CALL_INSN}.*__cyg_profile_func" objdump -d throttle_f_plugin)" 0 \
        "gfortran plugin: no -finstrument-functions hooks"
else
    skip_part "gfortran with the GCC plugin"
fi
tc=gcc tag=

# bad input
run_app bad env SCOREP_THROTTLING=true SCOREP_THROTTLING_MEAN=fast ./throttle_functions
expect_eq "$status" 1 "a bad mean stops the program at start"
expect_grep "SCOREP_THROTTLING_MEAN='fast': expected a duration" bad.err "clear message"
done_ok
