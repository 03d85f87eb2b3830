# SPDX-License-Identifier: BSD-3-Clause
# user_expect.sh: the checks that test_user.sh (user_all.c) and test_user_fortran.sh
# (user_f.F90) share: both programs use every macro of their language with the same counts.
# Source it after lib.sh.

# check_user_all EXPDIR LABEL SHARED_REGION SHARED_METRIC: profile and trace of a traced run
check_user_all()
{
    _e=$1 _l=$2 _s=$3 _m=$4
    _lv=levels_loop/levels
    expect_eq "$(profile_paths "$_e" | tr '\n' ' ')" \
        "MEASUREMENT OFF init_enter levels_loop $_lv $_lv/level=0 $_lv/level=0/size=0 $_lv/level=0/size=0/tag=cold $_lv/level=1 $_lv/level=1/size=100 $_lv/level=1/size=100/tag=cold $_lv/level=2 $_lv/level=2/size=200 $_lv/level=2/size=200/tag=hot metrics metrics/instance=1 oa_phase oa_phase/seven rewind_region rewind_region/seven seven $_s " \
        "$_l: call paths (none for while_off; MEASUREMENT OFF a root)"
    for pv in init_enter:2 levels_loop:1 $_lv:6 \
        $_lv/level=0:1 $_lv/level=0/size=0:1 $_lv/level=0/size=0/tag=cold:1 \
        $_lv/level=1:2 $_lv/level=1/size=100:2 $_lv/level=1/size=100/tag=cold:2 \
        $_lv/level=2:3 $_lv/level=2/size=200:3 $_lv/level=2/size=200/tag=hot:3 \
        seven:7 oa_phase:3 oa_phase/seven:3 "$_s:6" rewind_region:4 rewind_region/seven:4 \
        metrics:1 metrics/instance=1:1 "MEASUREMENT OFF:1"; do
        expect_eq "$(profile_sum "$_e" "${pv%:*}" visits)" "${pv##*:}" "$_l: ${pv%:*} visits"
    done
    # metrics is a dynamic region: its visit is the call path metrics/instance=1 (Score-P's)
    _d=metrics/instance=1
    expect_eq "$(profile_sum "$_e" $_d m_int)" -6 "$_l: INT64 metric -3 twice"
    expect_eq "$(profile_sum "$_e" $_d m_uint)" 15 "$_l: UINT64 metric 5 three times"
    expect_eq "$(profile_sum "$_e" $_d m_double)" 1 "$_l: DOUBLE metric 0.25 four times"
    expect_eq "$(profile_sum "$_e" "$_s" "$_m")" 15 "$_l: metric 1..5 in $_s"

    # 3 + 4 seven calls before and after the 4 hidden ones, 3 in phases, 4 at rewind points
    # of which the checks with true (i = 0, 2) discard 2 (core/rewind.c, Score-P's semantics)
    expect_eq "$(trace_count "$_e" ENTER 0 seven)" 12 "$_l: trace: ENTER seven"
    expect_eq "$(trace_count "$_e" LEAVE 0 seven)" 12 "$_l: trace: LEAVE seven"
    expect_eq "$(trace_count "$_e" ENTER 0 while_off)" 0 "$_l: trace: nothing while off"
    # the two rewind regions whose check was true are gone with their events
    expect_eq "$(trace_count "$_e" ENTER 0 rewind_region)" 2 "$_l: trace: ENTER rewind_region"
    expect_eq "$(trace_count "$_e" ENTER)" 33 "$_l: trace: ENTER events"
    expect_eq "$(trace_check_nesting "$_e")" 0 "$_l: trace: properly nested"
    expect_eq "$(trace_count "$_e" PARAMETER_INT64)" 6 "$_l: trace: PARAMETER_INT64 events"
    expect_eq "$(trace_count "$_e" PARAMETER_UINT64)" 6 \
        "$_l: trace: PARAMETER_UINT64 events"
    expect_eq "$(trace_count "$_e" PARAMETER_STRING)" 6 "$_l: trace: PARAMETER_STRING events"
    expect_eq "$(trace_count "$_e" METRIC)" 14 "$_l: trace: METRIC events (2 + 3 + 4 + 5)"
    expect_eq "$(trace_other "$_e" | awk '$1 == "MEASUREMENT_ON_OFF"' | sed 's/.*Mode: //' |
        tr '\n' ' ')" "OFF ON OFF ON OFF ON " \
        "$_l: trace: MEASUREMENT_ON_OFF OFF then ON for recording off, then for each discard"
    trace_defs "$_e" >"defs_$_l.txt"
    expect_eq "$(sed -n 's/^REGION .*Name: "\([^"]*\)".*Role: \([A-Z_]*\), Paradigm: \([A-Z]*\), Flags: \([^,]*\),.*/\1:\2:\3:\4/p' \
        "defs_$_l.txt" | sort | tr '\n' ' ')" \
        "MEASUREMENT OFF:ARTIFICIAL:USER:NONE init_enter:FUNCTION:USER:NONE levels:FUNCTION:USER:NONE levels_loop:LOOP:USER:NONE metrics:CODE:USER:{DYNAMIC} oa_phase:CODE:USER:{PHASE} rewind_region:CODE:USER:NONE seven:CODE:USER:NONE $_s:CODE:USER:NONE while_off:CODE:USER:NONE " \
        "$_l: trace: region definitions (name:role:paradigm:flags)"
    expect_eq "$(grep '^PARAMETER ' "defs_$_l.txt" | sed 's/.*Name: "\([^"]*\)".*Type: \([A-Z0-9_]*\).*/\1:\2/' |
        sort | tr '\n' ' ')" "instance:INT64 level:INT64 size:UINT64 tag:STRING " \
        "$_l: trace: parameter definitions (instance: the profile's, of the dynamic region)"
    expect_eq "$(grep '^METRIC_MEMBER ' "defs_$_l.txt" | sed 's/.*Name: "\([^"]*\)".*Value Type: \([A-Z0-9_]*\).*Unit: "\([^"]*\)".*/\1:\2:\3/' |
        sed "s/^$_m:/shared:/" | sort | tr '\n' ' ')" \
        "m_double:DOUBLE:s m_int:INT64:apples m_uint:UINT64:pears shared:INT64:# " \
        "$_l: trace: metric definitions ($_m as shared)"
}
