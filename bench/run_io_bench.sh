#!/bin/sh
# shellcheck disable=SC2086 # $cc is split on purpose: CC may carry options
# run_io_bench.sh: part of `make bench`: the cost of I/O recording (issue #21) per wrapped
# call: 8-byte writes to /dev/null (bench/io_bench.c) uninstrumented (the floor: the system
# call itself), linked with scorep-cc --io=posix with SCOREP_IO_POSIX=false (the wrapper's
# pass-through), profiling, and tracing; the same for ISO C (fwrite of 8 bytes + fflush:
# two recorded calls per iteration). Prints a table; asserts nothing.
#
# Environment: abs_top_builddir, abs_top_srcdir, CC, BENCH_RUNS (default 5),
# BENCH_IO_CALLS (writes per run, default 400000).
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

cc=${CC:-gcc}
calls=${BENCH_IO_CALLS:-400000}
cd "$tmp"
echo "building the I/O benchmark in $tmp ..." >&2
step "plain io_bench" $cc -O2 -o plain "$srcdir/bench/io_bench.c"
step "io_bench with --io=posix" "$builddir/scorep-cc" --nocompiler --io=posix $cc -O2 -o io \
    "$srcdir/bench/io_bench.c"

# ns BIN MODE VAR=VALUE...: median ns per iteration over $runs runs
ns() {
    _bin=$1 _mode=$2
    shift 2
    : >ns.txt
    i=0
    while [ $i -lt "$runs" ]; do
        i=$((i + 1))
        rm -rf exp
        env SCOREP_EXPERIMENT_DIRECTORY=exp SCOREP_TOTAL_MEMORY=400M "$@" "./$_bin" "$calls" \
            "$_mode" >out 2>err || { echo "$bench_name: FAILED: $_bin $_mode $*" >&2; cat err >&2; exit 1; }
        [ ! -s err ] || { echo "$bench_name: $_bin $* wrote to stderr:" >&2; cat err >&2; }
        sed -n 's/^ns_per_write //p' out >>ns.txt
    done
    median <ns.txt
}

p_plain=$(ns plain posix)
p_off=$(ns io posix SCOREP_IO_POSIX=false)
p_prof=$(ns io posix)
p_trace=$(ns io posix SCOREP_ENABLE_TRACING=true)
c_plain=$(ns plain isoc)
c_off=$(ns io isoc SCOREP_IO_POSIX=false)
c_prof=$(ns io isoc)
c_trace=$(ns io isoc SCOREP_ENABLE_TRACING=true)

echo
echo "I/O recording: $calls iterations to /dev/null, $runs runs per variant (median ns per"
echo "iteration; recorded cost = variant - uninstrumented, per recorded call)"
printf '%s\n' "write(8 bytes): uninstrumented|$p_plain|$p_plain|1" \
    "write: --io=posix, SCOREP_IO_POSIX=false|$p_off|$p_plain|1" \
    "write: profiling|$p_prof|$p_plain|1" \
    "write: tracing (+ profiling)|$p_trace|$p_plain|1" \
    "fwrite(8)+fflush: uninstrumented|$c_plain|$c_plain|2" \
    "fwrite+fflush: SCOREP_IO_POSIX=false|$c_off|$c_plain|2" \
    "fwrite+fflush: profiling|$c_prof|$c_plain|2" \
    "fwrite+fflush: tracing (+ profiling)|$c_trace|$c_plain|2" | awk -F'|' '
    BEGIN { fmt = "%-42s %12s %18s\n"
            printf fmt, "variant", "ns/iteration", "ns/recorded call"
            printf fmt, "------------------------------------------", "------------", "------------------" }
    { printf "%-42s %12.1f %18.1f\n", $1, $2, ($2 - $3) / $4 }'
echo "(the floor is the uninstrumented system call; per recorded call: Enter, the operation's"
echo " begin and complete (two 64-byte trace records when tracing), Leave, io_bytes_written)"
