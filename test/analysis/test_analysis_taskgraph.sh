#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_analysis_taskgraph.sh: the OpenMP task graph of the analysis (docs/openmp.md "Task
# graph", src/analysis/an_taskgraph.c) on taskgraph.c, in situ and post-mortem:
#   diamond (1 rank x 2 threads; built with scorep-cc mpicc on clang and on gcc): taskgraph.dot
#     has exactly the four tasks A, B, C, D, labelled with the file:line of their task
#     constructs (found in the source with grep), durations within 0.1% + 0.2 ms of the
#     trace's task regions (otf2-print) and within 10% + 15 ms of the design (0.1, 0.2, 0.05,
#     0.1 s; the program's own timing on a loaded machine, as lib_analysis.sh's near),
#     and exactly the edges A->B, A->C, B->D, C->D (the program's depend clauses), the
#     critical path A, B, D red; scout.cubex's critical_path (cube_values.py, no code shared
#     with the writer) is A's, B's, D's trace duration on their task regions and 0 on C's
#   send (2 ranks x 2 threads): rank 1's worker runs a 0.2 s task before rank 1's MPI_Send:
#     Late Sender ~0.2 s on rank 0's MPI_Recv, and the critical path goes through rank 1's
#     task (critical_path on the worker's location = the task's trace duration; 0 on the
#     master, which waited for it in the barrier)
# The MPI builds call MPI_Init/Finalize: scorep-analyze runs as `scorep-analyze EXPDIR` (an MPI
# singleton) for 1 rank, under mpirun for 2. The diamond is also built without MPI (-DNO_MPI,
# scorep-cc gcc/clang -fopenmp): in situ at the program's end and `scorep-analyze EXPDIR`
# without mpirun (the analysis without MPI, docs/analysis.md), the same checks.
. "$top_srcdir/test/integration/lib.sh"

