#!/bin/sh
# run_mpi_bench.sh: MPI part of `make bench`: added one-way latency (8-byte ping-pong,
# 10^5 round trips, 2 ranks), cost of a wrapped trivial call, and the wall time of a short
# 2/4/8/16-rank run with and without measurement. Prints a table; asserts nothing.
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
command -v mpicc >/dev/null 2>&1 || { echo "MPI benchmarks skipped: no mpicc"; exit 0; }
[ -e "$builddir/.libs/libscorep-rt-mpi.so" ] || { echo "MPI benchmarks skipped: no MPI adapter"; exit 0; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
cd "$tmp"
mpicc -O2 -o plain "$srcdir/bench/mpi_bench.c"
"$builddir/scorep-cc" --nocompiler mpicc -O2 -o measured "$srcdir/bench/mpi_bench.c"

# measure BIN MODE N ENV...: median over $runs of the program's own number
measure() { launched_median "mpirun -np 2" "$@"; }

wall() { # wall NP BIN ENV...: median wall time of a short run in seconds
    np=$1 bin=$2
    shift 2
    i=0
    while [ $i -lt 3 ]; do
        s=$(date +%s.%N)
        env "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" mpirun -np "$np" "./$bin" short >/dev/null 2>&1
        e=$(date +%s.%N)
        rm -rf "$tmp"/exp*
        echo "$e $s" | awk '{ printf "%.3f\n", $1 - $2 }'
        i=$((i + 1))
    done | median
}

pp_plain=$(measure plain pingpong 100000 X=1)
pp_prof=$(measure measured pingpong 100000 SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false)
pp_trace=$(measure measured pingpong 100000 SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=200M)
cr_plain=$(measure plain commrank 1000000 X=1)
cr_prof=$(measure measured commrank 1000000 SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false)
cr_trace=$(measure measured commrank 1000000 SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=200M)

echo
echo "MPI (Open MPI, shared memory, 2 ranks on 2 cores; median of $runs runs)"
printf '%-34s %12s %12s %12s\n' "" uninstr. profiling tracing
printf '%-34s %12s %12s %12s\n' "one-way latency, 8 B [ns]" "$pp_plain" "$pp_prof" "$pp_trace"
printf '%-34s %12s %12s %12s\n' "  added per message [ns]" "-" \
    "$(echo "$pp_prof $pp_plain" | awk '{ printf "%.1f", $1 - $2 }')" \
    "$(echo "$pp_trace $pp_plain" | awk '{ printf "%.1f", $1 - $2 }')"
printf '%-34s %12s %12s %12s\n' "MPI_Comm_rank [ns/call]" "$cr_plain" "$cr_prof" "$cr_trace"
printf '%-34s %12s %12s %12s\n' "  added per call [ns]" "-" \
    "$(echo "$cr_prof $cr_plain" | awk '{ printf "%.1f", $1 - $2 }')" \
    "$(echo "$cr_trace $cr_plain" | awk '{ printf "%.1f", $1 - $2 }')"
echo
printf '%-10s %14s %14s %14s %14s\n' ranks "uninstr. [s]" "profiling [s]" "tracing [s]" "extra (tr.) [s]"
for np in 2 4 8 16; do
    a=$(wall $np plain X=1)
    b=$(wall $np measured SCOREP_ENABLE_TRACING=false)
    c=$(wall $np measured SCOREP_ENABLE_TRACING=true)
    printf '%-10s %14s %14s %14s %14s\n' "$np" "$a" "$b" "$c" "$(echo "$c $a" | awk '{ printf "%.3f", $1 - $2 }')"
done
echo "targets (issue #3): <= 150 ns added per one-way message, <= 60 ns per trivial wrapped call,"
echo "<= 0.1 s extra for 16 ranks. Score-P 4.0: +400-600 ns/message, +116-155 ns/MPI_Comm_rank."
