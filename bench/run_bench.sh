#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# shellcheck disable=SC2086 # $cc is split on purpose: CC may carry options (gcc -m64)
# run_bench.sh: the overhead benchmarks of `make bench`. Prints one table; asserts nothing
# about timings (never part of `make check`).
#
# Environment: abs_top_builddir (build tree with scorep-cc and .libs/libscorep-rt.so),
# abs_top_srcdir (source tree), CC (compiler, default gcc), BENCH_RUNS (runs per variant,
# default 5), BENCH_CALLS (calls per run, default 10000000), BENCH_KEEP=1 keeps the
# temporary directory, BENCH_SAVE_PROGRAMS / BENCH_PROGRAMS (below) build here, run elsewhere.
set -eu

# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
cc=${CC:-gcc}
# The timed loop of every tiny build starts on a 64-byte line: where an instrumented main
# is a few bytes shorter or longer than the plain one, its loop otherwise lands elsewhere
# in the line and the rows compare code layouts (session 17: clang's throttled row moved
# from +1.0 to +0.5 ns median against its plain call, gcc's +0.2 both ways)
align=-falign-loops=64
runs=${BENCH_RUNS:-5}
calls=${BENCH_CALLS:-10000000}

[ -x "$builddir/scorep-cc" ] || die "no $builddir/scorep-cc: build first (make all)"
[ -e "$builddir/.libs/libscorep-rt.so" ] || die "no $builddir/.libs/libscorep-rt.so: build first"
have_otf2_print=no
command -v otf2-print >/dev/null 2>&1 && have_otf2_print=yes

# (c)-(h) measure every call; throttling (on by default) has its own variants (i), (j)
SCOREP_THROTTLING=false
export SCOREP_THROTTLING

# ------------------------------------------------------------------ build the programs
# BENCH_SAVE_PROGRAMS / BENCH_PROGRAMS (bench_lib.sh: bench_programs): built here, run on a machine
# without the compilers or the GCC plugin's GCC
programs="rusage_run rdtsc_cost tiny_plain tiny_floor tiny_floor_linear tiny_scorep
    libscorep_substrate_count.so threads_plain threads_scorep tiny_ctfilter tiny_plugin_gcc
    tiny_plain_clang tiny_plugin_clang"
