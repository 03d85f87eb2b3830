#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_untied.sh: test/omp/untied.c (in a team of 2 threads, one untied task that yields
# inside a user region until LLVM's libomp resumes it on the other thread), built with
# scorep-cc --user clang, traced, profiled and seen by the substrate plugin
# test/plugins/substrate_mpp.c. Whatever thread the task ends on: per location its records
# form parts "switch to the task, Enter, (the user region's Enter and Leave,) Leave, then a
# switch away or (once, on the location of the thread the program saw at the end) its
# ThreadTaskComplete", so nothing of it stays open anywhere; the user region begins on the
# location of the thread the body began on and ends on the one it ended on; the profile's
# visits of the task's region and of the user region below it per location are its parts
# there (CubeLib's too) and no exclusive time is negative; the plugin gets TASK_BEGIN where
# the first part ran and TASK_END, at the last Leave's time, where it completed, no enter of
# the task's region, a switch per trace switch otherwise; every switch to an implicit task
# names the location's id (Score-P's); otf2-print and Scalasca's scout.omp and scout.hyb
# (where built) read the trace without a message. Score-P's task migration metrics
# (task_migration_loss / _win) per location on the parallel region's call path equal the
# counts derived from the trace's task switches (migrations below), CubeLib reads them and
# Score-P's definitions, square -s (SQUARE) keeps them; a program without tasks
# (test/omp/parallel.c) has no such metric. untied_many.c's rescue piece (a checkpoint taken
# after its team ended) recovered by scorep-recover has the same migration values and the
# normal profile's metrics (piece version 6), and that piece marked version 5 is named and
# left out; a run aborted inside the region after its tasks: its profile and a checkpoint
# taken inside the region, recovered, have the trace's migration values (session 25).
# Runs with the default bound until the task moved (at most 5 runs; libomp moved it in 5 of
# 5 unmeasured runs), then once with 0 yields (it cannot move inside the body): both paths
# are checked; which ran is printed. Then test/omp/untied_many.c (50 untied tasks with tied
# children and taskwaits, 4 threads; see its part below).
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"
export SCOREP_TIMER=clock_gettime # one clock for all CPUs: parts compared across locations

find_cubelib_dump "CubeLib's own reading of the profiles (cube_dump)"
SCOUT_OMP=${SCOUT_OMP:-$(command -v scout.omp || true)}
SCOUT_HYB=${SCOUT_HYB:-$(command -v scout.hyb || true)}
[ -n "$SCOUT_OMP$SCOUT_HYB" ] || skip_part_here "Scalasca's scout.omp and scout.hyb on the traces" \
    "Scalasca is not packaged for this system (set SCOUT_OMP, SCOUT_HYB to built ones)"

mkdir plug
cc -shared -fPIC -O1 -Wall -Wextra -Werror -I"$top_srcdir/include" -o plug/libscorep_substrate_mpp.so \
    "$top_srcdir/test/plugins/substrate_mpp.c" -lpthread || fail "build of the test plugin"
export LD_LIBRARY_PATH="$work/plug${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

scorep_cc --user clang -fopenmp -o untied "$OMP_SRC/untied.c"
TASK="!\$omp task untied @untied.c:$(line untied TASK)"
PAR="main/!\$omp parallel @untied.c:$(line untied PAR)"

