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
#   pacedD, MODE.pacedD            the paced ping-pong (mpi_bench paced, session 25): after each
#                                  receive the program spins until D ns after it, then sends;
#                                  pacedD uninstrumented (the baseline of the row set),
#                                  MODE one of profile, trace, both (docs/mpi.md, "A paced
#                                  ping-pong"); AB_PACED_N round trips per run (20000). Their
#                                  rows also give the median and interquartile mean of the
#                                  single round trips (halved) of each run, and a line per D
#                                  the spin's overshoot
#
#   sh test/device/mpi_profile_ab.sh run [DIR]    on the device machine, with the environment
#       of test/device/on_device.sh (its part mpi_ab), after test/device/pack.sh saved the
#       MPI benchmark's programs in DIR/bench on the build machine
#
# Default DIR: _gpu. AB_ROWS (default: plain profile trace both, and the four modes paced at
# D = 0, 500, 1000 and 2000 ns; session 24's rows were plain profile trace both spin16 spin32
# spin64 spin128), AB_ROUNDS (7), AB_N (10^5 round trips per run), AB_MPIRUN (mpirun),
# AB_BUDGET (150: no round starts that would end after this many seconds, judged by the
# longest round so far; the table says how many rounds ran; session 24's device took about
# 1.1 s a run, so the 20 default rows take about 25 s a round there), AB_KEEP (a directory:
# every run's figures are copied there, r.ROW with "mean block" or, paced, "mean block
# median-trip IQM-trip" per run). Session 24 also ran the profile's fast path built
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
    keep=${AB_KEEP:-}
    case $keep in /* | '') ;; *) keep=$PWD/$keep ;; esac
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
    paced_n=${AB_PACED_N:-20000}
    paced() { # paced ROW D BIN ENV...: appends "mean block median-trip IQM-trip" of one paced run to
        # ROW's file, and the uninstrumented runs' overshoot (both ranks' medians and 99th
        # percentiles) to o.D
        _row=$1 _d=$2 _bin=$3
        shift 3
        env "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" "$mpirun" -np 2 "./$_bin" paced "$paced_n" "$_d" \
            >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; die "$_row: the paced ping-pong failed"; }
        rm -rf "$tmp/exp"
        _l=$(sed -n 's/^paced one-way ns mean \([0-9.]*\) block \([0-9.]*\) median \([0-9.]*\) iqm \([0-9.]*\) min [0-9.]*$/\1 \2 \3 \4/p' "$tmp/out")
        [ -n "$_l" ] || { cat "$tmp/out" >&2; die "$_row: no figures in the paced ping-pong's output"; }
        echo "$_l" >>"$tmp/r.$_row"
        [ "$_bin" != mpi_plain ] ||
            sed -n 's/^paced pace ns [0-9]* ticks\/ns [0-9.]* overshoot ns median \(.*\) p99 \(.*\)$/\1 \2/p' \
                "$tmp/out" >>"$tmp/o.$_d"
    }
    pace_default=
    for d in 0 500 1000 2000; do
        pace_default="$pace_default paced$d profile.paced$d trace.paced$d both.paced$d"
    done
    rows=${AB_ROWS:-plain profile trace both$pace_default}
    # a paced row's baseline is pacedD: added to the rows where missing, before them
    for r in $rows; do
        case $r in *.paced*) case " $rows " in *" paced${r#*.paced} "*) ;; *) rows="paced${r#*.paced} $rows" ;; esac ;; esac
    done
    for r in $rows; do # a pace that is no number would run as 0 ns: refused before any round
        case $r in *paced*) case ${r#*paced} in '' | *[!0-9]*) die "row $r: the pace must be a number of ns (AB_ROWS)" ;; esac ;; esac
    done
    echo "$(nproc) cores, $(grep -m 1 'model name' /proc/cpuinfo | sed 's/.*: //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
    budget=${AB_BUDGET:-150}
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
            paced*) paced "$r" "${r#paced}" mpi_plain X=1 ;;
            profile.paced*) paced "$r" "${r#*.paced}" mpi_measured $prof ;;
            trace.paced*) paced "$r" "${r#*.paced}" mpi_measured $trace ;;
            both.paced*) paced "$r" "${r#*.paced}" mpi_measured $both ;;
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
    plus() { echo "$1 $2" | awk '{ printf "%.1f (%+.1f)", $1, $1 - $2 }'; } # plus VALUE BASE
    paired() { # paired ROW BASE COLUMN: the median over rounds of ROW minus BASE in the same round
        paste -d' ' "$tmp/r.$2" "$tmp/r.$1" | awk -v c="$3" '{ print $(NF / 2 + c) - $c }' | sort -g |
            awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else
                printf "%+.1f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
    }
    echo "one-way latency of the 8-byte ping-pong [ns], 2 ranks, $i interleaved rounds of $n round trips"
    echo "($paced_n for the paced rows) in $(($(date +%s) - start)) s;"
    echo "(+x): added over uninstrumented (paced rows: over the uninstrumented row of the same pace);"
    echo "load $(cut -d' ' -f1-3 /proc/loadavg) after"
    printf '%-44s %16s %16s %16s %16s %16s %8s\n' row "min of runs" "median of runs" "fastest block" "median trip" \
        "trip IQM" paired
    for r in $rows; do
        base=plain
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
        paced*) l="paced ${r#paced} ns, uninstrumented" base= ;;
        *.paced*)
            base=paced${r#*.paced}
            l="paced ${r#*.paced} ns, $(echo "${r%.paced*}" | sed 's/^both$/profile + trace/')"
            ;;
        *) l=$r ;;
        esac
        m=$(stat "$r" 1 min) md=$(stat "$r" 1 median) bl=$(stat "$r" 2 min) tr=- iq=-
        case $r in *paced*) tr=$(stat "$r" 3 min) iq=$(stat "$r" 4 min) ;; esac
        if [ "$r" = plain ] || [ -z "$base" ]; then
            printf '%-44s %16s %16s %16s %16s %16s %8s\n' "$l" "$m" "$md" "$bl" "$tr" "$iq" -
        else
            pr=-
            [ "$tr" = - ] || tr=$(plus "$tr" "$(stat "$base" 3 min)")
            [ "$iq" = - ] || iq=$(plus "$iq" "$(stat "$base" 4 min)") pr=$(paired "$r" "$base" 4)
            printf '%-44s %16s %16s %16s %16s %16s %8s\n' "$l" "$(plus "$m" "$(stat "$base" 1 min)")" \
                "$(plus "$md" "$(stat "$base" 1 median)")" "$(plus "$bl" "$(stat "$base" 2 min)")" "$tr" "$iq" "$pr"
        fi
    done
    for o in "$tmp"/o.*; do # the spin's overshoot past its deadline, uninstrumented runs
        [ -e "$o" ] || break
        awk -v d="${o##*/o.}" '{ for (k = 1; k <= 4; k++) v[k] = v[k] "\n" $k }
            END { printf "paced %s ns: the spin overshoots its deadline by (range of runs) median %s / %s ns,", d, rng(v[1]), rng(v[2])
                  printf " 99th percentile %s / %s ns (rank 0 / rank 1)\n", rng(v[3]), rng(v[4]) }
            function rng(s,   a, n, k, lo, hi) { n = split(substr(s, 2), a, "\n"); lo = hi = a[1] + 0
                for (k = 2; k <= n; k++) { if (a[k] + 0 < lo) lo = a[k] + 0; if (a[k] + 0 > hi) hi = a[k] + 0 }
                return lo == hi ? lo : lo "-" hi }' "$o"
    done
    if [ -n "$keep" ]; then # every run's figures, one file per row (and o.D: overshoots)
        mkdir -p "$keep" || die "cannot create $keep (AB_KEEP)"
        for f in "$tmp"/r.* "$tmp"/o.*; do
            [ ! -e "$f" ] || cp "$f" "$keep/" || die "cannot keep the runs' figures in $keep (AB_KEEP)"
        done
    fi
    echo "min of runs, median of runs: of each run's mean one-way latency; fastest block: of 500 round"
    echo "trips, min of runs; median trip, trip IQM: each run's median and interquartile mean of its single"
    echo "round trips, halved, min of runs (the IQM resolves below a coarse counter's step); paired: the"
    echo "median over rounds of a row's trip IQM minus its baseline's in the same round (a machine whose"
    echo "latency shifts between levels for a while shifts both runs of a round alike)"
    ;;
*)
    die "usage: mpi_profile_ab.sh run [DIR]"
    ;;
esac
