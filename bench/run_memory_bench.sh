#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_memory_bench.sh: part of `make bench`: the cost of one malloc(64)/free pair with
# memory recording (src/adapters/memory) against the plain pair of the same program built
# without scorep-cc: idle (adapter linked, SCOREP_MEMORY_RECORDING unset), profiling,
# profiling and tracing, and with 4 threads allocating at once (the address table's shards).
# Prints a table (the least disturbed, i.e. fastest, of BENCH_RUNS runs: on a shared machine
# the median drifts with the load); asserts nothing.
#
# Environment: abs_top_builddir, abs_top_srcdir, CC, BENCH_RUNS (default 5),
# BENCH_MEMORY_PAIRS (pairs per thread and run, default 1000000).
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

cc=${CC:-gcc}
runs=${BENCH_RUNS:-5}
pairs=${BENCH_MEMORY_PAIRS:-1000000}
cd "$tmp"
echo "building the memory benchmark in $tmp ..." >&2
$cc -O2 -o plain "$srcdir/bench/memory_bench.c" -lpthread
$cc -O2 -o rdtsc_cost "$srcdir/bench/rdtsc_cost.c"
"$builddir/scorep-cc" --memory $cc -O2 -o measured "$srcdir/bench/memory_bench.c" -lpthread
"$builddir/scorep-cc" --nomemory $cc -O2 -o unlinked "$srcdir/bench/memory_bench.c" -lpthread

# ns PROGRAM THREADS VAR=VALUE...: the fastest run's ns per pair
ns() {
    prog=$1 threads=$2
    shift 2
    : >ns.txt
    i=0
    while [ $i -lt "$runs" ]; do
        i=$((i + 1))
        rm -rf exp
        env SCOREP_EXPERIMENT_DIRECTORY=exp "$@" "./$prog" "$pairs" "$threads" 64 >out 2>err ||
            die "FAILED: $prog $*: $(cat err)"
        [ ! -s err ] || { echo "$bench_name: $prog $* wrote to stderr:" >&2; cat err >&2; }
        sed -n 's/^ns_per_pair //p' out >>ns.txt
    done
    minimum <ns.txt
}

echo "running ($runs x $pairs pairs each) ..." >&2
plain1=$(ns plain 1)
idle1=$(ns measured 1)
prof1=$(ns measured 1 SCOREP_MEMORY_RECORDING=true)
trace1=$(ns measured 1 SCOREP_MEMORY_RECORDING=true SCOREP_ENABLE_TRACING=true \
    SCOREP_TOTAL_MEMORY=400M)
plain2=$(ns plain 2)
prof2=$(ns measured 2 SCOREP_MEMORY_RECORDING=true)
: >rd.txt
i=0
while [ $i -lt "$runs" ]; do
    i=$((i + 1))
    ./rdtsc_cost | sed -n 's/^ns_per_rdtsc \([0-9.]*\).*/\1/p' >>rd.txt
done
rdtsc=$(minimum <rd.txt)
floor=$(echo "$rdtsc" | awk '{ printf "%.1f", 4 * $1 }')

row() { # row LABEL NS BASE FLOOR
    printf '%-50s %8s %8s %8s %8s\n' "$1" "$2" "$3" "$(echo "$2 $3" | awk '{ printf "%.1f", $1 - $2 }')" "$4"
}
echo
echo "Memory recording: one malloc(64)/free pair, ns (fastest of $runs runs x $pairs pairs)"
echo "floor: the 4 timestamps of a recorded pair (enter/leave of malloc and free), 4 x rdtsc"
echo "($rdtsc ns here); the plain pair is the same program built without scorep-cc"
printf '%-50s %8s %8s %8s %8s\n' "variant" "ns/pair" "plain" "added" "floor"
row "adapter linked, SCOREP_MEMORY_RECORDING unset" "$idle1" "$plain1" 0
row "recording, profile (2 regions, 3 metric updates)" "$prof1" "$plain1" "$floor"
row "recording, profile + trace (4 events, 2 counters, 8 attrs)" "$trace1" "$plain1" "$floor"
row "recording, profile, 2 threads at once (per thread)" "$prof2" "$plain2" "$floor"

