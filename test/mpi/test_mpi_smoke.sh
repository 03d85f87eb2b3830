#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_smoke.sh: runs the generated smoke program (build-aux/gen-mpi-smoke), which calls
# most wrapped MPI functions, with all groups traced: linked with the adapter with 1 and 2
# processes, and built plainly under scorep-run with 2. Every function it reports must be
# entered on every rank, and its messages (2 per process) and successful probes (4 per
# process) must all be there and match; the MPI regions have Score-P's file, paradigm and roles.
# Needs mpirun.
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs mpi_smoke_scorep mpi_smoke

# runs: 1 and 2 (linked, that many processes), 2run (2 processes under scorep-run)
for run in 1 2 2run; do
    np=${run%run}
    x=$work/smoke$run
    set -- "$T/mpi_smoke_scorep"
    [ "$run" = "$np" ] || set -- "$top_builddir/scorep-run" "$T/mpi_smoke"
    status=0
    env SCOREP_ENABLE_TRACING=true SCOREP_MPI_ENABLE_GROUPS=all SCOREP_EXPERIMENT_DIRECTORY="$x" \
        SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
        timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$np" \
        "$@" >"smoke$run.out" 2>"smoke$run.err" || status=$?
    check_profiles
    expect_eq "$status" 0 "mpi_smoke ($run) runs measured"
    expect_file "$x/traces.otf2" "mpi_smoke ($run) wrote a trace"
    expect_defs_clean "$x" "mpi_smoke ($run)"
    sed -n 's/^CALLED //p' "smoke$run.out" | sort -u >"called$run"
    n=$(wc -l <"called$run" | tr -d ' ')
    echo "mpi_smoke ($run) called $n distinct MPI functions"
    expect_ge "$n" 200 "mpi_smoke ($run): distinct functions called"
    # ENTER counts per (location, region): the functions entered at least once on each of
    # the np locations (one per rank: the program has no other threads that record)
    t=$(trace_file "$x")
    summary=${t%.trace}.summary
    expect_eq "$(awk -F'\t' '$1 == "ENTER" { print $2 }' "$summary" | sort -u | wc -l | tr -d ' ')" \
        "$np" "mpi_smoke ($run): one location per rank"
    awk -F'\t' -v np="$np" '$1 == "ENTER" && $4 > 0 { locs[$3]++ }
        END { for (r in locs) if (locs[r] == np) print r }' "$summary" | sort >"entered$run"
    missing=$(comm -23 "called$run" "entered$run" | tr '\n' ' ')
    expect_eq "$missing" "" "mpi_smoke ($run): every called function entered on every rank"
    m=$("$MESSAGES" --match "$x/traces.otf2" 2>&1) || fail "messages of mpi_smoke ($run) do not match: $m"
    expect_eq "$(echo "$m" | sed 's/ late=[0-9]*//')" \
        "sends=$((2 * np)) receives=$((2 * np)) matched=$((2 * np)) unmatched=0 mismatched_size=0 probes=$((4 * np))" \
        "mpi_smoke ($run): messages and probes"
done
# the MPI regions as Score-P defines them (docs/mpi.md): file "MPI", paradigm MPI, and the role
# that Score-P 8.4's SCOREP_Mpi_Reg.c gives (SCOREP_REGION_NONE is FUNCTION), for a sample of
# every role the smoke program reaches
otf2-print -G "$work/smoke1/traces.otf2" >smoke1.defs 2>&1 || fail "otf2-print -G: $(tail -3 smoke1.defs)"
expect_eq "$(awk '$1 == "REGION" && /Paradigm: MPI,/ && !/File: "MPI" </' smoke1.defs | wc -l)" 0 \
    "mpi_smoke: every MPI region has the source file MPI"
sed -n 's/^REGION .*Name: "\(MPI_[^"]*\)".*Role: \([A-Z_0-9]*\), Paradigm: \([A-Z]*\),.*/\1 \2 \3/p' \
    smoke1.defs >smoke1.roles
for want in "MPI_Send POINT2POINT" "MPI_Barrier BARRIER" "MPI_Bcast COLL_ONE2ALL" \
    "MPI_Reduce COLL_ALL2ONE" "MPI_Allreduce COLL_ALL2ALL" "MPI_Scan COLL_OTHER" "MPI_Put RMA" \
    "MPI_Get RMA" "MPI_Accumulate ATOMIC" "MPI_Fetch_and_op ATOMIC" "MPI_Compare_and_swap ATOMIC" \
    "MPI_Alloc_mem ALLOCATE" "MPI_Win_allocate ALLOCATE" "MPI_Free_mem DEALLOCATE" \
    "MPI_File_read FILE_IO" "MPI_File_write FILE_IO" "MPI_File_open FILE_IO_METADATA" \
    "MPI_File_close FILE_IO_METADATA" "MPI_File_seek FILE_IO_METADATA" \
    "MPI_File_delete FILE_IO_METADATA" "MPI_File_set_view FUNCTION" "MPI_File_set_size FUNCTION" \
    "MPI_Start FUNCTION" "MPI_Comm_rank FUNCTION" "MPI_Finalize FUNCTION"; do
    expect_grep "^$want MPI\$" smoke1.roles "mpi_smoke: region ${want% *}: role ${want#* } (Score-P's)"
done
expect_eq "$(comm -23 called1 called2 | tr '\n' ' ')" "" \
    "mpi_smoke calls with 2 processes all it calls with 1"
expect_eq "$(cmp called2 called2run >/dev/null && cmp entered2 entered2run >/dev/null && echo same)" \
    same "mpi_smoke: the same functions called and entered linked and under scorep-run"
echo "mpi_smoke calls $(wc -l <called2 | tr -d ' ') of the $(grep -c '^MPI_' "$top_srcdir/src/adapters/mpi/mpi_functions.spec") wrapped functions ($(wc -l <called1 | tr -d ' ') with 1 process)"

echo "$checks checks passed"
