#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_metric_mpi.sh: metric sources in an MPI job of 3 ranks on one node: a per-thread
# plugin and rusage on every rank, a per-host plugin (meminfo) on the first rank of the
# node only, one definition of each metric for the job.
. "$top_srcdir/test/integration/lib.sh"
require_mpi
export LD_LIBRARY_PATH="$top_builddir/test/plugins/.libs:$top_builddir/plugins/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

"$SCOREP_CC" mpicc -O1 -o metrics_mpi "$PROGRAMS/metrics_mpi.c" || fail "scorep-cc mpicc"
rc=0
SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp SCOREP_METRIC_RUSAGE=ru_minflt \
    SCOREP_METRIC_PLUGINS=synth_sync,meminfo SCOREP_METRIC_SYNTH_SYNC=events \
    SCOREP_METRIC_MEMINFO=MemTotal SCOREP_METRIC_MEMINFO_INTERVAL_US=5000 \
    timeout 120 mpirun --bind-to core:overload-allowed -np 3 ./metrics_mpi >out 2>err || rc=$?
expect_eq "$rc" 0 "3 ranks run measured"
expect_eq "$(cat out)" "done 3" "program output"
expect_no_grep 'scorep-rt' err "no message of the runtime"
expect_eq "$(profile_values exp main/work events | wc -l | tr -d ' ')" 3 "events of work on all 3 ranks"
expect_eq "$(profile_values exp main/work events | awk '{ print $2 }' | sort -u)" 1 \
    "events: work (no calls inside) = 1 on every rank"
# (ru_utime of a short call may be 0: the kernel splits CPU time into user and system by ticks)
expect_eq "$(profile_dump exp -i -m ru_minflt | awk -F'\t' '$2 == "main" { split($4, kv, "="); if (kv[2] + 0 > 0) n++ } END { print n + 0 }')" \
    3 "ru_minflt: main has page faults on all 3 ranks (work writes a fresh page)"
total=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
trace_other exp | awk '$1 == "METRIC" && /"MemTotal"/ { v = $NF; sub(/\)$/, "", v); print $2, v }' >mem.txt
# about 40 expected (rank 0 sleeps 200 ms); how often the sampling thread runs depends on the
# load (test_metric_plugins.sh), so only "it samples repeatedly" is asserted
expect_ge "$(wc -l <mem.txt)" 2 "meminfo: >= 2 samples in 200 ms at 5 ms"
expect_eq "$(sort -u mem.txt)" "0 $total" "meminfo: all samples on rank 0's location, value MemTotal"
trace_defs exp >defs.txt
expect_eq "$(grep -c 'METRIC_MEMBER .*Name: "MemTotal"' defs.txt)" 1 "one MemTotal definition for the job"
expect_eq "$(grep -c 'METRIC_MEMBER .*Name: "events"' defs.txt)" 1 "one events definition for the job"
# what Scalasca 2.6's scout.mpi requires of the trace (test/analysis/scalasca_invariants.py,
# docs/analysis.md "What Scalasca requires of a trace"): with metric plugins (one per host)
# every location is still a CPU thread, pearl stops at any other type and reads nothing;
# scout.mpi read such a trace in session 23 with the values of scorep-analyze
python3=$(python3_with_otf2)
if [ -z "$python3" ]; then
    skip_part "python3-otf2 (OTF2's Python reader)"
else
    inv=0
    "$python3" "$top_srcdir/test/analysis/scalasca_invariants.py" exp/traces.otf2 >inv.txt 2>&1 ||
        inv=$?
    [ "$inv" -le 1 ] || fail "scalasca_invariants.py: $(cat inv.txt)"
    for i in cpu_locations program_region mpi_file mpi_init mpi_finalize; do
        expect_grep "^ok $i:" inv.txt "Scalasca's invariant $i"
        expect_no_grep "^violated $i:" inv.txt "Scalasca's invariant $i"
    done
fi
done_ok
