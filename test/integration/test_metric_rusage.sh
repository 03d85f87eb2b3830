#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_metric_rusage.sh: SCOREP_METRIC_RUSAGE(_PER_PROCESS, _SEP): getrusage fields read at
# every enter and leave, as inclusive Cube metrics and as OTF2 metric events; bad names.
. "$top_srcdir/test/integration/lib.sh"

scorep_cc gcc -O1 -o metrics "$PROGRAMS/metrics.c" -lpthread

# 3000 fresh pages in touch(), 200 ms of CPU in spin(), no threads
run_app r1 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=r1 \
    SCOREP_METRIC_RUSAGE="ru_minflt;ru_utime;ru_stime" SCOREP_METRIC_RUSAGE_SEP=";" \
    ./metrics 3000 200 0 0
expect_eq "$status" 0 "exit status"
expect_eq "$(cat r1.err)" "" "nothing on stderr"
expect_ge "$(profile_isum r1 main/touch ru_minflt)" 3000 "ru_minflt in touch >= the 3000 pages it touches"
expect_ge "$(profile_isum r1 main ru_minflt)" "$(profile_isum r1 main/touch ru_minflt)" \
    "ru_minflt: main inclusive >= touch"
cpu=$(( $(profile_isum r1 main/spin ru_utime) + $(profile_isum r1 main/spin ru_stime) ))
expect_ge "$cpu" 190000 "ru_utime + ru_stime of spin >= 95% of its 200 ms of CPU (usec)"
tar -xOf r1/profile.cubex anchor.xml | tr -d '\n' >anchor.xml
expect_grep '<metric id="[0-9]+" type="INCLUSIVE"><disp_name>ru_minflt</disp_name>' anchor.xml \
    "cube: ru_minflt is an inclusive metric"
expect_grep '<uniq_name>ru_utime</uniq_name><dtype>UINT64</dtype><uom>usec</uom>' anchor.xml \
    "cube: ru_utime is UINT64 in usec"
# trace: before every enter and leave (main, spin, touch: 6 events) one Metric record with
# the 3 values (Score-P's one sampling set of the strictly synchronous metrics)
expect_eq "$(trace_count r1 METRIC)" 6 "trace: 6 enter/leave = 6 METRIC records"
expect_eq "$(trace_other r1 | metric_values | awk '$1 == "METRIC"' | wc -l | tr -d ' ')" 18 \
    "trace: 3 metrics x 6 enter/leave = 18 values"
expect_eq "$(trace_check_nesting r1)" 0 "trace: properly nested"
trace_defs r1 >defs.txt
expect_grep 'METRIC_MEMBER .*"ru_minflt".*Type: RUSAGE, Mode: ACCUMULATED_START, Value Type: UINT64' \
    defs.txt "trace: ru_minflt member (RUSAGE, ACCUMULATED_START, UINT64)"
expect_eq "$(grep -c 'METRIC_CLASS' defs.txt)" 1 "trace: one metric class"
expect_grep 'METRIC_CLASS +0  Occurrence: SYNCHRONOUS_STRICT, Kind: CPU, 3 Members: "ru_minflt" <[0-9]+>, "ru_utime" <[0-9]+>, "ru_stime" <[0-9]+>$' \
    defs.txt "trace: the class has the 3 metrics in the order requested"
# the values around touch: the difference of ru_minflt between its enter and leave
expect_ge "$(trace_events r1 | metric_values | awk '
    $1 == "METRIC" && /"ru_minflt"/ { v = $NF; sub(/\)$/, "", v) }
    $1 == "ENTER" && /"touch"/ { a = v } $1 == "LEAVE" && /"touch"/ { print v - a }')" 3000 \
    "trace: ru_minflt grows by >= 3000 between ENTER and LEAVE of touch"

# per thread and per process: 2 threads of 50 ms CPU each
run_app r2 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=r2 \
    SCOREP_METRIC_RUSAGE=ru_utime,ru_stime SCOREP_METRIC_RUSAGE_PER_PROCESS=ru_nvcsw \
    ./metrics 0 0 2 0
expect_eq "$status" 0 "threads: exit status"
for loc in 1 2; do
    v=$(profile_dump r2 -i -m ru_utime,ru_stime | awk -F'\t' -v l=$loc '
        $2 == "THREADS/worker" && $3 == l { for (i = 4; i <= NF; i++) { split($i, kv, "="); s += kv[2] } }
        END { print s + 0 }')
    expect_ge "$v" 47500 "threads: ru_utime + ru_stime of worker on location $loc >= 95% of 50 ms"
done
expect_eq "$(trace_other r2 | awk '$1 == "METRIC" && /"ru_nvcsw"/ { print $2 }' | sort -u | tr '\n' ' ')" \
    "0 " "per process: ru_nvcsw only on location 0"
expect_eq "$(trace_count r2 METRIC "$(loc_id 0 1)")" 4 \
    "threads: location 1 has one record of its 2 metrics x 4 events (enter/leave of worker and spin)"
expect_eq "$(trace_other r2 | metric_values | awk -v w="$(loc_id 0 1)" '$1 == "METRIC" && $2 == w' | wc -l | tr -d ' ')" 8 \
    "threads: location 1 has 2 metrics x 4 events = 8 values"
# the per-process metric is not a member of the class of the per-thread ones: it has its own
trace_defs r2 >defs2.txt
expect_grep 'METRIC_CLASS +0  Occurrence: SYNCHRONOUS_STRICT, Kind: CPU, 2 Members: "ru_utime" <[0-9]+>, "ru_stime" <[0-9]+>$' \
    defs2.txt "per thread: one class of ru_utime and ru_stime"
expect_grep 'METRIC_CLASS +1  Occurrence: SYNCHRONOUS, Kind: ABSTRACT, 1 Member: "ru_nvcsw"' defs2.txt \
    "per process: ru_nvcsw in a class of its own (Score-P's: SYNCHRONOUS, ABSTRACT)"
expect_grep 'METRIC_INSTANCE +2  Class: 1, Recorder: "Master thread" <0>, Scope: LOCATION_GROUP' defs2.txt \
    "per process: ru_nvcsw's instance, recorded by the first thread for its process"
expect_eq "$(trace_other r2 | awk '$1 == "METRIC" && $2 == 0 && / Values: / && /"ru_nvcsw"/' | wc -l | tr -d ' ')" 0 \
    "per process: ru_nvcsw never in the per-thread record"

# bad input: one clear message, the rest is recorded
run_app r3 env SCOREP_EXPERIMENT_DIRECTORY=r3 SCOREP_METRIC_RUSAGE=ru_bogus,ru_minflt \
    ./metrics 100 0 0 0
expect_eq "$status" 0 "unknown field: exit status"
expect_eq "$(grep -c "unknown resource usage metric 'ru_bogus'" r3.err)" 1 "unknown field: one message naming it"
expect_eq "$(wc -l <r3.err | tr -d ' ')" 1 "unknown field: nothing else on stderr"
expect_ge "$(profile_isum r3 main/touch ru_minflt)" 100 "unknown field: ru_minflt still recorded"
run_app r4 env SCOREP_EXPERIMENT_DIRECTORY=r4 SCOREP_METRIC_RUSAGE=all ./metrics 0 0 0 0
run_to r4.anchor tar -xOf r4/profile.cubex anchor.xml
expect_eq "$(tr -d '\n' <r4.anchor | grep -o '<metric id="[0-9]*" type="INCLUSIVE"><disp_name>ru_' | wc -l | tr -d ' ')" 12 \
    "all: 12 counters in the profile (the 4 sizes are levels: trace only)"
done_ok