# scouts EXPDIR LABEL: scout.omp and scout.hyb (those found) read the trace; their output is
# the banner and the progress lines only
scouts()
{
    for _s in "$SCOUT_OMP" "$SCOUT_HYB"; do
        [ -n "$_s" ] || continue
        "$_s" "$1/traces.otf2" >"$1.${_s##*/}" 2>&1 ||
            fail "$2: ${_s##*/} refuses the trace: $(tail -c 600 "$1.${_s##*/}")"
        expect_eq "$(awk '!/^(SCOUT .*|Copyright .*|Analyzing experiment archive .*|[A-Z][a-z ]* \.\.\. done \([0-9.]+s\)\.|Max\. memory usage .*|Total processing time .*|)$/' \
            "$1.${_s##*/}")" "" "$2: ${_s##*/} without messages"
        mv "$1/scout.cubex" "$1.${_s##*/}.report" # no profile of ours (check_profiles)
    done
}

# implicit_named EXPDIR LABEL: every switch to an implicit task (generation 0) names the
# location's own number as its creating thread (Score-P's implicit task, which Scalasca's
# PEARL takes as the location's index in its process: id >> 32 of its OTF2 id local << 32 |
# rank), and whether a thread's number in the team (an explicit task's creating thread)
# differed from its location's number in this run
implicit_named()
{
    expect_eq "$(trace_events "$1" | awk '$1 == "THREAD_TASK_SWITCH" && / Generation Number: 0$/ {
            c = $0; sub(/.*Creating Thread: /, "", c); sub(/ .*/, "", c)
            if (c != ($2 - $2 % 4294967296) / 4294967296) bad++ }
            END { print bad + 0 }')" 0 "$2: the implicit tasks named by their locations' ids"
    echo "$2: locations numbered $(trace_events "$1" | awk '$1 == "THREAD_TASK_CREATE" {
            c = $0; sub(/.*Creating Thread: /, "", c); sub(/ .*/, "", c)
            if (c != ($2 - $2 % 4294967296) / 4294967296) d = 1 }
            END { print d ? "unlike the team (a worker whose team number is not its location id)" : "as the team" }')"
}

# parts EXPDIR LOC: the location's records of the untied task as letters: S a switch to it,
# s a switch to another task, E its Enter, L its Leave, C its completion, U and u the user
# region's Enter and Leave
parts()
{
    trace_events "$1" | awk -v loc="$2" -v r="$TASK" '
        $2 != loc { next }
        $1 == "THREAD_TASK_SWITCH" || $1 == "THREAD_TASK_COMPLETE" {
            g = $0; sub(/.*Generation Number: /, "", g); g += 0 }
        $1 == "THREAD_TASK_SWITCH" { printf "%s", g ? "S" : "s" }
        $1 == "THREAD_TASK_COMPLETE" { printf "C" }
        ($1 == "ENTER" || $1 == "LEAVE") && index($0, "Region: \"" r "\"") { printf "%s", $1 == "ENTER" ? "E" : "L" }
        ($1 == "ENTER" || $1 == "LEAVE") && index($0, "Region: \"loop\"") { printf "%s", $1 == "ENTER" ? "U" : "u" }
        END { print "" }'
}

# migrations EXPDIR NLOC: Score-P's task migration counts (SCOREP_Profile_Tasking.c) from
# the trace, "LOC:LOSS/WIN;" for locations 0 to NLOC-1: each explicit task's parts in time
# order (the switches to it, wherever they are); a part on another location than the one
# before it is a win there and a loss where the one before ran
migrations()
{
    trace_events "$1" | awk '$1 == "THREAD_TASK_SWITCH" && !/ Generation Number: 0$/ {
            k = $0; sub(/.*Thread Team: /, "", k); print $3, ($2 - $2 % 4294967296) / 4294967296, k }' |
        sort -n -k1,1 |
        awk -v n="$2" '{ k = $0; sub(/^[0-9]+ [0-9]+ /, "", k)
                if (k in at && at[k] != $2) { win[$2]++; loss[at[k]]++ }
                at[k] = $2 }
            END { for (l = 0; l < n; l++) printf "%d:%d/%d;", l, loss[l] + 0, win[l] + 0 }'
}

# profile_migrations EXPDIR CALLPATH NLOC: the profile's task_migration_loss and _win of
# CALLPATH (the parallel region's, where Score-P puts them) as migrations prints them
profile_migrations()
{
    for _l in $(seq 0 $(($3 - 1))); do
        printf '%d:%d/%d;' $_l "$(profile_sum "$1" "$2" task_migration_loss $_l)" \
            "$(profile_sum "$1" "$2" task_migration_win $_l)"
    done
}

