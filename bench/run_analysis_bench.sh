#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_analysis_bench.sh: cost of the post-mortem wait-state analysis (docs/analysis.md).
# analysis_bench.c (ranks 2k, 2k+1 exchange MESSAGES messages, default 200000, as ping-pong;
# an MPI_Allreduce every 1000 round trips) is traced with 2, 4 and 8 ranks; scorep-analyze
# runs with as many processes. Beside each figure the floor: reading the same trace once with
# OTF2's reader (otf2_read_all.c, one process, all locations, no callbacks). Then the in-situ
# analysis (SCOREP_ENABLE_ANALYSIS=true) against writing the trace: the whole measured run
# traced only, traced and analysed in situ, analysed in situ without the trace file. Timings
# only, nothing asserted.
set -eu
. "$(dirname "$0")/bench_lib.sh"
MESSAGES=${BENCH_ANALYSIS_MESSAGES:-200000}
[ -x "$builddir/scorep-analyze" ] || { echo "$bench_name: scorep-analyze not built, skipped"; exit 0; }
command -v mpicc >/dev/null 2>&1 || { echo "$bench_name: no mpicc, skipped"; exit 0; }
step "build analysis_bench" mpicc -O2 -o "$tmp/analysis_bench" "$bench/analysis_bench.c" \
    -L"$builddir/.libs" -lscorep-rt-mpi -lscorep-rt -Wl,-rpath,"$builddir/.libs"
step "build otf2_read_all" ${CC:-cc} -O2 -o "$tmp/otf2_read_all" "$bench/otf2_read_all.c" \
    ${OTF2_CFLAGS:-} ${OTF2_LIBS:--lotf2}
MPIRUN="mpirun --oversubscribe --allow-run-as-root"
med() { echo "$@" | tr ' ' '\n' | sed '/^$/d' | sort -g | sed -n 2p; }

echo "== wait-state analysis: $MESSAGES messages per rank pair (seconds, median of 3)"
printf '%-6s %10s %12s %12s %12s %12s %8s\n' ranks events otf2_read an_read an_replay \
    an_total ratio
for np in 2 4 8; do
    x=$tmp/exp$np
    step "trace $np ranks" env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$x" \
        SCOREP_TOTAL_MEMORY=1G $MPIRUN -np $np "$tmp/analysis_bench" "$MESSAGES"
    reads= an_r= an_p= an_t=
    for i in 1 2 3; do
        set -- $("$tmp/otf2_read_all" "$x/traces.otf2")
        events=$1
        reads="$reads $2"
        s=$(date +%s.%N)
        step "analyse $np ranks" $MPIRUN -np $np "$builddir/scorep-analyze" "$x"
        e=$(date +%s.%N)
        line=$(sed -n 's/.*; read \([0-9.]*\) s, replay and report \([0-9.]*\) s/\1 \2/p' \
            "$tmp/step.log")
        an_r="$an_r ${line% *}"
        an_p="$an_p ${line#* }"
        an_t="$an_t $(echo "$e - $s" | bc)"
    done
    r=$(med $reads) ar=$(med $an_r) ap=$(med $an_p) at=$(med $an_t)
    printf '%-6s %10s %12s %12s %12s %12s %8s\n' $np $events $r $ar $ap $at \
        "$(echo "scale=2; ($ar + $ap) / $r" | bc)x"
done
echo "otf2_read: one process reads all events once; an_read: the slowest analysis process reads"
echo "its rank's events (in parallel); an_replay: replay, patterns and report; an_total: the"
echo "whole mpirun -np N scorep-analyze (with MPI start-up); ratio = (an_read + an_replay) / otf2_read"

echo "== in-situ analysis at MPI_Finalize: $MESSAGES messages per rank pair (seconds, median of 3)"
printf '%-6s %12s %14s %14s %12s\n' ranks run_trace run_insitu+otf2 run_insitu_only insitu_self
for np in 2 4 8; do
    tt= ti= tn= ts=
    for i in 1 2 3; do
        for mode in trace insitu nofile; do
            x=$tmp/is_${np}_${mode}_$i
            set -- SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$x" SCOREP_TOTAL_MEMORY=1G
            [ $mode = trace ] || set -- "$@" SCOREP_ENABLE_ANALYSIS=true
            [ $mode != nofile ] || set -- "$@" SCOREP_ANALYSIS_TRACE_FILE=false
            s=$(date +%s.%N)
            step "in situ $mode $np ranks" env "$@" $MPIRUN -np $np "$tmp/analysis_bench" "$MESSAGES"
            e=$(date +%s.%N)
            d=$(echo "$e - $s" | bc)
            case $mode in
            trace) tt="$tt $d" ;;
            insitu) ti="$ti $d"
                ts="$ts $(sed -n 's/.*in-situ analysis: .*; \([0-9.]*\) s; wrote.*/\1/p' "$tmp/step.log")" ;;
            nofile) tn="$tn $d" ;;
            esac
            rm -rf "$x"
        done
    done
    printf '%-6s %12s %14s %14s %12s\n' $np $(med $tt) $(med $ti) $(med $tn) $(med $ts)
done
echo "run_*: the whole mpirun (program, measurement, finalize); insitu_self: the analysis's own"
echo "time inside MPI_Finalize (rank 0); run_trace - run_insitu_only ~ writing the trace minus"
echo "analysing it"
