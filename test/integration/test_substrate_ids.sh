#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_substrate_ids.sh: the location ids a substrate plugin gets (SCOREP_Location_GetGlobalId,
# SCOREP_Location_GetId) are the trace's. A plugin built here from Score-P's public headers
# (test/plugins/substrate_ids.c) asks for each CPU location's global id at its first enter
# after init_mpp and again at its deletion (or write_data), counts its enters, and writes them
# per rank; test/omp/hybrid.c runs traced on 2 ranks x 4 OpenMP threads (libgomp; libomp when
# clang is there). Each location's (global id, enters, name) must be exactly one of the trace's
# (Location definition id, ENTER records on it, name, otf2-print), both ids the same, the
# global id LOCAL << 32 | RANK of the plugin's local id and rank (Score-P's
# SCOREP_Location_CalculateGlobalId), and each id the name of its trace files (traces/ID.evt).
. "$top_srcdir/test/integration/lib.sh"
command -v mpicc >/dev/null 2>&1 || { echo "SKIP: no mpicc"; exit 77; }
command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
command -v otf2-print >/dev/null 2>&1 || { echo "SKIP: no otf2-print"; exit 77; }
[ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: the MPI adapter was not built"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

mkdir plug
cc -shared -fPIC -O1 -Wall -Wextra -Werror -I"$top_srcdir/include" -o plug/libscorep_substrate_ids.so \
    "$top_srcdir/test/plugins/substrate_ids.c" || fail "build of the test plugin"
export LD_LIBRARY_PATH="$work/plug${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# check NAME: NAME's run (experiment directory NAME, plugin files NAME.ids.RANK) against its trace
check()
{
    expect_eq "$status" 0 "$1: exit status ($(tail -c 300 "$1.err"))"
    expect_eq "$(grep -c ' sum ' "$1.out")" 2 "$1: both ranks ran ($(cat "$1.out"))"
    trace_defs "$1" >"$1.defs"
    trace_events "$1" >"$1.events"
    # the trace: "ID ENTERS NAME" per location
    awk 'FNR == NR { if ($1 == "LOCATION") { n = $0; sub(/.*Name: "/, "", n); sub(/".*/, "", n)
            name[$2] = n; e[$2] += 0 } next }
        $1 == "ENTER" { e[$2]++ }
        END { for (l in name) print l, e[l], name[l] }' "$1.defs" "$1.events" | sort >"$1.trace"
    : >"$1.plugin"
    for r in 0 1; do
        f=$1.ids.$r
        expect_file "$f" "$1: rank $r's plugin wrote its ids at write_data"
        expect_eq "$(tail -n 1 "$f")" "rank $r size 2 slots 4 overflow 0" \
            "$1: rank $r: 4 locations created, each one slot"
        # AT_ENTER LATE LOCAL ENTERS NAME
        expect_eq "$(sed '$d' "$f" | awk -v r=$r '$1 != $2 || $2 != $3 * 4294967296 + r' )" "" \
            "$1: rank $r: GetGlobalId the same at the first enter after init_mpp and at the end, and GetId << 32 | $r"
        sed '$d' "$f" | cut -d' ' -f2,4- >>"$1.plugin"
    done
    sort "$1.plugin" -o "$1.plugin"
    expect_eq "$(cat "$1.plugin")" "$(cat "$1.trace")" \
        "$1: each location's global id, enters and name are a trace location's"
    expect_eq "$(awk '{ print $1 }' "$1.trace" | sort -n | tr '\n' ' ')" \
        "0 1 $(loc_id 0 1) $(loc_id 1 1) $(loc_id 0 2) $(loc_id 1 2) $(loc_id 0 3) $(loc_id 1 3) " \
        "$1: the trace's ids, Score-P's: 4 per rank"
    for id in $(awk '{ print $1 }' "$1.trace"); do
        expect_file "$1/traces/$id.evt" "$1: location $id's event file"
    done
}

# gcc: libgomp (the GOMP_* entry points)
scorep_cc mpicc -O1 -fopenmp -o hybrid "$top_srcdir/test/omp/hybrid.c"
run_app gomp env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=gomp \
    SCOREP_SUBSTRATE_PLUGINS=ids SUBSTRATE_IDS_OUT="$work/gomp.ids" mpirun -np 2 ./hybrid
check gomp
# clang: libomp (OMPT)
if command -v clang >/dev/null 2>&1; then
    OMPI_CC=clang scorep_cc mpicc -O1 -fopenmp -o hybrid_omp "$top_srcdir/test/omp/hybrid.c"
    run_app ompt env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=ompt \
        SCOREP_SUBSTRATE_PLUGINS=ids SUBSTRATE_IDS_OUT="$work/ompt.ids" mpirun -np 2 ./hybrid_omp
    check ompt
else
    skip_part clang
fi
done_ok
