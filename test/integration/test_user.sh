#!/bin/sh
# test_user.sh: the user API (test/programs/user.c): user regions of every kind, parameters,
# a user metric and recording control, in the profile and the trace; without --user the
# macros vanish; with compiler instrumentation and --user both kinds of regions appear.
. "$top_srcdir/test/integration/lib.sh"

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
# where it was switched off: here outside every region, so a fourth root (as in the
# reference sample user_api).
expect_eq "$(profile_values exp "MEASUREMENT OFF" visits)" "0 1" "MEASUREMENT OFF: 1 visit"
expect_eq "$(profile_dump exp -m visits | awk -F'\t' '$2 !~ /\// { n++ } END { print n }')" 4 \
    "four roots: init_region, main_loop, by_name, MEASUREMENT OFF"
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
    "MEASUREMENT OFF:USER by_name:USER init_region:USER main_loop:USER phase_work:USER " \
    "trace: user regions, paradigm USER"
expect_eq "$(grep '^REGION ' defs.txt | grep '"main_loop"' | sed 's/.*Role: \([A-Z_]*\).*/\1/')" LOOP \
    "trace: main_loop has role LOOP"
expect_eq "$(grep '^REGION ' defs.txt | grep '"phase_work"' | sed 's/.*Role: \([A-Z_]*\).*/\1/')" \
    FUNCTION "trace: phase_work (FUNC_BEGIN) has role FUNCTION"
expect_eq "$(grep '^PARAMETER ' defs.txt | sed 's/.*Name: "\([^"]*\)".*Type: \([A-Z0-9_]*\).*/\1:\2/' | sort | tr '\n' ' ')" \
    "kind:STRING n:INT64 " "trace: parameter definitions"
expect_eq "$(grep '^METRIC_MEMBER ' defs.txt | sed 's/.*Name: "\([^"]*\)".*Value Type: \([A-Z0-9_]*\).*Unit: "\([^"]*\)".*/\1:\2:\3/')" \
    "items:UINT64:#" "trace: metric definition"

# --- without --user the macros expand to nothing ---
scorep_cc gcc -O2 -o user_plain "$PROGRAMS/user.c"
run_app plain env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_plain ./user_plain
expect_eq "$status" 0 "without --user: exit status"
expect_eq "$(cat plain.out)" "recording was off: 1" "without --user: output (IS_ON() is 0)"
expect_eq "$(profile_paths exp_plain | tr '\n' ' ')" "main main/phase_work " \
    "without --user: only compiler regions"
expect_eq "$(profile_sum exp_plain main/phase_work visits)" 6 "without --user: phase_work visits"
expect_eq "$(profile_dump exp_plain | grep -c 'items=')" 0 "without --user: no user metric"
expect_eq "$(trace_defs exp_plain | grep '^REGION ' | grep -c -v 'Paradigm: COMPILER')" 0 \
    "without --user: no user region defined"
expect_eq "$(trace_summary exp_plain | awk '{ print $1 }' | sort -u | tr '\n' ' ')" \
    "ENTER LEAVE PROGRAM_BEGIN PROGRAM_END " "without --user: no parameter, metric or on/off events"
expect_eq "$(nm user_plain | grep -c 'SCOREP_User')" 0 "without --user: no user API symbol used"

# --- compiler instrumentation and --user: both regions of phase_work, nested ---
scorep_cc --user gcc -O2 -o user_both "$PROGRAMS/user.c"
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
done_ok