# memkind's hbw_malloc(64)/hbw_free (docs/memory.md), where libmemkind is installed: the
# same wrappers' shape, the pair itself costs more (memkind's jemalloc arena of the kind)
if printf '#include <hbwmalloc.h>\nint main(void) { return hbw_check_available() < 0; }\n' |
    $cc -x c -o hbw_probe - -lmemkind 2>/dev/null; then
    $cc -O2 -DBENCH_HBW -o hbw_plain "$srcdir/bench/memory_bench.c" -lpthread -lmemkind
    "$builddir/scorep-cc" --memory $cc -O2 -DBENCH_HBW -o hbw_measured "$srcdir/bench/memory_bench.c" \
        -lpthread -lmemkind
    hplain=$(ns hbw_plain 1)
    hidle=$(ns hbw_measured 1)
    hprof=$(ns hbw_measured 1 SCOREP_MEMORY_RECORDING=true)
    htrace=$(ns hbw_measured 1 SCOREP_MEMORY_RECORDING=true SCOREP_ENABLE_TRACING=true \
        SCOREP_TOTAL_MEMORY=400M)
    echo
    echo "memkind: one hbw_malloc(64)/hbw_free pair, ns (fastest of $runs runs x $pairs pairs)"
    printf '%-50s %8s %8s %8s %8s\n' "variant" "ns/pair" "plain" "added" "floor"
    row "adapter linked, SCOREP_MEMORY_RECORDING unset" "$hidle" "$hplain" 0
    row "recording, profile" "$hprof" "$hplain" "$floor"
    row "recording, profile + trace" "$htrace" "$hplain" "$floor"
else
    echo "(no libmemkind: the hbw_malloc pair left out)"
fi

# Instructions per pair (callgrind, deterministic; the difference of 200000 and 100000
# pairs, so start and finalize cancel out except for what grows with the pairs, such as the
# trace written at the end): the cost of linking the adapter by default, recording off.
ir() { # ir PROGRAM PAIRS VAR=VALUE...
    prog=$1 n=$2
    shift 2
    rm -rf exp
    env SCOREP_EXPERIMENT_DIRECTORY=exp "$@" valgrind --tool=callgrind \
        --callgrind-out-file=/dev/null "./$prog" "$n" 1 64 2>&1 >/dev/null |
        sed -n 's/.*Collected : //p'
}
per_pair() { # per_pair PROGRAM VAR=VALUE...
    prog=$1
    shift
    a=$(ir "$prog" 100000 "$@")
    b=$(ir "$prog" 200000 "$@")
    [ -n "$a" ] && [ -n "$b" ] || die "callgrind $prog failed"
    echo $(((b - a) / 100000))
}
if command -v valgrind >/dev/null 2>&1; then
    echo "counting instructions (callgrind) ..." >&2
    i_plain=$(per_pair plain)
    i_unlinked=$(per_pair unlinked)
    i_idle=$(per_pair measured)
    i_prof=$(per_pair measured SCOREP_MEMORY_RECORDING=true)
    i_trace=$(per_pair measured SCOREP_MEMORY_RECORDING=true SCOREP_ENABLE_TRACING=true \
        SCOREP_TOTAL_MEMORY=400M)
    irow() { printf '%-58s %8s %8s\n' "$1" "$2" "$(($2 - i_plain))"; }
    echo
    echo "Instructions per malloc(64)/free pair (callgrind); plain: $i_plain"
    printf '%-58s %8s %8s\n' "variant" "instr" "added"
    irow "scorep-cc --nomemory (adapter not linked)" "$i_unlinked"
    irow "adapter linked (the default), recording off" "$i_idle"
    irow "recording, profile" "$i_prof"
    irow "recording, profile + trace (attributes; trace writing incl.)" "$i_trace"
else
    echo "(no valgrind: instruction counts left out)"
fi