# check X LABEL: the invariants of one run (program output X.out, experiment X.exp)
check()
{
    x=$1.exp label=$2 f=$1.mpp.0
    set -- $(sed -n 's/^first=\([01]\) last=\([01]\) yields=\([0-9]*\) moved=\([a-z]*\)$/\1 \2 \3 \4/p' $1.out)
    expect_eq "$#" 4 "$label: the program printed its threads"
    first=$1 last=$2 moved=$4
    set -- "$x" "$label"
    omp_consistent $x "$2"
    implicit_named $x "$2"
    expect_eq "$(events $x THREAD_TASK_CREATE)" 1 "$2: one task created"
    # the team's thread n is location n (the master's is 0, one worker)
    expect_eq "$(team_begins $x | awk '{ printf "%s %s;", $1, $3 }')" "0 1;1 1;" \
        "$2: locations 0 and 1 each begin the team once"
    total=0
    for loc in 0 1; do
        p=$(parts $x "$(loc_id 0 $loc)")
        q=$(echo "$p" | cut -c1-40) # for the messages: up to 10^6 parts
        if [ "$loc" = "$last" ]; then
            expect_eq "$(echo "$p" | grep -Ec '^(SE(Uu)?Ls)*SEUuLCs$')" 1 \
                "$2: location $loc (the task's end): its parts, the last one completing it ($q...)"
        else
            expect_eq "$(echo "$p" | grep -Ec '^(SE(Uu)?Ls)*$')" 1 \
                "$2: location $loc: whole parts only, none completes it ($q...)"
        fi
        n=$(printf '%s' "$p" | tr -cd E | wc -c)
        total=$((total + n))
        expect_eq "$(visits $x "$PAR/$TASK" $loc)" "$n" \
            "$2: location $loc: the profile's visits of the task are its $n parts there"
        n=$(printf '%s' "$p" | tr -cd U | wc -c)
        expect_eq "$(visits $x "$PAR/$TASK/loop" $loc)" "$n" \
            "$2: location $loc: the profile's visits of the user region are its $n parts there"
    done
    # the user region, by time: its first Enter where the body began, its last Leave where
    # the body ended
    expect_eq "$(trace_events $x | awk '($1 == "ENTER" || $1 == "LEAVE") && index($0, "Region: \"loop\"") {
            l = ($2 - $2 % 4294967296) / 4294967296 # the number in the process: id >> 32
            if ($1 == "ENTER" && (ft == "" || $3 + 0 < ft + 0)) { ft = $3; fl = l }
            if ($1 == "LEAVE" && (lt == "" || $3 + 0 > lt + 0)) { lt = $3; ll = l } }
            END { print fl, ll }')" "$first $last" \
        "$2: the user region begins on location $first and ends on $last"
    if [ "$moved" = yes ]; then
        expect_ge "$(printf '%s' "$(parts $x "$(loc_id 0 $first)")" | tr -cd E | wc -c)" 1 \
            "$2: a part on location $first, where the body began"
    fi
    expect_ge "$total" 1 "$2: the task ran ($total parts)"
    expect_eq "$(metric_list $x)" "visits time min_time max_time task_migration_loss task_migration_win " \
        "$2: the metrics: Score-P's task migration metrics in a program with explicit tasks"
    m=$(migrations $x 2)
    expect_eq "$(profile_migrations $x "$PAR" 2)" "$m" \
        "$2: the profile's task migrations (loss/win) per location are the trace's"
    [ "$moved" = no ] || expect_eq "$(echo "$m" | awk -F'[:/;]' '{ for (i = 3; i <= NF; i += 3) w += $i; print (w > 0) }')" 1 \
        "$2: a task that moved is a migration in the trace ($m)"
    expect_eq "$(profile_sum $x . task_migration_win)$(profile_sum $x . task_migration_loss)" 00 \
        "$2: no migration counted on the program's root"
    echo "$2: migrations (location:loss/win) $m"
    expect_eq "$(visits $x "$PAR/$TASK")" "$total" "$2: the task's visits, all locations"
    # the plugin's view (Score-P's): begin where the first part ran, end where it completed
    begin_loc=$(trace_events $x | awk -v r="$TASK" '$1 == "ENTER" && index($0, "Region: \"" r "\"") {
        if (t == "" || $3 + 0 < t + 0) { t = $3; l = ($2 - $2 % 4294967296) / 4294967296 } }
        END { print l }')
    end_ts=$(trace_events $x | awk -v r="$TASK" -v loc="$(loc_id 0 $last)" '$1 == "LEAVE" && $2 == loc &&
        index($0, "Region: \"" r "\"") { t = $3 } END { print t }')
    expect_eq "$(sed -n 's/^tasks //p' "$f")" "created 3 completed 3 live 0 errors 0 region_enters 0" \
        "$2: plugin: the task and 2 implicit tasks created and completed, every event's task live, no enter of the task's region"
    expect_eq "$(awk '$1 == "log" && ($2 == "TASK_BEGIN" || $2 == "TASK_END") { print $2, $4 }' "$f" | tr '\n' ';')" \
        "TASK_BEGIN loc=$begin_loc;TASK_END loc=$last;" "$2: plugin: TASK_BEGIN on location $begin_loc, TASK_END on $last"
    expect_eq "$(awk '$1 == "log" && $2 == "TASK_END" { print $3 }' "$f")" "$end_ts" \
        "$2: plugin: TASK_END at the time of the task's last Leave"
    for loc in 0 1; do
        sw=$(events $x THREAD_TASK_SWITCH "$(loc_id 0 $loc)")
        [ "$loc" != "$begin_loc" ] || sw=$((sw - 1))
        expect_eq "$(awk -v l=loc=$loc '$1 == "log" && $2 == "TASK_SWITCH" && $4 == l' "$f" | wc -l)" "$sw" \
            "$2: plugin: location $loc's switches are the trace's (less the begin)"
    done
    if [ -n "$CUBELIB_DUMP" ]; then
        # CubeLib's visits per call path and location are ours; no negative exclusive time
        run_to $x.cl.visits "$CUBELIB_DUMP" -m visits -s csv2 $x/profile.cubex
        run_to $x.cl.time "$CUBELIB_DUMP" -m time -s csv2 $x/profile.cubex
        expect_eq "$(awk -F, 'NR > 1 && $3 > 0 { print $1 + 0, $2 + 0, $3 + 0 }' $x.cl.visits | sort)" \
            "$(profile_dump_raw $x -m visits | awk -F'\t' '{ split($4, kv, "="); if (kv[2] > 0) print $1, $3, kv[2] }' | sort)" \
            "$2: CubeLib: the visits of every call path and location"
        expect_eq "$(awk -F, 'NR > 1 && $3 < -1e-9' $x.cl.time)" "" "$2: CubeLib: no negative exclusive time"
        cubelib_migrations $x "$2"
    fi
    scouts $x "$2"
}