cat >"$tmp/exclude_tiny.filter" <<'EOF'
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE tiny
SCOREP_REGION_NAMES_END
EOF
SCOREP_CC_GCC_PLUGIN=$builddir/.libs/scorep_filter_gcc.so
SCOREP_CC_LLVM_PLUGIN=$builddir/.libs/scorep_llvm_plugin.so
export SCOREP_CC_GCC_PLUGIN SCOREP_CC_LLVM_PLUGIN
build_programs() {
    step "build rusage_run" $cc -O2 -o "$tmp/rusage_run" "$bench/rusage_run.c"
    step "build rdtsc_cost" $cc -O2 -o "$tmp/rdtsc_cost" "$bench/rdtsc_cost.c"
    step "build tiny (uninstrumented)" $cc -O2 $align -o "$tmp/tiny_plain" "$bench/tiny.c"
    _cc=$cc cc="$cc $align"
    build_floors # (b) and (b2)
    cc=$_cc
    # rows (c)-(j) time gcc's -finstrument-functions hooks: named, since scorep-cc's default is the
    # installed plugin, whose threshold leaves tiny() uninstrumented (the rows then timed the plain call)
    step "build tiny (scorep-cc)" "$builddir/scorep-cc" --instrument=functions $cc -O2 $align -o "$tmp/tiny_scorep" \
        "$bench/tiny.c"
    # a substrate plugin taking every enter and exit (the counting test plugin, docs/substrate-plugins.md)
    step "build substrate plugin (count)" $cc -O2 -shared -fPIC -I"$srcdir/include" \
        -o "$tmp/libscorep_substrate_count.so" "$srcdir/test/plugins/substrate_count.c"
    step "build threads (uninstrumented)" $cc -O2 -pthread -o "$tmp/threads_plain" "$bench/threads.c"
    step "build threads (scorep-cc)" "$builddir/scorep-cc" --instrument=functions $cc -O2 -pthread \
        -o "$tmp/threads_scorep" \
        "$bench/threads.c"
    # (c2): the same filter at compile time (GCC plugin of scorep-cc --filter, when built)
    if [ -e "$SCOREP_CC_GCC_PLUGIN" ]; then
        step "build tiny (scorep-cc --filter)" "$builddir/scorep-cc" --filter="$tmp/exclude_tiny.filter" \
            $cc -O2 $align -o "$tmp/tiny_ctfilter" "$bench/tiny.c"
    fi

    # (k)-(m): the plugins' inline throttle check (issue #31): tiny built with gcc's plugin and,
    # where clang and the LLVM pass plugin are here, clang's, beside the plain call of the same
    # compiler; (e2): the traced call through gcc's plugin. tiny is below the plugins' default
    # threshold (scorep-cc --instrument-threshold), which would leave it uninstrumented: off here
    if [ -e "$SCOREP_CC_GCC_PLUGIN" ]; then
        step "build tiny (scorep-cc, gcc plugin)" "$builddir/scorep-cc" --instrument=plugin \
            --instrument-threshold=0 $cc -O2 $align -o "$tmp/tiny_plugin_gcc" "$bench/tiny.c"
    fi
    if command -v clang >/dev/null 2>&1 && [ -e "$SCOREP_CC_LLVM_PLUGIN" ]; then
        step "build tiny (clang, uninstrumented)" clang -O2 $align -o "$tmp/tiny_plain_clang" "$bench/tiny.c"
        step "build tiny (scorep-cc, clang plugin)" "$builddir/scorep-cc" --instrument=plugin \
            --instrument-threshold=0 clang -O2 $align -o "$tmp/tiny_plugin_clang" "$bench/tiny.c"
    fi
}
bench_programs "$programs" "" build_programs
[ -x "$tmp/tiny_scorep" ] || die "no tiny_scorep in BENCH_PROGRAMS=${BENCH_PROGRAMS:-}: build them with BENCH_SAVE_PROGRAMS first"
have_clang=no
[ ! -e "$tmp/tiny_plugin_clang" ] || have_clang=yes

# ------------------------------------------------------------------ helpers

