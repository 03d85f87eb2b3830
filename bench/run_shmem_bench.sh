#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_shmem_bench.sh: OpenSHMEM part of `make bench` (issue #11): added one-way latency of an
# 8-byte put (ping-pong of shmem_long_p and shmem_long_wait_until, 10^5 round trips, 2 PEs)
# and added cost per shmem_putmem (10^6 puts from PE 0) and per shmem_my_pe (a wrapper with
# Enter/Leave only; 10^6 calls), linked with `scorep-cc oshcc`; the last two in thread CPU
# time (see bench/shmem_bench.c). Prints a table; asserts nothing.
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
command -v oshcc >/dev/null 2>&1 || { echo "SHMEM benchmarks skipped: no oshcc"; exit 0; }
[ -e "$builddir/.libs/libscorep-rt-shmem.so" ] ||
    { echo "SHMEM benchmarks skipped: no SHMEM adapter"; exit 0; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_osc='^rdma'
cd "$tmp"
oshcc -O2 -o plain "$srcdir/bench/shmem_bench.c"
"$builddir/scorep-cc" --nocompiler oshcc -O2 -o measured "$srcdir/bench/shmem_bench.c"

# measure BIN MODE N ENV...: median over $runs of the program's own number
measure() { launched_median "oshrun --oversubscribe -np 2" "$@"; }

prof="SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false"
trace="SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=400M"
pp_plain=$(measure plain pingpong 100000 X=1)
# shellcheck disable=SC2086
pp_prof=$(measure measured pingpong 100000 $prof)
# shellcheck disable=SC2086
pp_trace=$(measure measured pingpong 100000 $trace)
put_plain=$(measure plain put 1000000 X=1)
# shellcheck disable=SC2086
put_prof=$(measure measured put 1000000 $prof)
# shellcheck disable=SC2086
put_trace=$(measure measured put 1000000 $trace)
me_plain=$(measure plain mype 1000000 X=1)
# shellcheck disable=SC2086
me_prof=$(measure measured mype 1000000 $prof)
# shellcheck disable=SC2086
me_trace=$(measure measured mype 1000000 $trace)

added() { echo "$1 $2" | awk '{ printf "%.1f", $1 - $2 }'; }
echo
echo "OpenSHMEM (Open MPI oshmem, 2 PEs on one node; median of $runs runs)"
printf '%-34s %12s %12s %12s\n' "" uninstr. profiling tracing
printf '%-34s %12s %12s %12s\n' "one-way latency, 8 B put [ns]" "$pp_plain" "$pp_prof" "$pp_trace"
printf '%-34s %12s %12s %12s\n' "  added per put + wait [ns]" "-" "$(added "$pp_prof" "$pp_plain")" \
    "$(added "$pp_trace" "$pp_plain")"
printf '%-34s %12s %12s %12s\n' "shmem_putmem 8 B [ns/call]" "$put_plain" "$put_prof" "$put_trace"
printf '%-34s %12s %12s %12s\n' "  added per put [ns]" "-" "$(added "$put_prof" "$put_plain")" \
    "$(added "$put_trace" "$put_plain")"
printf '%-34s %12s %12s %12s\n' "shmem_my_pe [ns/call]" "$me_plain" "$me_prof" "$me_trace"
printf '%-34s %12s %12s %12s\n' "  added per call [ns]" "-" "$(added "$me_prof" "$me_plain")" \
    "$(added "$me_trace" "$me_plain")"
