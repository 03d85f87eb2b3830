#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_scale_bench.sh: issue #19's scale benchmarks of `make bench`: the system-tree
# simulator at JUQUEEN, Frontier-like and Fugaku-like sizes (peak memory, time). Prints
# tables; asserts nothing about timings.
#
# Environment: abs_top_builddir, abs_top_srcdir as in run_bench.sh; SCALE_SYSTREE=0 skips
# the 10^7-rank runs (minutes each); BENCH_KEEP=1 keeps the temporary directory.
set -eu

# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

sim=$builddir/scorep-systree-sim
[ -x "$sim" ] || die "no $sim: build first (make all)"
[ -x /usr/bin/time ] || die "no /usr/bin/time (Debian package time)"

# json FIELD FILE: the number of "FIELD": in the simulator's JSON line
json() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" "$2"; }

# sim_row NAME BEFORE TARGET ARGS...: one simulator run, peak RSS from /usr/bin/time -v
# (the kernel's maximum resident set size) and the simulator's own getrusage figure
sim_row() {
    name=$1 before=$2 target=$3
    shift 3
    step "scorep-systree-sim $name" /usr/bin/time -v -o "$tmp/time.txt" "$sim" "$@"
    cp "$tmp/step.log" "$tmp/sim.json"
    rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time.txt")
    user=$(sed -n 's/.*User time (seconds): //p' "$tmp/time.txt")
    sys=$(sed -n 's/.*System time (seconds): //p' "$tmp/time.txt")
    printf '| %s | %s | %s | %.2f GiB | %s | %s | %.1f | %s | %s |\n' "$name" \
        "$(json ranks "$tmp/sim.json")" "$(json sequence_bytes "$tmp/sim.json")" \
        "$(echo "$rss_kb" | awk '{ print $1 / 1048576 }')" "$(json seconds "$tmp/sim.json")" \
        "$wall" "$(echo "$user $sys" | awk '{ print $1 + $2 }')" "$before" "$target"
}

echo
echo "## scorep-systree-sim (issue #19 item 5), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo "'before': the same run at commit 97a119c, before the simulator's speed-up (peak RSS, CPU s;"
echo "this machine, 2 cores, load 1.1-5.3, the lowest of 6 runs; docs/scale.md); 32b1632, with"
echo "ser.c's 4096-byte first allocation, needed 4.68 GiB for JUQUEEN."
echo "seconds: the algorithm (simulator's own clock); CPU s = user + system of the whole run."
echo
echo "| run | ranks | definition bytes | peak RSS | seconds | wall | CPU s | before | target |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
sim_row "JUQUEEN 28x2x16x32, 64 ranks/node" "1.26 GiB, 10.4 s" "< 1.5 GiB" \
    --shape 28x2x16x32 --ranks-per-node 64 --threads 1
if [ "${SCALE_SYSTREE:-1}" != 0 ]; then
    sim_row "Frontier-like 74x8x16 nodes, 1056 ranks/node" "6.47 GiB, 56.4 s" "60 s, 24 GiB" \
        --shape 74x8x16 --ranks-per-node 1056 --threads 1 --classes cabinet,chassis,node
    sim_row "Fugaku-like 432x8x48 nodes, 64 ranks/node" "6.93 GiB, 65.6 s" "60 s, 24 GiB" \
        --shape 432x8x48 --ranks-per-node 64 --threads 1 --classes rack,shelf,node
fi

# ---------------------------------------------------------------- writing profiles
synth=$builddir/scorep-cube-synth
[ -x "$synth" ] || die "no $synth: build first"
# synth_row N WRITER [OPTIONS]: the JSON fields of one scorep-cube-synth run
synth_json() {
    n=$1 writer=$2
    shift 2
    step "scorep-cube-synth $n locations ($writer)" "$synth" --locations "$n" --cnodes 63 \
        --shape binary --metrics 2 --writer "$writer" -o "$tmp/synth.cubex" "$@"
    size=$(stat -c %s "$tmp/synth.cubex")
    rm -f "$tmp/synth.cubex"
    echo "$(json peak_rss_bytes "$tmp/step.log") $(json seconds "$tmp/step.log") $size"
}
echo
echo "## Writing a synthetic profile (63 call paths, binary tree, 2 metrics: time, visits)"
echo "plan: the parallel writer of profile.cubex (src/cube/cube_plan.c), each simulated"
echo "process writing its slice (1024 writers at most, so up to ~1000 locations each);"
echo "gather: one process holds every value (the writer of one process, today's rank 0)."
echo "Peak RSS of the whole simulator process; floor: the file's size."
echo
echo "| locations | plan: peak RSS | plan: s | file | gather: peak RSS | gather: s | gather+zlib: file |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for n in 1000 10000 100000 1000000; do
    set -- $(synth_json $n plan)
    p_rss=$1 p_s=$2 p_size=$3
    set -- $(synth_json $n gather)
    g_rss=$1 g_s=$2
    set -- $(synth_json $n gather --compress)
    printf '| %s | %.1f MiB | %s | %.1f MiB | %.1f MiB | %s | %.1f MiB |\n' $n \
        "$(echo "$p_rss" | awk '{ print $1 / 1048576 }')" "$p_s" \
        "$(echo "$p_size" | awk '{ print $1 / 1048576 }')" \
        "$(echo "$g_rss" | awk '{ print $1 / 1048576 }')" "$g_s" \
        "$(echo "$3" | awk '{ print $1 / 1048576 }')"
done

