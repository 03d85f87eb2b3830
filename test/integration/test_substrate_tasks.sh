#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_substrate_tasks.sh: the OpenMP task events of substrate plugins
# (THREAD_FORK_JOIN_TASK_CREATE, _SWITCH, _BEGIN, _END) and the core_task_create /
# core_task_complete management calls, with the plugin test/plugins/substrate_mpp.c built
# here from Score-P's public headers only: test/omp/tasks.c (51 explicit tasks in teams of 4
# threads) built with scorep-cc gcc on GNU libgomp (the GOMP_* wrappers) and on LLVM's
# libomp (OMPT), traced. The counts are the program's design; every task handle of an event
# was created and not yet completed, all are completed at the end; the task regions come as
# TASK_BEGIN/TASK_END only (no ENTER_REGION/EXIT_REGION); and each location's task events
# (timestamps, creating thread, generation, region) are exactly the trace's records
# (otf2-print): TASK_BEGIN at the enter of the task's region, TASK_END at its leave; the
# OpenMP regions' SCOREP_RegionType are Score-P's (parallel, single, task, ...). Then the
# OpenMP workers' activate_cpu_location/deactivate_cpu_location at each team they join and
# leave (3 parallel regions of 2 threads), as Score-P's fork-join threads. First the POSIX
# threads' activate_cpu_location: test/programs/substrate_calls.c (2 threads), each thread's
# location activated once with its creation's sequence number (Score-P passes its
# create/wait sequence count), the one of the trace's ThreadBegin.
. "$top_srcdir/test/integration/lib.sh"

mkdir plug
cc -shared -fPIC -O1 -Wall -Wextra -Werror -I"$top_srcdir/include" -o plug/libscorep_substrate_mpp.so \
    "$top_srcdir/test/plugins/substrate_mpp.c" -lpthread || fail "build of the test plugin"
export LD_LIBRARY_PATH="$work/plug${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# ---- POSIX threads: ACTIVATE loc=L parent=0 seq=S, S the trace's ThreadBegin sequence number
scorep_cc gcc -O1 -o calls "$PROGRAMS/substrate_calls.c" -lpthread
run_app calls env SCOREP_EXPERIMENT_DIRECTORY=calls.exp SCOREP_SUBSTRATE_PLUGINS=mpp \
    SCOREP_ENABLE_TRACING=true SUBSTRATE_MPP_OUT="$work/calls.mpp" ./calls
expect_eq "$status:$(cat calls.err):$(cat calls.out)" "0::sink 12" \
    "pthreads: exit status, nothing on stderr, the program's output"
activations=$(awk '$1 == "log" && $2 == "ACTIVATE" { print $4, $5, $6 }' calls.mpp.0 | sort)
expect_eq "$(echo "$activations" | tr '\n' ';')" \
    "$(awk '$1 == "THREAD_BEGIN" { s = $0; sub(/.*Sequence Count: /, "", s); sub(/[^0-9].*/, "", s)
            print "loc=" int($2 / 4294967296), "parent=0", "seq=" s }' "$(trace_file calls.exp)" |
        { echo "loc=0 parent=-1 seq=0"; cat; } | sort | tr '\n' ';')" \
    "pthreads: each location activated once; a thread's with its parent and its ThreadBegin's sequence number"
expect_eq "$(echo "$activations" | sed -n 's/.*parent=0 seq=//p' | sort -n | tr '\n' ' ')" "1 2 " \
    "pthreads: the 2 threads' creation sequence numbers 1 and 2"

if ! nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$'; then
    skip_part_here "OpenMP tasks and teams" "the OpenMP (OMPT) adapter was not built"
    done_ok
    exit 0
fi

# trace_tasks EXPDIR LOCATION: the task records of location LOCATION (its number in the
# process, the plugin's: the trace's id LOCATION << 32) in the plugin's log format: a
# switch followed by the enter of a task's region is TASK_BEGIN (at the enter), the leave of
# a task's region with the completion after it TASK_END (at the leave), the other switches
# TASK_SWITCH
trace_tasks()
{
    awk -v loc="$(loc_id 0 "$2")" '$2 == loc && $3 ~ /^[0-9]+$/' "$(trace_file "$1")" | python3 -c '
import re, sys
out, pending, end = [], None, None
def tg(rest):
    th = re.search(r"Creating Thread: (\d+)", rest).group(1)
    gen = re.search(r"Generation Number: (\d+)", rest).group(1)
    return "thread=%s gen=%s" % (th, gen)
for line in sys.stdin:
    name, _, t, rest = (line.rstrip("\n").split(None, 3) + [""])[:4]
    m = re.search(r"Region: \"(!\$omp task @[^\"]*)\"", rest)
    if name == "ENTER" and m and pending:
        out.append("TASK_BEGIN %s %s region=%s" % (t, pending[1], m.group(1)))
        pending = None
        continue
    if pending:
        out.append("TASK_SWITCH %s %s" % pending)
        pending = None
    if name == "LEAVE" and m:
        end = (t, m.group(1))
    elif name == "THREAD_TASK_COMPLETE" and end:
        out.append("TASK_END %s %s region=%s" % (end[0], tg(rest), end[1]))
        end = None
    elif name == "THREAD_TASK_SWITCH":
        pending = (t, tg(rest))
    elif name == "THREAD_TASK_CREATE":
        out.append("TASK_CREATE %s %s" % (t, tg(rest)))
if pending:
    out.append("TASK_SWITCH %s %s" % pending)
print("\n".join(out))
'
}

