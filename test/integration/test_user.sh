#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_user.sh: the C and C++ user API. test/programs/user.c: user regions of every kind,
# parameters, a user metric and recording control, in the profile and the trace; without
# --user the macros vanish; with compiler instrumentation and --user both kinds of regions
# appear. user_all.c + user_all_lib.c: every macro of SCOREP_User.h with exact counts (global
# region and metric shared between the files), built with -Wall -Wextra -Werror with and
# without --user. user_cxx.cc: SCOREP_USER_REGION scopes with g++ and clang++.
# user_threads.c: threads racing to define a handle. user_uninit.c: ENTER on a handle never
# initialised gets one message.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/integration/user_expect.sh"

scorep_cc --user --nocompiler gcc -O2 -o user "$PROGRAMS/user.c"
run_app user env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp ./user
expect_eq "$status" 0 "exit status"
expect_eq "$(cat user.out)" "recording was off: 1" "program output"
expect_eq "$(cat user.err)" "" "nothing on stderr"

# --- profile ---
expect_eq "$(profile_paths exp | tr '\n' ',')" \
    "MEASUREMENT OFF,by_name,init_region,main_loop,main_loop/phase_work,main_loop/phase_work/n=0,main_loop/phase_work/n=0/kind=even,main_loop/phase_work/n=1,main_loop/phase_work/n=1/kind=odd,main_loop/phase_work/n=2,main_loop/phase_work/n=2/kind=even," \
    "call paths (no hidden, no compiler regions)"
expect_eq "$(profile_sum exp init_region visits)" 1 "init_region visits"
expect_eq "$(profile_sum exp main_loop visits)" 1 "main_loop visits"
expect_eq "$(profile_sum exp main_loop/phase_work visits)" 6 "main_loop/phase_work visits"
for n in 0 1 2; do
    kind=$([ $n = 1 ] && echo odd || echo even)
    expect_eq "$(profile_sum exp main_loop/phase_work/n=$n visits)" 2 "phase_work/n=$n visits"
    expect_eq "$(profile_sum exp main_loop/phase_work/n=$n/kind=$kind visits)" 2 \
        "phase_work/n=$n/kind=$kind visits"
done
expect_eq "$(profile_sum exp by_name visits)" 4 "by_name visits"
expect_eq "$(profile_paths exp | grep -c hidden)" 0 "hidden (recording off) absent"
# The time with recording off is a call of Score-P's artificial region "MEASUREMENT OFF"
# where it was switched off: here outside every region, so a fourth call path directly below
# the program root (a root in the reference sample user_api, Score-P 4.0).
expect_eq "$(profile_values exp "MEASUREMENT OFF" visits)" "0 1" "MEASUREMENT OFF: 1 visit"
expect_eq "$(profile_dump exp -m visits | awk -F'\t' '$2 != "." && $2 !~ /\// { n++ } END { print n }')" 4 \
    "four calls below the program root: init_region, main_loop, by_name, MEASUREMENT OFF"
expect_eq "$(profile_sum exp main_loop items)" 60 "user metric items on main_loop"
expect_eq "$(profile_dump exp -m items | awk -F'\t' '{ split($4, kv, "="); s += kv[2] } END { print s }')" \
    60 "user metric items summed over all call paths"
expect_ge "$(profile_isum exp main_loop time)" "$(profile_isum exp main_loop/phase_work time)" \
    "inclusive time of main_loop >= that of phase_work"
expect_ge "$(profile_isum exp main_loop/phase_work time)" \
    "$(profile_isum exp main_loop/phase_work/n=0 time)" \
    "inclusive time of phase_work >= that of its parameter node n=0"

# --- trace ---
for r in "init_region 1" "main_loop 1" "phase_work 6" "by_name 4" "hidden 0"; do
    expect_eq "$(trace_count exp ENTER 0 "${r% *}")" "${r#* }" "trace: ENTER ${r% *}"
    expect_eq "$(trace_count exp LEAVE 0 "${r% *}")" "${r#* }" "trace: LEAVE ${r% *}"