# a real MPI run: per-rank peak RSS (getrusage through /usr/bin/time) of 64 oversubscribed
# ranks, each with SCALE_CALLPATHS parameter call paths, with either writer
if command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1; then
    paths=${SCALE_CALLPATHS:-2000}
    np=${SCALE_RANKS:-64}
    step "build profile_bench (plain)" mpicc -O2 -o "$tmp/pb_plain" "$bench/profile_bench.c"
    step "build profile_bench (scorep-cc --user)" "$builddir/scorep-cc" --user --nocompiler \
        mpicc -O2 -o "$tmp/pb" "$bench/profile_bench.c"
    # rss_run NAME WRITER BINARY: rank r's peak RSS in KiB in $tmp/NAME/rss.r
    rss_run() {
        mkdir -p "$tmp/$1"
        step "profile_bench $np ranks ($1)" env SCOREP_PROFILING_CUBE_WRITER="$2" \
            SCOREP_EXPERIMENT_DIRECTORY="$tmp/$1/exp" mpirun --oversubscribe --allow-run-as-root \
            -np "$np" sh -c "exec /usr/bin/time -f %M -o $tmp/$1/rss.\$OMPI_COMM_WORLD_RANK $3 $paths"
    }
    stats() { # rank 0's, the median and the largest of the other ranks' RSS in MiB
        r0=$(cat "$tmp/$1/rss.0")
        others=$(for f in "$tmp/$1"/rss.*; do [ "$f" = "$tmp/$1/rss.0" ] || cat "$f"; done)
        printf '%.1f | %.1f | %.1f' "$(echo "$r0" | awk '{ print $1 / 1024 }')" \
            "$(echo "$others" | median | awk '{ print $1 / 1024 }')" \
            "$(echo "$others" | sort -n | tail -n 1 | awk '{ print $1 / 1024 }')"
    }
    rss_run plain auto "$tmp/pb_plain"
    rss_run parallel parallel "$tmp/pb"
    rss_run gather gather "$tmp/pb"
    echo
    echo "## Writing profile.cubex of a real run: $np MPI ranks (oversubscribed), $paths call paths each"
    echo "(bench/profile_bench.c; peak RSS per rank in MiB; floor: the uninstrumented program)"
    echo
    echo "| writer | rank 0 | median other rank | largest other rank | profile.cubex |"
    echo "| --- | --- | --- | --- | --- |"
    echo "| uninstrumented | $(stats plain) | - |"
    for w in parallel gather; do
        echo "| $w | $(stats $w) | $(stat -c %s "$tmp/$w/exp/profile.cubex" | awk '{ printf "%.1f MiB", $1 / 1048576 }') |"
    done
fi

# ---------------------------------------------------------------- reading with the engine
# scorep-score of a synthetic 20,000-location x 1,023-call-path binary-tree profile (time
# and visits) with 1, 2 and 4 engine processes: per-process peak RSS and the time of the
# whole run; the one-process reader beside it, the formulas' total time as the anchor
if command -v mpirun >/dev/null 2>&1 && grep -q CUBE_ENGINE_WITH_MPI "$builddir/Makefile"; then
    nl=${SCALE_READ_LOCATIONS:-20000}
    nc=${SCALE_READ_CNODES:-1023}
    step "scorep-cube-synth $nl x $nc" "$synth" --locations "$nl" --cnodes "$nc" --shape binary \
        --metrics 2 -o "$tmp/read.cubex"
    total=$(python3 -c "print('%.2f' % sum(((31 * c + 17 * l) % 97 + 1) / 1000.0
        for c in range($nc) for l in range($nl)))")
    score=$builddir/scorep-score
    # score_run NAME LAUNCH...: wall seconds of the run, RSS per process in $tmp/NAME/rss.r
    score_run() {
        name=$1
        shift
        mkdir -p "$tmp/$name"
        t0=$(date +%s.%N)
        step "scorep-score ($name)" "$@"
        t1=$(date +%s.%N)
        echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }' >"$tmp/$name/seconds"
        grep -E '^ +ALL ' "$tmp/step.log" | awk '{ print $4 }' >"$tmp/$name/total"
    }
    score_run reader sh -c "exec /usr/bin/time -f %M -o $tmp/reader/rss.0 $score $tmp/read.cubex"
    for np in 1 2 4; do
        score_run np$np mpirun --oversubscribe --allow-run-as-root -np $np sh -c \
            "exec /usr/bin/time -f %M -o $tmp/np$np/rss.\$OMPI_COMM_WORLD_RANK $score --engine $tmp/read.cubex"
    done
    score_run threads sh -c "exec /usr/bin/time -f %M -o $tmp/threads/rss.0 $score --engine --threads 2 $tmp/read.cubex"
    echo
    echo "## Reading: scorep-score of a $nl-location x $nc-call-path binary profile ($(stat -c %s "$tmp/read.cubex" | awk '{ printf "%.0f MiB", $1 / 1048576 }'))"
    echo "(peak RSS per process in MiB, the file's pages it touched included; anchor: the"
    echo "generator's formulas give a total time of $total s)"
    echo
    echo "| run | rank 0 | largest other | seconds | total time printed |"
    echo "| --- | --- | --- | --- | --- |"
    for name in reader np1 threads np2 np4; do
        r0=$(awk '{ printf "%.1f", $1 / 1024 }' "$tmp/$name/rss.0")
        other=$(for f in "$tmp/$name"/rss.*; do [ "$f" = "$tmp/$name/rss.0" ] || cat "$f"; done |
            sort -n | tail -n 1 | awk '{ printf "%.1f", $1 / 1024 }')
        label=$name
        [ "$name" = reader ] && label="one-process reader"
        [ "$name" != reader ] && label="engine, ${name#np} process(es)"
        [ "$name" = threads ] && label="engine, 1 process, 2 threads"
        echo "| $label | $r0 | ${other:--} | $(cat "$tmp/$name/seconds") | $(cat "$tmp/$name/total") |"
    done
fi
