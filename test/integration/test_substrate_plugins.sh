#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_substrate_plugins.sh: SCOREP_SUBSTRATE_PLUGINS with a plugin built from Score-P's
# public headers only (test/plugins/substrate_count.c): the life cycle in Score-P's order,
# exact event counts of known programs (linked with scorep-cc; an MPI program of 2 ranks
# under scorep-run), the callbacks, and bad plugin lists (one message each, results still
# written); the memory events (TRACK_ALLOC/_REALLOC/_FREE) of test/programs/memory_c.c, the
# I/O events of io_mixed.c and io_more.c (counts and bytes from their design, handles
# announced as the trace defines them), and the metric values at enter and exit compared
# with the trace's (otf2-print); rewind regions, trace buffer flushes and post-mortem metric
# values compared with the trace and the metric plugin's log (substrate_rewind.c).
. "$top_srcdir/test/integration/lib.sh"
export LD_LIBRARY_PATH="$top_builddir/test/plugins/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SCOREP_RUN_LIBDIR="$top_builddir/.libs" # scorep-run: this build's runtime

scorep_cc gcc -O1 -o calls "$PROGRAMS/substrate_calls.c" -lpthread
run_app c1 env SCOREP_EXPERIMENT_DIRECTORY=c1 SCOREP_SUBSTRATE_PLUGINS=count \
    SUBSTRATE_COUNT_OUT="$work/c1.count" ./calls
expect_eq "$status" 0 "linked: exit status"
expect_eq "$(cat c1.err)" "" "linked: nothing on stderr"
expect_eq "$(cat c1.out)" "sink 12" "linked: program output"
f=c1.count.0
expect_file "$f" "linked: the plugin wrote its counts at write_data"
# init, set_callbacks, get_event_functions x2, assign_id, create + activate of the first
# location, ProgramBegin, init_mpp, ProgramEnd, deactivate + delete, pre_unify,
# dump_manifest, write_data
expect_eq "$(sed -n 's/^order //p' "$f")" "ICEDALVBMNXZPGW" "linked: life cycle in Score-P's order"
expect_eq "$(sed -n 's/^program //p' "$f")" "calls pid_ok=1" "linked: ProgramBegin names the program"
expect_eq "$(grep -E '^region (main|mid|leaf|worker) ' "$f" | sort | tr '\n' ';')" \
    "region leaf compiler 12 12;region main compiler 1 1;region mid compiler 4 4;region worker compiler 2 2;" \
    "linked: enters and exits per region from the program's design (paradigm compiler)"
expect_eq "$(sed -n 's/^unannounced //p' "$f")" 0 "linked: every region entered was announced by new_definition_handle"
expect_eq "$(sed -n 's/^other_defs //p' "$f")" "paradigms 12 unannounced 0" \
    "linked: the 12 paradigms of scorep-rt's adapters announced; the program name's string and every region's paradigm before their events"
expect_eq "$(sed -n 's/^locations //p' "$f")" "3 3 3 3 lost 0" \
    "linked: 3 locations created, activated, deactivated, deleted; per-location data kept"
expect_eq "$(sed -n 's/^location_defs //p' "$f")" "3 unannounced 0 groups 1 system_tree 2" \
    "linked: each location's handle announced before its create_location; the process's group, machine, node"
expect_eq "$(awk '/^loc_enters/ { print ($2 == $4) }' "$f")" 1 "linked: per-location counts (SetData/GetData) add up"
expect_eq "$(sed -n 's/^backwards //p' "$f")" 0 "linked: timestamps increase per location"
expect_eq "$(sed -n 's/^pthread //p' "$f")" "2 2 2 0" "linked: 2 threads created, joined, begun (no end event)"
expect_eq "$(sed -n 's/^activation_errors //p' "$f")" 0 "linked: (de)activations alternate per location"
expect_eq "$(sed -n 's/^deactivated_early //p' "$f")" 2 \
    "linked: the 2 threads deactivated when they ended, before ProgramEnd (no event after: backwards 0)"
expect_eq "$(sed -n 's/^size //p;s/^allreduce //p' "$f" | tr '\n' ' ')" "1 1 " "linked: ipc size 1, allreduce of 1"
expect_grep '^- `count.txt`: Events per region, 1 ranks\.$' c1/MANIFEST.md "linked: dump_manifest wrote its entry"
expect_file c1/profile.cubex "linked: the profile is written as well"
expect_eq "$(sed -n 's/^metrics //p' "$f")" "with 0 without 46 mismatch 0 backwards 0" \
    "linked: no metric sources: metricValues NULL at all 46 enters and exits (regions and pthread calls)"

