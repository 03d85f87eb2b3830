#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_clock_bench.sh: clock part of `make bench`: the error of the ping-pong clock offset on
# one host (ranks told they are on another node; the true offset is 0 with clock_gettime and
# about 0 with the TSC), per timer: the measured offsets and round trips of BENCH_RUNS runs
# of 4 ranks. Prints a table; asserts nothing (make check asserts the bound, not the size).
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
command -v mpicc >/dev/null 2>&1 || { echo "clock benchmark skipped: no mpicc"; exit 0; }
[ -e "$builddir/.libs/libscorep-rt-mpi.so" ] || { echo "clock benchmark skipped: no MPI adapter"; exit 0; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
cd "$tmp"
"$builddir/scorep-cc" mpicc -O2 -o late "$srcdir/test/programs/mpi_late.c"
runs=${BENCH_RUNS:-5}

echo
echo "clock offset by ping-pong on one host (4 ranks, ranks 1-3 on a simulated other node)"
printf '%-14s %8s %14s %14s %14s  %s\n' timer offsets "median |off|" "max |off|" "median rtt/2" unit
for timer in tsc clock_gettime; do
    i=0
    while [ $i -lt "$runs" ]; do
        SCOREP_TIMER=$timer SCOREP_VERBOSE=true SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" \
            timeout 120 mpirun -np 1 ./late : -np 3 env SCOREP_NODE_NAME=bench-other ./late \
            2>&1 >/dev/null | sed -n 's/.*clock offset of rank [0-9]*: \(-*[0-9]*\) ticks, round trip \([0-9]*\) ticks$/\1 \2/p'
        rm -rf "$tmp"/exp*
        i=$((i + 1))
    done >"$timer.txt"
    unit=ns # clock_gettime ticks; the TSC rows stay in TSC ticks
    [ "$timer" = clock_gettime ] || unit=ticks
    med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] + 0 }'; }
    off=$(awk '{ print $1 < 0 ? -$1 : $1 }' "$timer.txt" | med)
    max=$(awk '{ o = $1 < 0 ? -$1 : $1; if (o > m) m = o } END { print m + 0 }' "$timer.txt")
    half=$(awk '{ print int($2 / 2) }' "$timer.txt" | med)
    printf '%-14s %8d %14d %14d %14d  %s\n' "$timer" "$(wc -l <"$timer.txt")" "$off" "$max" \
        "$half" "$unit"
done
