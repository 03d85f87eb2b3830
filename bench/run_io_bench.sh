#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# shellcheck disable=SC2086 # $cc is split on purpose: CC may carry options
# run_io_bench.sh: part of `make bench`: the cost of I/O recording (issue #21) per wrapped
# call: 8-byte writes to /dev/null (bench/io_bench.c, the thread's CPU time) uninstrumented (the floor: the system
# call itself), linked with scorep-cc --io=posix with SCOREP_IO_POSIX=false (the wrapper's
# pass-through), profiling, and tracing; the same for ISO C (fwrite of 8 bytes + fflush:
# two recorded calls per iteration); and per character read from /dev/zero with getc_unlocked
# called as a function (one recorded call each) and with <stdio.h>'s inline getc_unlocked
# (recorded: its __uflow at every 4096-byte refill). Prints a table; asserts nothing.
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

# one BIN MODE VAR=VALUE...: ns per iteration of one run
one() {
    _bin=$1 _mode=$2
    shift 2
    rm -rf exp
    env SCOREP_EXPERIMENT_DIRECTORY=exp SCOREP_TOTAL_MEMORY=400M "$@" "./$_bin" "$calls" \
        "$_mode" >out 2>err || { echo "$bench_name: FAILED: $_bin $_mode $*" >&2; cat err >&2; exit 1; }
    [ ! -s err ] || { echo "$bench_name: $_bin $* wrote to stderr:" >&2; cat err >&2; }
    sed -n 's/^ns_per_write //p' out
}

# The variants run interleaved, $runs rounds: on a shared machine the load drifts, and the
# least disturbed run of each variant (the minimum) is what the table compares; the median
# is shown beside it.
set -- "plain posix" "io posix SCOREP_IO_POSIX=false" "io posix" "io posix SCOREP_ENABLE_TRACING=true" \
    "plain isoc" "io isoc SCOREP_IO_POSIX=false" "io isoc" "io isoc SCOREP_ENABLE_TRACING=true" \
    "plain unlocked" "io unlocked" "io unlocked SCOREP_ENABLE_TRACING=true" \
    "plain inline" "io inline" "io inline SCOREP_ENABLE_TRACING=true"
r=0
while [ $r -lt "$runs" ]; do
    r=$((r + 1))
    k=0
    for v in "$@"; do
        k=$((k + 1))
        one $v >>"v$k.txt"
    done
done
for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do
    eval "min$k=\$(minimum <v$k.txt)"
    eval "med$k=\$(median <v$k.txt)"
done

echo
echo "I/O recording: $calls iterations to /dev/null, $runs interleaved runs per variant"
echo "(ns per iteration: minimum and median of the runs; per recorded call: (minimum -"
echo " minimum uninstrumented) / recorded calls per iteration)"
printf '%s\n' "write(8 bytes): uninstrumented|$min1|$med1|$min1|1" \
    "write: --io=posix, SCOREP_IO_POSIX=false|$min2|$med2|$min1|1" \
    "write: profiling|$min3|$med3|$min1|1" \
    "write: tracing (+ profiling)|$min4|$med4|$min1|1" \
    "fwrite(8)+fflush: uninstrumented|$min5|$med5|$min5|2" \
    "fwrite+fflush: SCOREP_IO_POSIX=false|$min6|$med6|$min5|2" \
    "fwrite+fflush: profiling|$min7|$med7|$min5|2" \
    "fwrite+fflush: tracing (+ profiling)|$min8|$med8|$min5|2" \
    "getc_unlocked call: uninstrumented|$min9|$med9|$min9|1" \
    "getc_unlocked call: profiling|$min10|$med10|$min9|1" \
    "getc_unlocked call: tracing|$min11|$med11|$min9|1" \
    "inline getc_unlocked: uninstrumented|$min12|$med12|$min12|0.000244140625" \
    "inline getc_unlocked: profiling|$min13|$med13|$min12|0.000244140625" \
    "inline getc_unlocked: tracing|$min14|$med14|$min12|0.000244140625" | awk -F'|' '
    BEGIN { fmt = "%-42s %10s %10s %18s\n"
            printf fmt, "variant", "min ns/it", "median", "ns/recorded call"
            printf fmt, "------------------------------------------", "----------", "----------", "------------------" }
    { printf "%-42s %10.2f %10.2f %18.1f\n", $1, $2, $3, ($2 - $4) / $5 }'
echo "(the floor is the uninstrumented system call; per recorded call: Enter, the operation's"
echo " begin and complete (two 64-byte trace records when tracing), Leave, io_bytes_written;"
echo " getc_unlocked: per character; inline getc_unlocked: 64 times the characters, per"
echo " character, one recorded __uflow per 4096 characters: the last column is per __uflow)"
