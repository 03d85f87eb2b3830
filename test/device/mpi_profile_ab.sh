#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# mpi_profile_ab.sh: the device experiment of issue #31 (session 24): why the profiling
# ping-pong costs more than the tracing one on Intel although it executes fewer
# instructions (docs/mpi.md, "The profile's ping-pong on Intel"). Interleaved rounds of the
# 8-byte ping-pong of bench/mpi_bench.c (2 ranks): uninstrumented, profiling, tracing, both,
# and profiling with the MPI adapter's wrappers built with each variant of the profile's
# fast path (SCOREP_AB_PROFILE, profile/profile.h); one table.
#
#   sh test/device/mpi_profile_ab.sh pack [DIR]   on the build machine, in a built tree, after
#       the MPI benchmark's programs are in DIR/bench (test/device/pack.sh calls it): the
#       variants' libscorep-rt-mpi.so.0 into DIR/ab/v0 .. v6 (a copy of the build tree beside
#       it recompiles the wrappers only; the build tree is not touched)
#   sh test/device/mpi_profile_ab.sh run [DIR]    on the device machine, with the environment
#       of test/device/on_device.sh (its part mpi_ab): the table on stdout
#
# Default DIR: _gpu. AB_ROUNDS (7), AB_N (10^5 round trips per run), AB_MPIRUN (mpirun),
# AB_BUDGET (85: no round starts that would end after this many seconds, judged by the
# longest round so far; the table says how many rounds ran).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd -P)
cmd=${1:-}
dir=${2:-_gpu}
case $dir in /*) ;; *) dir=$top/$dir ;; esac
die() {
    echo "mpi_profile_ab.sh: $*" >&2
    exit 1
}
# the variants: name and what each isolates (the rows of the table)
variants="v0 v1 v2 v3 v4 v5 v6"
what() {
    case $1 in
    v0) echo "profile, stock code rebuilt (A/A)" ;;
    v1) echo "profile, min/max without branches" ;;
    v2) echo "profile, no duration (visits only)" ;;
    v3) echo "profile, no node work" ;;
    v4) echo "profile, no node work, no pending test" ;;
    v5) echo "profile, node by per-region hint" ;;
    v6) echo "profile, stock code, jumps aligned (layout)" ;;
    esac
}
# the compiler's options of each variant: SCOREP_AB_PROFILE (profile/profile.h), v6 the stock
# code with every jump target and loop at a 32-byte boundary (whether the front end's view of
# the same instructions moves the figure)
flags() {
    case $1 in
    v6) echo "-DSCOREP_AB_PROFILE=0 -falign-jumps=32 -falign-loops=32" ;;
    *) echo "-DSCOREP_AB_PROFILE=${1#v}" ;;
    esac
}

case $cmd in
pack)
    b=${top_builddir:-$top/_build}
    [ -e "$b/.libs/libscorep-rt-mpi.so.0" ] || die "no MPI adapter in $b/.libs"
    [ -x "$dir/bench/mpi_measured" ] || die "no $dir/bench/mpi_measured: run test/device/pack.sh (it saves the MPI benchmark's programs) first"
    # a copy beside the build tree: the Makefiles' srcdir (often '..') stays valid
    ab=$(dirname "$b")/.mpi_ab_build.$$
    trap 'rm -rf "$ab"' EXIT
    trap 'exit 130' INT TERM
    cp -a "$b" "$ab"
    cflags=$(sed -n 's/^CFLAGS = //p' "$b/Makefile")
    for v in $variants; do
        rm -f "$ab"/src/adapters/mpi/libscorep_rt_mpi_la-mpi_wrappers.lo \
            "$ab"/src/adapters/mpi/.libs/libscorep_rt_mpi_la-mpi_wrappers.o
        make -C "$ab" libscorep-rt-mpi.la CFLAGS="$cflags $(flags "$v")" >"$ab/ab.log" 2>&1 ||
            { tail -n 30 "$ab/ab.log" >&2; die "the build of variant $v failed"; }
        mkdir -p "$dir/ab/$v"
        cp -L "$ab/.libs/libscorep-rt-mpi.so.0" "$dir/ab/$v/libscorep-rt-mpi.so.0"
        # without its debug information: 1 MB instead of 4 (the device tool carries 64 MiB)
        strip --strip-debug "$dir/ab/$v/libscorep-rt-mpi.so.0"
        echo "mpi_profile_ab.sh: $v ($(what "$v")): $dir/ab/$v"
    done
    ;;
run)
    for p in mpi_measured mpi_plain; do
        [ -x "$dir/bench/$p" ] || die "no $dir/bench/$p: run test/device/pack.sh on the build machine"
    done
    rows=${AB_ROWS:-plain profile trace both $variants}
    used=$(for r in $rows; do case " $variants " in *" $r "*) echo "$r" ;; esac; done)
    for v in $used; do
        [ -e "$dir/ab/$v/libscorep-rt-mpi.so.0" ] || die "no $dir/ab/$v: run 'mpi_profile_ab.sh pack' on the build machine"
    done
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    for v in $(env | sed -n 's/^\(SCOREP_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpi_profile_ab.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    trap 'exit 130' INT TERM
    cp "$dir/bench/mpi_plain" "$dir/bench/mpi_measured" "$tmp/"
    cd "$tmp"
    rounds=${AB_ROUNDS:-7} n=${AB_N:-100000} mpirun=${AB_MPIRUN:-mpirun}
    prof="SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false SCOREP_TOTAL_MEMORY=1G"
    trace="SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=1G"
    both="SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=1G"
    # each variant's library is the one the program loads (LD_LIBRARY_PATH before RUNPATH)
    command -v ldd >/dev/null || { echo "mpi_profile_ab.sh: no ldd: which library each row loads is not checked"; variants_checked=; }
    for v in ${variants_checked-$used}; do
        got=$(LD_LIBRARY_PATH="$dir/ab/$v:${LD_LIBRARY_PATH:-}" ldd ./mpi_measured | awk '$1 == "libscorep-rt-mpi.so.0" { print $3 }')
        [ "$got" = "$dir/ab/$v/libscorep-rt-mpi.so.0" ] || die "$v: the program loads ${got:-nothing} instead of $dir/ab/$v"
    done
    one() { # one ROW BIN ENV...: appends "mean block" of one run to ROW's file
        _row=$1 _bin=$2
        shift 2
        env "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" "$mpirun" -np 2 "./$_bin" pingpong "$n" \
            >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; die "$_row: the ping-pong failed"; }
        rm -rf "$tmp/exp"
        sed -n 's/^pingpong one-way ns mean \([0-9.]*\) block \([0-9.]*\)$/\1 \2/p' "$tmp/out" >>"$tmp/r.$_row"
    }
    # AB_ROWS: the rows (default: the three modes and every variant); besides those, rows
    # that change only the memory's layout: profile16m, both16m (SCOREP_TOTAL_MEMORY=16M),
    # profilepad (glibc's heap top padded by 4 MiB), profilemmap (blocks from 4 KiB on mmap'd);
    # spinK: uninstrumented with K dependent multiply-adds after each receive (mpi_bench.c)
    rows=${AB_ROWS:-plain profile trace both $variants}
    echo "$(nproc) cores, $(grep -m 1 'model name' /proc/cpuinfo | sed 's/.*: //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
    budget=${AB_BUDGET:-85}
    start=$(date +%s) longest=0
    i=0
    while [ $i -lt "$rounds" ]; do
        r0=$(date +%s)
        if [ $((r0 - start + longest)) -gt "$budget" ]; then
            echo "mpi_profile_ab.sh: stopped after $i of $rounds rounds (AB_BUDGET=$budget s)"
            break
        fi
        for r in $rows; do
            # shellcheck disable=SC2086 # the settings are split into words on purpose
            case $r in
            plain) one plain mpi_plain X=1 ;;
            profile) one profile mpi_measured $prof ;;
            trace) one trace mpi_measured $trace ;;
            both) one both mpi_measured $both ;;
            spin*) one "$r" mpi_plain X=1 MPI_BENCH_TURN_SPIN="${r#spin}" ;;
            profile16m) one "$r" mpi_measured $prof SCOREP_TOTAL_MEMORY=16M ;;
            both16m) one "$r" mpi_measured $both SCOREP_TOTAL_MEMORY=16M ;;
            profilepad) one "$r" mpi_measured $prof MALLOC_TOP_PAD_=4194304 ;;
            profilemmap) one "$r" mpi_measured $prof MALLOC_MMAP_THRESHOLD_=4096 ;;
            *) one "$r" mpi_measured $prof LD_LIBRARY_PATH="$dir/ab/$r:${LD_LIBRARY_PATH:-}" ;;
            esac
        done
        r1=$(date +%s)
        [ $((r1 - r0)) -le "$longest" ] || longest=$((r1 - r0))
        i=$((i + 1))
    done
    stat() { # stat ROW COLUMN min|median
        awk -v c="$2" '{ print $c }' "$tmp/r.$1" | sort -g | awk -v k="$3" '{ v[NR] = $1 }
            END { if (NR == 0) print "nan"; else if (k == "min") print v[1];
                  else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
    }
    p_min=$(stat plain 1 min) p_med=$(stat plain 1 median) p_blk=$(stat plain 2 min)
    echo "one-way latency of the 8-byte ping-pong [ns], 2 ranks, $i interleaved rounds of $n round trips"
    echo "in $(($(date +%s) - start)) s;"
    echo "(+x): added over uninstrumented; load $(cut -d' ' -f1-3 /proc/loadavg) after"
    printf '%-48s %16s %16s %16s\n' row "min of runs" "median of runs" "fastest block"
    for r in $rows; do
        case $r in
        plain) l="uninstrumented" ;;
        profile) l="profile" ;;
        trace) l="trace" ;;
        both) l="profile + trace" ;;
        spin*) l="uninstrumented, ${r#spin} multiply-adds per turn" ;;
        profile16m) l="profile, SCOREP_TOTAL_MEMORY=16M" ;;
        both16m) l="profile + trace, SCOREP_TOTAL_MEMORY=16M" ;;
        profilepad) l="profile, MALLOC_TOP_PAD_=4M" ;;
        profilemmap) l="profile, MALLOC_MMAP_THRESHOLD_=4096" ;;
        *) l="$r $(what "$r")" ;;
        esac
        m=$(stat "$r" 1 min) md=$(stat "$r" 1 median) bl=$(stat "$r" 2 min)
        if [ "$r" = plain ]; then
            printf '%-48s %16s %16s %16s\n' "$l" "$m" "$md" "$bl"
        else
            printf '%-48s %16s %16s %16s\n' "$l" \
                "$(echo "$m $p_min" | awk '{ printf "%.1f (%+.1f)", $1, $1 - $2 }')" \
                "$(echo "$md $p_med" | awk '{ printf "%.1f (%+.1f)", $1, $1 - $2 }')" \
                "$(echo "$bl $p_blk" | awk '{ printf "%.1f (%+.1f)", $1, $1 - $2 }')"
        fi
    done
    ;;
*)
    die "usage: mpi_profile_ab.sh pack|run [DIR]"
    ;;
esac