# trace_bytes_per_event EXPDIR: (size of traces/ + traces.def) / events of all locations
trace_bytes_per_event() {
    [ $have_otf2_print = yes ] || { echo "n/a(no otf2-print)"; return; }
    [ -f "$1/traces.otf2" ] || { echo "NO TRACE"; return; }
    bytes=$(find "$1/traces" "$1/traces.def" -type f -exec wc -c {} + |
        awk '$2 != "total" { s += $1 } END { print s + 0 }')
    events=$(otf2-print -G "$1/traces.otf2" |
        sed -n 's/^LOCATION .*# Events: \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
    echo "$bytes $events" | awk '{ if ($2 > 0) printf "%.2f", $1 / $2; else print "0 events" }'
    echo "$events" >"$tmp/events"
}

# run_once NAME EXE ARGS...: one run under rusage_run with the current SCOREP_* settings.
# Sets: out (program output), rss_kib, wall_s
run_once() {
    name=$1
    shift
    if ! "$tmp/rusage_run" "$tmp/ru" "$@" >"$tmp/out" 2>"$tmp/err"; then
        echo "run_bench.sh: FAILED: variant '$name' ($*)" >&2
        sed 's/^/  | /' "$tmp/out" "$tmp/err" >&2
        exit 1
    fi
    if [ -s "$tmp/err" ]; then
        echo "run_bench.sh: variant '$name' wrote to stderr:" >&2
        sed 's/^/  | /' "$tmp/err" >&2
    fi
    rss_kib=$(awk '{ print $2 }' "$tmp/ru")
    wall_s=$(awk '{ print $4 }' "$tmp/ru")
}

# variant LABEL KIND EXE: KIND is plain, profile, trace or both (which files must appear)
results=$tmp/results
: >"$results"
variant() {
    label=$1 kind=$2 exe=$3
    echo "running $label ($runs x $calls calls) ..." >&2
    : >"$tmp/ns" && : >"$tmp/wall" && : >"$tmp/rss"
    bpe=-
    i=0
    while [ $i -lt "$runs" ]; do
        i=$((i + 1))
        exp=$tmp/exp
        rm -rf "$exp"
        SCOREP_EXPERIMENT_DIRECTORY=$exp
        export SCOREP_EXPERIMENT_DIRECTORY
        run_once "$label" "$exe" "$calls"
        sed -n 's/^ns_per_call //p' "$tmp/out" >>"$tmp/ns"
        echo "$wall_s" >>"$tmp/wall"
        echo "$rss_kib" >>"$tmp/rss"
        case $kind in
        profile | both) [ -f "$exp/profile.cubex" ] || die "variant '$label' wrote no profile.cubex" ;;
        esac
        case $kind in
        trace | both)
            [ -f "$exp/traces.otf2" ] || die "variant '$label' wrote no traces.otf2"
            [ $i -eq "$runs" ] && bpe=$(trace_bytes_per_event "$exp")
            ;;
        esac
        rm -rf "$exp"
    done
    [ -s "$tmp/ns" ] || die "variant '$label' printed no ns_per_call"
    printf '%s|%s|%s|%s|%s|%s\n' "$label" "$(median <"$tmp/ns")" "$(minimum <"$tmp/ns")" \
        "$(median <"$tmp/wall")" "$(median <"$tmp/rss" | awk '{ printf "%.1f", $1 / 1024 }')" \
        "$bpe" >>"$results"
}

# ------------------------------------------------------------------ the variants
variant "(a) uninstrumented" plain "$tmp/tiny_plain"
variant "(b) floor, 1 MiB ring (cached)" plain "$tmp/tiny_floor"
# the bytes the traced rows keep in memory: two 16-byte region records per call (and main's)
trace_bytes=$(((calls + 1) * 32))
FLOOR_TRACE_BYTES=$trace_bytes
export FLOOR_TRACE_BYTES
variant "(b2) floor, linear, trace's size" plain "$tmp/tiny_floor_linear"
unset FLOOR_TRACE_BYTES

SCOREP_FILTERING_FILE=$tmp/exclude_tiny.filter
export SCOREP_FILTERING_FILE
variant "(c) scorep, tiny filtered" profile "$tmp/tiny_scorep"
[ ! -e "$tmp/tiny_ctfilter" ] || variant "(c2) tiny filtered, compile time" profile "$tmp/tiny_ctfilter"
unset SCOREP_FILTERING_FILE

SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false
export SCOREP_ENABLE_PROFILING SCOREP_ENABLE_TRACING
variant "(d) scorep, profiling" profile "$tmp/tiny_scorep"
# (d2): the same with a substrate plugin loaded that counts every enter and exit: the cost
# of delivering the events (two indirect calls per call of tiny) beside (d)
LD_LIBRARY_PATH=$tmp${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} SCOREP_SUBSTRATE_PLUGINS=count
export LD_LIBRARY_PATH SCOREP_SUBSTRATE_PLUGINS
variant "(d2) profiling + substrate plugin" profile "$tmp/tiny_scorep"
unset SCOREP_SUBSTRATE_PLUGINS

# room for the whole trace (32 B per call and the pages' headers): no reduction in the loop
trace_memory=$((calls / 30000 > 400 ? calls / 30000 : 400))M
SCOREP_TOTAL_MEMORY=$trace_memory
export SCOREP_TOTAL_MEMORY
SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true
variant "(e) scorep, tracing" trace "$tmp/tiny_scorep"
[ ! -e "$tmp/tiny_plugin_gcc" ] || variant "(e2) tracing, gcc plugin" trace "$tmp/tiny_plugin_gcc"
SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=true
variant "(f) scorep, profiling+tracing" both "$tmp/tiny_scorep"

