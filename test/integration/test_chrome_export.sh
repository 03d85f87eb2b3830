#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_chrome_export.sh: scorep-otf2-to-chrome on real traces, checked against otf2-print by
# test/tools/chrome_check.py (valid JSON, per location as many region events as ENTERs and
# LEAVEs, nesting per track, flows paired one to one, counters equal to METRIC values):
# a 3-rank MPI ring (240 messages), OpenMP tasks (51 on task lanes), rusage metrics on 3
# threads (44 counter values), MPI + OpenMP (24 arrows between threads), calling contexts
# and samples; bad input: one message, exit 1, no output file left behind.
. "$top_srcdir/test/integration/lib.sh"
CHROME="$top_builddir/scorep-otf2-to-chrome"
CHECK="$top_srcdir/test/tools/chrome_check.py"
DUMP="$top_builddir/test/tools/trace_model_dump"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

# check NAME EXPDIR: converts EXPDIR's trace to NAME.json (-o) and checks it; the summary
# line of chrome_check.py is left in NAME.sum
check()
{
    "$CHROME" -o "$1.json" "$2/traces.otf2" 2>"$1.conv.err" || fail "$1: conversion: $(cat "$1.conv.err")"
    expect_eq "$(cat "$1.conv.err")" "" "$1: nothing on stderr"
    python3 "$CHECK" "$1.json" "$2/traces.otf2" >"$1.sum" 2>"$1.check.err" ||
        fail "$1: chrome_check: $(cat "$1.check.err")"
    echo "ok: $1: $(cat "$1.sum")"
}

# value NAME KEY: a number of NAME's chrome_check summary
value()
{
    tr ' ' '\n' <"$1.sum" | sed -n "s/^$2=//p"
}

# --- metrics: 2 rusage metrics before every enter and leave of main, touch, spin, 2 x
# pthread_create, 2 x pthread_join (main thread) and worker, spin (2 threads):
# 2 x (14 + 4 + 4) = 44 values ---
scorep_cc gcc -O1 -o metrics "$PROGRAMS/metrics.c" -lpthread
run_app m env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=m \
    SCOREP_METRIC_RUSAGE=ru_minflt,ru_utime ./metrics 100 20 2 0
expect_eq "$status" 0 "metrics: exit status"
check metrics m
expect_eq "$(value metrics counters)" 44 "metrics: 44 counter events, the trace's values"
expect_eq "$(value metrics regions)" 11 "metrics: 11 region events"
expect_eq "$(value metrics tracks)" 3 "metrics: one track per thread"
expect_eq "$(grep -c '"ph":"C","cat":"metric","pid":0,"name":"ru_minflt \[Pthread thread 1\]"' metrics.json)" 4 \
    "metrics: a counter track per metric and thread, named after the thread"
# stdout and -o write the same bytes
"$CHROME" m/traces.otf2 >metrics.stdout.json || fail "conversion to stdout"
"$CHROME" -o metrics.dir.json m || fail "conversion of the experiment directory"
# the written file's mode is 0666 less the umask, as a file the tool created itself
(umask 027 && "$CHROME" -o umask.json m) || fail "conversion under umask 027"
expect_eq "$(stat -c %a umask.json)" 640 "output file's mode under umask 027"
expect_eq "$(md5sum <metrics.stdout.json)" "$(md5sum <metrics.json)" "stdout and -o agree"
expect_eq "$(sed 's/"trace":"[^"]*"/"trace":""/' metrics.dir.json | md5sum)" \
    "$(sed 's/"trace":"[^"]*"/"trace":""/' metrics.json | md5sum)" "a directory converts as its traces.otf2"

# --- the checker itself finds broken output: a region that outlasts its parent ---
python3 - metrics.json broken.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
x = [e for e in d["traceEvents"] if e["ph"] == "X" and e["name"] != "main" and e["tid"] == 0][0]
x["dur"] += 10.0 ** 7
json.dump(d, open(sys.argv[2], "w"))
PY
rc=0
python3 "$CHECK" broken.json m/traces.otf2 >/dev/null 2>broken.err || rc=$?
expect_eq "$rc" 1 "checker: broken nesting fails"
expect_grep "complete events overlap" broken.err "checker: says why"

