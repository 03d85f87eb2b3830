# SPDX-License-Identifier: BSD-3-Clause
# bench_lib.sh: the set-up every bench/run_*.sh script shares, sourced after `set -eu`: the
# source and build trees, a SCOREP_* environment cleared of the caller's settings, a
# temporary directory $tmp removed at exit (BENCH_KEEP=1 keeps it), die and step.
bench_name=$(basename "$0")
srcdir=${abs_top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${abs_top_builddir:-$(pwd)}
bench=$srcdir/bench

die() {
    echo "$bench_name: $*" >&2
    exit 1
}

# Settings from the caller's environment must not change what is measured: every variant
# starts from the runtime's defaults; scorep-cc uses this build tree.
for v in $(env | sed -n 's/^\(SCOREP_[A-Za-z0-9_]*\)=.*/\1/p'); do
    unset "$v"
done
SCOREP_CC_LIBDIR=$builddir/.libs
SCOREP_CC_INCLUDEDIR=$srcdir/include
export SCOREP_CC_LIBDIR SCOREP_CC_INCLUDEDIR

tmp=$(mktemp -d "${TMPDIR:-/tmp}/scorep-${bench_name%.sh}.XXXXXX") ||
    die "cannot create a temporary directory in ${TMPDIR:-/tmp}"
bench_cleanup() {
    if [ "${BENCH_KEEP:-0}" = 1 ]; then echo "kept $tmp" >&2; else rm -rf "$tmp"; fi
}
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

step() { # step DESCRIPTION COMMAND...: runs COMMAND, output in $tmp/step.log
    what=$1
    shift
    if ! "$@" >"$tmp/step.log" 2>&1; then
        echo "$bench_name: FAILED: $what" >&2
        echo "  command: $*" >&2
        sed 's/^/  | /' "$tmp/step.log" >&2
        exit 1
    fi
}

# bench_programs NAMES PREFIX BUILD: the benchmark's programs in $tmp: with BENCH_PROGRAMS=DIR the
# files PREFIX<name> of DIR (built elsewhere; a name missing there stays missing), else what
# the function BUILD builds; with BENCH_SAVE_PROGRAMS=DIR they are copied there as
# PREFIX<name> and the script stops (build here, run on a machine without the compilers:
# test/device/pack.sh)
bench_programs() {
    if [ -n "${BENCH_PROGRAMS:-}" ]; then
        for _p in $1; do
            [ ! -e "$BENCH_PROGRAMS/$2$_p" ] || cp "$BENCH_PROGRAMS/$2$_p" "$tmp/$_p"
        done
    else
        echo "building the benchmark programs in $tmp ..." >&2
        "$3"
    fi
    [ -z "${BENCH_SAVE_PROGRAMS:-}" ] || {
        mkdir -p "$BENCH_SAVE_PROGRAMS"
        for _p in $1; do
            [ ! -e "$tmp/$_p" ] || cp "$tmp/$_p" "$BENCH_SAVE_PROGRAMS/$2$_p"
        done
        echo "programs saved in $BENCH_SAVE_PROGRAMS (BENCH_PROGRAMS=$BENCH_SAVE_PROGRAMS runs them)" >&2
        exit 0
    }
}

# median, minimum: of the numbers on stdin, one per line ("nan" when there are none)
median() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]
        else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
minimum() { sort -g | awk 'NR == 1 { print } END { if (NR == 0) print "nan" }'; }

# fastest KEY COMMAND...: the smallest value of the line "KEY VALUE" that `COMMAND $pairs`
# prints in $runs runs in $PWD, each with the experiment directory exp (removed before)
fastest() {
    _key=$1
    shift
    : >fastest.txt
    _i=0
    while [ $_i -lt "$runs" ]; do
        _i=$((_i + 1))
        rm -rf exp
        env SCOREP_EXPERIMENT_DIRECTORY=exp "$@" "$pairs" >out 2>err || die "FAILED: $*: $(cat err)"
        sed -n "s/^$_key //p" out >>fastest.txt
    done
    minimum <fastest.txt
}

# launched_median "LAUNCHER ARGS" BIN MODE N ENV...: median over $runs (BENCH_RUNS, default
# 5) runs of the last number ./BIN MODE N prints when started by the launcher (mpirun,
# oshrun) in $tmp with ENV; each run's experiment directory is removed
runs=${BENCH_RUNS:-5}
launched_median() {
    _launch=$1 _bin=$2 _mode=$3 _n=$4
    shift 4
    _i=0
    while [ $_i -lt "$runs" ]; do
        # shellcheck disable=SC2086 # the launcher and its arguments are split on purpose
        env "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" $_launch "./$_bin" "$_mode" "$_n" \
            2>/dev/null | awk '{ print $NF }'
        rm -rf "$tmp"/exp*
        _i=$((_i + 1))
    done | median
}

# build_floors: the floors of a traced call (bench/floor_hooks.c linked into tiny.c with
# -finstrument-functions; $cc may carry options): $tmp/tiny_floor, two TSC reads and two
# 16-byte stores per call into a 1 MiB ring that stays cached (run_bench.sh's (b)), and
# $tmp/tiny_floor_linear, the same records written once into a linear, populated buffer of
# the trace's size ((b2))
# shellcheck disable=SC2154 # cc: set by the script that sources this file
build_floors() {
    # shellcheck disable=SC2086 # $cc is split on purpose
    step "build floor_hooks.o" $cc -O2 -c -o "$tmp/floor_hooks.o" "$bench/floor_hooks.c"
    # shellcheck disable=SC2086
    step "build tiny (floor)" $cc -O2 -finstrument-functions -o "$tmp/tiny_floor" \
        "$bench/tiny.c" "$tmp/floor_hooks.o"
    # shellcheck disable=SC2086
    step "build floor_hooks.o (linear)" $cc -O2 -DFLOOR_LINEAR -c -o "$tmp/floor_linear.o" \
        "$bench/floor_hooks.c"
    # shellcheck disable=SC2086
    step "build tiny (floor, linear)" $cc -O2 -finstrument-functions \
        -o "$tmp/tiny_floor_linear" "$bench/tiny.c" "$tmp/floor_linear.o"
}
