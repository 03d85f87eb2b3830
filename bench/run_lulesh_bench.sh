#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# shellcheck disable=SC2086 # $cc is split on purpose: CC may carry options (gcc -m64)
# run_lulesh_bench.sh: issue #9's call-heavy benchmark of `make bench` (bench/lulesh_like.c,
# 10^8 tiny unfiltered kernel calls). Prints one table; asserts nothing about timings.
#
# Environment: abs_top_builddir, abs_top_srcdir, CC (default gcc) as in run_bench.sh;
# LULESH_RUNS (runs per variant, default 5), LULESH_STEPS (default 1000) and
# LULESH_ELEMS (default 25000): kernel calls = 4 x steps x elements; BENCH_KEEP=1 keeps
# the temporary directory.
set -eu

# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
cc=${CC:-gcc}
runs=${LULESH_RUNS:-5}
steps=${LULESH_STEPS:-1000}
elems=${LULESH_ELEMS:-25000}
calls=$((4 * steps * elems))

[ -x "$builddir/scorep-cc" ] || die "no $builddir/scorep-cc: build first (make all)"
[ -e "$builddir/.libs/libscorep-rt.so" ] || die "no $builddir/.libs/libscorep-rt.so: build first"
cube_dump=$builddir/scorep-cube-dump
[ -x "$cube_dump" ] || die "no $cube_dump: build first"
have_otf2_print=no
command -v otf2-print >/dev/null 2>&1 && have_otf2_print=yes

echo "building lulesh_like in $tmp ..." >&2
cat >"$tmp/exclude_kernels.filter" <<'EOF2'
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE calc_elem_*
SCOREP_REGION_NAMES_END
EOF2
step "build rusage_run" $cc -O2 -o "$tmp/rusage_run" "$bench/rusage_run.c"
step "build lulesh_like (uninstrumented)" $cc -O2 -o "$tmp/plain" "$bench/lulesh_like.c"
step "build lulesh_like (scorep-cc --instrument=functions)" "$builddir/scorep-cc" \
    --instrument=functions $cc -O2 -o "$tmp/scorep" "$bench/lulesh_like.c"
# the GCC plugin's instrumentation (the default of scorep-cc for gcc when it is installed):
# region descriptors and the inline throttle check, no call once a kernel is throttled
plugin=${SCOREP_CC_GCC_PLUGIN:-$builddir/.libs/scorep_filter_gcc.so}
have_plugin=no
if [ -f "$plugin" ] && ! "$builddir/scorep-cc" --help | grep -q 'not built here'; then
    have_plugin=yes
    SCOREP_CC_GCC_PLUGIN=$plugin step "build lulesh_like (scorep-cc --instrument=plugin)" \
        "$builddir/scorep-cc" --instrument=plugin $cc -O2 -o "$tmp/plugin" "$bench/lulesh_like.c"
    SCOREP_CC_GCC_PLUGIN=$plugin step "build lulesh_like (plugin, compile-time filter)" \
        "$builddir/scorep-cc" --instrument=plugin --filter="$tmp/exclude_kernels.filter" $cc -O2 \
        -o "$tmp/plugin_filtered" "$bench/lulesh_like.c"
fi
# the floor of any -finstrument-functions tool: hooks that do nothing, in another object
# file so that they stay calls
cat >"$tmp/empty_hooks.c" <<'EOF2'
/* empty_hooks.c: -finstrument-functions hooks that do nothing (the instrumentation floor) */
void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);
void __cyg_profile_func_enter(void *fn, void *site) { (void)fn, (void)site; }
void __cyg_profile_func_exit(void *fn, void *site) { (void)fn, (void)site; }
EOF2
step "build empty_hooks.o" $cc -O2 -c -o "$tmp/empty_hooks.o" "$tmp/empty_hooks.c"
step "build lulesh_like (empty hooks)" $cc -O2 -finstrument-functions -o "$tmp/empty" \
    "$bench/lulesh_like.c" "$tmp/empty_hooks.o"


# kernel_visits EXPDIR: visits of all calc_elem_* call paths (not their throttled children)
kernel_visits() {
    "$cube_dump" -m visits "$1/profile.cubex" | awk -F'\t' '
        $2 ~ /\/calc_elem_[a-z]*$/ { split($4, kv, "="); s += kv[2] } END { printf "%.0f\n", s + 0 }'
}