# Score-P's definitions (SCOREP_Profile_Tasking.c) as CubeLib's cube_dump -w shows them, here
# after the four metrics of every profile
CUBE_MIG_DEFS='task_migration_loss  ( id=4, task_migration_loss, , INT64, , Number of task that migrated away., EXCLUSIVEconvertible, cacheable)
task_migration_win  ( id=5, task_migration_win, , UINT64, , Number of tasks that migrated to this location., EXCLUSIVEconvertible, cacheable)'

# cubelib_migrations EXPDIR LABEL: CubeLib reads the two metrics as Score-P defines them
# (root metrics, INT64 / UINT64, no unit, Score-P's descriptions) and their values per call
# path and location as ours
cubelib_migrations()
{
    for _m in task_migration_loss task_migration_win; do
        run_to $1.cl.$_m "$CUBELIB_DUMP" -m $_m -s csv2 $1/profile.cubex
        expect_eq "$(awk -F, 'NR > 1 && $3 != 0 { print $1 + 0, $2 + 0, $3 + 0 }' $1.cl.$_m | sort)" \
            "$(profile_dump_raw $1 -m $_m | awk -F'\t' '{ split($4, kv, "="); if (kv[2] != 0) print $1, $3, kv[2] }' | sort)" \
            "$2: CubeLib: $_m of every call path and location"
    done
    run_to $1.cl.metrics "$CUBELIB_DUMP" -w $1/profile.cubex
    expect_eq "$(awk '/^task_migration/' $1.cl.metrics | sed 's/ *$//')" "$CUBE_MIG_DEFS" \
        "$2: CubeLib: the definitions of the migration metrics"
}

