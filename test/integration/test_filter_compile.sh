#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_filter_compile.sh: compile-time filtering (scorep-cc --filter with gcc/g++ loads the GCC
# plugin scorep_filter_gcc.so): excluded functions get no profiling hooks, the kept ones do,
# and the profile agrees with the run-time filter's; a broken filter stops the compile. First
# with -finstrument-functions, then with the plugins' own instrumentation (--instrument=plugin):
# the GCC plugin with g++/gcc, the LLVM pass plugin with clang++/clang (objdump: no hook call
# in a filtered function).
. "$top_srcdir/test/integration/lib.sh"
export SCOREP_CC_INSTRUMENT=functions

if "$SCOREP_CC" --help | grep -q 'not built here'; then
    skip_part "gcc plugin headers (gcc-12-plugin-dev)"
    done_ok
    exit 0
fi

# The C file is compiled through a path with "." and "..": file rules see the simplified
# absolute name, as the run-time filter does (DWARF's compilation directory + file).
mkdir src
cp "$PROGRAMS/ctfilter_skip.c" src/
cat >ct.flt <<EOF2
SCOREP_FILE_NAMES_BEGIN
  EXCLUDE $work/src/ctfilter_skip.c
SCOREP_FILE_NAMES_END
SCOREP_REGION_NAMES_BEGIN
  # wildcards on demangled C++ names, then INCLUDE after EXCLUDE (the last match wins)
  EXCLUDE calc::* helper_*
  INCLUDE calc::add_two(int) helper_keep*
  EXCLUDE MANGLED _Z5twiceIiET_S0_
SCOREP_REGION_NAMES_END
EOF2

# hooked BINARY [HOOK]: the functions (linkage names) whose code calls __cyg_profile_func_HOOK
# (HOOK: enter, exit, or a whole name such as scorep_plugin_enter); the LLVM plugin's measured
# copy F.scorep_measured of a small leaf F counts as F
hooked()
{
    objdump -d --no-show-raw-insn "$1" | awk -v hook="${2:-enter}" -v call="$CALL_INSN" '
        BEGIN { if (hook !~ /_/) hook = "__cyg_profile_func_" hook }
        /^[0-9a-f]+ <[^>]+>:$/ { fn = substr($2, 2, length($2) - 3); sub(/\.scorep_measured$/, "", fn) }
        $0 ~ call ".*<" hook "(@plt)?>" { print fn }' | sort -u | tr '\n' ' '
}
ours="_Z11helper_keepi _Z5twiceIdET_S0_ _Z5twiceIiET_S0_ _ZL10helper_onei _ZN4calc7add_oneEi _ZN4calc7add_twoEi main skipfile_work "
kept="_Z11helper_keepi _Z5twiceIdET_S0_ _ZN4calc7add_twoEi main "
only_ours() { tr ' ' '\n' | grep -E -x "$(echo $ours | tr ' ' '|')" | tr '\n' ' '; }

# --- without --filter every function is instrumented ---
scorep_cc g++ -O2 -c -o main_all.o "$PROGRAMS/ctfilter_main.cc"
scorep_cc gcc -O2 -c -o skip_all.o ./src/../src/ctfilter_skip.c
scorep_cc g++ -o ct_all main_all.o skip_all.o
expect_eq "$(hooked ct_all | only_ours)" "$ours" "no filter: all 8 functions call the enter hook"

# --- with --filter only the kept ones are ---
scorep_cc --filter=ct.flt g++ -O2 -c -o main_f.o "$PROGRAMS/ctfilter_main.cc"
scorep_cc --filter=ct.flt gcc -O2 -c -o skip_f.o ./src/../src/ctfilter_skip.c
scorep_cc --filter=ct.flt g++ -o ct_f main_f.o skip_f.o
expect_eq "$(hooked ct_f | only_ours)" "$kept" "compile-time filter: hooked functions"
run_to skip_f.dis objdump -dr skip_f.o
run_to main_f.dis objdump -dr main_f.o
expect_eq "$(count_lines __cyg_profile_func skip_f.dis)" 0 \
    "compile-time filter: excluded file has no hook calls at all"
# the calls' relocations (AArch64's objdump names the symbol on the bl line too)
expect_eq "$(count_lines 'R_[A-Z0-9_]+[[:space:]]+__cyg_profile_func_enter' main_f.dis)" 4 \
    "compile-time filter: 4 enter calls (main, add_two, twice<double>, helper_keep)"
expect_eq "$(hooked ct_f exit | only_ours)" "$kept" "compile-time filter: functions calling the exit hook"

# --- the profile: exact visits of the kept functions, none of the excluded ---
paths="main main/calc::add_two(int) main/double twice<double>(double) main/helper_keep(int) "
run_app ct_f env SCOREP_EXPERIMENT_DIRECTORY=exp_f ./ct_f
expect_eq "$status" 0 "compile-time filter: exit status"
expect_eq "$(cat ct_f.out)" "sum=405 dsum=45" "compile-time filter: output"
expect_eq "$(profile_paths exp_f | tr '\n' ' ')" "$paths" "compile-time filter: call paths"
expect_eq "$(profile_sum exp_f main visits)" 1 "compile-time filter: main visits"
for fn in "calc::add_two(int)" "double twice<double>(double)" "helper_keep(int)"; do
    expect_eq "$(profile_sum exp_f "main/$fn" visits)" 10 "compile-time filter: $fn visits"
done
# the run-time filter on the unfiltered build gives the same call paths and visits
run_app ct_rt env SCOREP_FILTERING_FILE="$work/ct.flt" SCOREP_EXPERIMENT_DIRECTORY=exp_rt ./ct_all
expect_eq "$status" 0 "run-time filter: exit status"
expect_eq "$(profile_paths exp_rt | tr '\n' ' ')" "$paths" "run-time filter: same call paths"
expect_eq "$(profile_sum exp_rt main/helper_keep\(int\) visits)" 10 "run-time filter: helper_keep visits"

