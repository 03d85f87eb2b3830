#!/bin/sh
# test_mpi_smoke.sh: runs the generated smoke program (build-aux/gen-mpi-smoke), which calls
# most wrapped MPI functions, with all groups traced: linked with the adapter with 1 and 2
# processes, and built plainly under scorep-run with 2. Every function it reports must be
# entered on every rank, and its messages (2 per process) and successful probes (4 per
# process) must all be there and match. Needs mpirun.
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
expect_eq "$(comm -23 called1 called2 | tr '\n' ' ')" "" \
    "mpi_smoke calls with 2 processes all it calls with 1"
expect_eq "$(cmp called2 called2run >/dev/null && cmp entered2 entered2run >/dev/null && echo same)" \
    same "mpi_smoke: the same functions called and entered linked and under scorep-run"
echo "mpi_smoke calls $(wc -l <called2 | tr -d ' ') of the $(grep -c '^MPI_' "$top_srcdir/src/adapters/mpi/mpi_functions.spec") wrapped functions ($(wc -l <called1 | tr -d ' ') with 1 process)"

echo "$checks checks passed"
