#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
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
        profile) env SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" SCOREP_CUDA_ENABLE="$2" \
            "$tmp/cuda_bench" "$calls" instr "$3" ;;
        trace) env SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" SCOREP_ENABLE_TRACING=true \
            SCOREP_CUDA_ENABLE="$2" SCOREP_TOTAL_MEMORY=2G "$tmp/cuda_bench" "$calls" instr "$3" ;;
        esac 2>/dev/null
    done | sort -n | head -n 1
}

plain=$(best plain)
printf '\nCUDA API call through the adapter'"'"'s CUPTI callback (no GPU: called directly; ns per call, best of %s runs)\n' "$runs"
printf '%-52s %14s %10s %14s %16s\n' operation "empty callback" profile profile+trace "added (trace)"
# SCOREP_CUDA_ENABLE, user regions open around the launches, label
for v in "yes 0 cudaLaunchKernel enter+exit" \
    "yes,kernel_callsite 0 the same, kernel_callsite" \
    "yes,kernel_callsite 10 the same, kernel_callsite, 10 calls open"; do
    # shellcheck disable=SC2086
    set -- $v
    en=$1 depth=$2
    shift 2
    profile=$(best profile "$en" "$depth")
    trace=$(best trace "$en" "$depth")
    printf '%-52s %14s %10s %14s %16s\n' "$*" "$plain" "$profile" "$trace" \
        "$(echo "$trace $plain" | awk '{ printf "%.1f", $1 - $2 }')"
done

# --- activity records: ns per CUPTI kernel record through the processing path (issue 17) ---
# The old path is the adapter's cuda_activity.c before issue 17 (git revision $old_rev),
# compiled into the same program with its symbols renamed; without git history only the
# new figures are shown.
records=${BENCH_RECORDS:-1000000}
old_rev=${CUDA_BENCH_OLD_REV:-d66e460}
old_flags=
if git -C "$srcdir" show "$old_rev:src/adapters/cuda/cuda_activity.c" >"$tmp/old_activity.c" 2>/dev/null; then
    ren="-Dscorep_cuda_process_buffer=old_process_buffer -Dscorep_cuda_activity_clock=old_activity_clock
        -Dscorep_cuda_record_kernels=old_record_kernels -Dscorep_cuda_record_memcpy=old_record_memcpy
        -Dscorep_cuda_stream_location=old_stream_location -Dscorep_cuda_stream_count=old_stream_count
        -Dscorep_cuda_activity_stop=old_activity_stop -Dscorep_cuda_process_record=old_process_record
        -Dscorep_cuda_kernel_names_demangled=old_kernel_names_demangled"
    # shellcheck disable=SC2086
    ${CC:-gcc} -O2 -w -I"$srcdir/include" -I"$srcdir/src" -I"$builddir" ${CUDA_CPPFLAGS:-} $ren \
        -c -o "$tmp/old_activity.o" "$tmp/old_activity.c" && old_flags="-DWITH_OLD $tmp/old_activity.o"
fi
# shellcheck disable=SC2086
${CC:-gcc} -O2 -I"$srcdir/include" -I"$srcdir/src" -I"$builddir" ${CUDA_CPPFLAGS:-} \
    -o "$tmp/records_bench" "$srcdir/bench/cuda_records_bench.c" $old_flags -L"$builddir/.libs" \
    -Wl,-rpath,"$builddir/.libs" -Wl,--no-as-needed -lscorep-rt-cuda -lscorep-rt -lstdc++ \
    $(sed -n "s/^CUDA_LIBS = //p" "$builddir/Makefile")

# rec MODE TRACE: the least ns per record of $runs runs (first field), with its other fields
rec()
{
    for _r in $(seq "$runs"); do
        env SCOREP_EXPERIMENT_DIRECTORY="$tmp/rexp" SCOREP_ENABLE_TRACING="$2" \
            SCOREP_TOTAL_MEMORY=2G "$tmp/records_bench" "$records" "$1" 2>/dev/null ||
            echo "failed"
    done | sort -n | head -n 1
}
printf '\nCUPTI kernel records through the activity processing (%s records, 16 kernels, 4 streams; ns per record, best of %s runs; goal < 50)\n' "$records" "$runs"
printf '%-10s %22s %22s %26s\n' output "old path (before #17)" "new path" "pool+consumer, end to end"
for t in false true; do
    o="n/a (no git history)"
    [ -z "$old_flags" ] || o=$(rec old $t | cut -d' ' -f1)
    nw=$(rec new $t | cut -d' ' -f1)
    p=$(rec pool $t)
    label=profile
    [ $t = true ] && label=profile+trace
    printf '%-10s %22s %22s %26s\n' "$label" "$o" "$nw" \
        "$(echo "$p" | awk '{ printf "%s (pool peak %.1f MiB)", $1, $3 / 1048576 }')"
done
