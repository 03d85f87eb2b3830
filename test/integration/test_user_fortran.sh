#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_user_fortran.sh: the Fortran user API (scorep/SCOREP_User.inc): user_f.F90 uses every
# Fortran macro with the counts of user_all.c; user_f_lib.f90 (lower-case suffix: scorep-cc
# --user adds -cpp) begins region shared_f with its own handle. Without --user the macros
# vanish. user_f_fixed.F: fixed-form source. user_f_uninit.F90: ENTER on a handle never
# initialised gets one message. Skipped (77) without gfortran.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/integration/user_expect.sh"
command -v gfortran >/dev/null 2>&1 || { echo "SKIP: no gfortran"; exit 77; }

srcs="$PROGRAMS/user_f.F90 $PROGRAMS/user_f_lib.f90"
# shellcheck disable=SC2086
scorep_cc --user --nocompiler gfortran -Wall -O2 -o user_f $srcs
run_to dry1 "$SCOREP_CC" --dry-run --user --nocompiler gfortran -c "$PROGRAMS/user_f_lib.f90"
expect_eq "$(count_lines ' -cpp ' dry1)" 1 "scorep-cc --user adds -cpp for a .f90 source"
run_to dry2 "$SCOREP_CC" --dry-run --user --nocompiler gfortran -c "$PROGRAMS/user_f.F90"
expect_eq "$(count_lines ' -cpp ' dry2)" 0 "scorep-cc --user leaves .F90 (preprocessed anyway) alone"
run_to dry3 "$SCOREP_CC" --dry-run --user mpif90 -c x.f90
expect_eq "$(count_lines ' -cpp ' dry3)" 1 "scorep-cc --user mpif90 adds -cpp for a .f90 source"
run_to dry4 "$SCOREP_CC" --dry-run mpif90 -c x.f90
expect_eq "$(count_lines ' -cpp ' dry4)" 0 "scorep-cc without --user adds no -cpp"
run_app f env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_f ./user_f
expect_eq "$status" 0 "Fortran: exit status"
expect_eq "$(cat f.out)" "recording on: 1, while off: 0" "Fortran: program output"
expect_eq "$(cat f.err)" "" "Fortran: nothing on stderr"
check_user_all exp_f fortran shared_f lib_metric

# without --user (the program's own build needs -cpp for the .f90 file's #include); gcc
# inlines seven into the main program (as it does without instrumentation): the inlined copies
# keep their checks with --instrument-inlined
# shellcheck disable=SC2086
scorep_cc --instrument-inlined gfortran -cpp -O2 -o user_f_plain $srcs
run_app f_plain env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_f_plain \
    ./user_f_plain
expect_eq "$status" 0 "Fortran without --user: exit status"
expect_eq "$(cat f_plain.out)" "recording on: 0, while off: 0" \
    "Fortran without --user: output (IS_ON sets 0)"
expect_eq "$(profile_sum exp_f_plain main/MAIN__/seven_ visits)" 18 \
    "Fortran without --user: seven_ (compiler region) called 18 times, none hidden"
expect_eq "$(trace_defs exp_f_plain | grep '^REGION ' | grep -v 'Paradigm: COMPILER' | grep -c -v 'Paradigm: MEASUREMENT_SYSTEM')" 0 \
    "Fortran without --user: no user region defined (compiler regions and the program region)"
run_to user_f_plain.nm nm user_f_plain
expect_eq "$(grep -c -i 'scorep_f_' user_f_plain.nm || true)" 0 "Fortran without --user: no entry point used"

# fixed-form source (.F): the macros expand within its columns
scorep_cc --user --nocompiler gfortran -Wall -O2 -o user_f_fixed "$PROGRAMS/user_f_fixed.F"
run_app fixed env SCOREP_EXPERIMENT_DIRECTORY=exp_fixed ./user_f_fixed
expect_eq "$status" 0 "fixed form: exit status"
expect_eq "$(cat fixed.out)" "fixed done" "fixed form: program output"
expect_eq "$(profile_paths exp_fixed | tr '\n' ' ')" "byname fixed fixed/odd=0 fixed/odd=1 " \
    "fixed form: call paths"
for pv in fixed:4 fixed/odd=0:2 fixed/odd=1:2 byname:2; do
    expect_eq "$(profile_sum exp_fixed "${pv%:*}" visits)" "${pv##*:}" "fixed form: ${pv%:*} visits"
done

# bad input: ENTER on a handle never initialised: one message (Score-P aborts), not recorded
scorep_cc --user --nocompiler gfortran -O2 -o user_f_uninit "$PROGRAMS/user_f_uninit.F90"
run_app f_uninit env SCOREP_EXPERIMENT_DIRECTORY=exp_f_uninit ./user_f_uninit
expect_eq "$status" 0 "Fortran uninitialised handle: exit status"
expect_eq "$(cat f_uninit.out)" "done" "Fortran uninitialised handle: program output"
expect_eq "$(grep -c 'SCOREP_USER_REGION_ENTER on a region handle that was never initialised' f_uninit.err)" \
    1 "Fortran uninitialised handle: one message"
expect_eq "$(profile_paths exp_f_uninit | tr '\n' ' ')" "fine " \
    "Fortran uninitialised handle: call paths"
expect_eq "$(profile_sum exp_f_uninit fine visits)" 3 "Fortran uninitialised handle: fine visits"
done_ok