# issue #9: a traced call that the minimum-duration filter pops at its leave (every tiny
# call is far shorter than 10 us), and the default SCOREP_TOTAL_MEMORY, where the trace
# is reduced once it is full (the reduction's cost spread over all calls)
SCOREP_ENABLE_PROFILING=false SCOREP_TRACING_MIN_DURATION=10us
export SCOREP_TRACING_MIN_DURATION
variant "(g) tracing, min duration 10us" trace "$tmp/tiny_scorep"
unset SCOREP_TRACING_MIN_DURATION
SCOREP_TOTAL_MEMORY=16000k
variant "(h) tracing, reduced (16000k)" trace "$tmp/tiny_scorep"
SCOREP_TOTAL_MEMORY=$trace_memory

# throttling at its defaults (after 100000 calls with a mean below 10 us): the cost of a
# throttled call (the first 10^5 calls are measured fully; their share is included)
SCOREP_THROTTLING=true SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false
variant "(i) profiling, throttled" profile "$tmp/tiny_scorep"
SCOREP_ENABLE_TRACING=true
variant "(j) prof+trace, throttled" both "$tmp/tiny_scorep"
# the steady state of a throttled call: throttled after 1000 calls, so that the other
# 99.99 % take the inline check's counting path (no call into the runtime)
SCOREP_ENABLE_TRACING=false SCOREP_THROTTLING_CALLS=1000
export SCOREP_THROTTLING_CALLS
if [ -e "$tmp/tiny_plugin_gcc" ]; then
    variant "(k) gcc plugin, throttled" profile "$tmp/tiny_plugin_gcc"
fi
if [ $have_clang = yes ]; then
    variant "(l) clang, uninstrumented" plain "$tmp/tiny_plain_clang"
    variant "(m) clang plugin, throttled" profile "$tmp/tiny_plugin_clang"
fi
unset SCOREP_THROTTLING_CALLS
SCOREP_THROTTLING=false
SCOREP_ENABLE_PROFILING=true

# rdtsc cost
: >"$tmp/rd"
i=0
while [ $i -lt "$runs" ]; do
    i=$((i + 1))
    run_once rdtsc "$tmp/rdtsc_cost" "$calls"
    sed -n 's/^ns_per_rdtsc \([^ ]*\).*/\1/p' "$tmp/out" >>"$tmp/rd"
done
rdtsc_ns=$(median <"$tmp/rd")

# finalize: 8 threads x 10^5 calls; wall(instrumented) - wall(uninstrumented), 3 runs each
fin_runs=3
finalize() { # finalize LABEL EXE: median wall and median in-program thread time
    : >"$tmp/fw" && : >"$tmp/ft"
    i=0
    while [ $i -lt $fin_runs ]; do
        i=$((i + 1))
        rm -rf "$tmp/exp"
        run_once "$1" "$2" 8 100000
        echo "$wall_s" >>"$tmp/fw"
        sed -n 's/^threads_s //p' "$tmp/out" >>"$tmp/ft"
    done
    rm -rf "$tmp/exp"
    echo "$(median <"$tmp/fw") $(median <"$tmp/ft")"
}
echo "running finalize (8 threads x 10^5 calls) ..." >&2
unset SCOREP_ENABLE_PROFILING SCOREP_ENABLE_TRACING
fin_plain=$(finalize "finalize, uninstrumented" "$tmp/threads_plain")
SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true
export SCOREP_ENABLE_PROFILING SCOREP_ENABLE_TRACING
fin_trace=$(finalize "finalize, tracing" "$tmp/threads_scorep")
SCOREP_ENABLE_PROFILING=true
fin_both=$(finalize "finalize, profiling+tracing" "$tmp/threads_scorep")