# plugin_tasks FILE LOCATION: the plugin's task events of the location without the handles
plugin_tasks()
{
    sed -n "s/^log \(TASK_[A-Z]* [0-9]*\) loc=$2 paradigm=8 team=[0-9]* \(thread=[0-9]* gen=[0-9]*\)/\1 \2/p" "$1" |
        sed 's/ task=0x[0-9a-f]*//; s/ metrics=0//'
}

# line_of NAME: the line of tasks.c's pragma marked /* NAME */
line_of() { grep -n "/\* $1 \*/" "$top_srcdir/test/omp/tasks.c" | cut -d: -f1; }

for rt in libgomp libomp; do
    scorep_cc --openmp-runtime=$rt gcc -fopenmp -O1 -o tasks_$rt "$top_srcdir/test/omp/tasks.c"
    run_app $rt env SCOREP_EXPERIMENT_DIRECTORY=$rt SCOREP_ENABLE_TRACING=true SCOREP_SUBSTRATE_PLUGINS=mpp \
        SUBSTRATE_MPP_OUT="$work/$rt.mpp" ./tasks_$rt
    expect_eq "$status:$(cat $rt.err)" "0:" "$rt: exit status, nothing on stderr"
    f=$rt.mpp.0
    # 51 tasks (20 of the chain, 10 that create 2 each, the sleeper): each created, begun and
    # ended once; core_task_create for them and for the 4 threads' implicit tasks, all
    # completed; none of the tasks' regions entered as a region
    expect_eq "$(sed -n 's/^count \(TASK_[A-Z]*\) /\1 /p' "$f" | grep -v SWITCH | tr '\n' ';')" \
        "TASK_CREATE 51;TASK_BEGIN 51;TASK_END 51;" "$rt: 51 tasks created, begun and ended"
    expect_eq "$(sed -n 's/^tasks //p' "$f")" "created 55 completed 55 live 0 errors 0 region_enters 0" \
        "$rt: 51 + 4 implicit tasks created and completed, every event's task live, no task region entered"
    expect_eq "$(sed -n 's/^backwards //p' "$f")" 0 "$rt: timestamps increase per location"
    # SCOREP_RegionHandle_GetType: Score-P's types of the OpenMP constructs' regions (the
    # plugin's table), at every enter and exit and task begin (at least the 51 tasks')
    expect_eq "$(sed -n 's/^omp region types right \([0-9]*\) wrong \([0-9]*\)$/\2 \1/p' "$f" |
        awk '{ print $1, ($2 >= 51) }')" "0 1" \
        "$rt: every OpenMP construct region has Score-P's region type ($(grep '^omp region types' "$f"))"
    # the chain's 20 tasks and the sleeper from the thread executing the single construct,
    # generations 1, 2, ... on each creating thread; 20 children from the 10 parents
    expect_eq "$(awk '$1 == "log" && $2 == "TASK_CREATE" { sub(/.* gen=/, ""); n[$0]++ } END { for (g in n) s += n[g] * g; print s }' "$f")" \
        "$(awk '$1 == "log" && $2 == "TASK_END" { sub(/.* gen=/, ""); sub(/ .*/, ""); n[$0]++ } END { for (g in n) s += n[g] * g; print s }' "$f")" \
        "$rt: the generations created are the ones that ended"
    # the 4 task constructs' regions, by the lines of tasks.c's pragmas: the sleeper's (1),
    # the chain's (20), the parents' (10), the children's (20). libomp (up to at least 14)
    # gives a gcc program's task created inside a task that a thread runs in a barrier, now
    # and then, a stale code pointer: the closing barrier's, at the parallel construct's line
    # (seen: 2-4 of the 20 children in 3 of 8 loaded runs; its GOMP_task keeps a return
    # address stored before). The trace has the same names (compared below); such children
    # count as children here.
    # Under libomp the sleeper is named by OMPT's code pointer, the return address of its
    # GOMP_task call, which gcc's line table puts at the enclosing parallel's line; the
    # GOMP_* wrappers on libgomp name it after the pragma (docs/openmp.md).
    child_alias= sleeper=$(line_of SLEEP_TASK)
    if [ $rt = libomp ]; then child_alias=$(line_of PAR) sleeper=$(line_of PAR_SLEEP); fi
    expect_eq "$(awk -v alias="$child_alias" -v child="$(line_of CHILD)" '$1 == "log" && $2 == "TASK_BEGIN" {
            r = $0; sub(/.*region=/, "", r)
            if (alias != "" && r == "!$omp task @tasks.c:" alias) r = "!$omp task @tasks.c:" child
            n[r]++ } END { for (r in n) print r, n[r] }' "$f" | sort | tr '\n' ';')" \
        "$(printf '!$omp task @tasks.c:%s %s\n' "$sleeper" 1 "$(line_of CHAIN)" 20 \
            "$(line_of PARENT)" 10 "$(line_of CHILD)" 20 | sort | tr '\n' ';')" \
        "$rt: TASK_BEGIN names the task construct's region"
    expect_eq "$(awk '$1 == "log" && ($2 == "TASK_BEGIN" || $2 == "TASK_END") { k = $0; sub(/ metrics.*/, "", k); sub(/^log [A-Z_]* [0-9]* /, "", k); d[k] += $2 == "TASK_BEGIN" ? 1 : -1 } END { for (k in d) if (d[k]) n++; print n + 0 }' "$f")" 0 \
        "$rt: every task begun and ended on the same location with the same handle"
    n=0
    for loc in 0 1 2 3; do
        trace_tasks $rt $loc >$rt.trace.$loc
        plugin_tasks "$f" $loc >$rt.plugin.$loc
        n=$((n + $(awk 'END { print NR }' $rt.plugin.$loc)))
        expect_eq "$(cat $rt.plugin.$loc)" "$(cat $rt.trace.$loc)" \
            "$rt: location $loc's task events, timestamps, threads, generations, regions as in the trace"
    done
    expect_ge "$n" 153 "$rt: the four locations' task events compared ($n)"
