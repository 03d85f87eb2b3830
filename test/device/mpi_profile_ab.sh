#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# mpi_profile_ab.sh: the ping-pong experiment of issue #31 (session 24) on a machine without
# our compilers: interleaved rounds of bench/mpi_bench.c's 8-byte ping-pong (2 ranks) in
# the rows AB_ROWS names, one table (docs/mpi.md, "The profile's ping-pong on Intel"). Rows:
#   plain, profile, trace, both    uninstrumented and the three recording modes
#   spinK                          uninstrumented with K dependent multiply-adds after each
#                                  receive (MPI_BENCH_TURN_SPIN): work of a known size in the
#                                  turnaround, where a tool's Leave and Enter lie
#   profile16m, both16m            SCOREP_TOTAL_MEMORY=16M instead of 1G (another layout)
#   profilepad, profilemmap        glibc's heap top padded by 4 MiB; blocks from 4 KiB mmap'd
#
#   sh test/device/mpi_profile_ab.sh run [DIR]    on the device machine, with the environment
#       of test/device/on_device.sh (its part mpi_ab), after test/device/pack.sh saved the
#       MPI benchmark's programs in DIR/bench on the build machine
#
# Default DIR: _gpu. AB_ROWS (default: plain profile trace both spin16 spin32 spin64 spin128),
# AB_ROUNDS (7), AB_N (10^5 round trips per run), AB_MPIRUN (mpirun), AB_BUDGET (85: no
# round starts that would end after this many seconds, judged by the longest round so far;
# the table says how many rounds ran). Session 24 also ran the profile's fast path built
# five other ways (no node work, no duration, branch-free min/max, a per-region node hint,
# aligned jumps): none moved the figure (docs/mpi.md), so they are gone.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd -P)
cmd=${1:-}
dir=${2:-_gpu}
case $dir in /*) ;; *) dir=$top/$dir ;; esac
die() {
    echo "mpi_profile_ab.sh: $*" >&2
    exit 1
}
case $cmd in
run)
    for p in mpi_measured mpi_plain; do
        [ -x "$dir/bench/$p" ] || die "no $dir/bench/$p: run test/device/pack.sh on the build machine"
    done
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    for v in $(env | sed -n 's/^\(SCOREP_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
    tmp=$(mktemp -d) || die "cannot create a temporary directory in ${TMPDIR:-/tmp}"
    trap 'rm -rf "$tmp"' EXIT
    trap 'exit 130' INT TERM
    cp "$dir/bench/mpi_plain" "$dir/bench/mpi_measured" "$tmp/"
    cd "$tmp"
    rounds=${AB_ROUNDS:-7} n=${AB_N:-100000} mpirun=${AB_MPIRUN:-mpirun}
    prof="SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false SCOREP_TOTAL_MEMORY=1G"
    trace="SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=1G"
    both="SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=1G"
    one() { # one ROW BIN ENV...: appends "mean block" of one run to ROW's file
        _row=$1 _bin=$2
        shift 2
        env "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" "$mpirun" -np 2 "./$_bin" pingpong "$n" \
            >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; die "$_row: the ping-pong failed"; }
        rm -rf "$tmp/exp"
        sed -n 's/^pingpong one-way ns mean \([0-9.]*\) block \([0-9.]*\)$/\1 \2/p' "$tmp/out" >>"$tmp/r.$_row"
    }
    rows=${AB_ROWS:-plain profile trace both spin16 spin32 spin64 spin128}
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
            *) die "unknown row $r (AB_ROWS)" ;;
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
        *) l=$r ;;
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
    die "usage: mpi_profile_ab.sh run [DIR]"
    ;;
esac