# issue #31's ratios, interleaved: the rows above run all runs of one variant, then the next,
# so a change of the machine's state between two variants (seen on the VMs: a traced call's
# median 1.08x of the floor in one run of make bench, 1.37x an hour later) lands in their
# ratio. Here every round runs the floor, the traced calls, the plain calls and the throttled
# calls once each, in turn; the figures are per round (traced / floor of the same round,
# throttled - plain of the same round), then their median and minimum over the rounds.
rounds=${BENCH_ROUNDS:-$runs}
once_ns() { # once_ns EXE ENV...: ns per call of one run of EXE with ENV added
    _exe=$1
    shift
    rm -rf "$tmp/exp"
    env "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" "$_exe" "$calls" >"$tmp/out" 2>"$tmp/err" ||
        die "interleaved run of $_exe failed: $(cat "$tmp/err")"
    rm -rf "$tmp/exp"
    _ns=$(sed -n 's/^ns_per_call //p' "$tmp/out")
    [ -n "$_ns" ] || die "interleaved run of $_exe printed no ns_per_call"
    echo "$_ns"
}
echo "running the interleaved rounds ($rounds x $calls calls each) ..." >&2
traced="SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true SCOREP_THROTTLING=false"
traced="$traced SCOREP_TOTAL_MEMORY=$trace_memory"
throttled="SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false SCOREP_THROTTLING=true"
throttled="$throttled SCOREP_THROTTLING_CALLS=1000"
: >"$tmp/rounds"
r=0
while [ $r -lt "$rounds" ]; do
    r=$((r + 1))
    # a line a round: floor (b2), traced functions (e), traced gcc plugin (e2), plain gcc (a),
    # gcc plugin throttled (k), plain clang (l), clang plugin throttled (m); "-": not built
    line=$(once_ns "$tmp/tiny_floor_linear" FLOOR_TRACE_BYTES=$trace_bytes)
    line="$line $(once_ns "$tmp/tiny_scorep" $traced)"
    if [ -e "$tmp/tiny_plugin_gcc" ]; then
        line="$line $(once_ns "$tmp/tiny_plugin_gcc" $traced)"
        line="$line $(once_ns "$tmp/tiny_plain")"
        line="$line $(once_ns "$tmp/tiny_plugin_gcc" $throttled)"
    else
        line="$line - $(once_ns "$tmp/tiny_plain") -"
    fi
    if [ $have_clang = yes ]; then
        line="$line $(once_ns "$tmp/tiny_plain_clang")"
        line="$line $(once_ns "$tmp/tiny_plugin_clang" $throttled)"
    else
        line="$line - -"
    fi
    echo "$line" >>"$tmp/rounds"
done