# run N [ARG]: run N of the probe (ARG: its bound of yields)
run()
{
    run_app u$1 env SCOREP_EXPERIMENT_DIRECTORY=u$1.exp SCOREP_ENABLE_TRACING=true \
        SCOREP_TOTAL_MEMORY=200M SCOREP_SUBSTRATE_PLUGINS=mpp SUBSTRATE_MPP_OUT="$work/u$1.mpp" \
        ./untied ${2:-}
    expect_eq "$status:$(cat u$1.err)" "0:" "run $1: exit status, nothing on stderr"
    echo "run $1: $(cat u$1.out)"
}

moved=no
for i in 1 2 3 4 5; do
    run $i
    check u$i "run $i"
    if grep -q 'moved=yes' u$i.out; then
        moved=yes
        echo "path: the task moved in run $i"
        break
    fi
    echo "path: the task did not move in run $i"
done
[ $moved = yes ] || echo "path: the task never moved in 5 runs (only the other path checked)"
run 0 0
expect_grep 'yields=0 moved=no' u0.out "run 0: no yield, the body runs in one part"
check u0 "run 0 (no yield)"
echo "path: the task did not move in run 0"

# Many: test/omp/untied_many.c (50 untied tasks, each with 6 tied children and 2 taskwaits,
# 4 threads: 350 tasks). No region of an untied task is open on a location at any of its
# task switches or completions (each part closed before the thread switches); every task
# created once and completed once; the profile's visits of the tied tasks' regions are the
# program's 250 and 50, those of the untied tasks' region the trace's parts; the plugin's
# begins and ends; scout.omp and scout.hyb without a message (before the implicit tasks were
# named by location, scout.omp crashed on about 1 run in 8: those whose workers' locations
# were numbered unlike the team, which this part prints).
# With a checkpoint every second: a checkpoint written after the team ended (taken while the
# program pauses) is recovered by scorep-recover, whose profile must have the same migration
# counts as the trace and the normal profile (rescue piece version 5 carries them).
scorep_cc clang -fopenmp -o untied_many "$OMP_SRC/untied_many.c"
start_app many env SCOREP_EXPERIMENT_DIRECTORY=many.exp SCOREP_ENABLE_TRACING=true \
    SCOREP_TOTAL_MEMORY=200M SCOREP_SUBSTRATE_PLUGINS=mpp SUBSTRATE_MPP_OUT="$work/many.mpp" \
    SCOREP_CHECKPOINT_INTERVAL=1 ./untied_many pause
wait_output many '^done='
# a piece written after "done=" (mtime newer than mark 1) was packed at the earliest while
# the one before it was written: the next one written after mark 2 was packed after the team
# ended (checkpoints are written one after the other)
# checkpoint_after NAME: waits for the second checkpoint of NAME.exp written after now, and
# copies it to NAME.rec/rescue
checkpoint_after()
{
    wait_checkpoints "$1.exp/rescue/rank-0.piece" "$1"
    mkdir -p $1.rec/rescue
    cp $1.exp/rescue/rank-0.piece $1.rec/rescue/rank-0.piece
}
checkpoint_after many
wait_app
expect_eq "$status:$(cat many.err)" "0:" "many: exit status, nothing on stderr"
expect_grep '^done=50 moved=[0-9]+$' many.out "many: the program ran its 50 untied tasks"
echo "many: $(cat many.out) (untied tasks that ended on another thread)"
x=many.exp
omp_consistent $x many
implicit_named $x many
expect_eq "$(events $x THREAD_TASK_CREATE)" 350 "many: 350 tasks created"
expect_eq "$(trace_events $x | awk '$1 == "THREAD_TASK_COMPLETE" || $1 == "THREAD_TASK_CREATE" {
        k = $0; sub(/.*Creating Thread: /, "", k); sub(/ .*Generation Number: /, ".", k)
        n[$1 " " k]++ } END { for (k in n) if (n[k] != 1) bad++; print bad + 0 }')" 0 \
    "many: each task created once and completed once"