# --- MPI: 3 ranks, 40 rounds of Isend/Irecv and Sendrecv around the ring: 240 messages ---
if [ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] && command -v mpirun >/dev/null 2>&1; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    scorep_cc mpicc -O2 -o ring3 "$PROGRAMS/ring3.c"
    run_app ring env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=r \
        mpirun --bind-to core:overload-allowed -np 3 ./ring3 40
    expect_eq "$status" 0 "ring3: exit status"
    expect_eq "$(cat ring.out)" "sum 120" "ring3: output"
    check ring r
    expect_eq "$(value ring flows)" 240 "ring3: 240 flow arrows, one per message"
    expect_eq "$(value ring processes)" 3 "ring3: one process per rank"
    expect_eq "$(grep -o '"name":"Rank [0-9]*[^"]*"' ring.json | sed 's/ on .*"/"/' | sort | tr '\n' ' ')" \
        '"name":"Rank 0" "name":"Rank 1" "name":"Rank 2" ' "ring3: processes named by rank"
    expect_eq "$(grep -c '"ph":"f".*"bp":"e"' ring.json)" 240 "ring3: 240 flow ends bound to their slice"
    expect_eq "$("$DUMP" r | grep '^matrix ' | tr '\n' '|')" \
        "matrix 0 1 messages=80 bytes=15360|matrix 1 2 messages=80 bytes=15360|matrix 2 0 messages=80 bytes=15360|" \
        "ring3: the model's matrix: 80 messages (40 x 128 + 40 x 256 bytes) to the next rank"
    expect_eq "$(value ring regions)" "$(trace_count r ENTER)" "ring3: region events = ENTERs"
    # MPI + OpenMP (test/omp/hybrid.c): 2 ranks x 4 threads, with MPI_THREAD_MULTIPLE every
    # thread exchanges 3 messages with its peer thread: 24 arrows between thread tracks
    if nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$'; then
        scorep_cc mpicc -fopenmp -o hybrid "$top_srcdir/test/omp/hybrid.c"
        run_app hybrid env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=h \
            mpirun --bind-to core:overload-allowed -np 2 ./hybrid
        expect_eq "$status" 0 "hybrid: exit status"
        check hybrid h
        expect_eq "$(value hybrid tracks)" 8 "hybrid: 8 thread tracks"
        if grep -q 'rank 0 multiple' hybrid.out; then
            expect_eq "$(value hybrid flows)" 24 "hybrid: 24 arrows between the threads"
            expect_eq "$(grep '"ph":"s"' hybrid.json | sed 's/.*"pid":\([0-9]*\),"tid":\([0-9]*\).*/\1.\2/' |
                sort -u | wc -l | tr -d ' ')" 8 "hybrid: arrows start on all 8 threads"
        else
            expect_eq "$(value hybrid flows)" 0 "hybrid (MPI_THREAD_FUNNELED): no messages"
        fi
    else
        skip_part "OpenMP (OMPT tool)"
    fi
else
    skip_part "MPI (adapter or mpirun)"
fi

# --- OpenMP tasks (test/omp/tasks.c): 51 explicit tasks, each on a task lane ---
# (clang's OpenMP is LLVM's libomp, which a build may lack: cross_aarch64.sh's has none)
if nm -D "$top_builddir/.libs/libscorep-rt.so" | grep -q ' T ompt_start_tool$' &&
    grep -q '^#define SCOREP_LIBOMP_SO ' "$top_builddir/config.h" &&
    command -v clang >/dev/null 2>&1; then
    scorep_cc clang -fopenmp -o tasks "$top_srcdir/test/omp/tasks.c"
    run_app tasks env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=t \
        SCOREP_TOTAL_MEMORY=200M SCOREP_TIMER=clock_gettime ./tasks
    expect_eq "$status" 0 "tasks: exit status"
    check tasks t
    expect_eq "$(trace_count t THREAD_TASK_COMPLETE)" 51 "tasks: 51 tasks in the trace"
    expect_eq "$(value tasks task_regions_on_lanes)" 51 "tasks: 51 task regions on task lanes"
    expect_eq "$(value tasks task_regions_on_threads)" 0 "tasks: none on the threads' tracks"
    expect_ge "$(value tasks lanes)" 1 "tasks: at least one lane"
    expect_eq "$(grep -c '"name":"task_body".*"task":"' tasks.json)" 50 \
        "tasks: task_body() inside the 50 tasks that call it, on their lanes"
else
    skip_part "OpenMP (OMPT tool or clang)"
