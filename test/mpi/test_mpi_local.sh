#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_local.sh: MPI's local calls (spec item 'local': MPI_Comm_rank, MPI_Comm_size,
# MPI_Type_size, ...) are stamped with one timer reading: local_calls.c makes known numbers of
# them on 2 processes, from the main thread and from two threads at once (MPI_THREAD_MULTIPLE).
# Profile and trace must hold every call (visits, ENTER and LEAVE per location), each Leave
# the next event of its location after its Enter, exactly one tick later; with
# SCOREP_MPI_TIME_LOCAL_CALLS=true the Leave has a timer reading of its own (never one tick).
# MPI_Type_size is in the type group, enabled here. Skipped (77) without the MPI adapter; a
# counted SKIP-PART without MPI_THREAD_MULTIPLE.
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs local_calls_scorep

# pairs EXP: "pairs N tick1 M apart K" over the ENTERs of the three local regions: N of them,
# M left one tick later, K whose next event on the location is not their LEAVE
pairs()
{
    trace_events "$1" | awk '
        { l = $2; i = index($0, "Region: \""); r = "-"
          if (i) { r = substr($0, i + 9); r = substr(r, 1, index(r, "\"") - 1) } }
        (l in open) {
            if ($1 == "LEAVE" && r == open[l]) { if ($3 - ts[l] == 1) tick1++ } else apart++
            delete open[l]
        }
        $1 == "ENTER" && (r == "MPI_Comm_rank" || r == "MPI_Comm_size" || r == "MPI_Type_size") {
            n++; open[l] = r; ts[l] = $3
        }
        END { for (l in open) apart++; printf "pairs %d tick1 %d apart %d\n", n, tick1 + 0, apart + 0 }'
}

for mode in stamped timed; do
    x=$work/$mode
    set -- X=1
    [ "$mode" = stamped ] || set -- SCOREP_MPI_TIME_LOCAL_CALLS=true
    status=0
    env "$@" SCOREP_MPI_ENABLE_GROUPS=default,type SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_PROFILING=true SCOREP_EXPERIMENT_DIRECTORY="$x" \
        timeout 300 mpirun --oversubscribe --allow-run-as-root -np 2 "$T/local_calls_scorep" \
        >"$mode.out" 2>"$mode.err" || status=$?
    if [ "$status" = 77 ]; then
        skip_part_here "local calls ($mode)" "MPI_THREAD_MULTIPLE not provided"
        continue
    fi
    expect_eq "$status" 0 "local_calls ($mode) runs measured"
    check_profiles
    # per location: the main threads 1001 MPI_Comm_rank (world() and the loop), the 4 threads 300
    t=$(trace_file "$x")
    for ev in ENTER LEAVE; do
        expect_eq "$(awk -F'\t' -v e=$ev '$1 == e && $3 == "MPI_Comm_rank" { print $4 }' \
            "${t%.trace}.summary" | sort -n | tr '\n' ' ')" "300 300 300 300 1001 1001 " \
            "local_calls ($mode): $ev MPI_Comm_rank per location"
        expect_eq "$(trace_count "$x" $ev "" MPI_Comm_size)" 1002 "local_calls ($mode): $ev MPI_Comm_size"
        expect_eq "$(trace_count "$x" $ev "" MPI_Type_size)" 500 "local_calls ($mode): $ev MPI_Type_size"
    done
    expect_eq "$(trace_check_order "$x")" 0 "local_calls ($mode): timestamps increase per location"
    expect_eq "$(trace_check_nesting "$x")" 0 "local_calls ($mode): ENTER and LEAVE nest"
    if [ "$mode" = stamped ]; then
        expect_eq "$(pairs "$x")" "pairs 4704 tick1 4704 apart 0" \
            "local_calls ($mode): each Leave next, one tick after its Enter"
    else
        expect_eq "$(pairs "$x")" "pairs 4704 tick1 0 apart 0" \
            "local_calls ($mode): each Leave next, with its own timer reading"
    fi
    # the profile: the same visits, the main threads' calls at the top, the threads' below
    # THREADS (the MPI calls of a thread without compiler instrumentation)
    expect_eq "$(profile_sum "$x" MPI_Comm_rank visits)" 2002 "local_calls ($mode): MPI_Comm_rank visits"
    expect_eq "$(profile_sum "$x" THREADS/MPI_Comm_rank visits)" 1200 \
        "local_calls ($mode): THREADS/MPI_Comm_rank visits"
    expect_eq "$(profile_sum "$x" MPI_Comm_size visits)" 1002 "local_calls ($mode): MPI_Comm_size visits"
    expect_eq "$(profile_sum "$x" MPI_Type_size visits)" 500 "local_calls ($mode): MPI_Type_size visits"
done
done_ok
