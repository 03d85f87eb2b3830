#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_rescue_serial.sh: a serial program that dies after 200 rounds of work()
# (test/programs/rescue.c without MPI) writes its profile and trace itself, from the rescue
# thread that the signal handler wakes (issue #29): a segfault in crash_here (called from
# main; the crash's call path gets a call of SIGSEGV), abort() (SIGABRT: a call of SIGABRT
# where abort was called), SIGTERM from outside. The exit status and output are those of
# the uninstrumented program. A trace flushed to disk, also with its spill file made
# unreadable (the loss named). And SIGKILL with checkpoints: scorep-recover makes the profile,
# with the metrics and the process of the normal end's profile.
. "$top_srcdir/test/integration/lib.sh"
export TEST_TIMEOUT=120
find_cubelib_dump

scorep_cc gcc -O1 -o rescue_m "$PROGRAMS/rescue.c"
gcc -O1 -o rescue_u "$PROGRAMS/rescue.c" || fail "gcc rescue.c"

for how in segv abort term; do
    part "the program ends by $how"
    e=exp_$how
    for b in u m; do
        if [ $how = term ]; then
            start_app ${how}_$b env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=$e \
                ./rescue_$b term
            wait_output ${how}_$b 'rounds$'
            kill -TERM "$app_pid"
            wait_app
        else
            run_app ${how}_$b env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=$e \
                ./rescue_$b $how serial
        fi
        eval "status_$b=\$status"
    done
    case $how in
    segv) want=139 sig=SIGSEGV ;;
    abort) want=134 sig=SIGABRT ;;
    term) want=143 sig= ;;
    esac
    expect_eq "$status_u" "$want" "$how: the uninstrumented program dies by the signal"
    expect_eq "$status_m" "$status_u" "$how: exit status unchanged"
    expect_eq "$(cat ${how}_m.out)" "$(cat ${how}_u.out)" "$how: output unchanged"
    expect_eq "$(cat ${how}_m.out)" "rank 0: 200 rounds" "$how: 200 rounds"
    expect_file $e/profile.cubex "$how: profile written"
    expect_file $e/traces.otf2 "$how: trace written"
    expect_eq "$(profile_values $e main/work visits)" "0 200" "$how: 200 visits of work"
    expect_eq "$(trace_count $e ENTER 0 work)" 200 "$how: 200 calls of work in the trace"
    expect_eq "$(trace_check_nesting $e)" 0 "$how: the trace is well nested"
    expect_eq "$(trace_other $e | awk '$1 == "PROGRAM_END"' | sed 's/.*Exit status: *//')" "$want" \
        "$how: ProgramEnd's exit status: 128 + the signal"
    if [ -n "$CUBELIB_DUMP" ]; then
        "$CUBELIB_DUMP" -m visits -c 'name=/^work$/' -s csv2 $e/profile.cubex >cl_$how.csv ||
            fail "$how: CubeLib's cube_dump cannot read the profile"
        expect_eq "$(awk -F, 'NR > 1 { print $3 }' cl_$how.csv)" 200 "$how: CubeLib reads 200 visits of work"
    fi
    if [ -n "$sig" ]; then
        expect_eq "$(profile_paths $e | grep "/$sig\$" | tr '\n' ' ')" \
            "$([ $how = segv ] && echo main/crash_here/SIGSEGV || echo main/end_as/SIGABRT) " \
            "$how: the crash's call path holds a call of $sig"
        expect_eq "$(trace_count $e ENTER 0 $sig)" 1 "$how: one call of $sig in the trace"
    else
        expect_eq "$(profile_paths $e | grep -c SIG || true)" 0 "$how: no crash region"
    fi
done

# SIGTERM to a program whose trace was flushed to disk: the rescue thread sleeps with a
# descriptor table of its own (rescue.c: the program's system calls do not pay for a shared
# one) and takes the program's descriptors over when it wakes; the spill file was opened
# after the thread started, and the trace keeps its flushed records
part "the program ends by term, its trace flushed to disk"
start_app flush_m env SCOREP_TOTAL_MEMORY=3k SCOREP_PAGE_SIZE=512 SCOREP_TRACING_REDUCTION=flush \
    SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_flush ./rescue_m term
wait_output flush_m 'rounds$'
kill -TERM "$app_pid"
wait_app
expect_eq "$status" 143 "flush: exit status of SIGTERM"
expect_grep "trace buffers of 1 of 1 locations were flushed to disk 2 times" flush_m.err \
    "flush: the buffer was flushed twice"
expect_eq "$(trace_count exp_flush ENTER 0 work)" 200 "flush: 200 calls of work in the trace"
expect_eq "$(trace_other exp_flush | awk '$1 == "BUFFER_FLUSH"' | wc -l | tr -d ' ')" 2 \
    "flush: two BufferFlush events"
expect_eq "$(trace_check_nesting exp_flush)" 0 "flush: the trace is well nested"
expect_eq "$(profile_values exp_flush main/work visits)" "0 200" "flush: 200 visits of work"

