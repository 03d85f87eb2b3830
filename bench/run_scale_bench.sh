#!/bin/sh
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
echo "'before': peak RSS of the same run at commit 32b1632 (ser.c's 4096-byte first allocation);"
echo "seconds: the algorithm (simulator's own clock); CPU s = user + system of the whole run."
echo
echo "| run | ranks | definition bytes | peak RSS | seconds | wall | CPU s | before | target |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
sim_row "JUQUEEN 28x2x16x32, 64 ranks/node" "4.68 GiB, 18 s" "< 1.5 GiB" \
    --shape 28x2x16x32 --ranks-per-node 64 --threads 1
if [ "${SCALE_SYSTREE:-1}" != 0 ]; then
    sim_row "Frontier-like 74x8x16 nodes, 1056 ranks/node" "(not run)" "60 s, 24 GiB" \
        --shape 74x8x16 --ranks-per-node 1056 --threads 1 --classes cabinet,chassis,node
    sim_row "Fugaku-like 432x8x48 nodes, 64 ranks/node" "(not run)" "60 s, 24 GiB" \
        --shape 432x8x48 --ranks-per-node 64 --threads 1 --classes rack,shelf,node
fi
