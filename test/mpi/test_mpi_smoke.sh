#!/bin/sh
# test_mpi_smoke.sh: runs the generated smoke program (build-aux/gen-mpi-smoke), which calls
# most wrapped MPI functions, with 1 and 2 processes and all groups traced; every function
# it reports must be entered on every rank, and all messages must match. Needs mpirun.
. "$top_srcdir/test/integration/lib.sh"

T="$top_builddir/test/mpi"
MESSAGES="$top_builddir/test/tools/trace_messages"
if [ ! -x "$T/mpi_smoke_scorep" ]; then
    echo "SKIP: the MPI adapter and its test programs were not built"
    exit 77
fi
command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }

for np in 1 2; do
    x=$work/smoke$np
    status=0
    env SCOREP_ENABLE_TRACING=true SCOREP_MPI_ENABLE_GROUPS=all SCOREP_EXPERIMENT_DIRECTORY="$x" \
        timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$np" \
        "$T/mpi_smoke_scorep" >"smoke$np.out" 2>"smoke$np.err" || status=$?
    check_profiles
    expect_eq "$status" 0 "mpi_smoke runs measured with $np processes"
    expect_file "$x/traces.otf2" "mpi_smoke ($np processes) wrote a trace"
    expect_defs_clean "$x" "mpi_smoke ($np processes)"
    sed -n 's/^CALLED //p' "smoke$np.out" | sort -u >"called$np"
    n=$(wc -l <"called$np" | tr -d ' ')
    echo "mpi_smoke ($np processes) called $n distinct MPI functions"
    expect_ge "$n" 200 "mpi_smoke ($np processes): distinct functions called"
    # ENTER counts per (location, region): the functions entered at least once on each of
    # the np locations (one per rank: the program has no other threads that record)
    t=$(trace_file "$x")
    summary=${t%.trace}.summary
    expect_eq "$(awk -F'\t' '$1 == "ENTER" { print $2 }' "$summary" | sort -u | wc -l | tr -d ' ')" \
        "$np" "mpi_smoke ($np processes): one location per rank"
    awk -F'\t' -v np="$np" '$1 == "ENTER" && $4 > 0 { locs[$3]++ }
        END { for (r in locs) if (locs[r] == np) print r }' "$summary" | sort >"entered$np"
    missing=$(comm -23 "called$np" "entered$np" | tr '\n' ' ')
    expect_eq "$missing" "" "mpi_smoke ($np processes): every called function entered on every rank"
    m=$("$MESSAGES" --match "$x/traces.otf2" 2>&1) || fail "messages of mpi_smoke ($np) do not match: $m"
    echo "$m"
    expect_grep ' unmatched=0 ' "$(printf '%s\n' "$m" >"match$np"; echo "$work/match$np")" \
        "mpi_smoke ($np processes): no unmatched messages"
done
expect_eq "$(comm -23 called1 called2 | tr '\n' ' ')" "" \
    "mpi_smoke calls with 2 processes all it calls with 1"
echo "mpi_smoke calls $(wc -l <called2 | tr -d ' ') of the $(grep -c '^MPI_' "$top_srcdir/src/adapters/mpi/mpi_functions.spec") wrapped functions ($(wc -l <called1 | tr -d ' ') with 1 process)"

echo "$checks checks passed"
