#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_fortran_plugin.sh: gfortran through the GCC plugin's instrumentation (#20, scorep-cc's
# default for gfortran): fcalls.F90 (modules, recursion, an internal procedure using its host's
# variable), fcalls_fixed.f (fixed form) and fcalls_lib.f90 (not preprocessed): exact visits,
# call paths, names, files and lines, no -finstrument-functions hook; the compile-time filter
# (objdump: no runtime call in a filtered procedure); scorep-score -g's filter back into the
# compile; the Fortran user API inside plugin-instrumented procedures. Skipped (77) without
# gfortran or the GCC plugin.
. "$top_srcdir/test/integration/lib.sh"
command -v gfortran >/dev/null 2>&1 || { echo "SKIP: no gfortran"; exit 77; }
if [ ! -f "$SCOREP_CC_GCC_PLUGIN" ]; then
    skip_part "the GCC plugin (gcc-12-plugin-dev)"
    done_ok
    exit 0
fi

srcs="$PROGRAMS/fcalls.F90 $PROGRAMS/fcalls_fixed.f $PROGRAMS/fcalls_lib.f90"
leaf=__fcalls_mod_MOD_leaf rec=__fcalls_mod_MOD_recurse
# the expected call paths: the design of fcalls.F90 (gfortran's main calls MAIN__)
r=main/MAIN__
paths=$(printf '%s\n' main $r "$r/$leaf" "$r/$rec" "$r/$rec/$rec" "$r/$rec/$rec/$rec" \
    "$r/$rec/$rec/$rec/$rec" "$r/$rec/$rec/$rec/$rec/$rec" "$r/inner.0" "$r/fixed_sub_" \
    "$r/lib_sub_" "$r/lib_sub_/$leaf" | sort)

# hooked BINARY NAME: the functions whose code calls NAME; inner.0 is left out (-O2 inlines
# it into MAIN__ or not, depending on gcc's heuristics)
hooked()
{
    objdump -d --no-show-raw-insn "$1" | awk -v hook="$2" -v call="$CALL_INSN" '
        /^[0-9a-f]+ <[^>]+>:$/ { fn = substr($2, 2, length($2) - 3) }
        $0 ~ call ".*<" hook "(@plt)?>" && fn !~ /^inner\./ { print fn }' | sort -u | tr '\n' ' '
}

# --- the default: the GCC plugin; -O2 inlines, the visits stay exact ---
expect_eq "$(count_out '-fplugin-arg-scorep_filter_gcc-instrument' "$SCOREP_CC" --dry-run gfortran -c x.f90)" \
    1 "scorep-cc gfortran: the GCC plugin instruments by default"
# instrumented before inlining (#31): the internal procedure inner.0, which -O2 may inline
# into MAIN__, keeps its 10 visits, which the paths and scorep-score -g below expect
# shellcheck disable=SC2086
scorep_cc --instrument-inlined gfortran -O2 -o fcalls $srcs
expect_eq "$(hooked fcalls __cyg_profile_func_enter)" "" "no -finstrument-functions hook"
expect_eq "$(hooked fcalls scorep_plugin_enter)" \
    "MAIN__ $leaf $rec fixed_sub_ lib_sub_ main " "procedures that call scorep_plugin_enter"
run_app f env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_f ./fcalls
expect_eq "$status" 0 "exit status"
expect_eq "$(cat f.out)" "sum 500628" "program output"
expect_eq "$(cat f.err)" "" "nothing on stderr"
expect_eq "$(profile_paths exp_f)" "$paths" "call paths"
for pv in "main 1" "$r 1" "$r/$leaf 1000" "$r/$rec 1" "$r/$rec/$rec/$rec/$rec/$rec 1" \
    "$r/inner.0 10" "$r/fixed_sub_ 3" "$r/lib_sub_ 7" "$r/lib_sub_/$leaf 14"; do
    expect_eq "$(profile_sum exp_f "${pv% *}" visits)" "${pv##* }" "visits of ${pv% *}"
done
expect_eq "$(trace_count exp_f ENTER 0 $leaf) $(trace_count exp_f LEAVE 0 $leaf)" "1014 1014" \
    "trace: leaf entered and left 1014 times"