# metric values at enter and exit (SCOREP_METRIC_RUSAGE): present at every enter and exit of
# every location, the same array that SCOREP_Metric_WriteStrictlySynchronousMetrics hands
# over (one sampling set per metric), and on the first location exactly the values and
# timestamps that the trace records (otf2-print: METRIC records at the event's time)
run_app r1 env SCOREP_EXPERIMENT_DIRECTORY=r1 SCOREP_SUBSTRATE_PLUGINS=count SCOREP_ENABLE_TRACING=true \
    SCOREP_METRIC_RUSAGE=ru_utime,ru_minflt,ru_nvcsw SUBSTRATE_COUNT_OUT="$work/r1.count" ./calls
expect_eq "$status" 0 "metrics: exit status"
expect_eq "$(cat r1.err)" "" "metrics: nothing on stderr"
expect_eq "$(sed -n 's/^metrics //p' r1.count.0)" "with 46 without 0 mismatch 0 backwards 0" \
    "metrics: values at all 46 enters and exits, as written by the callback, never decreasing"
expect_eq "$(grep -c '^ENTER' r1.count.0.metrics) $(grep -c '^LEAVE' r1.count.0.metrics)" "13 13" \
    "metrics: the first location's 13 enters and 13 leaves (main, 2 mid, 6 leaf, 2 create, 2 join)"
expect_eq "$(awk '{ for (i = 4; i <= NF; i++) { sub(/=.*/, "", $i); printf "%s ", $i } print "" }' r1.count.0.metrics | sort -u)" \
    "ru_utime ru_minflt ru_nvcsw | " \
    "metrics: the three metrics named through the sampling sets, in order, all strictly synchronous"
trace_events r1 | metric_values | awk '$2 == 0 && ($1 == "METRIC" || $1 == "ENTER" || $1 == "LEAVE") {
        if ($1 == "METRIC") {
            v = $0; sub(/.*Value: \("/, "", v); n = v; sub(/".*/, "", n); sub(/.*; /, "", v); sub(/\).*/, "", v)
            m = m " " n "=" v; next }
        r = $0; sub(/.*Region: "/, "", r); sub(/".*/, "", r)
        print $1, r, $3 m " |"; m = "" }' >r1.trace
expect_eq "$(wc -l <r1.trace | tr -d ' ')" 26 "metrics: 26 enters and leaves of the first location in the trace"
expect_eq "$(cat r1.count.0.metrics)" "$(cat r1.trace)" \
    "metrics: region, timestamp and values of every enter and leave as in the trace"
# metric plugins (test/plugins/synth.c): synth_sync (strictly synchronous) reads 1, 2, 3, ...
# per thread, the first read at the location's start; synth_opt (synchronous) gives 10 x the
# read's number at odd reads and repeats its last value at even ones. So the first
# location's k-th enter or leave has 'events' k + 1 and 10 (k + 1) or 10 k, the first
# through SCOREP_Metric_WriteStrictlySynchronousMetrics, the second through
# _WriteSynchronousMetrics.
run_app r2 env SCOREP_EXPERIMENT_DIRECTORY=r2 SCOREP_SUBSTRATE_PLUGINS=count \
    SCOREP_METRIC_PLUGINS=synth_sync,synth_opt SCOREP_METRIC_SYNTH_SYNC=events SCOREP_METRIC_SYNTH_OPT=events \
    SUBSTRATE_COUNT_OUT="$work/r2.count" ./calls
expect_eq "$status:$(cat r2.err)" "0:" "metric plugins: exit status, nothing on stderr"
expect_eq "$(sed -n 's/^metrics //p' r2.count.0)" "with 46 without 0 mismatch 0 backwards 0" \
    "metric plugins: values at all 46 enters and exits, as written by the callbacks"
awk 'BEGIN { for (k = 1; k <= 26; k++) { r = k + 1; print "events=" r " | events=" (r % 2 ? 10 * r : 10 * k) } }' >r2.expected
expect_eq "$(cut -d' ' -f4- r2.count.0.metrics)" "$(cat r2.expected)" \
    "metric plugins: the first location's 26 values of each, strictly synchronous and synchronous apart"
