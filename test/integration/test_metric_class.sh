#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_metric_class.sh: the trace's metric layout is Score-P's: the strictly synchronous
# per-thread metrics of all sources (rusage, a metric plugin, perf) are the members of one
# MetricClass, in Score-P's source order (PAPI, rusage, plugins, perf), and each Enter or
# Leave is preceded by one Metric record with all their values; a per-process metric has a
# class and records of its own. Read with python3-otf2 (metric_records.py) in a job of 3
# MPI ranks and in a threaded program; the values of synth_sync (the n-th read of a thread
# is n) are checked against the plugin's design. A trace of the former layout (one class
# and one record per metric, written here with python3-otf2's writer) stays readable by
# this repository's readers (scorep-otf2-to-chrome, whose trace model also reads the new
# layout's classes and instances).
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/integration/perf_metrics.sh"
PY=$(python3_with_otf2)
[ -n "$PY" ] || { echo "SKIP: no python3-otf2"; exit 77; }
RECORDS="$top_srcdir/test/integration/metric_records.py"
export LD_LIBRARY_PATH="$top_builddir/test/plugins/.libs:$top_builddir/plugins/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

perf_check_allowed
if [ $perf_ok = 1 ]; then
    perf=task-clock
    members="ru_minflt+events+task-clock" # rusage, plugin, perf (Score-P's order)
else
    skip_part_here "perf member" "the kernel refuses perf_event_open to this process"
    perf=
    members="ru_minflt+events"
fi

# --- threads: 3 locations, per-thread class and per-process ru_nvcsw -------------------
scorep_cc gcc -O1 -o metrics "$PROGRAMS/metrics.c" -lpthread
run_app t1 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=t1 \
    SCOREP_METRIC_PERF="$perf" SCOREP_METRIC_PLUGINS=synth_sync SCOREP_METRIC_SYNTH_SYNC=events \
    SCOREP_METRIC_RUSAGE=ru_minflt SCOREP_METRIC_RUSAGE_PER_PROCESS=ru_nvcsw ./metrics 100 10 2 0
expect_eq "$status:$(cat t1.err)" "0:" "threads: exit status, nothing on stderr"
"$PY" "$RECORDS" t1/traces.otf2 >t1.rec 2>t1.rec.err || fail "metric_records.py t1: $(cat t1.rec.err)"
# metrics.c: location 0 enters and leaves main, spin, touch, 2 x pthread_create and
# pthread_join (14 events), a worker its function and spin (4 events)
expect_eq "$(sed 's/^[^ ]* //' t1.rec)" \
    "events=14 records=28 classes=INSTANCE@LOCATION_GROUP=own/self:SYNCHRONOUS:ru_nvcsw;SYNCHRONOUS_STRICT:$members counter=1
events=4 records=4 classes=SYNCHRONOUS_STRICT:$members counter=1
events=4 records=4 classes=SYNCHRONOUS_STRICT:$members counter=1
decreasing=0" \
    "threads: one record of the class per enter/leave on each thread (location 0: and one of ru_nvcsw's instance), synth_sync's values 2, 3, ... per thread"
trace_defs t1 >t1.defs
expect_eq "$(grep -c '^METRIC_CLASS' t1.defs)" 2 "threads: 2 metric classes (no class of a member alone)"
expect_grep '^METRIC_CLASS +1  Occurrence: SYNCHRONOUS, Kind: ABSTRACT, 1 Member: "ru_nvcsw"' t1.defs \
    "threads: per process: ru_nvcsw's class is SYNCHRONOUS, ABSTRACT (Score-P's)"
expect_eq "$(grep -c '^METRIC_INSTANCE' t1.defs)" 1 "threads: one instance of ru_nvcsw (one process)"
# this repository's readers (trace model): the chrome export's counters are otf2-print's
# values, ru_nvcsw's through its instance too
"$top_builddir/scorep-otf2-to-chrome" -o t1.json t1/traces.otf2 2>t1.conv.err ||
    fail "threads: scorep-otf2-to-chrome: $(cat t1.conv.err)"
"$PY" "$top_srcdir/test/tools/chrome_check.py" t1.json t1/traces.otf2 >t1.sum 2>t1.check.err ||
    fail "threads: chrome_check: $(cat t1.check.err)"
expect_eq "$(tr ' ' '\n' <t1.sum | sed -n 's/^counters=//p')" \
    "$(trace_other t1 | metric_values | awk '$1 == "METRIC"' | wc -l | tr -d ' ')" \
    "threads: a chrome counter per value in the trace"

# --- MPI: 3 ranks; every rank's locations refer to the one class --------------------------
if [ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] && command -v mpirun >/dev/null 2>&1; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    "$SCOREP_CC" mpicc -O1 -o metrics_mpi "$PROGRAMS/metrics_mpi.c" || fail "scorep-cc mpicc"
    rc=0
    SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=m1 SCOREP_METRIC_RUSAGE=ru_minflt \
        SCOREP_METRIC_RUSAGE_PER_PROCESS=ru_nvcsw SCOREP_METRIC_PERF="$perf" SCOREP_METRIC_PLUGINS=synth_sync SCOREP_METRIC_SYNTH_SYNC=events \
        timeout 120 mpirun --bind-to core:overload-allowed -np 3 ./metrics_mpi >m1.out 2>m1.err || rc=$?
    expect_eq "$rc:$(cat m1.out)" "0:done 3" "mpi: 3 ranks run measured"
    "$PY" "$RECORDS" m1/traces.otf2 >m1.rec 2>m1.rec.err || fail "metric_records.py m1: $(cat m1.rec.err)"
    # per rank: a record of the class at every enter and leave but main's leave (after
    # MPI_Finalize ended the measurement: the trace closes main without values), counter 2, 3, ...
    # and one of ru_nvcsw's instance whose recorder is the rank's location, scope its process
    expect_eq "$(awk '/^decreasing=/ { print; next }
        { split($2, e, "="); split($3, r, "="); print (e[2] > 1 && r[2] == 2 * (e[2] - 1)), $4, $5 }' m1.rec | sort | uniq -c |
        awk '{ $1 = $1; print }')" \
        "3 1 classes=INSTANCE@LOCATION_GROUP=own/self:SYNCHRONOUS:ru_nvcsw;SYNCHRONOUS_STRICT:$members counter=1
