#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# shellcheck disable=SC2086 # $cc is split on purpose: CC may carry options (gcc -m64)
# run_selective_bench.sh: part of `make bench`: the cost of one user region (enter and exit,
# bench/user_region_bench.c) without and with selective recording (SCOREP_SELECTIVE_CONFIG_FILE,
# src/adapters/user/user_selective.c), against the same program built without --user (the
# macros vanish). Times: the fastest of BENCH_RUNS runs on the thread's CPU clock. With
# valgrind installed also the instructions per region (callgrind, exact: the fast path of a
# region that no file selects must not grow); BENCH_BASE_LIBDIR=/dir/of/old/libscorep-rt.so.0
# adds the instructions of another build for a before/after. Asserts nothing.
#
# Environment: abs_top_builddir, abs_top_srcdir, CC, BENCH_RUNS (default 5), BENCH_PAIRS
# (regions per run, default 10000000), BENCH_BASE_LIBDIR (optional).
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

cc=${CC:-gcc}
runs=${BENCH_RUNS:-5}
pairs=${BENCH_PAIRS:-10000000}
cd "$tmp"
echo "building the user-region benchmark in $tmp ..." >&2
$cc -O2 -I"$srcdir/include" -o plain "$srcdir/bench/user_region_bench.c"
"$builddir/scorep-cc" --user --nocompiler $cc -O2 -o measured "$srcdir/bench/user_region_bench.c"
echo "other 0" >other.cfg
echo "work 0" >first.cfg
echo "work" >every.cfg

# ns PROGRAM VAR=VALUE...: the fastest run's ns per region
ns() {
    _prog=$1
    shift
    fastest ns_per_pair "$@" "./$_prog"
}

# ir LIBDIR VAR=VALUE...: instructions per region: callgrind's total of 2N regions minus N
ir() {
    libdir=$1
    shift
    for n in 100000 200000; do
        rm -rf exp
        env SCOREP_EXPERIMENT_DIRECTORY=exp LD_LIBRARY_PATH="$libdir" "$@" valgrind \
            --tool=callgrind --callgrind-out-file=cg.$n ./measured $n >/dev/null 2>cg.err ||
            die "FAILED: callgrind $*: $(tail -5 cg.err)"
        sed -n 's/^summary: //p' cg.$n >ir.$n
    done
    echo "$(cat ir.100000) $(cat ir.200000)" | awk '{ printf "%.1f", ($2 - $1) / 100000 }'
}

echo "running ($runs x $pairs regions each) ..." >&2
plain=$(ns plain)
nofile=$(ns measured)
other=$(ns measured SCOREP_SELECTIVE_CONFIG_FILE=other.cfg)
first=$(ns measured SCOREP_SELECTIVE_CONFIG_FILE=first.cfg)
every=$(ns measured SCOREP_SELECTIVE_CONFIG_FILE=every.cfg)

row() { # row LABEL NS BASE IR
    printf '%-58s %8s %8s %8s %8s\n' "$1" "$2" "$3" "$(echo "$2 $3" | awk '{ printf "%.1f", $1 - $2 }')" "$4"
}
if command -v valgrind >/dev/null 2>&1; then
    i_nofile=$(ir "$builddir/.libs")
    i_other=$(ir "$builddir/.libs" SCOREP_SELECTIVE_CONFIG_FILE=other.cfg)
    i_first=$(ir "$builddir/.libs" SCOREP_SELECTIVE_CONFIG_FILE=first.cfg)
    i_every=$(ir "$builddir/.libs" SCOREP_SELECTIVE_CONFIG_FILE=every.cfg)
else
    i_nofile=- i_other=- i_first=- i_every=-
fi
echo
echo "User region (BEGIN/END on a static handle), ns per region (fastest of $runs runs x $pairs),"
echo "profiling; plain: the program built without --user; instr: instructions per region (callgrind)"
printf '%-58s %8s %8s %8s %8s\n' "variant" "ns" "plain" "added" "instr"
row "no selective file (every region recorded)" "$nofile" "$plain" "$i_nofile"
row "file selects another region: recording off, fast path" "$other" "$plain" "$i_other"
row "file selects instance 0 only: counted, recording off" "$first" "$plain" "$i_first"
row "file selects every instance: switched on and off each" "$every" "$plain" "$i_every"
if [ -n "${BENCH_BASE_LIBDIR:-}" ] && command -v valgrind >/dev/null 2>&1; then
    [ -e "$BENCH_BASE_LIBDIR/libscorep-rt.so.0" ] || die "no $BENCH_BASE_LIBDIR/libscorep-rt.so.0"
    printf '%-58s %8s %8s %8s %8s\n' "no selective file, BENCH_BASE_LIBDIR's build" - - - \
        "$(ir "$BENCH_BASE_LIBDIR")"
fi