expect_eq "$(profile_sum c1 main/mid visits)" 2 "linked: the profile has main's 2 calls of mid"

# OpenMP (fork, join, team begin) and the user API (parameters, recording off and on)
if nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$'; then
    scorep_cc --user gcc -fopenmp -O1 -o more "$PROGRAMS/substrate_more.c"
    run_app o1 env SCOREP_EXPERIMENT_DIRECTORY=o1 SCOREP_SUBSTRATE_PLUGINS=count \
        SUBSTRATE_COUNT_OUT="$work/o1.count" ./more
    expect_eq "$status" 0 "omp: exit status"
    expect_eq "$(cat o1.err)" "" "omp: nothing on stderr"
    expect_eq "$(cat o1.out)" "sink 11" "omp: program output (leaf: 0 + 1 in each of 2 teams, then 9)"
    expect_eq "$(sed -n 's/^omp //p' o1.count.0)" "2 2 4" "omp: 2 forks, 2 joins, 4 team begins"
    # the master activated once; the worker at each of its 2 teams (as Score-P), not at its
    # creation; every activation of a location not active, every deactivation of an active one
    expect_eq "$(sed -n 's/^locations //p' o1.count.0)" "2 3 3 2 lost 0" \
        "omp: 2 locations created and deleted; the master's 1 and the worker's 2 (de)activations"
    expect_eq "$(sed -n 's/^activation_errors //p' o1.count.0)" 0 "omp: (de)activations alternate per location"
    expect_eq "$(sed -n 's/^location_defs //p' o1.count.0)" "2 unannounced 0 groups 1 system_tree 2" \
        "omp: both locations announced before their create_location"
    expect_eq "$(grep -E '^region leaf ' o1.count.0)" "region leaf compiler 4 4" \
        "omp: leaf 4 times in the teams; the call while recording is off is not delivered"
    expect_eq "$(sed -n 's/^params //p' o1.count.0)" 3 "user: 3 int parameters"
    expect_eq "$(sed -n 's/^recording //p' o1.count.0)" "on 1 off 1" "user: recording off and on once each"
    # Score-P's user metrics: one-metric sampling sets of occurrence ASYNCHRONOUS (2), value
    # type INT64 (0) or DOUBLE (2), source USER (2), mode ABSOLUTE_POINT (4)
    expect_eq "$(sed -n 's/^counters //p' o1.count.0)" \
        "6 0.75 level:n=1,occ=2,type=0,src=2,mode=4 ratio:n=1,occ=2,type=2,src=2,mode=4" \
        "user: counters 1+2+3 and 0.25+0.5, described through the sampling set callbacks"
    expect_eq "$(sed -n 's/^backwards //p' o1.count.0)" 0 "omp: timestamps increase per location"
    expect_eq "$(sed -n 's/^other_defs //p' o1.count.0)" "paradigms 12 unannounced 0" \
        "user: every parameter, metric and sampling set handle announced before its event"
else
    skip_part "OMPT (omp-tools.h)"
fi

# memory recording: test/programs/memory_c.c's allocations on the main thread one by one,
# with the bytes in use after each (heap = process here); a realloc that moves its block
# reports both blocks (Score-P's HandleRealloc); the two threads' 3 allocations and 1 free
# each (the key destructor's free after the thread's end is not recorded)
scorep_cc --memory gcc -O1 -o memprog "$PROGRAMS/memory_c.c" -lpthread
run_app mem env SCOREP_EXPERIMENT_DIRECTORY=mem SCOREP_SUBSTRATE_PLUGINS=count SCOREP_MEMORY_RECORDING=true \
    SUBSTRATE_COUNT_OUT="$work/mem.count" ./memprog
expect_eq "$status" 0 "memory: exit status"
expect_eq "$(cat mem.err)" "" "memory: nothing on stderr"
main_mem=$(sed -n 's/^mem_main //p' mem.count.0)
# whether each realloc moved its block (the plugin compares the addresses)
mv1=$(echo "$main_mem" | tr ' ' '\n' | sed -n 's/^R300>500\(m\{0,1\}\)\/.*/\1/p')
mv2=$(echo "$main_mem" | tr ' ' '\n' | sed -n 's/^R500>200\(m\{0,1\}\)\/.*/\1/p')
r1=1500 r2=1200
[ -z "$mv1" ] || r1=1800
[ -z "$mv2" ] || r2=1700
churn=""
for i in 1 2 3 4 5 6 7 8 9 10; do churn="$churn A100/1100/1100 F100/1000/1000"; done
expect_eq "$main_mem" "A1000/1000/1000$churn A300/1300/1300 R300>500$mv1/$r1/$r1 R500>200$mv2/$r2/$r2 \
F200/1000/1000 A256/1256/1256 A128/1384/1384 F128/1256/1256 A96/1352/1352 A200/1552/1552 F200/1352/1352 A9/1361/1361" \
    "memory: the main thread's allocations, reallocations and frees with sizes and bytes in use"