# trace_info EXPDIR: "B/event events reduction-steps records-removed" of a trace
trace_info() {
    bytes=$(find "$1/traces" "$1/traces.def" -type f -exec wc -c {} + |
        awk '$2 != "total" { s += $1 } END { print s + 0 }')
    events=n/a
    [ $have_otf2_print = no ] ||
        events=$(otf2-print -G "$1/traces.otf2" |
            sed -n 's/^LOCATION .*# Events: \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
    # MANIFEST.md rows: | rank | location | step | time | records removed | what |
    red=$(awk -F'|' '$2 ~ /^ *[0-9]+ *$/ { n++; r += $6 } END { printf "%d %d\n", n, r }' \
        "$1/MANIFEST.md" 2>/dev/null || echo "0 0")
    echo "$bytes $events $red" | awk '{ if ($2 > 0) printf "%.2f %s %s %s\n", $1 / $2, $2, $3, $4
                                        else printf "n/a %s %s %s\n", $2, $3, $4 }'
}

# variant LABEL KIND EXE: KIND is plain, profile or trace (what must be written). Each
# variant's SCOREP_* settings are passed as the environment of the call.
results=$tmp/results
: >"$results"
variant() {
    label=$1 kind=$2 exe=$3
    vi=$((vi + 1))
    v=$tmp/v$vi
    [ "$round" -gt 1 ] || { : >"$v.wall" && : >"$v.loop" && : >"$v.cpu" && echo "- - - - -" >"$v.info"; }
    rm -rf "$tmp/exp"
    if ! SCOREP_EXPERIMENT_DIRECTORY=$tmp/exp "$tmp/rusage_run" "$tmp/ru" "$exe" \
        "$steps" "$elems" >"$tmp/out" 2>"$tmp/err"; then
        echo "run_lulesh_bench.sh: FAILED: variant '$label'" >&2
        sed 's/^/  | /' "$tmp/out" "$tmp/err" >&2
        exit 1
    fi
    [ "$round" -gt 1 ] || [ ! -s "$tmp/err" ] || sed "s/^/  $label: stderr | /" "$tmp/err" >&2
    grep -qx "kernel_calls $calls" "$tmp/out" || die "variant '$label' made no $calls calls"
    awk '{ print $4 }' "$tmp/ru" >>"$v.wall"
    awk '{ print $6 }' "$tmp/ru" >>"$v.cpu"
    sed -n 's/^loop_s //p' "$tmp/out" >>"$v.loop"
    [ "$round" -eq "$runs" ] || return 0
    visits=- tinfo="- - - -"
    if [ "$kind" != plain ]; then
        [ -f "$tmp/exp/profile.cubex" ] || die "variant '$label' wrote no profile.cubex"
        visits=$(kernel_visits "$tmp/exp")
    fi
    if [ "$kind" = trace ]; then
        [ -f "$tmp/exp/traces.otf2" ] || die "variant '$label' wrote no traces.otf2"
        tinfo=$(trace_info "$tmp/exp")
    fi
    rm -rf "$tmp/exp"
    printf '%s|%s|%s|%s|%s|%s|%s|%s\n' "$label" "$(median <"$v.wall")" "$(minimum <"$v.wall")" \
        "$(median <"$v.loop")" "$(minimum <"$v.loop")" "$visits" "$tinfo" \
        "$(median <"$v.cpu")" >>"$results"
}

