#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_analysis_programs.sh: every MPI program of the test suite that writes a trace
# (test/mpi: p2p_modes, completion, probes, collectives, comms, rma, threads, intercomm,
# comm_churn; mpi_smoke, which calls most wrapped MPI functions; and the compiler-instrumented
# programs of test/programs that the integration tests trace: pingpong, ring3, mpi_late,
# report_mpi) is analysed post-mortem by
# scorep-analyze without error, and the report agrees with the trace as otf2-print shows it:
# the visits are the Enter events (all threads; the master threads' on their locations), the
# sends counted (comms_send + syncs_send) are the master threads' MpiSend and MpiIsend events;
# every trace holds what Scalasca requires (MPI_Finalize on every rank, MPI regions of source
# file "MPI"; scalasca_invariants.py).
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs p2p_modes_scorep completion_scorep probes_scorep collectives_scorep \
    comms_scorep rma_scorep threads_scorep intercomm_scorep comm_churn_scorep mpi_smoke_scorep
[ -x "$top_builddir/scorep-analyze" ] || { echo "SKIP: scorep-analyze was not built"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
command -v otf2-print >/dev/null 2>&1 || { echo "SKIP: no otf2-print"; exit 77; }
. "$top_srcdir/test/analysis/lib_cv.sh"
# prog NAME: the measured build of NAME (test/mpi's, or one built here)
prog()
{
    if [ -x "$T/${1}_scorep" ]; then echo "$T/${1}_scorep"; else echo "$work/${1}_scorep"; fi
}

# python3-otf2 (Debian's python3-otf2) may live in the system python only
python3_otf2=$(python3_with_otf2)
[ -n "$python3_otf2" ] || skip_part "python3-otf2 (Scalasca's invariants of every trace)"

# the compiler-instrumented ones, built as the integration tests build them
scorep_cc mpicc -O2 -o pingpong_scorep "$PROGRAMS/pingpong.c"
scorep_cc mpicc -O2 -o ring3_scorep "$PROGRAMS/ring3.c"
scorep_cc mpicc -O2 -o mpi_late_scorep "$PROGRAMS/mpi_late.c"
scorep_cc --user mpicc -O1 -o report_mpi_scorep "$PROGRAMS/report_mpi.c"

for spec in p2p_modes:2 completion:2 probes:2 collectives:4 comms:4 rma:3 threads:2 \
    intercomm:4 comm_churn:2:10000 mpi_smoke:2 pingpong:2:300 ring3:3:40 mpi_late:3 \
    report_mpi:3; do
    name=${spec%%:*}
    rest=${spec#*:}
    np=${rest%%:*}
    arg=
    [ "$rest" = "$np" ] || arg=${rest#*:}
    x=$work/$name
    status=0
    env SCOREP_ENABLE_TRACING=true SCOREP_MPI_ENABLE_GROUPS=all SCOREP_EXPERIMENT_DIRECTORY="$x" \
        timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$np" \
        "$(prog "$name")" $arg >"$name.out" 2>&1 || status=$?
    if [ "$name" = threads ] && [ "$status" = 77 ]; then
        echo "threads: MPI_THREAD_MULTIPLE not available, skipped"
        continue
    fi
    expect_eq "$status" 0 "$name runs measured"
    status=0
    timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$np" \
        "$top_builddir/scorep-analyze" "$x" >"$name.an" 2>&1 || status=$?
    expect_eq "$status" 0 "scorep-analyze of $name ($(tail -3 "$name.an" | tr '\n' ' '))"
    expect_file "$x/scout.cubex" "$name: scout.cubex"
    # the master thread of rank r is member r of MPI's COMM_LOCATIONS group; otf2-print
    # names events by location id, the master threads are the locations of thread 0
    otf2-print "$x/traces.otf2" >"$name.txt" 2>/dev/null || fail "otf2-print $name"
    otf2-print -G "$x/traces.otf2" 2>/dev/null |
        awk '$1 == "GROUP" && /Type: COMM_LOCATIONS/ && /Paradigm: MPI/' >"$name.grp"
    masters=$(sed -n 's/.*Members: \(.*\)$/\1/p' "$name.grp" | tr -d '()' |
        sed 's/"[^"]*"//g; s/[<>,]/ /g; s/  */ /g')
    [ -n "$masters" ] || fail "$name: no COMM_LOCATIONS group in otf2-print -G"
    enters=0 sends=0
    for m in $masters; do
        enters=$((enters + $(awk -v l="$m" '($1 == "ENTER" || $1 == "PROGRAM_BEGIN") && $2 == l' "$name.txt" | wc -l)))
        sends=$((sends + $(awk -v l="$m" '($1 == "MPI_SEND" || $1 == "MPI_ISEND") && $2 == l' \
            "$name.txt" | wc -l)))
    done
    # every thread has its location in the report: the visits are all Enter events and the
    # ProgramBegin events (the calls of the program root, one per rank)
    expect_eq "$($CV "$x/scout.cubex" value visits '*' '*')" \
        "$(awk '$1 == "ENTER" || $1 == "PROGRAM_BEGIN"' "$name.txt" | wc -l)" \
        "$name: visits = Enter and ProgramBegin events of all threads"
    master_visits=0
    for r in $(seq 0 $((np - 1))); do
        master_visits=$((master_visits + $($CV "$x/scout.cubex" value visits '*' "$r:0")))
    done
    expect_eq "$master_visits" "$enters" "$name: visits of the master threads = their Enter and ProgramBegin events"
    expect_eq "$(($($CV "$x/scout.cubex" value comms_send '*' '*') + \
        $($CV "$x/scout.cubex" value syncs_send '*' '*')))" "$sends" \
        "$name: sends counted = MpiSend/MpiIsend events of the master threads"
    # what Scalasca requires of a trace (docs/analysis.md): MPI_Finalize's Enter and Leave on
    # every rank's master thread, every MPI region of source file "MPI"
    fin=0
    for m in $masters; do
        fin=$((fin + $(awk -v l="$m" '($1 == "ENTER" || $1 == "LEAVE") && $2 == l &&
            /Region: "MPI_Finalize"/' "$name.txt" | wc -l)))
    done
    expect_eq "$fin" $((2 * np)) "$name: MPI_Finalize's Enter and Leave on every rank"
    otf2-print -G "$x/traces.otf2" >"$name.defs" 2>&1 || fail "otf2-print -G $name"
    expect_grep '^REGION .*Name: "MPI_Finalize".*Paradigm: MPI,.*File: "MPI" <' "$name.defs" \
        "$name: MPI_Finalize's region"
    expect_eq "$(awk '$1 == "REGION" && /Paradigm: MPI,/ && !/File: "MPI" </' "$name.defs" |
        wc -l)" 0 "$name: every MPI region has the source file MPI"
    if [ -n "$python3_otf2" ]; then
        # exit status 1: an invariant is violated (the program region's, not written yet)
        inv=0
        "$python3_otf2" "$top_srcdir/test/analysis/scalasca_invariants.py" "$x/traces.otf2" \
            >"$name.inv" 2>&1 || inv=$?
        [ "$inv" -le 1 ] || fail "$name: scalasca_invariants.py: $(cat "$name.inv")"
        for i in mpi_file mpi_init mpi_finalize; do
            expect_no_grep "^violated $i:" "$name.inv" "$name: Scalasca's invariant $i"
            expect_grep "^ok $i:" "$name.inv" "$name: Scalasca's invariant $i"
        done
    fi
    echo "$name: $enters visits, $sends sends; $(grep -c . "$name.an") lines of scorep-analyze output"
done

done_ok