# --- the plugins' instrumentation: the same functions call scorep_plugin_enter/leave ---
# check_plugin CXX CC TAG: the GCC plugin (g++ gcc) or clang's LLVM pass plugin (clang++ clang)
check_plugin()
{
    cxx=$1 c=$2 t=$3
    scorep_cc --instrument=plugin "$cxx" -O2 -c -o "main_${t}all.o" "$PROGRAMS/ctfilter_main.cc"
    scorep_cc --instrument=plugin "$c" -O2 -c -o "skip_${t}all.o" ./src/../src/ctfilter_skip.c
    scorep_cc --instrument=plugin "$cxx" -o "ct_${t}all" "main_${t}all.o" "skip_${t}all.o"
    expect_eq "$(hooked "ct_${t}all" scorep_plugin_enter | only_ours)" "$ours" \
        "$t: plugin, no filter: all 8 functions call scorep_plugin_enter"
    expect_eq "$(count_out '__cyg_profile_func' objdump -dr "ct_${t}all")" 0 \
        "$t: plugin, no filter: no -finstrument-functions hook"
    scorep_cc --instrument=plugin --filter=ct.flt "$cxx" -O2 -c -o "main_${t}f.o" "$PROGRAMS/ctfilter_main.cc"
    scorep_cc --instrument=plugin --filter=ct.flt "$c" -O2 -c -o "skip_${t}f.o" ./src/../src/ctfilter_skip.c
    scorep_cc --instrument=plugin --filter=ct.flt "$cxx" -o "ct_${t}f" "main_${t}f.o" "skip_${t}f.o"
    expect_eq "$(hooked "ct_${t}f" scorep_plugin_enter | only_ours)" "$kept" \
        "$t: plugin, compile-time filter: functions calling scorep_plugin_enter"
    expect_eq "$(hooked "ct_${t}f" scorep_plugin_leave | only_ours)" "$kept" \
        "$t: plugin, compile-time filter: functions calling scorep_plugin_leave"
    expect_eq "$(objdump -dr "skip_${t}f.o" | grep -c 'scorep_plugin_\|__cyg_profile_func')" 0 \
        "$t: plugin, compile-time filter: excluded file is not instrumented at all"
    run_app "ct_${t}f" env SCOREP_EXPERIMENT_DIRECTORY="exp_${t}f" "./ct_${t}f"
    expect_eq "$(cat "ct_${t}f.out")" "sum=405 dsum=45" "$t: plugin, compile-time filter: output"
    expect_eq "$(profile_paths "exp_${t}f" | tr '\n' ' ')" "$paths" "$t: plugin, compile-time filter: call paths"
    for fn in "calc::add_two(int)" "double twice<double>(double)" "helper_keep(int)"; do
        expect_eq "$(profile_sum "exp_${t}f" "main/$fn" visits)" 10 "$t: plugin, compile-time filter: $fn visits"
    done
    run_app "ct_${t}rt" env SCOREP_FILTERING_FILE="$work/ct.flt" SCOREP_EXPERIMENT_DIRECTORY="exp_${t}rt" "./ct_${t}all"
    expect_eq "$(profile_paths "exp_${t}rt" | tr '\n' ' ')" "$paths" "$t: plugin, run-time filter: same call paths"
}
check_plugin g++ gcc p
if command -v clang++ >/dev/null 2>&1 && [ -f "$SCOREP_CC_LLVM_PLUGIN" ]; then
    check_plugin clang++ clang clang_
else
    skip_part "clang with the LLVM plugin (llvm-N-dev)"
fi

# --- a broken filter file stops the compile with its file and line ---
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE x\n  INCLUDE y\nSCOREP_FILE_NAMES_END\n' >bad.flt
status=0
"$SCOREP_CC" --filter=bad.flt g++ -c -o bad.o "$PROGRAMS/ctfilter_main.cc" 2>bad.err || status=$?
expect_eq "$status" 1 "broken filter: scorep-cc fails"
expect_grep '^scorep-cc: bad filter file: bad\.flt:4: SCOREP_FILE_NAMES_END does not match' bad.err "broken filter: scorep-cc names file and line"
expect_no_file bad.o "broken filter: nothing compiled"
# the plugin itself (used without scorep-cc) says the same
status=0
g++ -finstrument-functions -fplugin="$SCOREP_CC_GCC_PLUGIN" \
    -fplugin-arg-scorep_filter_gcc-filter=bad.flt -c -o bad.o "$PROGRAMS/ctfilter_main.cc" \
    2>plugin.err || status=$?
expect_eq "$status" 1 "broken filter: the plugin fails the compile"
expect_grep 'error: scorep_filter_gcc: bad filter file: bad\.flt:4: SCOREP_FILE_NAMES_END does not match' plugin.err \
    "broken filter: the plugin names file and line"
if command -v clang++ >/dev/null 2>&1 && [ -f "$SCOREP_CC_LLVM_PLUGIN" ]; then
    status=0
    clang++ -finstrument-functions -fplugin="$SCOREP_CC_LLVM_PLUGIN" \
        -fpass-plugin="$SCOREP_CC_LLVM_PLUGIN" -mllvm -scorep-filter=bad.flt -c -o bad.o \
        "$PROGRAMS/ctfilter_main.cc" 2>llvm.err || status=$?
    expect_eq "$status" 1 "broken filter: the LLVM plugin fails the compile"
    expect_grep 'scorep_llvm_plugin: bad filter file: bad\.flt:4: SCOREP_FILE_NAMES_END does not match' \
        llvm.err "broken filter: the LLVM plugin names file and line"
fi
done_ok
