#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_compilers_bench.sh: issue #20's call-heavy benchmark per compiler: lulesh_like (10^8
# tiny kernel calls) built by clang (bench/lulesh_like.c) and gfortran (bench/lulesh_like.f90),
# each uninstrumented, with -finstrument-functions (scorep-cc --instrument=functions) and with
# scorep-cc's plugin (clang: the LLVM pass plugin, gfortran: the GCC plugin), at the runtime's
# defaults (profiling, throttling on); gcc's plugin build beside them for reference. Prints
# one table; asserts nothing about timings, only the kernel visits.
#
# Environment: abs_top_builddir, abs_top_srcdir as in run_bench.sh; COMPILERS_RUNS (rounds,
# default 7), LULESH_STEPS (default 1000) and LULESH_ELEMS (default 25000); BENCH_KEEP=1.
set -eu

# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
runs=${COMPILERS_RUNS:-7}
steps=${LULESH_STEPS:-1000}
elems=${LULESH_ELEMS:-25000}
calls=$((4 * steps * elems))
cc_wrap=$builddir/scorep-cc
cube_dump=$builddir/scorep-cube-dump
[ -x "$cc_wrap" ] || die "no $cc_wrap: build first (make all)"
[ -x "$cube_dump" ] || die "no $cube_dump: build first"
SCOREP_CC_GCC_PLUGIN=$builddir/.libs/scorep_filter_gcc.so
SCOREP_CC_LLVM_PLUGIN=$builddir/.libs/scorep_llvm_plugin.so
export SCOREP_CC_GCC_PLUGIN SCOREP_CC_LLVM_PLUGIN

cat >"$tmp/exclude_kernels.filter" <<'EOF2'
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE *calc_elem_*
SCOREP_REGION_NAMES_END
EOF2
step "build rusage_run" gcc -O2 -o "$tmp/rusage_run" "$bench/rusage_run.c"

# One list of variants: "label|kind|binary" (kind: plain or profile)
variants=$tmp/variants
: >"$variants"
add() { echo "$1|$2|$3" >>"$variants"; }

# build_set NAME COMPILER SOURCE FLAGS: the uninstrumented, -finstrument-functions, plugin and
# plugin + compile-time filter builds of one compiler (the plugin's only where it is built)
build_set() {
    name=$1 comp=$2 src=$3 flags=$4
    command -v "$comp" >/dev/null 2>&1 || { echo "$bench_name: no $comp: its rows are left out" >&2; return 0; }
    # shellcheck disable=SC2086 # flags are split on purpose
    step "$name: uninstrumented" $comp $flags -o "$tmp/${name}_plain" "$src"
    add "$name: uninstrumented" plain "$tmp/${name}_plain"
    # shellcheck disable=SC2086
    step "$name: functions" "$cc_wrap" --instrument=functions $comp $flags -o "$tmp/${name}_fn" "$src"
    add "$name: -finstrument-functions" profile "$tmp/${name}_fn"
    # shellcheck disable=SC2086
    if "$cc_wrap" --instrument=plugin --dry-run $comp -c x >/dev/null 2>&1; then
        step "$name: plugin" "$cc_wrap" --instrument=plugin $comp $flags -o "$tmp/${name}_plugin" "$src"
        add "$name: plugin (defaults)" profile "$tmp/${name}_plugin"
        step "$name: plugin, filtered" "$cc_wrap" --instrument=plugin \
            --filter="$tmp/exclude_kernels.filter" $comp $flags -o "$tmp/${name}_pfilt" "$src"
        add "$name: plugin, kernels filtered (compile)" profile "$tmp/${name}_pfilt"
        if nm "$tmp/${name}_plugin" | grep -q ' U __cyg_profile_func_enter'; then
            die "$name: the plugin build calls the -finstrument-functions hooks"
        fi
    else
        echo "$bench_name: $comp has no plugin in this build: its plugin rows are left out" >&2
    fi
}
echo "building lulesh_like in $tmp ..." >&2
build_set clang clang "$bench/lulesh_like.c" "-O2"
# gfortran 12 has no noinline attribute: -fno-inline keeps the kernels calls in every build
(cd "$tmp" && build_set gfortran gfortran "$bench/lulesh_like.f90" "-O2 -fno-inline") ||
    exit 1
build_set gcc gcc "$bench/lulesh_like.c" "-O2"
# XRay (issue #20, optional): an experiment, not a scorep-rt mode: the kernels' sleds patched
# at start and unpatched after 100,000 entries each (throttled through XRay: the further
# visits are lost), and the sleds never patched (the floor of an XRay build)
if command -v clang++ >/dev/null 2>&1 &&
    clang++ -O2 -c -o "$tmp/xray_tool.o" "$bench/xray_tool.cc" >/dev/null 2>&1 &&
    clang++ -O2 -DXRAY_TOOL_NO_PATCH -c -o "$tmp/xray_floor.o" "$bench/xray_tool.cc" >/dev/null 2>&1; then
    step "clang: XRay" clang -O2 -fxray-instrument -fxray-instruction-threshold=1 \
        -o "$tmp/clang_xray" "$bench/lulesh_like.c" "$tmp/xray_tool.o" -lstdc++
    step "clang: XRay floor" clang -O2 -fxray-instrument -fxray-instruction-threshold=1 \
        -o "$tmp/clang_xray_floor" "$bench/lulesh_like.c" "$tmp/xray_floor.o" -lstdc++
    add "clang: XRay, unpatched at 100000 (visits lost)" plain_x "$tmp/clang_xray"
    add "clang: XRay sleds, never patched" plain_x "$tmp/clang_xray_floor"
