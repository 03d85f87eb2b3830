#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_metric_omp.sh: metric sources in OpenMP teams (test/omp/parallel.c): every worker
# thread reads its own counters; the late ends that the master writes for its workers
# (docs/openmp.md) repeat the workers' last values instead of reading the master's, so no
# call path gets a negative (wrapped) difference.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

export LD_LIBRARY_PATH="$top_builddir/test/plugins/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
scorep_cc clang -fopenmp -o parallel "$OMP_SRC/parallel.c"
run_app p env SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=200M SCOREP_EXPERIMENT_DIRECTORY=x \
    SCOREP_METRIC_RUSAGE=ru_utime SCOREP_METRIC_PLUGINS=synth_sync \
    SCOREP_METRIC_SYNTH_SYNC=events ./parallel
expect_eq "$status" 0 "exit status"
expect_eq "$(cat p.err)" "" "nothing on stderr"
expect_eq "$(cat p.out)" "calls 70" "program output"
nloc=$(profile_locations x)
expect_ge "$nloc" 4 "at least 4 locations (the flat team)"
# per location the exclusive differences of a counter add up to at most its reads there
expect_eq "$(profile_dump x -m events | awk -F'\t' '{ split($4, kv, "="); if (kv[2] + 0 > 100000) bad++ } END { print bad + 0 }')" \
    0 "events: no exclusive value wrapped (all <= 100000)"
expect_eq "$(profile_dump x -i -m ru_utime | awk -F'\t' '{ split($4, kv, "="); if (kv[2] + 0 > 1e9) bad++ } END { print bad + 0 }')" \
    0 "ru_utime: no inclusive value wrapped (all <= 1000 s)"
n=$(profile_dump x -m events | awk -F'\t' '$3 != 0 { split($4, kv, "="); s += kv[2] } END { print s + 0 }')
expect_ge "$n" 1 "events recorded on the worker locations"
# the values of one enter/leave share a timestamp (one Metric event per metric)
expect_eq "$(trace_events x | awk '{ if (($2 in t) && $3 < t[$2]) bad++; t[$2] = $3 } END { print bad + 0 }')" \
    0 "trace: timestamps never decrease on a location"
expect_eq "$(trace_check_nesting x)" 0 "trace: properly nested"
done_ok