# ------------------------------------------------------------------ the table
echo
echo "scorep-rt overhead: tiny(x) = x+1 called $calls times from main; $runs runs per variant"
echo "($(uname -m), $(grep -m 1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(nproc 2>/dev/null || echo '?') CPUs)"
awk -F'|' '
BEGIN { fmt = "%-32s %11s %11s %8s %10s %9s\n"
        printf fmt, "variant", "ns/call med", "ns/call min", "wall s", "peak RSS", "trace"
        printf fmt, "", "", "", "(median)", "MiB", "B/event"
        printf fmt, "--------------------------------", "-----------", "-----------", "--------", "----------", "---------" }
{ printf "%-32s %11.2f %11.2f %8.3f %10s %9s\n", $1, $2, $3, $4, $5, $6 }' "$results"
[ -f "$tmp/events" ] && echo "(trace B/event = (traces/ + traces.def bytes) / $(cat "$tmp/events") events of the last run)"
# a throttled call's own cost: the throttled row minus the plain call of the same compiler
awk -F'|' '
$1 ~ /^\(a\) / { a_med = $2; a_min = $3 } $1 ~ /^\(k\) / { k_med = $2; k_min = $3; k = 1 }
$1 ~ /^\(l\) / { l_med = $2; l_min = $3 } $1 ~ /^\(m\) / { m_med = $2; m_min = $3; m = 1 }
END {
    if (k) printf "throttled call beyond the plain call: gcc plugin %+.2f ns (median) %+.2f ns (min)\n", k_med - a_med, k_min - a_min
    if (m) printf "                                     clang plugin %+.2f ns (median) %+.2f ns (min)\n", m_med - l_med, m_min - l_min
}' "$results"
# the traced call against both floors (issue #31: <= 1.3x the floor of the same run)
awk -F'|' -v mb="$(echo "$trace_bytes" | awk '{ printf "%.0f", $1 / 1e6 }')" '
$1 ~ /^\(b\) / { b_med = $2; b_min = $3 } $1 ~ /^\(b2\) / { b2_med = $2; b2_min = $3 }
$1 ~ /^\(e\) / { n++; lab[n] = "(e) functions"; med[n] = $2; mn[n] = $3 }
$1 ~ /^\(e2\) / { n++; lab[n] = "(e2) gcc plugin"; med[n] = $2; mn[n] = $3 }
END {
    printf "traced call / floor (median, min; target <= 1.3), trace in memory %s MB:\n", mb
    for (i = 1; i <= n; i++)
        printf "  %-16s %.2fx, %.2fx of (b) cached ring   %.2fx, %.2fx of (b2) linear, trace-sized\n", lab[i], med[i] / b_med, mn[i] / b_min, med[i] / b2_med, mn[i] / b2_min
}' "$results"
# the interleaved rounds: per round traced / floor and throttled - plain, then median, min
ri() { # ri LABEL AWK-EXPR UNIT: one line, the expression's median and minimum over the rounds
    awk "{ v = $2; if (v != \"\") print v }" "$tmp/rounds" >"$tmp/ri"
    if [ -s "$tmp/ri" ]; then
        printf '  %-50s %s / %s\n' "$1" "$(median <"$tmp/ri" | awk -v u="$3" '{ printf u, $1 }')" \
            "$(minimum <"$tmp/ri" | awk -v u="$3" '{ printf u, $1 }')"
    fi
}
echo "interleaved, $rounds rounds (each runs all programs once, in turn; per-round figures, median / min):"
# shellcheck disable=SC2016 # the expressions are awk's, in single quotes on purpose
{
    ri "traced call / floor (b2), -finstrument-functions" '$1 > 0 ? $2 / $1 : ""' '%.2fx'
    ri "traced call / floor (b2), gcc plugin" '$3 != "-" ? $3 / $1 : ""' '%.2fx'
    ri "throttled call beyond the plain call, gcc plugin" '$5 != "-" ? $5 - $4 : ""' '%+.2f ns'
    ri "throttled call beyond the plain call, clang plugin" '$7 != "-" ? $7 - $6 : ""' '%+.2f ns'
}
printf 'rdtsc instruction alone: %.2f ns (median of %s loops of %s reads)\n' "$rdtsc_ns" "$runs" "$calls"
echo "$fin_plain $fin_trace $fin_both" | awk '{
    printf "finalize, 8 threads x 10^5 calls (median of 3 runs; wall = whole process):\n"
    printf "  uninstrumented            wall %.3f s (threads %.3f s)\n", $1, $2
    printf "  tracing                   wall %.3f s (threads %.3f s)  wall - uninstrumented = %.3f s, minus thread time = %.3f s\n", $3, $4, $3 - $1, ($3 - $4) - ($1 - $2)
    printf "  profiling+tracing         wall %.3f s (threads %.3f s)  wall - uninstrumented = %.3f s, minus thread time = %.3f s\n", $5, $6, $5 - $1, ($5 - $6) - ($1 - $2) }'
cat <<'EOF'

targets (issue), ns per call:   profiling <= 85, tracing <= 80, both <= 100, filtered <= 15,
                                throttled call <= 1 beyond the plain call (#31), tracing <= 1.3x the floor (#31)
Score-P 4.0 reference:          profiling 127-145, tracing 145-216, both 190-250 ns; ~11.5 B/event
                                uninstrumented ~3-5 ns, floor ~70 ns
EOF
