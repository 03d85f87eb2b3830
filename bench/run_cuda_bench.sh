#!/bin/sh
# run_cuda_bench.sh: CUDA part of `make bench`: the adapter's cost per CUDA API call. There
# is no GPU here, so CUPTI never calls back: bench/cuda_bench.c calls the adapter's CUPTI
# callback itself with CUPTI's callback data (enter and exit of cudaLaunchKernel), which is
# the path CUPTI takes on a GPU machine. Not measured: CUPTI's own cost of delivering a
# callback. Asserts nothing. Environment: abs_top_builddir, abs_top_srcdir, CC,
# CUDA_CPPFLAGS (from make), BENCH_RUNS (default 5), BENCH_CALLS (default 1000000).
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

runs=${BENCH_RUNS:-5}
calls=${BENCH_CALLS:-1000000}
if [ ! -e "$builddir/.libs/libscorep-rt-cuda.so" ]; then
    echo "run_cuda_bench.sh: skipped (the CUDA adapter is not built)" >&2
    exit 0
fi
${CC:-gcc} -O2 -I"$srcdir/include" -I"$srcdir/src" -I"$builddir" ${CUDA_CPPFLAGS:-} \
    -o "$tmp/cuda_bench" "$srcdir/bench/cuda_bench.c" -L"$builddir/.libs" \
    -Wl,-rpath,"$builddir/.libs" -Wl,--no-as-needed -lscorep-rt-cuda -lscorep-rt

# best VARIANT: the least ns per call of $runs runs
best()
{
    for _r in $(seq "$runs"); do
        case $1 in
        plain) "$tmp/cuda_bench" "$calls" plain ;;
        profile) env SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" "$tmp/cuda_bench" "$calls" ;;
        trace) env SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" SCOREP_ENABLE_TRACING=true \
            SCOREP_TOTAL_MEMORY=2G "$tmp/cuda_bench" "$calls" ;;
        esac 2>/dev/null
    done | sort -n | head -n 1
}

plain=$(best plain)
profile=$(best profile)
trace=$(best trace)
printf '\nCUDA API call through the adapter'"'"'s CUPTI callback (no GPU: called directly; ns per call, best of %s runs)\n' "$runs"
printf '%-34s %14s %10s %14s %16s\n' operation "empty callback" profile profile+trace "added (trace)"
printf '%-34s %14s %10s %14s %16s\n' "cudaLaunchKernel enter+exit" "$plain" "$profile" "$trace" \
    "$(echo "$trace $plain" | awk '{ printf "%.1f", $1 - $2 }')"