expect_eq "$(sed -n 's/^mem_other //p' mem.count.0)" "allocs 6 bytes 9472 frees 2 bytes 1024 reallocs 0 bytes 0 bad 0" \
    "memory: the threads' 6 allocations (9472 bytes) and 2 frees (1024 bytes); substrateData slots all NULL"
expect_eq "$(sed -n 's/^backwards //p' mem.count.0)" 0 "memory: timestamps increase per location"
expect_eq "$(grep -E '^region (malloc|free|realloc) ' mem.count.0 | sort | tr '\n' ';')" \
    "region free memory 15 15;region malloc memory 18 18;region realloc memory 2 2;" \
    "memory: the memory regions entered as in the trace of test_memory_recording.sh"
# without SCOREP_MEMORY_RECORDING nothing is tracked
run_app mem0 env SCOREP_EXPERIMENT_DIRECTORY=mem0 SCOREP_SUBSTRATE_PLUGINS=count \
    SUBSTRATE_COUNT_OUT="$work/mem0.count" ./memprog
expect_eq "$status:$(cat mem0.err)" "0:" "memory off: exit status, nothing on stderr"
expect_eq "$(sed -n 's/^mem_main//p;s/^mem_other //p' mem0.count.0 | tr '\n' ';')" \
    ";allocs 0 bytes 0 frees 0 bytes 0 reallocs 0 bytes 0 bad 0;" "memory: no events without memory recording"

# recording off (user API): no memory or I/O events, in-use bytes still kept
scorep_cc --user --memory --io=posix gcc -O1 -o offprog "$PROGRAMS/substrate_off.c"
run_app off env SCOREP_EXPERIMENT_DIRECTORY=off SCOREP_SUBSTRATE_PLUGINS=count SCOREP_MEMORY_RECORDING=true \
    SUBSTRATE_COUNT_OUT="$work/off.count" ./offprog
expect_eq "$status:$(cat off.out)" "0:wrote 21" "recording off: exit status, output"
expect_eq "$(sed -n 's/^mem_main //p' off.count.0)" "A100/100/100 A300/300/300 F300/0/0" \
    "recording off: the allocation and free while off are not delivered, the bytes in use still count them"
expect_eq "$(sed -n 's/^io_events //p;s/^io_ops //p' off.count.0 | tr '\n' ';')" \
    "create 1 destroy 1 dup 0 seek 0 status 0 delete 0 begin 3 issued 0 test 0 complete 3 cancelled 0;read 0 0 write 3 23 flush 0 unsized 0;" \
    "recording off: the write while off is not delivered (writes of 5 and 9 bytes, printf's 9)"

# I/O: io_mixed.c (test_io.sh gives its operations) and io_more.c (test_io_more.sh)
. "$top_srcdir/test/integration/io_trace.sh"
scorep_cc --io=posix gcc -O1 -fno-builtin -o mixed "$PROGRAMS/io_mixed.c"
run_app io1 env SCOREP_EXPERIMENT_DIRECTORY=io1 SCOREP_SUBSTRATE_PLUGINS=count SCOREP_ENABLE_TRACING=true \
    SUBSTRATE_COUNT_OUT="$work/io1.count" ./mixed
expect_eq "$status" 0 "io: exit status"
expect_eq "$(cat io1.out)" "posix 7490 isoc 422 bad -1 EBADF" "io: program output"
f=io1.count.0
trace_defs io1 >io1.defs
expect_eq "$(sed -n 's/^io_defs //p' "$f")" \
    "paradigms 3 files $(grep -c '^IO_REGULAR_FILE' io1.defs) handles $(grep -c '^IO_HANDLE' io1.defs) unannounced 0" \
    "io: new_definition_handle for the 3 I/O paradigms and every file and handle the trace defines; every handle of an event announced"
