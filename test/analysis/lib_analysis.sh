# SPDX-License-Identifier: BSD-3-Clause
# lib_analysis.sh: what the analysis tests share, sourced after lib.sh: a SKIP unless
# scorep-analyze, mpirun and python3 are there; mpirun as root with ranks that yield; the
# reader of scout.cubex that shares no code with the writer (cube_values.py; lib_cv.sh: one
# process of it answers all the test's queries, $CV).
A="$top_builddir/test/analysis"
ANALYZE="$top_builddir/scorep-analyze"
MPIRUN="timeout 300 mpirun --oversubscribe --allow-run-as-root"
# ranks waiting in MPI yield the processor: 4 ranks share 2 cores, the spinning ones must run
export OMPI_MCA_mpi_yield_when_idle=1
# the prescribed delay of the test programs (seconds)
D=0.2
[ -x "$ANALYZE" ] || { echo "SKIP: the analysis (scorep-analyze) was not built"; exit 77; }
command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

. "$top_srcdir/test/analysis/lib_cv.sh"

# analysis_needs PROGRAM: SKIP unless test/analysis/PROGRAM was built (it needs the MPI adapter)
analysis_needs()
{
    [ -x "$A/$1" ] || { echo "SKIP: $1: the MPI adapter and the analysis were not built"; exit 77; }
}

# insitu_then_postmortem NP DIR OUT AN PROGRAM [ARGS...]: PROGRAM on NP ranks with tracing and
# the in-situ analysis into DIR (its output in OUT, its report kept as DIR/scout_insitu.cubex),
# then scorep-analyze on NP processes over the trace (output in AN, report DIR/scout.cubex;
# the in-situ trace.stat kept as DIR/trace_insitu.stat)
insitu_then_postmortem()
{
    _np=$1 _dir=$2 _out=$3 _an=$4
    shift 4
    env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_ANALYSIS=true SCOREP_EXPERIMENT_DIRECTORY="$_dir" \
        $MPIRUN -np "$_np" "$@" >"$_out" 2>&1 || fail "$*: $(cat "$_out")"
    expect_file "$_dir/scout.cubex" "$1 on $_np: the in-situ analysis wrote scout.cubex"
    mv "$_dir/scout.cubex" "$_dir/scout_insitu.cubex"
    [ ! -f "$_dir/trace.stat" ] || mv "$_dir/trace.stat" "$_dir/trace_insitu.stat"
    $MPIRUN -np "$_np" "$ANALYZE" "$_dir" >"$_an" 2>&1 || fail "scorep-analyze $_dir: $(cat "$_an")"
    expect_file "$_dir/scout.cubex" "$1 on $_np: scorep-analyze wrote scout.cubex"
}

# lock_contention MARKS: the lock contention that the holdings a program printed to MARKS
# ("H lock thread kind enter acquired released", its own clock) give, as Scalasca defines it:
# each lock's holdings in the order of their acquisition; holding i waited from its enter until
# holding i - 1 released (when that was later). One line "thread kind seconds" per thread and
# kind of holding that waited.
lock_contention()
{
    awk '$1 == "H" { n[$2]++; i = n[$2]; th[$2, i] = $3; kind[$2, i] = $4
            en[$2, i] = $5; acq[$2, i] = $6; rel[$2, i] = $7 }
        END {
            for (m in n) {
                for (i = 1; i <= n[m]; i++) o[i] = i
                for (i = 2; i <= n[m]; i++)
                    for (j = i; j > 1 && acq[m, o[j]] < acq[m, o[j - 1]]; j--) {
                        t = o[j]; o[j] = o[j - 1]; o[j - 1] = t
                    }
                for (i = 2; i <= n[m]; i++) {
                    w = rel[m, o[i - 1]] - en[m, o[i]]
                    if (w > 0)
                        s[th[m, o[i]] " " kind[m, o[i]]] += w
                }
            }
            for (k in s)
                printf "%s %.6f\n", k, s[k]
        }' "$1" | sort
}

# contention_of FILE THREAD KIND...: the sum over KINDs of THREAD's lines of FILE (lock_contention)
contention_of()
{
    _f=$1 _t=$2
    shift 2
    awk -v t="$_t" -v kinds=" $* " '$1 == t && index(kinds, " " $2 " ") { s += $3 }
        END { printf "%.6f\n", s }' "$_f"
}

# the tolerance of near and within: NEAR_REL x the expected value + NEAR_ABS seconds. The
# default, 10% + 15 ms, suits a comparison with a program's own clock readings (load-dependent:
# a thread descheduled between its reading and its call); the tests that move the marks onto
# the trace's events (snap_marks) or recompute the wait states from it (trace_threads) set it
# to 0.1% + 0.2 ms: expected and measured value then come from the same timestamps
NEAR_REL=${NEAR_REL:-0.1}
NEAR_ABS=${NEAR_ABS:-0.015}