else
    echo "$bench_name: clang's XRay runtime is missing: its rows are left out" >&2
fi
# the subshell's variants
[ -s "$variants" ] || die "no compiler found"

# kernel_visits EXPDIR: visits of all *calc_elem_* call paths (not their throttled children)
kernel_visits() {
    "$cube_dump" -m visits "$1/profile.cubex" | awk -F'\t' '
        { n = split($2, part, "/") } part[n] ~ /calc_elem_/ { split($4, kv, "="); s += kv[2] }
        END { printf "%.0f\n", s + 0 }'
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
round=0
while [ $round -lt "$runs" ]; do
    round=$((round + 1))
    echo "round $round of $runs ($calls kernel calls per variant) ..." >&2
    vi=0
    while IFS='|' read -r label kind exe; do
        vi=$((vi + 1))
        v=$tmp/v$vi
        rm -rf "$tmp/exp"
        if ! SCOREP_EXPERIMENT_DIRECTORY=$tmp/exp "$tmp/rusage_run" "$tmp/ru" "$exe" \
            "$steps" "$elems" >"$tmp/out" 2>"$tmp/err" </dev/null; then
            sed 's/^/  | /' "$tmp/out" "$tmp/err" >&2
            die "FAILED: variant '$label'"
        fi
        grep -qx "kernel_calls $calls" "$tmp/out" || die "variant '$label' made no $calls calls"
        awk '{ print $4 }' "$tmp/ru" >>"$v.wall"
        awk '{ print $6 }' "$tmp/ru" >>"$v.cpu"
        if [ "$kind" = profile ] && [ $round -eq 1 ]; then
            [ -f "$tmp/exp/profile.cubex" ] || die "variant '$label' wrote no profile.cubex"
            kernel_visits "$tmp/exp" >"$v.visits"
        fi
        [ "$kind" = profile ] || echo - >"$v.visits"
    done <"$variants"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

echo
echo "scorep-rt, call-heavy per compiler (issue #20): lulesh_like, $steps steps x $elems elements"
echo "x 4 kernels = $calls kernel calls, runtime defaults (profiling, throttling on); $runs rounds,"
echo "every variant once per round. $(uname -m), $(grep -m 1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'),"
echo "$(nproc 2>/dev/null || echo '?') CPUs; load average before $load_before, after $load_after"
fmt="%-48s %7s %7s %7s %7s %7s %11s\n"
printf "$fmt" "variant" "wall s" "wall s" "slow-" "slow-" "CPU" "kernel"
printf "$fmt" "" "median" "min" "down" "down" "slow-" "visits"
printf "$fmt" "" "" "" "median" "min" "down" ""
vi=0
base_med=1 base_min=1 base_cpu=1 clang_med=1 clang_min=1 clang_cpu=1
while IFS='|' read -r label kind exe; do
    vi=$((vi + 1))
    v=$tmp/v$vi
    med=$(median <"$v.wall") min=$(minimum <"$v.wall") cpu=$(median <"$v.cpu")
    if [ "$kind" = plain ]; then base_med=$med base_min=$min base_cpu=$cpu; fi
    # the XRay rows compare with clang's uninstrumented build
    if [ "$kind" = plain_x ]; then base_med=$clang_med base_min=$clang_min base_cpu=$clang_cpu; fi
    if [ "$label" = "clang: uninstrumented" ]; then clang_med=$med clang_min=$min clang_cpu=$cpu; fi
    visits=$(cat "$v.visits")
    case "$visits" in
    -) ;;
    "$calls") visits="$visits=" ;;
    0) ;;
    *) visits="$visits!" ;;
    esac
    awk -v l="$label" -v a="$med" -v b="$min" -v c="$cpu" -v am="$base_med" -v bm="$base_min" \
        -v cm="$base_cpu" -v vis="$visits" 'BEGIN {
        printf "%-48s %7.3f %7.3f %6.2fx %6.2fx %6.2fx %11s\n", l, a, b, a / am, b / bm,
               (cm > 0 ? c / cm : 0), vis }'
done <"$variants"
cat <<'EOF2'
slowdown = wall time of the whole process over the same compiler's uninstrumented build's
(median by median, minimum by minimum); CPU slowdown = median user+system time over its
median. visits: the kernels' visits summed over their call paths (= exactly 4 x steps x
elements; 0 where filtered at compile time). Goal of issue #20: within 1.5x with throttling.
EOF2