untied_region="!\$omp task untied @untied_many.c:$(line untied_many UNTIED)"
expect_eq "$(trace_events $x | awk -v r="$untied_region" '
        $1 == "ENTER" { st[$2, ++d[$2]] = index($0, "Region: \"" r "\"") ? "U" : "-"; if (st[$2, d[$2]] == "U") parts++ }
        $1 == "LEAVE" { d[$2]-- }
        $1 == "THREAD_TASK_SWITCH" || $1 == "THREAD_TASK_COMPLETE" {
            for (i = 1; i <= d[$2]; i++) if (st[$2, i] == "U") open++ }
        END { print open + 0, parts + 0 > "/dev/stderr"; print open + 0 }' 2>many.parts)" 0 \
    "many: no untied task's region open at a task switch or completion"
set -- $(cat many.parts)
expect_ge "$2" 50 "many: the untied tasks ran in $2 parts"
# (a part's regions are entered again at one timer reading: one tick apart)
echo "many: $(trace_events $x | awk -v r="$untied_region" '
        $1 == "ENTER" && index($0, "Region: \"!$omp taskwait ") && at[$2] != "" && $3 == at[$2] + 1 { n++ }
        { at[$2] = "" } $1 == "ENTER" && index($0, "Region: \"" r "\"") { at[$2] = $3 }
        END { print n + 0 }') parts resumed inside a taskwait (its region entered again)"
MP="main/!\$omp parallel @untied_many.c:$(line untied_many PAR)"
expect_eq "$(visits $x "$MP/$untied_region")" "$2" "many: the untied tasks' visits are their parts"
expect_eq "$(visits $x "$MP/!\$omp task @untied_many.c:$(line untied_many CHILD)")" 250 \
    "many: the 250 children's visits"
expect_eq "$(visits $x "$MP/!\$omp task @untied_many.c:$(line untied_many LAST)")" 50 \
    "many: the 50 last children's visits"
expect_eq "$(sed -n 's/^count \(TASK_[A-Z]*\) /\1 /p' many.mpp.0 | grep -v SWITCH | tr '\n' ';')" \
    "TASK_CREATE 350;TASK_BEGIN 350;TASK_END 350;" "many: plugin: 350 tasks created, begun and ended"
expect_eq "$(sed -n 's/^tasks //p' many.mpp.0)" "created 354 completed 354 live 0 errors 0 region_enters 0" \
    "many: plugin: the tasks and 4 implicit tasks created and completed, every event's task live, no task region entered"
m=$(migrations $x 4)
expect_eq "$(profile_migrations $x "$MP" 4)" "$m" \
    "many: the profile's task migrations (loss/win) per location are the trace's"
expect_eq "$(profile_sum $x . task_migration_win)$(profile_sum $x . task_migration_loss)" 00 \
    "many: no migration counted on the program's root"
echo "many: migrations (location:loss/win) $m"
run_to many.rec.out "$top_builddir/scorep-recover" many.rec
expect_eq "$(cat many.rec.out)" "scorep-recover: 1 of 1 ranks recovered into many.rec" \
    "many: scorep-recover on the checkpoint taken after the team ended"
# (scorep-recover runs even a serial program's recovery over its socket mesh; before piece
# version 6 its Cube writer took that for MPI: bytes_sent / bytes_received, all zero, too)
expect_eq "$(metric_list many.rec)" "$(metric_list $x)" \
    "many: recovered: the normal profile's metrics (the migration metrics, no MPI metric)"
