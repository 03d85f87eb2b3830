#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_dynamic_bench.sh: part of `make bench`: dynamic user regions (an instance per visit,
# clustering; docs/profile-clustering.md). bench/dynamic_bench.c built without scorep-cc
# (the macros vanish: the uninstrumented floor) and with --user: clustering on (default, 64
# clusters) and off, for 10^5 and 10^6 iterations: ns per iteration (fastest of BENCH_RUNS)
# and the maximum RSS before the profile is written. Asserts nothing.
#
# Environment: abs_top_builddir, abs_top_srcdir, CC, BENCH_RUNS (default 3).
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

cc=${CC:-gcc}
runs=${BENCH_RUNS:-3}
cd "$tmp"
echo "building the dynamic-region benchmark in $tmp ..." >&2
$cc -O2 -I"$srcdir/include" -o plain "$srcdir/bench/dynamic_bench.c"
"$builddir/scorep-cc" --user --nocompiler $cc -O2 -o measured "$srcdir/bench/dynamic_bench.c"

# row LABEL PROGRAM N VAR=VALUE...: the fastest run's ns per iteration and its RSS
row() {
    label=$1 prog=$2 n=$3
    shift 3
    best="" rss=""
    i=0
    while [ $i -lt "$runs" ]; do
        i=$((i + 1))
        rm -rf exp
        env SCOREP_EXPERIMENT_DIRECTORY=exp SCOREP_PROFILING_FORMAT=none "$@" "./$prog" "$n" \
            >out 2>err || die "FAILED: $prog $n $*: $(cat err)"
        ns=$(sed -n 's/^ns_per_iteration //p' out)
        if [ -z "$best" ] || awk -v a="$ns" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$ns rss=$(sed -n 's/^maxrss_kb //p' out)
        fi
    done
    printf '%-44s %10s %14s\n' "$label" "$best" "$rss"
}

echo
echo "dynamic user regions (bench/dynamic_bench.c; 3.3 user calls per iteration)"
printf '%-44s %10s %14s\n' "variant" "ns/iter" "max RSS (KB)"
row "uninstrumented, 10^5 iterations" plain 100000
row "instances, clustering off, 10^5" measured 100000 SCOREP_PROFILING_ENABLE_CLUSTERING=false
row "clustering on (64 clusters), 10^5" measured 100000
row "uninstrumented, 10^6 iterations" plain 1000000
row "instances, clustering off, 10^6" measured 1000000 SCOREP_PROFILING_ENABLE_CLUSTERING=false
row "clustering on (64 clusters), 10^6" measured 1000000