1 decreasing=0" "mpi: every rank: one record of the class per enter/leave, synth_sync's values as designed"
    trace_defs m1 >m1.defs
    expect_eq "$(grep -c '^METRIC_CLASS' m1.defs)" 2 "mpi: 2 metric classes for the job (per thread, ru_nvcsw)"
    expect_eq "$(grep -c '^METRIC_INSTANCE .*Class: 1, .*Scope: LOCATION_GROUP' m1.defs)" 3 \
        "mpi: an instance of ru_nvcsw per process"
    # the writer's otf2-print view agrees: every value of every record is a member's
    expect_eq "$(trace_count m1 METRIC)" \
        "$(awk '/ records=/ { split($3, r, "="); n += r[2] } END { print n }' m1.rec)" \
        "mpi: otf2-print sees the same METRIC records"
else
    skip_part "MPI (the MPI adapter or mpirun)"
fi

# --- buffer flushes: a flush between the values of one event (SCOREP_TOTAL_MEMORY too small
# for 200000 events) keeps them in one record, and its marker (at the values' buffer tick,
# before them) is written, not refused by OTF2 as older than the record before it
scorep_cc --instrument=functions gcc -O1 -o tiny "$top_srcdir/bench/tiny.c"
run_app f1 env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_PROFILING=false SCOREP_EXPERIMENT_DIRECTORY=f1 \
    SCOREP_THROTTLING=false SCOREP_TOTAL_MEMORY=3M SCOREP_VERBOSE=true \
    SCOREP_METRIC_RUSAGE=ru_minflt,ru_nvcsw,ru_nivcsw ./tiny 100000
expect_eq "$status" 0 "flush: exit status"
expect_no_grep 'OTF2' f1.err "flush: OTF2 accepts every record"
flushes=$(sed -n 's/.*trace buffer of rank 0 location 0: .* \([0-9]*\) flushes$/\1/p' f1.err)
expect_ge "$flushes" 2 "flush: the buffer was flushed"
expect_eq "$(trace_count f1 BUFFER_FLUSH)" "$flushes" "flush: every flush marked in the trace"
"$PY" "$RECORDS" f1/traces.otf2 >f1.rec 2>f1.rec.err || fail "metric_records.py f1: $(cat f1.rec.err)"
expect_eq "$(awk '/ records=/ { split($2, e, "="); split($3, r, "="); print (e[2] == r[2] && e[2] > 0), $4 }' f1.rec)" \
    "1 classes=SYNCHRONOUS_STRICT:ru_minflt+ru_nvcsw+ru_nivcsw" "flush: one record of the class at every enter and leave kept"

# --- the former layout: one class and one Metric record per metric -----------------------
"$PY" - old <<'EOF' || fail "writing the former layout with python3-otf2"
import sys
import otf2
from otf2.enums import Type, MetricOccurrence, RecorderKind, MetricType, MetricMode, Base
with otf2.writer.open(sys.argv[1], timer_resolution=1000000000) as trace:
    root = trace.definitions.system_tree_node("node")
    group = trace.definitions.location_group("Master thread", system_tree_parent=root)
    loc = trace.definitions.location("Master thread", group=group)
    region = trace.definitions.region("main")
    classes = []
    for name in ("ru_minflt", "ru_utime"):
        member = trace.definitions.metric_member(
            name, "", MetricType.RUSAGE, MetricMode.ACCUMULATED_START, Type.UINT64,
            Base.DECIMAL, 0, "#")
        classes.append(trace.definitions.metric_class(
            [member], MetricOccurrence.SYNCHRONOUS_STRICT, RecorderKind.CPU))
    w = trace.event_writer_from_location(loc)
    # values: ru_minflt 10 and 30, ru_utime 100 and 700 at enter and leave
    for t, values, ev in ((1000, (10, 100), otf2.events.Enter), (5000, (30, 700), otf2.events.Leave)):
        for cls, v in zip(classes, values):
            w(otf2.events.Metric(t, cls, [v]))
        w(ev(t, region))
EOF
"$top_builddir/scorep-otf2-to-chrome" -o old.json old/traces.otf2 2>old.err ||
    fail "former layout: scorep-otf2-to-chrome: $(cat old.err)"
expect_eq "$("$PY" -c '
import json, sys
d = json.load(open("old.json"))
ev = d["traceEvents"] if isinstance(d, dict) else d
print(" ".join("%s=%s" % (e["name"], e["args"]["value"]) for e in ev if e.get("ph") == "C"))')" \
    "ru_minflt=10 ru_utime=100 ru_minflt=30 ru_utime=700" \
    "former layout: the chrome export shows each metric's values as written"
"$PY" "$RECORDS" old/traces.otf2 >old.rec || fail "metric_records.py old"
expect_eq "$(head -1 old.rec | sed 's/^[^ ]* //')" \
    "events=2 records=4 classes=SYNCHRONOUS_STRICT:ru_minflt;SYNCHRONOUS_STRICT:ru_utime counter=-" \
    "former layout: read back as written (the check script reads both layouts)"
done_ok