# The same, but the spill file cannot be read back at the rescue: after the rounds the
# program cuts it to 0 bytes (cutspill) or closes its descriptor (closespill), and prints its
# size. The flushed records are lost: one warning names them and why, MANIFEST.md's table
# and an OTF2 marker too; the records still in memory (the calls of work after the last
# flush, counted in exp_flush's whole trace) are in the trace, inside main (its enter kept
# over the flushes is written at the last one). Before session 21 the loss was silent.
kept=$(otf2-print exp_flush/traces.otf2 | awk '$1 == "BUFFER_FLUSH" { n = 0 }
    $1 == "ENTER" && /Region: "work"/ { n++ } END { print n + 0 }')
expect_ge "$kept" 1 "flush: calls of work after the last flush ($kept)"
expect_ge 199 "$kept" "flush: calls of work before the last flush"
for how in cutspill closespill; do
    part "the program ends by term, its spill file made unreadable ($how)"
    e=exp_$how
    start_app $how env SCOREP_TOTAL_MEMORY=3k SCOREP_PAGE_SIZE=512 SCOREP_TRACING_REDUCTION=flush \
        SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=$e ./rescue_m $how
    wait_output $how 'rounds$'
    kill -TERM "$app_pid"
    wait_app
    expect_eq "$status" 143 "$how: exit status of SIGTERM"
    bytes=$(sed -n 's/^rank 0: spill file of \([0-9]*\) bytes spoilt$/\1/p' $how.out)
    expect_ge "$bytes" 96 "$how: the program found the spill file ($bytes bytes)"
    expect_eq "$((bytes % 96))" 0 "$how: the spill file holds whole 96-byte records"
    n=$((bytes / 96))
    case $how in
    cutspill) why="it was cut short to 0 of its $bytes bytes" cause="was cut short" param=1 ;;
    closespill) why="its descriptor [0-9]+ is closed" cause="was closed or replaced" param=2 ;;
    esac
    expect_eq "$(grep -c 'spill file' $how.err)" 1 "$how: one warning about the spill file"
    expect_grep "^\[scorep-rt\] warning: location 0: its spill file \(SCOREP_TRACING_REDUCTION=flush\) cannot be read back: $why; the $n trace records flushed to it before are lost, the trace keeps the later ones \(the profile is complete\)\$" \
        $how.err "$how: the warning names the $n lost records and why"
    expect_grep "^\| 0 \| Master thread \| unread \| [0-9]+ \| $n \| $n records lost: its spill file \(SCOREP_TRACING_REDUCTION=flush\) $cause \(the warnings say more\) \|\$" \
        $e/MANIFEST.md "$how: MANIFEST.md lists the loss"
    otf2-marker $e/traces.otf2 >$how.markers || fail "$how: otf2-marker"
    expect_eq "$(grep -c "Text: \"rule=unread param=$param removed=$n: " $how.markers)" 1 \
        "$how: one OTF2 marker of the loss"
    expect_eq "$(trace_count $e ENTER 0 work)" "$kept" "$how: the $kept calls of work still in memory are in the trace"
    expect_eq "$(trace_count $e ENTER 0 main)" 1 "$how: main's enter, kept over the flushes"
    expect_eq "$(trace_check_nesting $e)" 0 "$how: the trace is well nested"
    expect_eq "$(profile_values $e main/work visits)" "0 200" "$how: the profile has 200 visits of work"
done

# SIGKILL 3 s after round 200, with a checkpoint every second: the process writes nothing at
# its end, its last checkpoint is in exp_kill/rescue, and scorep-recover makes the profile
part "SIGKILL after checkpoints"
run_app kill env SCOREP_CHECKPOINT_INTERVAL=1 SCOREP_EXPERIMENT_DIRECTORY=exp_kill \
    ./rescue_m kill serial
expect_eq "$status" 137 "kill: died by SIGKILL"
expect_no_file exp_kill/profile.cubex "kill: no profile written by the process"
expect_eq "$(entries exp_kill/rescue '^rank-0\.piece$')" 1 "kill: its checkpoint"
run_to rec_kill.out "$top_builddir/scorep-recover" exp_kill
expect_grep "1 of 1 ranks recovered" rec_kill.out "kill: scorep-recover"
check_profiles
expect_eq "$(profile_values exp_kill main/work visits)" "0 200" "kill: 200 visits of work"
expect_grep "^- rank 0: killed" exp_kill/MANIFEST.md "kill: MANIFEST.md says how it ended"

# The recovered profile has the metrics and the process of the profile that the program
# writes at its normal end: before piece version 6, scorep-recover's socket mesh made it an
# MPI job's, with bytes_sent and bytes_received (all zero) and the process "MPI Rank 0"
part "the recovered profile's metrics and process are the normal end's"
run_app normal env SCOREP_EXPERIMENT_DIRECTORY=exp_normal ./rescue_m
expect_eq "$status:$(cat normal.out)" "0:rank 0: 200 rounds" "normal: the program ends normally"
expect_eq "$(metric_list exp_normal)" "visits time min_time max_time " \
    "normal: the metrics of a serial program's profile"
expect_eq "$(metric_list exp_kill)" "$(metric_list exp_normal)" "kill: recovered: the normal end's metrics"
expect_eq "$(profile_dump exp_kill --system | cut -f2-)" "$(profile_dump exp_normal --system | cut -f2-)" \
    "kill: recovered: the normal end's system tree"
if [ -n "$CUBELIB_DUMP" ]; then
    cubelib_metrics "$CUBELIB_DUMP" exp_normal/profile.cubex normal.cl.metrics
    cubelib_metrics "$CUBELIB_DUMP" exp_kill/profile.cubex kill.cl.metrics
    expect_eq "$(cat kill.cl.metrics)" "$(cat normal.cl.metrics)" \
        "kill: recovered: CubeLib reads the normal end's metric definitions"
fi
done_ok