# POSIX p.dat: 10 writes (3722 bytes), 7 reads (3768); ISO C c.txt: 4 writes (222), 2 reads
# (212), 1 flush; stdout: printf (33); the write to a descriptor not open: bytes unknown
expect_eq "$(sed -n 's/^io_events //p' "$f")" \
    "create 4 destroy 5 dup 1 seek 2 status 0 delete 0 begin 26 issued 0 test 0 complete 26 cancelled 0" \
    "io: handles created (2 open, 2 fopen), destroyed (3 close, 2 fclose), duplicated (dup), 2 seeks, 26 operations"
expect_eq "$(sed -n 's/^io_ops //p' "$f")" "read 9 3980 write 15 3977 flush 1 unsized 1" \
    "io: operations and bytes per mode"
# Score-P's access modes: READ_ONLY 1, WRITE_ONLY 2; creation CREATE|TRUNCATE 3
expect_eq "$(sed -n 's/^io_creates //p' "$f")" "2/3/0 1/0/0 2/3/0 1/0/0" \
    "io: open/fopen for writing (create, truncate) and for reading, in Score-P's numbers"
expect_eq "$(sed -n 's/^io_seeks //p' "$f")" "1024/0/1024 0/0/0" "io: lseek to 1024 and fseek to 0 from the start"
expect_eq "$(sed -n 's/^backwards //p' "$f")" 0 "io: timestamps increase"

printf '7 8\nxy' >in.txt
scorep_cc --io=posix gcc -O0 -fno-builtin -o iomore "$PROGRAMS/io_more.c"
mkdir io2dir && cd io2dir
run_app io2 env SCOREP_EXPERIMENT_DIRECTORY=io2 SCOREP_SUBSTRATE_PLUGINS=count \
    SUBSTRATE_COUNT_OUT="$work/io2.count" ../iomore <../in.txt
cd ..
expect_eq "$status" 0 "io_more: exit status"
line=$(tail -n 1 io2dir/io2.out)
# fcntl F_SETFL (1 status change), F_DUPFD and F_DUPFD_CLOEXEC (2), unlink, unlinkat and
# remove (3 deletions); 6 non-blocking operations issued, 1 tested (EINPROGRESS), 1
# cancelled (it has no completion); reads 13 (228 bytes), writes 18 (printf's line, 5
# putchar and 203 bytes), 3 flushes, 6 reads of unknown size (fscanf family)
expect_eq "$(sed -n 's/^io_events //p;s/^io_ops //p' io2.count.0 | tr '\n' ';')" \
    "create 6 destroy 10 dup 2 seek 2 status 1 delete 3 begin 41 issued 6 test 1 complete 40 cancelled 1;read 13 228 write 18 $((${#line} + 1 + 5 + 203)) flush 3 unsized 6;" \
    "io_more: status change, duplications, deletions, issued/tested/cancelled operations, bytes per mode"
expect_eq "$(sed -n 's/^io_defs //p' io2.count.0 | sed 's/.*unannounced/unannounced/')" "unannounced 0" \
    "io_more: every handle and deleted file announced"
# io_gaps.c's file locks (test_io_gaps.sh gives them): lockf and lockf64 acquire 3, release
# 3, try 1 (EBADF); the stream's flockfile and ftrylockfile acquire 2, funlockfile release
# 2, another thread's ftrylockfile tries 1; all exclusive
printf 'line one\nrest\n' >gaps.in
scorep_cc --io=posix gcc -O2 -pthread -o gaps "$PROGRAMS/io_gaps.c" 2>gaps.build.err
mkdir io3dir && cd io3dir
run_app io3 env SCOREP_EXPERIMENT_DIRECTORY=io3 SCOREP_SUBSTRATE_PLUGINS=count \
    SUBSTRATE_COUNT_OUT="$work/io3.count" ../gaps <../gaps.in
cd ..
expect_eq "$status" 0 "io_gaps: exit status"
expect_eq "$(sed -n 's/^io_locks //p' io3.count.0)" "acquire 5 release 5 try 2 not exclusive 0" \
    "io_gaps: IO_ACQUIRE_LOCK, IO_RELEASE_LOCK and IO_TRY_LOCK of lockf and the stream locks"
expect_eq "$(sed -n 's/^io_defs //p' io3.count.0 | sed 's/.*unannounced/unannounced/')" "unannounced 0" \
    "io_gaps: every handle of a lock event announced"