if [ -n "$CUBELIB_DUMP" ]; then
    cubelib_metrics "$CUBELIB_DUMP" $x/profile.cubex many.cl.mlist
    cubelib_metrics "$CUBELIB_DUMP" many.rec/profile.cubex many.rec.cl.mlist
    expect_eq "$(cat many.rec.cl.mlist)" "$(cat many.cl.mlist)" \
        "many: recovered: CubeLib reads the normal profile's metric definitions"
fi
expect_eq "$(profile_migrations many.rec "$MP" 4)" "$m" \
    "many: recovered: the task migrations (loss/win) per location are the trace's"
expect_eq "$(profile_dump_raw many.rec -m task_migration_loss,task_migration_win | sort)" \
    "$(profile_dump_raw $x -m task_migration_loss,task_migration_win | sort)" \
    "many: recovered: both metrics on every call path and location as in the normal profile"
[ -z "$CUBELIB_DUMP" ] || cubelib_migrations many.rec "many: recovered"
# the same piece as version 5 (before the job's kind; its hash made anew): named, left out
mkdir -p many.v5/rescue
python3 - many.rec/rescue/rank-0.piece many.v5/rescue/rank-0.piece <<'EOF_PY' || fail "many: the version 5 piece"
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
assert struct.unpack_from("<I", d, 4)[0] == 6, "not a piece of version 6"
struct.pack_into("<I", d, 4, 5)  # after the magic: the version (recover.c)
h = 0xcbf29ce484222325  # the closing FNV-1a hash of the bytes before it
for b in d[:-8]:
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
struct.pack_into("<Q", d, len(d) - 8, h)
open(sys.argv[2], "wb").write(d)
EOF_PY
rc=0
"$top_builddir/scorep-recover" many.v5 >many.v5.out 2>&1 || rc=$?
expect_eq "$rc:$(cat many.v5.out)" "1:scorep-recover: many.v5/rescue/rank-0.piece was written by another version of scorep-rt (its piece format differs); left out, its rank is listed as missing: recover it with the scorep-rt that measured the run
scorep-recover: 'many.v5/rescue' holds no rank-local pieces: nothing to recover (a job that ended with MPI_Finalize wrote its results itself)" \
    "many: a piece of version 5 is named and left out"
expect_no_file many.v5/profile.cubex "many: no profile from the version 5 piece"
[ -z "$CUBELIB_DUMP" ] || cubelib_migrations $x many
if [ -n "${SQUARE:-}" ] && [ -n "$CUBELIB_DUMP" ]; then
    # Scalasca's square -s (its remapper with our spec) keeps both metrics and their values
    PATH="${SQUARE%/*}:${CUBELIB_DUMP%/*}:$top_builddir:$PATH" "$SQUARE" -s $x >many.square 2>&1 ||
        fail "many: square -s: $(tail -c 600 many.square)"
    for _m in task_migration_loss task_migration_win; do
        run_to many.sq.$_m "$CUBELIB_DUMP" -m $_m -s csv2 $x/summary.cubex
        expect_eq "$(awk -F, 'NR > 1 && $3 != 0' many.sq.$_m)" "$(awk -F, 'NR > 1 && $3 != 0' $x.cl.$_m)" \
            "many: square -s: $_m as in the profile"
    done
    # (the remapped time of the parallel region's call path is not profile_check's: its time per
    # visit above its max_time, on the workers; not ours to check)
    rm $x/summary.cubex
else
    skip_part_here "Scalasca's square -s on the profile" \
        "Scalasca is not packaged for this system (set SQUARE to a built square, CUBELIB_DUMP to cube_dump)"
fi
scouts $x many

# Inside: untied_many.c "inside GO" prints its line inside the parallel region once every
# task ended, its master waits there for the file GO and then calls abort(); a checkpoint
# every second. A checkpoint written inside the region carries the task migration counts
# until then (before session 25 it had none: Score-P adds them at the region's end, and so
# did we): the copy of one written after the line, which is what SIGKILL would leave,
# recovered by scorep-recover, has per location the counts of the trace that the crash
# (SIGABRT inside the region) writes whole; the profile the crash writes has them too (once:
# the region never ended).
start_app in env SCOREP_EXPERIMENT_DIRECTORY=in.exp SCOREP_ENABLE_TRACING=true \
    SCOREP_TOTAL_MEMORY=200M SCOREP_CHECKPOINT_INTERVAL=1 ./untied_many inside "$work/in.go"