fi

# --- unwinding and sampling: calling-context events as "callpath" complete events (every
# frame of sampling_hot.c is instrumented, so one per CALLING_CONTEXT_ENTER), samples as
# instant events ---
scorep_cc gcc -O1 -o hot "$PROGRAMS/sampling_hot.c"
run_app hot env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=s SCOREP_VERBOSE=true \
    SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS=timer@1000 ./hot
expect_eq "$status" 0 "sampling: exit status"
check hot s
expect_eq "$(value hot callpath)" "$(trace_count s CALLING_CONTEXT_ENTER)" \
    "sampling: one callpath event per calling-context enter"
expect_eq "$(value hot samples)" "$(trace_count s CALLING_CONTEXT_SAMPLE)" \
    "sampling: one instant event per sample"
# sampling_hot.c spends 500 ms of CPU time at a 1 ms period; the kernel coalesces expirations
# into fewer signals (its tick), so not an exact count, but at least 5 where it signalled the
# thread at least 10 times (a loaded machine signals it less: lib.sh kernel_signals)
expect_samples_ge "$(value hot samples)" 5 "sampling: samples exported" hot.err 0

# --- bad input: one message, exit 1, nothing left behind ---
bad()
{
    rc=0
    "$CHROME" -o out.json "$1" >bad.out 2>bad.err || rc=$?
    expect_eq "$rc" 1 "$3: exit status"
    expect_eq "$(wc -l <bad.err | tr -d ' ')" 1 "$3: one line on stderr"
    expect_grep "^scorep-otf2-to-chrome: .*$2" bad.err "$3: the reason"
    expect_eq "$(entries . '^out\.json')" 0 "$3: no output file, no temporary"
    expect_eq "$(wc -c <bad.out | tr -d ' ')" 0 "$3: nothing on stdout"
}
bad missing/traces.otf2 "No such file or directory" "missing trace"
mkdir empty
bad empty "a directory without traces.otf2" "empty directory"
cp -r m cutdef
truncate -s 100 cutdef/traces.def
bad cutdef/traces.otf2 "global definitions are unreadable: .*cutdef/traces.def: truncated" \
    "truncated definitions"
# an event file cut short: a warning naming it, the rest converted (otf2_read_guard.c;
# test/fuzz/test_trace_damage.sh checks the events kept)
cp -r m cut
n=$(truncate_unmarked cut/traces/0.evt 100) || fail "truncate cut/traces/0.evt"
rc=0
"$CHROME" -o cut.json cut/traces.otf2 2>cut.err || rc=$?
expect_eq "$rc" 0 "truncated event file: exit status"
expect_grep "^scorep-otf2-to-chrome: warning: .*cut/traces/0.evt: truncated in chunk 1: $n of" \
    cut.err "truncated event file: a warning naming the file"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' cut.json ||
    fail "truncated event file: no valid JSON"
: >notatrace
bad notatrace "not an OTF2 archive" "empty file"
rc=0
"$CHROME" -o nodir/out.json m 2>bad.err || rc=$?
expect_eq "$rc" 1 "unwritable output: exit status"
expect_grep "^scorep-otf2-to-chrome: nodir/out.json: cannot create: No such file or directory" bad.err \
    "unwritable output: the reason"
if [ -w /dev/full ]; then
    rc=0
    "$CHROME" m/traces.otf2 >/dev/full 2>bad.err || rc=$?
    expect_eq "$rc" 1 "full disk: exit status"
    expect_eq "$(cat bad.err)" "scorep-otf2-to-chrome: stdout: No space left on device" \
        "full disk: the reason"
fi
# a signal while writing: the file size limit (ulimit -f 4: 2 or 4 KiB) is passed at the first
# write of the 1 MiB buffer, SIGXFSZ ends the conversion; its temporary file is removed
mkdir sig
rc=0
(ulimit -f 4 && exec "$CHROME" -o sig/out.json m) 2>bad.err || rc=$?
expect_eq "$rc" 153 "file size limit: ended by SIGXFSZ (128 + 25)"
expect_eq "$(entries sig)" 0 "file size limit: no output file, no temporary file"
rc=0
"$CHROME" >/dev/null 2>bad.err || rc=$?
expect_eq "$rc" 2 "no argument: usage error"
expect_grep "^usage: scorep-otf2-to-chrome" bad.err "no argument: usage"
done_ok