# rewind regions (test/programs/substrate_rewind.c): 4 points of "rw", each around one call
# of work, checked with 1, 0, 1, 0. ENTER_REWIND_REGION and EXIT_REWIND_REGION come at the
# rewind region's enter and leave times as the trace has them (a kept one: Enter and Leave
# of rw; a discarded one: MeasurementOnOff OFF and ON), with the check's value; no
# ENTER_REGION / EXIT_REGION of rw (Score-P records none); work's 4 calls all delivered
scorep_cc --user --instrument-threshold=0 gcc -O1 -o rw "$PROGRAMS/substrate_rewind.c" 2>rw.build.err
run_app rw1 env SCOREP_EXPERIMENT_DIRECTORY=rw1 SCOREP_SUBSTRATE_PLUGINS=count SCOREP_ENABLE_TRACING=true \
    SUBSTRATE_COUNT_OUT="$work/rw1.count" ./rw
expect_eq "$status:$(cat rw1.out):$(cat rw1.err)" "0:sink 6:" "rewind: exit status, output, nothing on stderr"
expect_eq "$(sed -n 's/^rewind //p' rw1.count.0)" "enter 4 exit 4 do_rewind 2" \
    "rewind: 4 points and 4 checks, 2 of them discarding"
expect_eq "$(grep -E '^region (rw|work) ' rw1.count.0)" "region work compiler 4 4" \
    "rewind: no ENTER_REGION/EXIT_REGION of the rewind region, every call of work"
trace_events rw1 | awk '$2 == 0 && ($1 == "MEASUREMENT_ON_OFF" || / Region: "rw" /) {
        printf " %srw@%s%s", ($1 == "LEAVE" || $NF == "ON") ? "C" : "P", $3,
            $1 == "LEAVE" ? ":0" : $NF == "ON" ? ":1" : "" }' >rw1.trace
expect_eq "$(sed -n 's/^rewind_main//p' rw1.count.0)" "$(cat rw1.trace)" \
    "rewind: points and checks at the trace's times of rw's enters and leaves (or the gap's OFF and ON)"
expect_eq "$(tr " " "\n" <rw1.trace | grep -c "^P")" 4 "rewind: the trace has 4 points (2 enters, 2 OFF)"
expect_eq "$(sed -n 's/^unannounced //p;s/^backwards //p' rw1.count.0 | tr '\n' ' ')" "0 0 " \
    "rewind: regions announced, timestamps increase"
# a check without its point: a warning, and EXIT_REWIND_REGION all the same (Score-P's user
# adapter passes every check on), at a later time
run_app rw3 env SCOREP_EXPERIMENT_DIRECTORY=rw3 SCOREP_SUBSTRATE_PLUGINS=count SCOREP_ENABLE_TRACING=true \
    SUBSTRATE_COUNT_OUT="$work/rw3.count" ./rw 0 0 orphan
expect_eq "$status:$(cat rw3.out)" "0:sink 6" "rewind, orphan check: exit status, output"
expect_eq "$(grep -c 'SCOREP_USER_REWIND_CHECK without a matching SCOREP_USER_REWIND_POINT' rw3.err):$(wc -l <rw3.err | tr -d ' ')" \
    "1:1" "rewind, orphan check: one warning, nothing else on stderr"
expect_eq "$(sed -n 's/^rewind //p;s/^backwards //p' rw3.count.0 | tr '\n' ' ')" "0 enter 4 exit 5 do_rewind 3 " \
    "rewind, orphan check: 4 points, 5 checks (3 with do_rewind), times increasing"
expect_eq "$(sed -n 's/^rewind_main//p' rw3.count.0 | awk '{ print $NF }' | sed 's/@[0-9]*//')" "Crw:1" \
    "rewind, orphan check: delivered last, with its value"
# profiling only: the same events, the check's value as passed (nothing is cut)
run_app rw2 env SCOREP_EXPERIMENT_DIRECTORY=rw2 SCOREP_SUBSTRATE_PLUGINS=count \
    SUBSTRATE_COUNT_OUT="$work/rw2.count" ./rw
expect_eq "$status:$(sed -n 's/^rewind //p' rw2.count.0)" "0:enter 4 exit 4 do_rewind 2" \
    "rewind without tracing: 4 points and checks, 2 with do_rewind"

