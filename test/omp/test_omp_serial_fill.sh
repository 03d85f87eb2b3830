#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_serial_fill.sh: test/omp/serial_fill.c traced in too little SCOREP_TOTAL_MEMORY:
# the master's serial phase uses up the pool before the worker starts (XSBench under
# --instrument=functions in 64 MB did this). The pool's reserve for threads that start late
# (docs/user-guide.md §5) gives the worker pages of its own, in which it reduces or flushes
# its trace like the master, so every thread keeps every parallel region: 100 ThreadTeamBegin,
# Enter and Leave of `!$omp parallel` and ThreadTeamEnd on both threads, 100 ThreadFork and
# ThreadJoin on the master (the program's design), no thread's trace stops, the warning
# names what was removed, otf2-print reads the trace, and Scalasca's scout.omp accepts it
# (the count of parallel regions it compares per thread) where it is installed.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

stop='its trace stops early'
SCOUT_OMP=${SCOUT_OMP:-$(command -v scout.omp || true)}
[ -n "$SCOUT_OMP" ] || skip_part_here "Scalasca's scout.omp on the reduced traces" \
    "Scalasca is not packaged for this system (set SCOUT_OMP to a built scout.omp)"

# par_counts EXPDIR: "LOCATION ENTERS LEAVES" of the program's parallel region per location,
# LOCATION its number in the process (id >> 32: ids are local << 32 | rank, Score-P's)
par_counts()
{
    trace_events "$1" | awk '/Region: "!\$omp parallel @serial_fill\.c:[0-9]+"/ {
        k = ($2 - $2 % 4294967296) / 4294967296
        if ($1 == "ENTER") e[k]++; else if ($1 == "LEAVE") l[k]++ }
        END { for (k in e) print k, e[k], l[k] + 0; for (k in l) if (!(k in e)) print k, 0, l[k] }' |
        sort -n
}

# structure X WHAT: the parallel-region structure of 100 regions of 2 threads in EXPDIR X
structure()
{
    expect_eq "$(par_counts $1 | tr '\n' ' ')" "0 100 100 1 100 100 " "$2: 100 parallel regions entered and left on both threads"
    for t in THREAD_TEAM_BEGIN THREAD_TEAM_END; do
        expect_eq "$(trace_count $1 $t 0) $(trace_count $1 $t "$(loc_id 0 1)")" "100 100" "$2: $t on both threads"
    done
    expect_eq "$(trace_count $1 THREAD_FORK 0) $(trace_count $1 THREAD_JOIN 0)" "100 100" "$2: the master's forks and joins"
    expect_eq "$(trace_count $1 MEASUREMENT_ON_OFF)" 0 "$2: no thread's trace stopped"
    expect_eq "$(trace_check_nesting $1)" 0 "$2: enters and leaves nest"
    expect_eq "$(trace_check_order $1)" 0 "$2: timestamps in order"
    expect_defs_clean $1 "$2"
    if [ -n "$SCOUT_OMP" ]; then
        "$SCOUT_OMP" "$1/traces.otf2" >"$1.scout" 2>&1 || fail "$2: scout.omp refuses the trace: $(tail -c 600 "$1.scout")"
        expect_file "$1/scout.cubex" "$2: scout.omp wrote its report"
        # Scalasca's report is no profile of ours: out of check_profiles' way
        mv "$1/scout.cubex" "$1.scout-report"
    fi
}

for cc in gcc clang; do
    scorep_cc --instrument=functions $cc -O2 -fopenmp -o "fill_$cc" "$OMP_SRC/serial_fill.c"
    # SCOREP_TRACING_REDUCTION: the default; flush alone; the reductions without flush (in
    # more memory: the worker's reserve share must hold its 100 regions' structure)
    for mode in default flush noflush; do
        x=exp_${cc}_$mode
        case $mode in
        default) set -- SCOREP_TOTAL_MEMORY=512k ;;
        flush) set -- SCOREP_TOTAL_MEMORY=512k SCOREP_TRACING_REDUCTION=flush ;;
        noflush) set -- SCOREP_TOTAL_MEMORY=2M SCOREP_TRACING_REDUCTION=min_duration,depth,noncomm ;;
        esac
        run_app "${cc}_$mode" env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_PROFILING=false "$@" \
            SCOREP_EXPERIMENT_DIRECTORY=$x "./fill_$cc"
        expect_eq "$status" 0 "$cc $mode: exit status"
        expect_eq "$(cat "${cc}_$mode.out")" "regions 100" "$cc $mode: program output"
        expect_no_grep "$stop" "${cc}_$mode.err" "$cc $mode: no thread's trace stopped"
        structure $x "$cc $mode"
    done
    # what was removed, said on stderr and in the MANIFEST, for both threads
    for mode in default noflush; do
        expect_grep '^\[scorep-rt\] warning: SCOREP_TOTAL_MEMORY ran short: the trace of 2 of 2 locations was reduced, calls shorter than [0-9.]* us removed' \
            "${cc}_$mode.err" "$cc $mode: the warning names the calls removed on both threads"
        for loc in 'Master thread' 'OMP thread 1'; do
            expect_grep "^| 0 | $loc | min_duration | [0-9]* | [0-9]* | calls shorter than " \
                exp_${cc}_$mode/MANIFEST.md "$cc $mode: the MANIFEST says what $loc lost"
        done
    done
    # flush alone: the worker flushed within its share of the reserve
    expect_ge "$(trace_count exp_${cc}_flush BUFFER_FLUSH "$(loc_id 0 1)")" 1 "$cc flush: the worker flushed"
    expect_grep '^\[scorep-rt\] warning: SCOREP_TOTAL_MEMORY ran short: the trace buffers of 2 of 2 locations were flushed' \
        "${cc}_flush.err" "$cc flush: the warning names the flushes"
done
done_ok