expect_eq "$(trace_check_nesting exp_f)" 0 "trace: nesting valid"
trace_defs exp_f >f.defs
# file and line of a procedure of each source form, as in the source
for fl in "$leaf fcalls.F90 subroutine leaf" "inner.0 fcalls.F90 function inner" \
    "fixed_sub_ fcalls_fixed.f SUBROUTINE FIXED_SUB" "lib_sub_ fcalls_lib.f90 subroutine lib_sub"; do
    set -- $fl
    fn=$1 file=$2
    shift 2
    def=$(grep '^REGION ' f.defs | grep -F "Name: \"$fn\"")
    expect_eq "$(echo "$def" | sed 's/.*File: "\([^"]*\)".*/\1/')" "$PROGRAMS/$file" "file of $fn" # lint: ok (sed of a variable, no count; the linter misreads the quotes)
    expect_eq "$(echo "$def" | sed 's/.*Begin: \([0-9]*\).*/\1/')" \
        "$(awk -v p="$*" 'index($0, p) { print NR; exit }' "$PROGRAMS/$file")" "line of $fn"
done

# --- the compile-time filter: by name (module procedure, internal procedure) and by file ---
cat >f.flt <<EOF2
SCOREP_FILE_NAMES_BEGIN
  EXCLUDE */fcalls_fixed.f
SCOREP_FILE_NAMES_END
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE *_MOD_leaf inner.*
SCOREP_REGION_NAMES_END
EOF2
# shellcheck disable=SC2086
# --instrument-inlined, as the first build: its call paths (without it, gcc -O2 inlines
# recurse into itself as in a plain build, and the profile shows the calls that remain: #31)
scorep_cc --filter=f.flt --instrument-inlined gfortran -O2 -o fcalls_flt $srcs
expect_eq "$(hooked fcalls_flt scorep_plugin_enter)" "MAIN__ $rec lib_sub_ main " \
    "filtered: only the kept procedures call scorep_plugin_enter"
expect_eq "$(objdump -d fcalls_flt | awk "/<$leaf>:/,/^\$/" | grep -c -E "$CALL_INSN")" 0 \
    "filtered: leaf calls nothing"
run_app ff env SCOREP_EXPERIMENT_DIRECTORY=exp_ff ./fcalls_flt
expect_eq "$(cat ff.out)" "sum 500628" "filtered: program output"
expect_eq "$(profile_paths exp_ff)" "$(echo "$paths" | grep -v -e "$leaf" -e inner -e fixed_sub)" \
    "filtered: call paths without leaf, inner and fixed_sub"
expect_eq "$(profile_sum exp_ff "$r/lib_sub_" visits)" 7 "filtered: lib_sub visits"

# --- scorep-score -g: its filter given back to the compile removes exactly what it lists ---
(mkdir g && cd g && "$SCOREP_SCORE" -g ../exp_f >../g.out) || fail "scorep-score -g"
listed=$(sed -n 's/^    MANGLED //p' g/initial_scorep.filter | tr '\n' ' ')
# cheap procedures with a share of the buffer above -g's threshold: leaf (1014 visits, 98% of
# the trace) and inner (10 visits, 1%); none of the others (1 to 7 visits, or expensive)
expect_eq "$listed" "$leaf inner.0 " "-g lists exactly leaf and inner"
# shellcheck disable=SC2086
scorep_cc --filter=g/initial_scorep.filter --instrument-inlined gfortran -O2 -o fcalls_g $srcs
expect_eq "$(hooked fcalls_g scorep_plugin_enter)" "MAIN__ $rec fixed_sub_ lib_sub_ main " \
    "-g round trip: leaf (and inner) compiled without instrumentation"
run_app fg env SCOREP_EXPERIMENT_DIRECTORY=exp_fg ./fcalls_g
expect_eq "$(profile_paths exp_fg)" "$(echo "$paths" | grep -v -e "$leaf" -e inner)" \
    "-g round trip: every call path but leaf's and inner's"
expect_eq "$(profile_sum exp_fg "$r/fixed_sub_" visits)" 3 "-g round trip: fixed_sub visits kept"

# --- the Fortran user API inside plugin-instrumented procedures ---
# a user region (phase) inside a procedure (work) around 5 calls of a module procedure (tiny)
cat >fuser.F90 <<'EOF2'
#include "scorep/SCOREP_User.inc"
module fuser_mod
  implicit none
  integer :: n = 0
contains
  subroutine tiny()
    n = n + 1
  end subroutine tiny
  subroutine work()
    integer :: i
    SCOREP_USER_REGION_DEFINE(h)
    SCOREP_USER_REGION_BEGIN(h, "phase", SCOREP_USER_REGION_TYPE_PHASE)
    do i = 1, 5
      call tiny()
    end do
    SCOREP_USER_REGION_END(h)
  end subroutine work
end module fuser_mod
program fuser
  use fuser_mod
  call work()
  call work()
  print '(a,i0)', 'n ', n
end program fuser
EOF2
# gcc inlines tiny into work (its count is one asm statement on x86-64, small enough for the
# early inliner): --instrument-inlined keeps the inlined copies' checks, as test_throttling.sh
# does for gfortran
scorep_cc --user --instrument-inlined gfortran -O2 -o fuser fuser.F90
expect_eq "$(hooked fuser __cyg_profile_func_enter)" "" "user API: no hook"
run_app u env SCOREP_EXPERIMENT_DIRECTORY=exp_u ./fuser
expect_eq "$status" 0 "user API: exit status"
expect_eq "$(cat u.out)" "n 10" "user API: program output"
w=$r/__fuser_mod_MOD_work
expect_eq "$(profile_paths exp_u)" "$(printf '%s\n' main $r "$w" "$w/phase" "$w/phase/__fuser_mod_MOD_tiny" | sort)" \
    "user API: the user region between two plugin-instrumented procedures"
expect_eq "$(profile_sum exp_u "$w/phase" visits) $(profile_sum exp_u "$w/phase/__fuser_mod_MOD_tiny" visits)" \
    "2 10" "user API: visits of phase and of tiny inside it"
done_ok