# near METRIC PATH LOC EXPECTED: the value the test's value function gives (scout.cubex's, at
# call path PATH on location or rank LOC) within NEAR_REL x EXPECTED + NEAR_ABS of EXPECTED
# seconds
near()
{
    _check
    v=$(value "$1" "$2" "$3") || fail "cube_values.py value $1 $2 $3"
    awk -v v="$v" -v e="$4" -v r="$NEAR_REL" -v a="$NEAR_ABS" \
        'BEGIN { t = r * e + a; exit !(v >= e - t && v <= e + t) }' ||
        fail "$1 at $2 on $3: expected $4 s ($NEAR_REL x + $NEAR_ABS s), got $v s"
    echo "ok: $1 at $2 on $3 = $v (expected $4)"
}

# within METRIC PATH LOC LOW HIGH: the same value in [LOW - NEAR_ABS, HIGH + NEAR_ABS]
within()
{
    _check
    v=$(value "$1" "$2" "$3") || fail "cube_values.py value $1 $2 $3"
    awk -v v="$v" -v a="$4" -v b="$5" -v t="$NEAR_ABS" 'BEGIN { exit !(v >= a - t && v <= b + t) }' ||
        fail "$1 at $2 on $3: expected $4 to $5 s ($NEAR_ABS s either side), got $v s"
    echo "ok: $1 at $2 on $3 = $v (expected $4 to $5)"
}

# report_eq REPORTED EXPECTED LABEL: a value of scorep-report's data, printed to 6 decimals,
# against scout.cubex's (or the largest of several) within 1.5 us (one unit of the last printed
# digit, with room for the subtraction's rounding): the report makes its sums
# apart, and two 6-decimal printouts of nearly equal sums may differ in the last digit (seen:
# 0.599976 in the report for 0.599975 from scout.cubex)
report_eq()
{
    expect_eq "$(awk -v r="$1" -v e="$2" 'BEGIN { d = r - e; print (r != "" && e != "" && d * d <= 2.25e-12) }')" 1 \
        "$3 (report $1, scout.cubex $2)"
}

# snap_marks DIR MARKS SNAPPED [AFTER...]: the program's marks in MARKS ("T scenario rank what
# seconds absolute") moved onto the events of the trace in DIR (trace_marks.py snap: a mark to
# the enter of the MPI call or region that follows it, one named among AFTER to the leave of
# the MPI call before it) into SNAPPED ("T scenario rank what seconds"). The trace must be
# taken with SCOREP_TIMER=clock_gettime (its ticks are then the program's clock).
snap_marks()
{
    _d=$1 _m=$2 _s=$3
    shift 3
    otf2-print "$_d/traces.otf2" >"$_m.events" 2>"$_m.err" || fail "otf2-print $_d: $(tail -3 "$_m.err")"
    otf2-print -G "$_d/traces.otf2" >"$_m.defs" 2>"$_m.err" || fail "otf2-print -G $_d: $(tail -3 "$_m.err")"
    python3 "$top_srcdir/test/analysis/trace_marks.py" snap "$_m.events" "$_m.defs" "$_m" "$@" \
        >"$_s" || fail "trace_marks.py snap $_m: $(cat "$_s")"
}

# trace_threads WHAT DIR OUT: the thread wait states of the trace in DIR recomputed from
# otf2-print's view (trace_threads.py WHAT: locks, barriers or regions) into OUT, lines
# "LOC METRIC REGION seconds ..." separated by tabs (LOC as scout.cubex names it, "rank:index")
trace_threads()
{
    _d=$2 _o=$3 _c="$work/.trace_$(basename "$2")"
    [ -s "$_c.events" ] || otf2-print "$_d/traces.otf2" >"$_c.events" 2>"$_o.err" ||
        fail "otf2-print $_d: $(tail -3 "$_o.err")"
    [ -s "$_c.defs" ] || otf2-print -G "$_d/traces.otf2" >"$_c.defs" 2>"$_o.err" ||
        fail "otf2-print -G $_d: $(tail -3 "$_o.err")"
    python3 "$top_srcdir/test/analysis/trace_threads.py" "$1" "$_c.events" "$_c.defs" >"$_o" ||
        fail "trace_threads.py $1 $_d: $(cat "$_o")"
}

# trace_sum FILE LOC METRIC [REGION [FIELD]]: the sum of FILE's (trace_threads) seconds of
# METRIC on location LOC ('*': all) whose field FIELD (default 3: the acquiring call, the
# parallel region, the call path) is REGION (absent or '*': all; R/**: R and what lies below)
trace_sum()
{
    awk -F'\t' -v l="$2" -v m="$3" -v r="${4:-*}" -v f="${5:-3}" '
        function sel(x) {
            if (r == "*" || x == r) return 1
            return r ~ /\/\*\*$/ && (x == substr(r, 1, length(r) - 3) ||
                index(x, substr(r, 1, length(r) - 2)) == 1)
        }
        (l == "*" || $1 == l) && $2 == m && sel($f) { s += $4 }
        END { printf "%.9f\n", s }' "$1"
}