# flush mode with 200k of trace memory for 60,000 events of 30,000 calls of tiny: a
# ON_TRACING_BUFFER_FLUSH_BEGIN and _END per flush, at the time and stop time of the
# trace's BufferFlush records; every call still delivered, the times of the other events
# increasing (the flush's end is not checked against them: the event that needed the
# memory follows it with its earlier time)
run_app fl1 env SCOREP_EXPERIMENT_DIRECTORY=fl1 SCOREP_SUBSTRATE_PLUGINS=count SCOREP_ENABLE_TRACING=true \
    SCOREP_TRACING_REDUCTION=flush SCOREP_TOTAL_MEMORY=200k SUBSTRATE_COUNT_OUT="$work/fl1.count" ./rw 30000
expect_eq "$status:$(cat fl1.out)" "0:sink 15006" "flush: exit status, output"
expect_grep 'were flushed to disk' fl1.err "flush: the runtime says it flushed"
trace_events fl1 | awk '$1 == "BUFFER_FLUSH" && $2 == 0 { printf " %s-%s", $3, $NF }' >fl1.trace
n_flush=$(tr ' ' '\n' <fl1.trace | grep -c .)
expect_ge "$n_flush" 2 "flush: the trace has BufferFlush records"
expect_eq "$(sed -n 's/^flush //p' fl1.count.0)" "begin $n_flush end $n_flush unpaired 0 bad 0" \
    "flush: one begin and one end per BufferFlush, paired, no region, no metric values"
expect_eq "$(sed -n 's/^flush_main//p' fl1.count.0)" "$(cat fl1.trace)" \
    "flush: begin and end at the BufferFlush records' time and stop time"
expect_eq "$(grep -E '^region tiny ' fl1.count.0):$(sed -n 's/^backwards //p' fl1.count.0)" \
    "region tiny compiler 30000 30000:0" "flush: every call delivered, timestamps increase"
# no flush mode: the buffer stops when full, no flush events
run_app fl2 env SCOREP_EXPERIMENT_DIRECTORY=fl2 SCOREP_SUBSTRATE_PLUGINS=count SCOREP_ENABLE_TRACING=true \
    SCOREP_TRACING_REDUCTION=none SCOREP_TOTAL_MEMORY=200k SUBSTRATE_COUNT_OUT="$work/fl2.count" ./rw 30000
expect_eq "$status:$(sed -n 's/^flush //p' fl2.count.0)" "0:begin 0 end 0 unpaired 0 bad 0" \
    "no flush mode: no flush events"

# post-mortem metrics: synth_async (SCOREP_METRIC_ASYNC, per process) logs each value it
# publishes; WRITE_POST_MORTEM_METRICS hands over exactly these, in order, on the first
# location, after PROGRAM_END and before the deactivations ('Q' in the order); synth_once's
# values (ASYNC_EVENT) are not post-mortem: none of them
run_app pm1 env SCOREP_EXPERIMENT_DIRECTORY=pm1 SCOREP_SUBSTRATE_PLUGINS=count SCOREP_ENABLE_TRACING=true \
    SCOREP_METRIC_PLUGINS=synth_async,synth_once SCOREP_METRIC_SYNTH_ASYNC=wave \
    SCOREP_METRIC_SYNTH_ONCE=once_wave SYNTH_COUNT=6 SYNTH_LOG="$work/pm1.wave" \
    SYNTH_ONCE_LOG="$work/pm1.once" SUBSTRATE_COUNT_OUT="$work/pm1.count" ./rw 0 40
expect_eq "$status:$(cat pm1.err)" "0:" "post-mortem: exit status, nothing on stderr"
expect_ge "$(wc -l <pm1.wave)" 1 "post-mortem: synth_async published values"
expect_ge "$(wc -l <pm1.once)" 1 "post-mortem: synth_once published values"
expect_eq "$(cat pm1.count.0.postmortem)" "$(awk '{ print "wave 0", $1, $2 }' pm1.wave)" \
    "post-mortem: synth_async's values with their times on location 0, synth_once's none"
expect_eq "$(sed -n 's/^post_mortem //p' pm1.count.0)" "$(wc -l <pm1.wave | tr -d ' ') unannounced 0" \
    "post-mortem: one event per value, sampling sets announced"
expect_eq "$(sed -n 's/^order //p' pm1.count.0)" "ICEDALVBMNQXZPGW" \
    "post-mortem: after PROGRAM_END, before the deactivations"

