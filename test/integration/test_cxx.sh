#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_cxx.sh: C++ programs (test/programs/cxx.cc) with g++ and clang++, each through its
# plugin (GCC plugin, LLVM pass plugin) and through -finstrument-functions: demangled region
# names of templates, overloads and const methods, exact visits, exceptions that leave the
# call tree intact, and source file and line of a region in the trace definitions.
. "$top_srcdir/test/integration/lib.sh"

src="$PROGRAMS/cxx.cc"
twice_int='int demo::twice<int>(int)'
twice_dbl='double demo::twice<double>(double)'
ov_int='demo::overload(int)'
ov_dbl='demo::overload(double)'
get='demo::Box::get() const'
thrower='demo::thrower(int)'
ov_dbl_line=$(grep -n 'double overload(double x)' "$src" | cut -d: -f1)

# check_cxx COMPILER LABEL [SCOREP-CC OPTION]
check_cxx()
{
    scorep_cc ${3:+"$3"} "$1" -O2 -o "cxx_$2" "$src"
    e="exp_$2"
    run_app "$2" env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$e" "./cxx_$2"
    expect_eq "$status" 0 "$2: exit status"
    # twice<int> 2i (i < 10): 90, twice<double> 2i (i < 5): 20, overload (i + 1) + (i + 0.5)
    # truncated (i < 7): 49, get() of v = 0..3: 6
    expect_eq "$(cat "$2.out")" "sum 165 caught 3" "$2: program output"
    expect_eq "$(cat "$2.err")" "" "$2: nothing on stderr"

    expect_eq "$(profile_sum "$e" main visits)" 1 "$2: main visits"
    expect_eq "$(profile_sum "$e" "main/$twice_int" visits)" 10 "$2: $twice_int visits"
    expect_eq "$(profile_sum "$e" "main/$twice_dbl" visits)" 5 "$2: $twice_dbl visits"
    expect_eq "$(profile_sum "$e" "main/$ov_int" visits)" 7 "$2: $ov_int visits"
    expect_eq "$(profile_sum "$e" "main/$ov_dbl" visits)" 7 "$2: $ov_dbl visits"
    expect_eq "$(profile_sum "$e" "main/$get" visits)" 4 "$2: $get visits"
    expect_eq "$(profile_sum "$e" "main/$thrower" visits)" 6 "$2: $thrower visits (3 threw)"
    # Exceptions must not break the call tree: exactly main and its 6 children, nothing below.
    expect_eq "$(profile_paths "$e")" "$(printf '%s\n' main "main/$ov_dbl" "main/$ov_int" \
        "main/$get" "main/$thrower" "main/$twice_dbl" "main/$twice_int" | sort)" \
        "$2: call paths are exactly main and its 6 children"
    expect_eq "$(profile_paths "$e" | grep -c -F "$thrower/")" 0 "$2: $thrower has no children"
    expect_eq "$(profile_locations "$e")" 1 "$2: one location"
    expect_ge "$(profile_isum "$e" main time)" "$(profile_isum "$e" "main/$thrower" time)" \
        "$2: inclusive time of main >= that of $thrower"

    # Trace: every region entered and left as often as it was called, properly nested.
    for r in "main 1" "$twice_int 10" "$twice_dbl 5" "$ov_int 7" "$ov_dbl 7" "$get 4" "$thrower 6"; do
        name=${r% *} n=${r##* }
        expect_eq "$(trace_count "$e" ENTER 0 "$name")" "$n" "$2: ENTER $name"
        expect_eq "$(trace_count "$e" LEAVE 0 "$name")" "$n" "$2: LEAVE $name"
    done
    expect_eq "$(trace_count "$e" ENTER)" 40 "$2: ENTER events"
    expect_eq "$(trace_count "$e" LEAVE)" 40 "$2: LEAVE events"
    expect_eq "$(trace_check_nesting "$e")" 0 "$2: ENTER/LEAVE properly nested"
    expect_eq "$(trace_check_order "$e")" 0 "$2: timestamps increasing"
    expect_eq "$(trace_other "$e" | awk '$1 == "PROGRAM_END"' | sed 's/.*Exit status: *//')" 0 \
        "$2: PROGRAM_END exit status"

    # Definitions: name, mangled name, paradigm, file and line of one function.
    trace_defs "$e" >"$2.defs"
    def=$(grep '^REGION ' "$2.defs" | grep -F "Name: \"$ov_dbl\"")
    expect_eq "$(echo "$def" | wc -l | tr -d ' ')" 1 "$2: one region $ov_dbl"
    expect_eq "$(echo "$def" | sed 's/.*(Aka\. "\([^"]*\)".*/\1/')" _ZN4demo8overloadEd \
        "$2: mangled name of $ov_dbl"
    expect_eq "$(echo "$def" | sed 's/.*File: "\([^"]*\)".*/\1/')" "$src" "$2: source file of $ov_dbl"
    expect_eq "$(echo "$def" | sed 's/.*Begin: \([0-9]*\).*/\1/')" "$ov_dbl_line" \
        "$2: line of $ov_dbl"
    expect_eq "$(echo "$def" | sed 's/.*Paradigm: \([A-Z_]*\).*/\1/')" COMPILER "$2: paradigm"
    expect_eq "$(echo "$def" | sed 's/.*Role: \([A-Z_]*\).*/\1/')" FUNCTION "$2: role"
    expect_eq "$(grep -c '^REGION ' "$2.defs")" 8 "$2: 8 regions defined (7 and the program region)"
}

check_cxx g++ gxx # the GCC plugin's instrumentation, where it is built
check_cxx g++ gxx_functions --instrument=functions
if command -v clang++ >/dev/null 2>&1; then
    check_cxx clang++ clangxx # the LLVM pass plugin's instrumentation, where it is built
    if [ -f "$SCOREP_CC_LLVM_PLUGIN" ]; then
        # exceptions through the plugin's cleanup landing pads: no hook, leaves on unwinding
        expect_eq "$(count_out ' U scorep_plugin_enter$' nm cxx_clangxx) $(count_out ' U __cyg_profile_func_enter$' nm cxx_clangxx)" \
            "1 0" "clang++: instrumented by the LLVM plugin, no hook"
    fi
    check_cxx clang++ clangxx_functions --instrument=functions
else
    skip_part clang++
fi
done_ok