# trace_calls MARKS SCENARIO RANK REGION...: "enter leave" (seconds after the scenario's start)
# of every call of REGIONs inside SCENARIO on RANK, from the files snap_marks left
trace_calls()
{
    _m=$1
    shift
    python3 "$top_srcdir/test/analysis/trace_marks.py" calls "$_m.events" "$_m.defs" "$_m" "$@" ||
        fail "trace_marks.py calls $_m $*"
}

# need_hybrid_tools: what the MPI + OpenMP analysis tests need (mpicc, clang, otf2-print, a
# runtime with its OMPT tool), each missing one a skip (exit 77); Open MPI as root
need_hybrid_tools()
{
    command -v mpicc >/dev/null 2>&1 || { echo "SKIP: no mpicc"; exit 77; }
    command -v clang >/dev/null 2>&1 || { echo "SKIP: no clang"; exit 77; }
    command -v otf2-print >/dev/null 2>&1 || { echo "SKIP: no otf2-print"; exit 77; }
    nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$' ||
        { echo "SKIP: the runtime was built without its OMPT tool"; exit 77; }
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
}

# scout_hyb_run EXPDIR LOG: Scalasca's scout.hyb ($SCOUT_HYB, 2 ranks) on a copy of EXPDIR's
# trace, its output in LOG; prints the path of its report. The copy lies outside $work
# (outside_work): the raw report holds the workers' time as Cube's remapper takes it
# (negative exclusive values where a worker idled), which lib.sh's profile checks refuse.
scout_hyb_run()
{
    _h=$(outside_work) || return 1
    cp -r "$1" "$_h/exp" && rm -f "$_h/exp/scout.cubex" "$_h/exp/scout_insitu.cubex" || return 1
    $MPIRUN -np 2 "$SCOUT_HYB" "$_h/exp/traces.otf2" >"$2" 2>&1 || return 1
    echo "$_h/exp/scout.cubex"
}

# square_run CUBEX LOG: Scalasca's square ($SQUARE) -s on a copy of the trace-analysis report
# CUBEX (Scalasca's or ours, named scout.cubex in a directory outside $work: square's trace.cubex
# may hold a worker's negative exclusive time, which lib.sh's profile checks refuse), its output
# in LOG; prints the path of the trace.cubex square derived with scout.spec (its
# critical_path_imbalance among others). square calls CubeLib's tools (beside $CUBELIB_DUMP)
# and scorep-score (ours).
square_run()
{
    _q=$(outside_work) || return 1
    mkdir "$_q/sq" && cp "$1" "$_q/sq/scout.cubex" || return 1
    PATH="$(dirname "$SQUARE"):$(dirname "$CUBELIB_DUMP"):$top_builddir:$PATH" \
        "$SQUARE" -s "$_q/sq" >"$2" 2>&1 || return 1
    [ -s "$_q/sq/trace.cubex" ] || return 1
    echo "$_q/sq/trace.cubex"
}

# square_hybrid SCOUT_REPORT OURS LOG PER_RANK ARGS...: square's critical_path_imbalance from
# Scalasca's report of a hybrid trace (scout.hyb's) against ours (scout_cmp.py ARGS: tolerances,
# -t). square keeps a report's OpenMP threads apart only where scout gave them their numbers,
# which scout takes from the location ids as Score-P makes them (thread << 32 | rank; pearl's
# Location::getThreadId) and our trace writer too since session 25 (docs/analysis.md,
# "Location ids"): PER_RANK, the thread locations of each process ("3 3": 2 ranks of 3 threads),
# must be those of scout.hyb's report, square's and ours.
square_hybrid()
{
    _sq=$(square_run "$1" "$3") || fail "square on scout.hyb's report: $(tail -c 600 "$3")"
    _nt() {
        "$CUBELIB_DUMP" -w "$1" | awk '/type=process/ { p++ } /type=thread/ { n[p]++ }
            END { for (i = 1; i <= p; i++) printf "%s%d", (i > 1 ? " " : ""), n[i] }'
    }
    expect_eq "$(_nt "$1")" "$4" "thread locations per process of scout.hyb's report"
    expect_eq "$(_nt "$_sq")" "$4" "thread locations per process of square's report (it merges threads of equal numbers)"
    expect_eq "$(_nt "$2")" "$4" "thread locations per process of our report"
    _r=$1 _o=$2
    shift 4
    python3 "$top_srcdir/test/analysis/scout_cmp.py" "$CUBELIB_DUMP" "$_sq" "$_o" \
        -m critical_path_imbalance "$@" >sq_hyb.cmp 2>&1 ||
        fail "square's critical_path_imbalance from scout.hyb's report is not ours: $(cat sq_hyb.cmp)"
    echo "ok: square from scout.hyb's report = ours: $(head -1 sq_hyb.cmp)"
}
