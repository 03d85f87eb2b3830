#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# shellcheck disable=SC2086 # $cc is split on purpose: CC may carry options
# run_lock_bench.sh: part of `make bench`: the cost of recording pthread mutexes (the pthread
# adapter's wrappers, src/adapters/pthread/pthread_sync.c) per uncontended lock/unlock pair
# (bench/lock_bench.c, the thread's CPU time): without measurement (the floor: the two libc
# calls), under scorep-run from a shared library (not recorded: the wrapper's pass-through,
# which every library's mutex calls now take), and from the program itself, profiling and
# tracing (2 regions and 2 lock events per pair). Prints a table; asserts nothing.
#
# Environment: abs_top_builddir, abs_top_srcdir, CC, BENCH_RUNS (default 5),
# BENCH_LOCK_PAIRS (pairs per run, default 2000000).
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

cc=${CC:-gcc}
pairs=${BENCH_LOCK_PAIRS:-2000000}
runs=${BENCH_RUNS:-5}
cd "$tmp"
echo "building the lock benchmark in $tmp ..." >&2
step "liblockloop.so" $cc -O2 -shared -fPIC -o liblockloop.so "$srcdir/bench/lock_bench_lib.c"
step "lock_bench" $cc -O2 -o lock_bench "$srcdir/bench/lock_bench.c" -L. -llockloop \
    -Wl,-rpath,"$tmp" -lpthread

# one MODE RUNTIME VAR=VALUE...: ns per pair of one run (RUNTIME: plain or scorep-run)
one() {
    _mode=$1 _how=$2
    shift 2
    rm -rf exp
    if [ "$_how" = plain ]; then
        ./lock_bench "$pairs" "$_mode" >out 2>err
    else
        env SCOREP_EXPERIMENT_DIRECTORY=exp SCOREP_TOTAL_MEMORY=1000M "$@" \
            "$builddir/scorep-run" ./lock_bench "$pairs" "$_mode" >out 2>err
    fi || { echo "$bench_name: FAILED: $_mode $_how $*" >&2; cat err >&2; exit 1; }
    sed -n 's/^ns_per_pair //p' out
}

set -- "program plain" "library plain" "library scorep-run" "program scorep-run" \
    "program scorep-run SCOREP_ENABLE_TRACING=true"
r=0
while [ $r -lt "$runs" ]; do
    r=$((r + 1))
    k=0
    for v in "$@"; do
        k=$((k + 1))
        one $v >>"v$k.txt"
    done
done
for k in 1 2 3 4 5; do
    eval "min$k=\$(minimum <v$k.txt)"
    eval "med$k=\$(median <v$k.txt)"
done

echo
echo "pthread mutex recording: $pairs uncontended lock/unlock pairs, $runs interleaved runs"
echo "(ns per pair: minimum and median of the runs; added: minimum - minimum without measurement)"
printf '%s\n' "lock+unlock: no measurement (floor)|$min1|$med1|$min1" \
    "from a library, no measurement|$min2|$med2|$min2" \
    "from a library, scorep-run (pass-through)|$min3|$med3|$min2" \
    "from the program, profiling|$min4|$med4|$min1" \
    "from the program, tracing (+ profiling)|$min5|$med5|$min1" | awk -F'|' '
    BEGIN { fmt = "%-44s %10s %10s %10s\n"
            printf fmt, "variant", "min ns", "median", "added ns"
            printf fmt, "--------------------------------------------", "----------", "----------", "----------" }
    { printf "%-44s %10.1f %10.1f %10.1f\n", $1, $2, $3, $2 - $4 }'
echo "(recorded: per pair 2 regions, ThreadAcquireLock and ThreadReleaseLock, a lock-free probe"
echo " of the mutex map, the decoded call site; pass-through: a code-range compare and an"
echo " indirect call)"