# ------------------------------------------------------------------ the variants
# Run in rounds (each round runs every variant once), so that a change of the machine's load
# during the benchmark affects all variants alike.
all_variants() {
variant "uninstrumented" plain "$tmp/plain"
variant "empty hooks (no tool, floor)" plain "$tmp/empty"
variant "defaults (profiling, throttled)" profile "$tmp/scorep"
SCOREP_THROTTLING=false variant "profiling, throttling off" profile "$tmp/scorep"
SCOREP_ENABLE_TRACING=true variant "tracing (defaults)" trace "$tmp/scorep"
# every kernel call traced until the buffer is full: the reduction does the work
SCOREP_ENABLE_TRACING=true SCOREP_THROTTLING=false \
    variant "tracing, throttling off" trace "$tmp/scorep"
# the same per-call work as after the reduction's first step (calls shorter than the
# threshold are popped at their leave), without any reduction step: the difference to the
# row above is the reduction steps' own cost
SCOREP_ENABLE_TRACING=true SCOREP_THROTTLING=false SCOREP_TRACING_MIN_DURATION=1us \
    variant "tracing, thr. off, min 1us" trace "$tmp/scorep"
SCOREP_FILTERING_FILE=$tmp/exclude_kernels.filter \
    variant "kernels filtered (run time)" profile "$tmp/scorep"
if [ $have_plugin = yes ]; then
    variant "plugin: defaults (throttled)" profile "$tmp/plugin"
    SCOREP_THROTTLING=false variant "plugin: throttling off" profile "$tmp/plugin"
    # throttled after 1000 calls instead of 100,000: the steady state of a throttled kernel
    SCOREP_THROTTLING_CALLS=1000 variant "plugin: throttled at 1000 calls" profile "$tmp/plugin"
    SCOREP_ENABLE_TRACING=true variant "plugin: tracing (defaults)" trace "$tmp/plugin"
    SCOREP_FILTERING_FILE=$tmp/exclude_kernels.filter \
        variant "plugin: kernels filtered (run t.)" profile "$tmp/plugin"
    variant "plugin: kernels filtered (compile)" profile "$tmp/plugin_filtered"
fi
}
round=0
while [ $round -lt "$runs" ]; do
    round=$((round + 1)) vi=0
    echo "round $round of $runs ($calls kernel calls per variant) ..." >&2
    all_variants
done

# ------------------------------------------------------------------ the table
echo
echo "scorep-rt, call-heavy (issue #9): lulesh_like, $steps steps x $elems elements x 4 kernels"
echo "= $calls kernel calls, compiler-instrumented (scorep-cc $cc -O2); $runs runs per variant"
echo "($(uname -m), $(grep -m 1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(nproc 2>/dev/null || echo '?') CPUs)"
awk -F'|' -v calls="$calls" '
BEGIN { fmt = "%-34s %7s %7s %7s %7s %7s %7s %7s %11s %8s %9s\n"
        printf fmt, "variant", "wall s", "wall s", "slow-", "slow-", "CPU", "loop s", "loop", "kernel", "trace", "reduction"
        printf fmt, "", "median", "min", "down", "down", "slow-", "median", "ns/call", "visits", "B/event", "steps"
        printf fmt, "", "", "", "median", "min", "down", "", "median", "", "", "" }
NR == 1 { wmed = $2; wmin = $3; cmed = $8 }
{ split($7, t, " ")
  v = $6; if (v != "-") v = v (v == calls ? "=" : (v == 0 ? "" : "!"))
  printf "%-34s %7.3f %7.3f %6.2fx %6.2fx %6.2fx %7.3f %7.2f %11s %8s %9s\n", $1, $2, $3, $2 / wmed,
         $3 / wmin, (cmed > 0 ? $8 / cmed : 0), $4, $4 * 1e9 / calls, v, t[1], t[3] }' "$results"
awk -F'|' -v calls="$calls" '
$6 != "-" && $6 != calls && $6 != 0 { bad = bad "  " $1 ": " $6 " visits\n" }
END { if (bad != "") printf "VISIT COUNT MISMATCH (expected %s, or 0 where filtered):\n%s", calls, bad
      else printf "kernel visits: exactly %s in every measured variant (= above), 0 where filtered\n", calls }' "$results"
awk -F'|' '{ split($7, t, " ") } t[3] != "-" && t[3] > 0 {
    printf "  %s: %s reduction steps removed %s records; %s events left\n", $1, t[3], t[4], t[2] }' "$results"
cat <<'EOF2'
slowdown = wall time of the whole process (start, measurement, writing the experiment)
divided by the uninstrumented one (median by median, minimum by minimum); CPU slowdown =
median user+system time over the uninstrumented one's (steadier on a shared machine); loop ns/call =
the time-step loop's own time / kernel calls. Goal of issue #9: at most 2x with throttling.
Rows without "plugin:" are built with -finstrument-functions (scorep-cc --instrument=functions).
EOF2