. "$top_srcdir/test/analysis/lib_analysis.sh"
command -v mpicc >/dev/null 2>&1 || { echo "SKIP: no mpicc"; exit 77; }
command -v otf2-print >/dev/null 2>&1 || { echo "SKIP: no otf2-print"; exit 77; }
nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$' ||
    { echo "SKIP: the runtime was built without its OMPT tool"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 KMP_BLOCKTIME=0
SRC="$top_srcdir/test/analysis/taskgraph.c"
DOT="python3 $top_srcdir/test/analysis/taskgraph_dot.py"
line() { grep -n "/\* $1 \*/" "$SRC" | cut -d: -f1; }
task_label() { echo "!\$omp task @taskgraph.c:$(line "$1")"; }
CUBE=
value() { $CV "$CUBE" value "$@"; }

# trace_durations DIR OUT: per task region of the trace, the sum of its calls' time in
# seconds ("NAME<TAB>seconds"), from otf2-print's events and the clock's resolution
trace_durations()
{
    run_to "$2.defs" otf2-print -G "$1/traces.otf2"
    run_to "$2.events" otf2-print "$1/traces.otf2"
    _res=$(sed -n 's/.*Ticks per Seconds: \([0-9]*\).*/\1/p' "$2.defs")
    [ -n "$_res" ] || fail "no clock resolution in otf2-print -G $1"
    awk -v res="$_res" '
        ($1 == "ENTER" || $1 == "LEAVE") && index($0, "\"!$omp task @") {
            name = $0; sub(/.*Region: "/, "", name); sub(/" <[0-9]*>.*/, "", name)
            k = $2 SUBSEP name
            if ($1 == "ENTER") at[k] = $3; else s[name] += ($3 - at[k]) / res
        }
        END { for (n in s) printf "%s\t%.9f\n", n, s[n] }' "$2.events" >"$2" ||
        fail "trace_durations $1"
}
trace_dur() { awk -F'\t' -v n="$2" '$1 == n { print $2 }' "$1"; }

# close_to VALUE EXPECTED REL ABS LABEL
close_to()
{
    expect_eq "$(awk -v v="$1" -v e="$2" -v r="$3" -v a="$4" \
        'BEGIN { t = r * e + a; print (v != "" && v >= e - t && v <= e + t) }')" 1 \
        "$5: $1 (expected $2 within $3 x + $4)"
}

# check_diamond DIR WHAT: taskgraph.dot and scout.cubex of the diamond in DIR
check_diamond()
{
    _d=$1 _w=$2
    expect_file "$_d/taskgraph.dot" "$_w: taskgraph.dot written"
    run_to "$_d/tg.txt" $DOT "$_d/taskgraph.dot"
    expect_eq "$(count_lines '^node' "$_d/tg.txt")" 4 "$_w: exactly 4 task nodes"
    expect_eq "$(count_lines '^join' "$_d/tg.txt")" 0 "$_w: no joins"
    expect_eq "$(count_lines '^merged' "$_d/tg.txt")" 0 "$_w: not merged"
    for t in A B C D; do
        _l=$(task_label "TASK_$t")
        expect_eq "$(awk -F'\t' -v l="$_l" '$1 == "node" && $3 == l' "$_d/tg.txt" | wc -l)" 1 \
            "$_w: one node labelled $_l"
        eval "ID_$t=\$(awk -F'\t' -v l=\"\$_l\" '\$1 == \"node\" && \$3 == l { print \$2 }' \"\$_d/tg.txt\")"
        _dur=$(awk -F'\t' -v l="$_l" '$1 == "node" && $3 == l { print $4 }' "$_d/tg.txt")
        _tr=$(trace_dur "$_d/durations.txt" "$_l")
        close_to "$_dur" "$_tr" 0.001 0.0002 "$_w: $t's duration against the trace's task region"
        eval "_design=\$DESIGN_$t"
        # 10% + 15 ms, lib_analysis.sh's tolerance for the program's own timing under load
        close_to "$_dur" "$_design" 0.1 0.015 "$_w: $t's duration against the design"
        eval "TR_$t=\$_tr"
    done
    # the edges, named by task: exactly the program's four dependences
    awk -F'\t' -v a="$ID_A" -v b="$ID_B" -v c="$ID_C" -v d="$ID_D" '
        function n(x) { return x == a ? "A" : x == b ? "B" : x == c ? "C" : x == d ? "D" : x }
        $1 == "edge" { print n($2) "->" n($3), $4, $5 }' "$_d/tg.txt" | sort >"$_d/edges.txt"
    printf '%s\n' "A->B dep 1" "A->C dep 0" "B->D dep 1" "C->D dep 0" >"$_d/edges.want"
    expect_eq "$(cat "$_d/edges.txt")" "$(cat "$_d/edges.want")" \
        "$_w: edges A->B, A->C, B->D, C->D, the path A->B->D red"
    expect_eq "$(awk -F'\t' '$1 == "node" && $7 == 1' "$_d/tg.txt" | wc -l)" 3 \
        "$_w: three nodes red (A, B, D)"
    # critical_path on the task regions (all locations): the chain A, B, D; C off it
    CUBE=$_d/scout.cubex
    NEAR_REL=0.001 NEAR_ABS=0.0002
    near critical_path "$(task_label TASK_A)" '*' "$TR_A"
    near critical_path "$(task_label TASK_B)" '*' "$TR_B"
    near critical_path "$(task_label TASK_D)" '*' "$TR_D"
    near critical_path "$(task_label TASK_C)" '*' 0
    # CubeLib's own reading (cube_dump, 6 significant digits): the same values, summed over the
    # call paths of each task region (leaves of the call tree: inclusive = exclusive)
    if [ -n "$CUBELIB_DUMP" ]; then
        run_to "$_d/cp.dump" "$CUBELIB_DUMP" -m critical_path -x incl -z incl -t aggr "$_d/scout.cubex"
        for t in A B C D; do
            eval "_e=\${TR_$t}"
            [ "$t" != C ] || _e=0
            _v=$(awk -v l="$(task_label "TASK_$t")" 'index($0, l "(id=") == 1 { s += $NF }
                END { printf "%.9f", s }' "$_d/cp.dump")
            close_to "$_v" "$_e" 0.0001 0.000001 "$_w: cube_dump's critical_path of $t"
        done
    fi
}
DESIGN_A=0.1 DESIGN_B=0.2 DESIGN_C=0.05 DESIGN_D=0.1
find_cubelib_dump

# diamond IMPL: build with scorep-cc mpicc on compiler IMPL, run in situ and post-mortem
# (gcc on libomp: keeps the OMPT path of gcc code under the analysis; test_omp_depend.sh
# checks the depend items on libgomp and libomp)
diamond()
{
    _c=$1
    command -v "$_c" >/dev/null 2>&1 || { skip_part "$_c"; return 0; }
    part "diamond, $_c"
    OMPI_CC=$_c "$SCOREP_CC" --user --nocompiler --openmp-runtime=libomp mpicc -g -O1 -fopenmp -I"$top_srcdir/test/analysis" \
        -o "taskgraph_$_c" "$SRC" || fail "build: scorep-cc mpicc ($_c) -fopenmp taskgraph.c"
    _x=$work/diamond_$_c
    env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_ANALYSIS=true SCOREP_EXPERIMENT_DIRECTORY="$_x" \
        OMP_NUM_THREADS=2 $MPIRUN -np 1 "./taskgraph_$_c" diamond >"$_x.out" 2>&1 ||
        fail "taskgraph_$_c diamond: $(cat "$_x.out")"
    expect_file "$_x/scout.cubex" "diamond $_c: the in-situ analysis wrote scout.cubex"
    trace_durations "$_x" "$_x/durations.txt"
    check_diamond "$_x" "diamond $_c in situ"
    mv "$_x/scout.cubex" "$_x/scout_insitu.cubex"
    mv "$_x/taskgraph.dot" "$_x/taskgraph_insitu.dot"
    timeout 300 "$ANALYZE" "$_x" >"$_x.an" 2>&1 || fail "scorep-analyze $_x: $(cat "$_x.an")"
    check_diamond "$_x" "diamond $_c post-mortem"
}

# report DIR: scorep-report's Task graph section: the data block has the graph and a table row
# per task region with the durations taskgraph.dot has (count 1: sum = mean = min = max); the
# page, rendered in headless Chromium, draws four boxes, three red, and the same table
report()
{
    "$top_builddir/scorep-report" -o "$1/report.html" "$1" >"$1/report.out" 2>&1 ||
        fail "scorep-report $1: $(cat "$1/report.out")"
    expect_grep '<section id="taskgraph">' "$1/report.html" "scorep-report has a Task graph section"
    python3 - "$1/report.html" >"$1/report.txt" <<'PY' || fail "the report's task graph: $(cat "$1/report.txt")"
import json, re, sys
s = open(sys.argv[1]).read()
g = json.loads(re.search(r'id="report-data">(.*?)</script>', s, re.S).group(1))["taskgraph"]
print("graph", len(g["nodes"]), len(g["edges"]), sum(1 for n in g["nodes"] if n["red"]))
for r in g["table"]:
    print("row\t%s\t%d\t%.9f\t%.9f\t%.9f\t%.9f" % (r["label"], r["count"], r["sum"], r["mean"],
                                                  r["min"], r["max"]))
PY
    expect_eq "$(grep '^graph' "$1/report.txt")" "graph 4 4 3" "report: 4 nodes, 4 edges, 3 red"
    expect_eq "$(count_lines '^row' "$1/report.txt")" 4 "report: a table row per task region"
    for t in A B C D; do
        _l=$(task_label "TASK_$t")
        _dur=$(awk -F'\t' -v l="$_l" '$1 == "node" && $3 == l { printf "%.9f", $4 }' "$1/tg.txt")
        expect_eq "$(awk -F'\t' -v l="$_l" '$1 == "row" && $2 == l { print $3, $4, $5, $6, $7 }' \
            "$1/report.txt")" "1 $_dur $_dur $_dur $_dur" "report: $t's row (count, sum, mean, min, max)"
    done
    if command -v chromium >/dev/null 2>&1; then
        chromium_headless "$1/chromium.err" --dump-dom "file://$1/report.html" >"$1/report.dom"
        run_to "$1/report.facts" python3 "$top_srcdir/test/integration/report_dom.py" "$1/report.dom"
        expect_grep "^status ok$" "$1/report.facts" "the report rendered without script errors"
        expect_eq "$(count_lines '^tgnode' "$1/report.facts") $(count_lines '^tgnode red' "$1/report.facts")" \
            "4 3" "page: four task boxes drawn, three red"
        expect_eq "$(count_lines '^waits taskgraph-table ' "$1/report.facts")" 4 "page: four table rows"
    else
        skip_part chromium
    fi
}

# chrome DIR: scorep-otf2-to-chrome draws the four dependences as flow arrows (cat "task"):
# each from inside the predecessor's task region to inside the successor's (chrome_check.py:
# paired, inside task regions, the trace's counts)
chrome()
{
    "$top_builddir/scorep-otf2-to-chrome" -o "$1/trace.json" "$1" >"$1/chrome.out" 2>&1 ||
        fail "scorep-otf2-to-chrome $1: $(cat "$1/chrome.out")"
    run_to "$1/chrome.check" python3 "$top_srcdir/test/tools/chrome_check.py" "$1/trace.json" \
        "$1/traces.otf2"
    python3 - "$1/trace.json" >"$1/flows.txt" <<'PY' || fail "the task flows: $(cat "$1/flows.txt")"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
xs = [e for e in ev if e.get("ph") == "X" and e["name"].startswith("!$omp task ")]
def at(e):
    for x in xs:
        if (x["pid"], x["tid"]) == (e["pid"], e["tid"]) and x["ts"] <= e["ts"] <= x["ts"] + x["dur"]:
            return x["name"]
    return "?"
ends = {e["id"]: at(e) for e in ev if e.get("cat") == "task" and e["ph"] == "f"}
for e in ev:
    if e.get("cat") == "task" and e["ph"] == "s":
        print("%s -> %s %s" % (at(e), ends.get(e["id"], "?"), e["name"]))
PY
    sort "$1/flows.txt" >"$1/flows.sorted"
    printf '%s\n' "$(task_label TASK_A) -> $(task_label TASK_B) dependence" \
        "$(task_label TASK_A) -> $(task_label TASK_C) dependence" \
        "$(task_label TASK_B) -> $(task_label TASK_D) dependence" \
        "$(task_label TASK_C) -> $(task_label TASK_D) dependence" | sort >"$1/flows.want"
    expect_eq "$(cat "$1/flows.sorted")" "$(cat "$1/flows.want")" \
        "scorep-otf2-to-chrome: a flow arrow per dependence, between the tasks' regions"
}

# diamond_nompi IMPL: the pure OpenMP diamond (taskgraph.c without MPI, scorep-cc IMPL): the
# in-situ analysis at the program's end and `scorep-analyze EXPDIR` without mpirun
diamond_nompi()
{
    _c=$1
    command -v "$_c" >/dev/null 2>&1 || { skip_part "$_c"; return 0; }
    part "diamond without MPI, $_c"
    "$SCOREP_CC" --user --nocompiler --openmp-runtime=libomp "$_c" -g -O1 -fopenmp -DNO_MPI -I"$top_srcdir/test/analysis" \
        -o "taskgraph_omp_$_c" "$SRC" || fail "build: scorep-cc $_c -fopenmp -DNO_MPI taskgraph.c"
    _x=$work/omp_$_c
    env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_ANALYSIS=true SCOREP_EXPERIMENT_DIRECTORY="$_x" \
        OMP_NUM_THREADS=2 timeout 300 "./taskgraph_omp_$_c" >"$_x.out" 2>&1 ||
        fail "taskgraph_omp_$_c: $(cat "$_x.out")"
    expect_file "$_x/scout.cubex" "diamond without MPI, $_c: the in-situ analysis wrote scout.cubex"
    trace_durations "$_x" "$_x/durations.txt"
    check_diamond "$_x" "diamond without MPI, $_c, in situ"
    mv "$_x/scout.cubex" "$_x/scout_insitu.cubex"
    mv "$_x/taskgraph.dot" "$_x/taskgraph_insitu.dot"
    timeout 300 "$ANALYZE" "$_x" >"$_x.an" 2>&1 || fail "scorep-analyze $_x: $(cat "$_x.an")"
    check_diamond "$_x" "diamond without MPI, $_c, post-mortem"
}

# merged DIR: with SCOREP_TASKGRAPH_MAX_NODES=3 (fewer than the 4 tasks) the file says it
# merged, and the diamond's tasks (4 regions, level 0) stay 4 nodes of one task each with the
# same 4 edges
merged()
{
    env SCOREP_TASKGRAPH_MAX_NODES=3 timeout 300 "$ANALYZE" "$1" >"$1.an3" 2>&1 ||
        fail "scorep-analyze $1 (SCOREP_TASKGRAPH_MAX_NODES=3): $(cat "$1.an3")"
    run_to "$1/tg3.txt" $DOT "$1/taskgraph.dot"
    expect_eq "$(count_lines '^merged' "$1/tg3.txt")" 1 "merged: the file says so"
    expect_eq "$(count_lines '^node' "$1/tg3.txt") $(count_lines '^edge' "$1/tg3.txt")" "4 4" \
        "merged: the diamond's 4 regions stay 4 nodes, 4 edges"
    expect_grep 'merged=1 level=0' "$1/taskgraph.dot" "merged: a node counts its tasks"
}

diamond clang
[ ! -d "$work/diamond_clang" ] || report "$work/diamond_clang"
[ ! -d "$work/diamond_clang" ] || chrome "$work/diamond_clang"
[ ! -d "$work/diamond_clang" ] || merged "$work/diamond_clang"
diamond gcc
diamond_nompi clang
diamond_nompi gcc

# MPI + tasks: rank 1's 0.2 s task delays its send
command -v clang >/dev/null 2>&1 || { skip_part clang; done_ok; exit 0; }
part "send, 2 ranks x 2 threads"
OMPI_CC=clang "$SCOREP_CC" --user --nocompiler mpicc -g -O1 -fopenmp -I"$top_srcdir/test/analysis" \
    -o taskgraph_send "$SRC" || fail "build: scorep-cc mpicc (clang) -fopenmp taskgraph.c"
x=$work/send
OMP_NUM_THREADS=2 insitu_then_postmortem 2 "$x" send.out send.an ./taskgraph_send send
trace_durations "$x" "$x/durations.txt"
SLOW=$(task_label TASK_SLOW)
TR=$(trace_dur "$x/durations.txt" "$SLOW")
close_to "$TR" 0.2 0.1 0 "the trace: rank 1's task lasts ~0.2 s"
# Late Sender from the trace's own records (Scalasca's definition: the send's Enter minus the
# receive's Enter, none where the receive began after the send; both ranks read one node's
# clock). How much of the task it covers depends on when rank 0 reached its receive, which
# a loaded machine moves; the program orders the send after the task's end (taskwait, the
# region's end), which the records show exactly.
eval "$(awk -v res="$(sed -n 's/.*Ticks per Seconds: \([0-9]*\).*/\1/p' "$x/durations.txt.defs")" -v slow="$SLOW" '
    $1 == "ENTER" && /Region: "MPI_Send"/ { s = $3 }
    $1 == "ENTER" && /Region: "MPI_Recv"/ { r = $3 }
    $1 == "LEAVE" && index($0, "Region: \"" slow "\"") { t = $3 }
    END { if (s != "" && r != "" && t != "")
              printf "LS=%.9f SEND_AFTER_TASK=%d\n", (s > r ? (s - r) / res : 0), (s >= t)
          else print "LS= SEND_AFTER_TASK=" }' "$x/durations.txt.events")"
expect_eq "$SEND_AFTER_TASK" 1 "the trace: rank 1's MPI_Send entered after its task's end"
for c in scout_insitu.cubex scout.cubex; do
    CUBE=$x/$c
    NEAR_REL=0.01 NEAR_ABS=0.002
    near mpi_latesender MPI_Recv 0 "$LS"
    NEAR_REL=0.001 NEAR_ABS=0.0002
    # on rank 1's worker (thread 1), where the task ran; the master's wait for it is not on
    # the path: the task stands for it
    near critical_path "$SLOW" 1:1 "$TR"
    near critical_path "$SLOW" 1:0 0
    near critical_path "$SLOW" 0 0
done
expect_file "$x/taskgraph.dot" "send: taskgraph.dot written"
run_to "$x/tg.txt" $DOT "$x/taskgraph.dot"
expect_eq "$(awk -F'\t' -v l="$SLOW" '$1 == "node" && $3 == l && $5 == 1 && $6 == 1 && $7 == 1' "$x/tg.txt" | wc -l)" 1 \
    "send: rank 1's task in taskgraph.dot, on thread 1, on the path"
done_ok