done
expect_eq "$(trace_count exp ENTER)" 12 "trace: ENTER events"
expect_eq "$(trace_check_nesting exp)" 0 "trace: properly nested"
expect_eq "$(trace_count exp PARAMETER_INT64)" 6 "trace: PARAMETER_INT64 events"
expect_eq "$(trace_other exp | awk '$1 == "PARAMETER_INT64"' | sed 's/.*Parameter: "\([^"]*\)".*Value: \(.*\)$/\1=\2/' | tr '\n' ' ')" \
    "n=0 n=1 n=2 n=0 n=1 n=2 " "trace: integer parameter values"
expect_eq "$(trace_count exp PARAMETER_STRING)" 6 "trace: PARAMETER_STRING events"
expect_eq "$(trace_other exp | awk '$1 == "PARAMETER_STRING"' | sed 's/.*Parameter: "\([^"]*\)".*Value: "\([^"]*\)".*/\1=\2/' | tr '\n' ' ')" \
    "kind=even kind=odd kind=even kind=even kind=odd kind=even " "trace: string parameter values"
expect_eq "$(trace_count exp METRIC)" 6 "trace: METRIC events"
expect_eq "$(trace_other exp | awk '$1 == "METRIC"' | sed 's/.*("\([^"]*\)".*; \([0-9.]*\))$/\1=\2/' | sort | uniq -c | tr -s ' ')" \
    " 6 items=10" "trace: METRIC values"
expect_eq "$(trace_other exp | awk '$1 == "MEASUREMENT_ON_OFF"' | sed 's/.*Mode: //' | tr '\n' ' ')" \
    "OFF ON " "trace: MEASUREMENT_ON_OFF OFF then ON"
# Parameter and metric events lie inside phase_work / main_loop: compare their positions.
expect_eq "$(trace_events exp | awk '
    $1 == "ENTER" && /"main_loop"/ { inloop = 1 } $1 == "LEAVE" && /"main_loop"/ { inloop = 0 }
    $1 == "ENTER" && /"phase_work"/ { inwork = 1 } $1 == "LEAVE" && /"phase_work"/ { inwork = 0 }
    $1 ~ /^PARAMETER_/ && !inwork { bad++ } $1 == "METRIC" && !inloop { bad++ }
    END { print bad + 0 }')" 0 "trace: parameters inside phase_work, metrics inside main_loop"
trace_defs exp >defs.txt
expect_eq "$(grep '^REGION ' defs.txt | sed 's/.*Name: "\([^"]*\)".*Paradigm: \([A-Z_]*\).*/\1:\2/' | grep -v hidden | sort | tr '\n' ' ')" \
    "MEASUREMENT OFF:USER by_name:USER init_region:USER main_loop:USER phase_work:USER user:MEASUREMENT_SYSTEM " \
    "trace: user regions, paradigm USER (and the program region, named after the executable)"
expect_eq "$(grep '^REGION ' defs.txt | grep '"main_loop"' | sed 's/.*Role: \([A-Z_]*\).*/\1/')" LOOP \
    "trace: main_loop has role LOOP"
expect_eq "$(grep '^REGION ' defs.txt | grep '"phase_work"' | sed 's/.*Role: \([A-Z_]*\).*/\1/')" \
    FUNCTION "trace: phase_work (FUNC_BEGIN) has role FUNCTION"
expect_eq "$(grep '^PARAMETER ' defs.txt | sed 's/.*Name: "\([^"]*\)".*Type: \([A-Z0-9_]*\).*/\1:\2/' | sort | tr '\n' ' ')" \
    "kind:STRING n:INT64 " "trace: parameter definitions"
expect_eq "$(grep '^METRIC_MEMBER ' defs.txt | sed 's/.*Name: "\([^"]*\)".*Value Type: \([A-Z0-9_]*\).*Unit: "\([^"]*\)".*/\1:\2:\3/')" \
    "items:UINT64:#" "trace: metric definition"

# --- without --user the macros expand to nothing ---
# --instrument-inlined here and below: -O2 inlines the static phase_work into main, and the
# checks count its compiler region (#31: by default an inlined call is no visit)
scorep_cc --instrument-inlined gcc -O2 -o user_plain "$PROGRAMS/user.c"
run_app plain env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_plain ./user_plain
expect_eq "$status" 0 "without --user: exit status"
expect_eq "$(cat plain.out)" "recording was off: 1" "without --user: output (IS_ON() is 0)"
expect_eq "$(profile_paths exp_plain | tr '\n' ' ')" "main main/phase_work " \
    "without --user: only compiler regions"
expect_eq "$(profile_sum exp_plain main/phase_work visits)" 6 "without --user: phase_work visits"
expect_eq "$(profile_dump exp_plain | grep -c 'items=')" 0 "without --user: no user metric"
expect_eq "$(trace_defs exp_plain | grep '^REGION ' | grep -v 'Paradigm: COMPILER' | grep -c -v 'Paradigm: MEASUREMENT_SYSTEM')" 0 \
    "without --user: no user region defined (compiler regions and the program region)"
expect_eq "$(trace_summary exp_plain | awk '{ print $1 }' | sort -u | tr '\n' ' ')" \
    "ENTER LEAVE PROGRAM_BEGIN PROGRAM_END " "without --user: no parameter, metric or on/off events"
run_to user_plain.nm nm user_plain
expect_eq "$(count_lines 'SCOREP_User' user_plain.nm)" 0 "without --user: no user API symbol used"

# --- compiler instrumentation and --user: both regions of phase_work, nested ---
scorep_cc --user --instrument-inlined gcc -O2 -o user_both "$PROGRAMS/user.c"
run_app both env SCOREP_EXPERIMENT_DIRECTORY=exp_both ./user_both
expect_eq "$status" 0 "compiler + user: exit status"
expect_eq "$(profile_sum exp_both main/main_loop/phase_work/phase_work visits)" 6 \
    "compiler + user: phase_work/phase_work visits"
expect_eq "$(profile_sum exp_both main/main_loop/phase_work/phase_work/n=1/kind=odd visits)" 2 \
    "compiler + user: parameter nodes below the user region"
expect_eq "$(profile_sum exp_both main/main_loop items)" 60 "compiler + user: items on main_loop"
expect_eq "$(profile_sum exp_both main/by_name visits)" 4 "compiler + user: by_name below main"
expect_eq "$(profile_sum exp_both "main/MEASUREMENT OFF" visits)" 1 \
    "compiler + user: MEASUREMENT OFF below main"

# --- every C macro (user_expect.sh has the expected counts) ---
strict="-Wall -Wextra -Werror -O2"
scorep_cc --user --nocompiler gcc $strict -o user_all "$PROGRAMS/user_all.c" "$PROGRAMS/user_all_lib.c"
run_app all env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_all ./user_all
expect_eq "$status" 0 "all macros: exit status"
expect_eq "$(cat all.out)" "recording on: 1, while off: 0, sink 26" "all macros: program output"
expect_eq "$(cat all.err)" "" "all macros: nothing on stderr"
check_user_all exp_all c shared shared_metric
expect_eq "$(grep -c '"not_this_name"' defs_c.txt)" 0 \
    "all macros: the first BEGIN of a global region names it"

# without --user: compiles cleanly, IS_ON() is 0, only compiler regions (same program);
# --instrument-inlined: without the macros -O2 inlines seven(), as in a plain build (#31)
scorep_cc --instrument-inlined gcc $strict -o user_all_plain "$PROGRAMS/user_all.c" "$PROGRAMS/user_all_lib.c"
run_app all_plain env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_all_plain \
    ./user_all_plain
expect_eq "$status" 0 "all macros without --user: exit status"
expect_eq "$(cat all_plain.out)" "recording on: 0, while off: 0, sink 26" \
    "all macros without --user: program output"
expect_eq "$(profile_sum exp_all_plain main/seven visits)" 18 \
    "all macros without --user: seven (compiler region) called 18 times, none hidden"
expect_eq "$(trace_defs exp_all_plain | grep '^REGION ' | grep -v 'Paradigm: COMPILER' | grep -c -v 'Paradigm: MEASUREMENT_SYSTEM')" 0 \
    "all macros without --user: no user region defined (compiler regions and the program region)"
expect_eq "$(trace_summary exp_all_plain | awk '{ print $1 }' | sort -u | tr '\n' ' ')" \
    "ENTER LEAVE PROGRAM_BEGIN PROGRAM_END " "all macros without --user: only enters and leaves"
run_to user_all_plain.nm nm user_all_plain
expect_eq "$(count_lines 'SCOREP_User' user_all_plain.nm)" 0 \
    "all macros without --user: no user API symbol used"

# --- C++: SCOREP_USER_REGION ends with its scope (early return, exception) ---
for cxx in g++ clang++; do
    scorep_cc --user --nocompiler "$cxx" $strict -o "user_cxx_$cxx" "$PROGRAMS/user_cxx.cc"
    e="exp_cxx_$cxx"
    run_app "cxx_$cxx" env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$e" \
        "./user_cxx_$cxx"
    expect_eq "$status" 0 "$cxx: exit status"
    expect_eq "$(cat "cxx_$cxx.out")" "caught 1 off 1 sink 21" "$cxx: program output"
    expect_eq "$(profile_paths "$e" | tr '\n' ' ')" \
        "MEASUREMENT OFF cxx_phase cxx_rewind outer outer/scoped outer/thrower twice twice/bytes=4 twice/bytes=8 " \
        "$cxx: call paths"
    for pv in outer:1 outer/scoped:5 outer/thrower:3 twice:2 twice/bytes=4:1 twice/bytes=8:1 \
        cxx_phase:1 cxx_rewind:1 "MEASUREMENT OFF:1"; do
        expect_eq "$(profile_sum "$e" "${pv%:*}" visits)" "${pv##*:}" "$cxx: ${pv%:*} visits"
    done
    expect_eq "$(profile_sum "$e" cxx_phase cxx_metric)" 2.5 "$cxx: DOUBLE metric in the phase"
    expect_eq "$(trace_count "$e" ENTER 0 scoped)" 5 "$cxx: trace: ENTER scoped"
    expect_eq "$(trace_count "$e" LEAVE 0 thrower)" 3 "$cxx: trace: LEAVE thrower (one by throw)"
    expect_eq "$(trace_check_nesting "$e")" 0 "$cxx: trace: properly nested"
done
scorep_cc g++ $strict -o user_cxx_plain "$PROGRAMS/user_cxx.cc"
run_app cxx_plain ./user_cxx_plain
expect_eq "$(cat cxx_plain.out)" "caught 1 off 1 sink 21" "C++ without --user: program output"
run_to user_cxx_plain.nm nm user_cxx_plain
expect_eq "$(count_lines 'SCOREP_User' user_cxx_plain.nm)" 0 "C++ without --user: no user API symbol"

# --- threads racing to define one handle: one region, 7 visits on each of 4 threads ---
scorep_cc --user --nocompiler gcc $strict -o user_threads "$PROGRAMS/user_threads.c" -lpthread
run_app threads env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_threads \
    ./user_threads
expect_eq "$status" 0 "threads: exit status"
expect_eq "$(cat threads.out)" "threads 4 sum 6" "threads: program output"
# (a thread's tree hangs below Score-P's artificial THREADS root)
expect_eq "$(profile_values exp_threads THREADS/threaded visits | tr '\n' ' ')" \
    "1 7 2 7 3 7 4 7 " "threads: threaded visits per thread location"
expect_eq "$(profile_sum exp_threads THREADS/threaded/odd=0/threaded_by_name visits)" 16 \
    "threads: by-name region below odd=0 (4 x 4)"
expect_eq "$(profile_sum exp_threads THREADS/threaded/odd=1/threaded_by_name visits)" 12 \
    "threads: by-name region below odd=1 (4 x 3)"
expect_eq "$(trace_defs exp_threads | grep -c '^REGION .*Name: "threaded')" 2 \
    "threads: one definition each for threaded and threaded_by_name"
expect_eq "$(trace_count exp_threads ENTER "" threaded)" 28 "threads: trace: ENTER threaded"
expect_eq "$(trace_check_nesting exp_threads)" 0 "threads: trace: properly nested"

# --- SCOREP_RECORDING_OFF/ON switch the whole process (Score-P's semantics), not a thread ---
scorep_cc --user gcc -O1 -o user_recording_threads "$PROGRAMS/user_recording_threads.c" -lpthread
run_app rthreads env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_rthreads \
    ./user_recording_threads
e=exp_rthreads
expect_eq "$status" 0 "recording, threads: exit status"
expect_eq "$(cat rthreads.out)" "off thread sees recording off
off thread sees recording off
main sees recording on" "recording, threads: SCOREP_RECORDING_IS_ON on every thread"
expect_eq "$(profile_paths $e | tr '\n' ' ')" \
    "THREADS THREADS/on_thread THREADS/on_thread/work main main/MEASUREMENT OFF main/pthread_create main/pthread_join main/work " \
    "recording, threads: the threads started while off record no call"
expect_eq "$(profile_sum $e main/work visits) $(profile_sum $e THREADS/on_thread/work visits)" "1 6" \
    "recording, threads: work before the switch on main, 2 x 3 after it on the new threads"
expect_eq "$(profile_sum $e main/pthread_create visits) $(profile_sum $e main/pthread_join visits)" \
    "2 3" "recording, threads: the creates and joins made while on"
expect_eq "$(profile_sum $e "main/MEASUREMENT OFF" visits)" 1 "recording, threads: one MEASUREMENT OFF"
expect_eq "$(trace_count $e ENTER "" work)" 7 "recording, threads: trace: 7 work calls"
expect_eq "$(trace_other $e | awk '$1 == "MEASUREMENT_ON_OFF" { print $2 }' | tr '\n' ' ')" "0 0 " \
    "recording, threads: MeasurementOnOff on the switching thread only"
expect_eq "$(trace_check_nesting $e)" 0 "recording, threads: trace: properly nested"

# --- bad input: ENTER on a handle never initialised: one message, not recorded ---
scorep_cc --user --nocompiler gcc $strict -o user_uninit "$PROGRAMS/user_uninit.c"
run_app uninit env SCOREP_EXPERIMENT_DIRECTORY=exp_uninit ./user_uninit
expect_eq "$status" 0 "uninitialised handle: exit status"
expect_eq "$(cat uninit.out)" "done" "uninitialised handle: program output"
expect_eq "$(cat uninit.err)" "[scorep-rt] warning: SCOREP_USER_REGION_ENTER on a region handle that was never initialised: use SCOREP_USER_REGION_INIT or SCOREP_USER_REGION_BEGIN first; the region is not recorded" \
    "uninitialised handle: one message"
expect_eq "$(profile_paths exp_uninit | tr '\n' ' ')" "fine " "uninitialised handle: call paths"
expect_eq "$(profile_sum exp_uninit fine visits)" 3 "uninitialised handle: fine visits"
done_ok