# bad lists: a missing library, a newer interface version, the good one twice
run_app b1 env SCOREP_EXPERIMENT_DIRECTORY=b1 SCOREP_SUBSTRATE_PLUGINS=nosuch:newer:count:count \
    SCOREP_SUBSTRATE_PLUGINS_SEP=: SUBSTRATE_COUNT_OUT="$work/b1.count" ./calls
expect_eq "$status" 0 "bad: exit status"
expect_eq "$(grep -c "substrate plugin 'nosuch' not loaded: .*libscorep_substrate_nosuch.so.*goes on without it" b1.err)" 1 \
    "bad: missing library, one message naming the library"
expect_eq "$(grep -c "substrate plugin 'newer' was built for interface version 4, newer than this runtime's (3); it is not used" b1.err)" 1 \
    "bad: newer interface version, one message"
expect_eq "$(wc -l <b1.err | tr -d ' ')" 2 "bad: nothing else on stderr (count listed twice, loaded once)"
expect_eq "$(grep -E '^region main ' b1.count.0)" "region main compiler 1 1" "bad: the good plugin ran, once"
expect_file b1/profile.cubex "bad: the measurement wrote its profile"

# MPI, 2 ranks, the plain program under scorep-run
if [ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] && command -v mpicc >/dev/null 2>&1 &&
    command -v mpirun >/dev/null 2>&1; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    mpicc -O1 -o smpi "$PROGRAMS/substrate_mpi.c" || fail "mpicc"
    rc=0
    SCOREP_EXPERIMENT_DIRECTORY=m1 SCOREP_SUBSTRATE_PLUGINS=count SUBSTRATE_COUNT_OUT="$work/m1.count" \
        timeout 120 mpirun -np 2 "$top_builddir/scorep-run" ./smpi >m1.out 2>m1.err || rc=$?
    expect_eq "$rc" 0 "mpi: 2 ranks under scorep-run"
    expect_eq "$(cat m1.out)" "sum 2" "mpi: program output"
    expect_no_grep 'scorep-rt' m1.err "mpi: no message of the runtime"
    expect_eq "$(sed -n 's/^order //p' m1.count.0)" "ICEDALVBMNXZPGW" "mpi: rank 0 life cycle (init_mpp after MPI_Init)"
    expect_eq "$(sed -n 's/^order //p' m1.count.1)" "ICEDALVBMNXZPW" "mpi: rank 1 life cycle (no manifest)"
    expect_eq "$(sed -n 's/^size //p;s/^allreduce //p' m1.count.0 m1.count.1 | tr '\n' ' ')" "2 3 2 3 " \
        "mpi: ipc size 2 and allreduce 1 + 2 through the callbacks"
    expect_eq "$(sed -n 's/^p2p //p' m1.count.0)" "3 0 1 0 bytes 1240 0" "mpi: rank 0 sent 3 x 400 bytes and isent 40"
    expect_eq "$(sed -n 's/^p2p //p' m1.count.1)" "0 3 0 1 bytes 0 1240" "mpi: rank 1 received 3 x 400 bytes and irecv'd 40"
    expect_eq "$(sed -n 's/^requests //p' m1.count.0 m1.count.1 | tr '\n' ';')" \
        "isend_complete 1 irecv_request 0;isend_complete 0 irecv_request 1;" \
        "mpi: the isend completed on rank 0, the irecv requested on rank 1"
    expect_eq "$(sed -n 's/^coll //p' m1.count.0 m1.count.1 | tr '\n' ';')" \
        "3 3 barrier 1 allreduce 2;3 3 barrier 1 allreduce 2;" "mpi: 3 collectives per rank: 1 barrier, 2 allreduce"
    expect_eq "$(grep -E '^region MPI_(Send|Recv|Allreduce|Barrier) ' m1.count.0 | sort | tr '\n' ';')" \
        "region MPI_Allreduce mpi 2 2;region MPI_Barrier mpi 1 1;region MPI_Send mpi 3 3;" "mpi: rank 0's MPI regions"
    expect_eq "$(grep -E '^region MPI_(Send|Recv|Allreduce|Barrier) ' m1.count.1 | sort | tr '\n' ';')" \
        "region MPI_Allreduce mpi 2 2;region MPI_Barrier mpi 1 1;region MPI_Recv mpi 3 3;" "mpi: rank 1's MPI regions"
    expect_grep '^- `count.txt`: Events per region, 2 ranks\.$' m1/MANIFEST.md "mpi: manifest entry"
    expect_file m1/profile.cubex "mpi: the profile is written"
else
    skip_part mpi
fi
done_ok