wait_output in '^done='
checkpoint_after in
touch in.go
wait_app
expect_eq "$status" 134 "inside: the program died by SIGABRT (abort)"
expect_grep '^done=50 moved=[0-9]+$' in.out "inside: the program ran its 50 untied tasks"
m=$(migrations in.exp 4)
echo "inside: migrations (location:loss/win) $m"
expect_eq "$(profile_migrations in.exp "$MP" 4)" "$m" \
    "inside: the crash's profile: the task migrations (loss/win) per location are the trace's"
expect_eq "$(profile_sum in.exp . task_migration_win)$(profile_sum in.exp . task_migration_loss)" 00 \
    "inside: no migration counted on the program's root"
run_to in.rec.out "$top_builddir/scorep-recover" in.rec
expect_eq "$(cat in.rec.out)" "scorep-recover: 1 of 1 ranks recovered into in.rec" \
    "inside: scorep-recover on the checkpoint taken inside the region"
expect_eq "$(profile_migrations in.rec "$MP" 4)" "$m" \
    "inside: recovered: the task migrations (loss/win) per location are the trace's"
expect_eq "$(metric_list in.rec)" "$(metric_list in.exp)" "inside: recovered: the crash profile's metrics"
[ -z "$CUBELIB_DUMP" ] || cubelib_migrations in.rec "inside: recovered"

# The same, killed by SIGKILL inside the region after a checkpoint written there (no trace:
# the program's design gives the counts): scorep-recover's profile from what the process
# left has as many losses as wins over the locations (every task ended: each migration is a
# loss where the task left and a win where it went on), at least one win per task that ended
# on another thread than it began on (the program's moved=)
start_app ink env SCOREP_EXPERIMENT_DIRECTORY=ink.exp SCOREP_CHECKPOINT_INTERVAL=1 \
    ./untied_many inside "$work/ink.go"
wait_output ink '^done='
checkpoint_after ink
kill -KILL "$app_pid"
wait_app
expect_eq "$status" 137 "inside, SIGKILL: the program died by SIGKILL"
expect_grep '^done=50 moved=[0-9]+$' ink.out "inside, SIGKILL: the program ran its 50 untied tasks"
moved=$(sed -n 's/^done=50 moved=\([0-9]*\)$/\1/p' ink.out)
expect_no_file ink.exp/profile.cubex "inside, SIGKILL: no profile written by the process"
run_to ink.rec.out "$top_builddir/scorep-recover" ink.exp
expect_eq "$(cat ink.rec.out)" "scorep-recover: 1 of 1 ranks recovered into ink.exp" \
    "inside, SIGKILL: scorep-recover on its last checkpoint"
m=$(profile_migrations ink.exp "$MP" 4)
echo "inside, SIGKILL: recovered migrations (location:loss/win) $m, moved=$moved"
set -- $(echo "$m" | awk -F'[:/;]' '{ for (i = 2; i < NF; i += 3) { l += $i; w += $(i + 1) } print l, w }')
expect_eq "$1" "$2" "inside, SIGKILL: recovered: as many losses as wins ($m)"
expect_ge "$2" "$moved" "inside, SIGKILL: recovered: at least a win per task that moved ($moved)"

# A program without explicit tasks (test/omp/parallel.c): no migration metric, as in Score-P
# (its Cube writer defines them only where a task was created on some rank)
scorep_cc clang -fopenmp -o parallel "$OMP_SRC/parallel.c"
run_app par env SCOREP_EXPERIMENT_DIRECTORY=par.exp ./parallel 2
expect_eq "$status:$(cat par.err)" "0:" "parallel: exit status, nothing on stderr"
expect_eq "$(metric_list par.exp)" "visits time min_time max_time " \
    "parallel: the metrics of a program without tasks (no migration metric)"
done_ok