done

# OpenMP workers' CPU locations, as Score-P's fork-join threads: a program with 3 parallel
# regions of 2 threads. The master is activated once (at its creation, parent none, fork
# sequence 0) and deactivated once (at the end); it forks with sequence numbers 1, 2, 3. The
# worker is activated as it joins each team (parent: the master, the fork's sequence number)
# before its TEAM_BEGIN, and deactivated (parent: the master) after its TEAM_END, 3 times
# each; nothing at its creation or at the end. The plugin logs these calls in the order they
# come (under its lock), and each team's handle on the worker is the master's.
cat >three.c <<'EOC'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    int sum = 0;
    for (int r = 0; r < 3; r++) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
        sum += omp_get_thread_num() + 1;
    }
    printf("sum %d\n", sum);
    return 0;
}
EOC
# loc_calls FILE LOC: the location's fork-join events and (de)activations, without
# timestamps and team handles
loc_calls()
{
    awk -v loc="loc=$2" '$1 == "log" && $4 == loc && $2 ~ /^(FORK|JOIN|TEAM_BEGIN|TEAM_END|ACTIVATE|DEACTIVATE)$/ {
        s = $2; for (i = 4; i <= NF; i++) if ($i !~ /^team=/) s = s " " $i; printf "%s;", s }' "$1"
}
for rt in libgomp libomp; do
    scorep_cc --openmp-runtime=$rt gcc -fopenmp -O1 -o three_$rt three.c
    run_app three_$rt env SCOREP_EXPERIMENT_DIRECTORY=three_$rt.exp SCOREP_SUBSTRATE_PLUGINS=mpp \
        SUBSTRATE_MPP_OUT="$work/three_$rt.mpp" OMP_NUM_THREADS=2 ./three_$rt
    expect_eq "$status:$(cat three_$rt.err):$(cat three_$rt.out)" "0::sum 9" \
        "$rt/3 teams: exit status, nothing on stderr, the program's sum"
    f=three_$rt.mpp.0
    workers=$(awk '$1 == "log" && $2 == "TEAM_BEGIN" && $4 != "loc=0" { print $4 }' "$f" | sort -u | tr '\n' ' ')
    expect_eq "$workers" "loc=1 " "$rt/3 teams: one worker location, 1"
    master="ACTIVATE loc=0 parent=-1 seq=0;"
    worker=""
    for k in 1 2 3; do
        master="${master}FORK loc=0 paradigm=8 requested=2 seq=$k;TEAM_BEGIN loc=0 paradigm=8;TEAM_END loc=0 paradigm=8;JOIN loc=0 paradigm=8;"
        worker="${worker}ACTIVATE loc=1 parent=0 seq=$k;TEAM_BEGIN loc=1 paradigm=8;TEAM_END loc=1 paradigm=8;DEACTIVATE loc=1 parent=0;"
    done
    master="${master}DEACTIVATE loc=0 parent=-1;"
    expect_eq "$(loc_calls "$f" 0)" "$master" \
        "$rt/3 teams: the master forks with sequence 1, 2, 3; activated and deactivated once, at its begin and end"
    expect_eq "$(loc_calls "$f" 1)" "$worker" \
        "$rt/3 teams: the worker activated before each team begin (parent the master, the fork's sequence), deactivated after each team end"
    expect_eq "$(awk '$1 == "log" && $2 == "TEAM_BEGIN" && $4 == "loc=1" { printf "%s;", $6 }' "$f")" \
        "$(awk '$1 == "log" && $2 == "TEAM_BEGIN" && $4 == "loc=0" { printf "%s;", $6 }' "$f")" \
        "$rt/3 teams: the worker's teams are the master's"
    expect_eq "$(sed -n 's/^backwards //p' "$f")" 0 "$rt/3 teams: timestamps increase per location"
done
done_ok
