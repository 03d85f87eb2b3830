#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_spawn.sh: jobs started by MPI_Comm_spawn are measured into their own experiment
# directory. spawn.c runs as 2 ranks that spawn 2 children, then 1: with
# SCOREP_EXPERIMENT_DIRECTORY=x the parent writes x, the first spawned job x/spawn-1, the
# second x/spawn-2, the third (MPI_Comm_spawn_multiple, two commands) x/spawn-3. Before, every job took x for itself: a child job moved the parent's
# directory aside (overwriting was on) or wrote into the same files. A second run moves the
# whole x aside, spawned jobs included. Linked with the adapter, and built plainly under
# scorep-run (the children are started through env(1) with scorep-run's LD_PRELOAD; before,
# they ran unmeasured).
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs p2p_modes_scorep
scorep_cc mpicc -o spawn_scorep "$top_srcdir/test/mpi/spawn.c"
mpicc -o spawn_plain "$top_srcdir/test/mpi/spawn.c" || fail "build: mpicc spawn.c"

# run_spawn NAME DIR PROGRAM...: one run of the job into DIR; ompi_hang=1 (and the run's
# checks are a counted skip) when it hung in Open MPI's own spawn machinery: Open MPI 4.1 with
# an external PMIx (Debian 12's) hangs now and then in MPI_Comm_spawn, the parent in
# PMIx_Lookup of ompi_dpm_connect_accept, a child in PMIx_Init of MPI_Init
# (openpmix/openpmix#2735, open-mpi/ompi#9713; 3 of about 10 suite runs here, linked or
# under scorep-run). Any other hang, or any other failure, fails the test.
run_spawn() {
    _name=$1 _dir=$2
    shift 2
    ompi_hang=0
    run_bounded "$_name" 90 'spawn_(plain|scorep)' env SCOREP_ENABLE_TRACING=true \
        SCOREP_EXPERIMENT_DIRECTORY="$_dir" SCOREP_MPI_ENABLE_GROUPS=default,spawn \
        SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
        mpirun --oversubscribe --allow-run-as-root -np 2 "$@"
    [ "$status" = 0 ] || echo "$_name: exit status $status; its stderr ends: $(tail -5 "$_name.err")"
    if [ "$status" = 124 ] && grep -q ' in PMIx_\(Init\|Lookup\) ()' "$_name.stacks"; then
        ompi_hang=1
        skip_part_here "$_name: the spawning job's checks" "it hung inside Open MPI's PMIx (PMIx_Init/PMIx_Lookup, stacks above): Open MPI 4.1's intermittent spawn hang (openpmix/openpmix#2735), not scorep-rt's"
        return 0
    fi
    expect_eq "$status" 0 "$_name: the program runs"
    expect_eq "$(LC_ALL=C sort "$_name.out" | tr '\n' ';')" \
        "child 0 of 1 got 43;child 0 of 2 got 42;child 0 of 2 got 44;child 1 of 2 got 42;child 1 of 2 got 44 x;parent 0 ok;parent 1 ok;" \
        "$_name: every process's line"
}

# visits DIR REGION: "location visits" per location, summed over the call paths that end in
# REGION (the compiler instrumentation of the linked program adds main, spawn, send_all)
visits() {
    profile_dump "$1" -m visits | awk -F'\t' -v r="$2" '
        $2 == r || substr($2, length($2) - length(r)) == "/" r { split($4, kv, "="); n[$3] += kv[2] }
        END { for (l in n) print l, n[l] }' | sort -n | tr '\n' ' '
}

# check_jobs MODE DIR: the four jobs' results
check_jobs() {
    _m=$1 x=$2
    check_profiles
    expect_eq "$(profile_locations "$x")" 2 "$_m: parent: 2 locations"
    expect_eq "$(visits "$x" MPI_Send)" "0 5 " "$_m: parent: rank 0 sent 5 messages"
    expect_eq "$(visits "$x" MPI_Comm_spawn)" "0 2 1 2 " \
        "$_m: parent: each rank spawned twice (the spawn group is on)"
    expect_eq "$(visits "$x" MPI_Comm_spawn_multiple)" "0 1 1 1 " \
        "$_m: parent: and once with two commands"
    expect_eq "$(visits "$x" MPI_Comm_disconnect)" "0 3 1 3 " \
        "$_m: parent: each rank disconnected three times"
    expect_eq "$(profile_locations "$x/spawn-1")" 2 "$_m: first spawned job: 2 locations"
    expect_eq "$(visits "$x/spawn-1" MPI_Recv)" "0 1 1 1 " \
        "$_m: first spawned job: one receive per rank"
    expect_eq "$(visits "$x/spawn-1" MPI_Comm_disconnect)" \
        "0 1 1 1 " "$_m: first spawned job: one disconnect per rank"
    expect_eq "$(profile_locations "$x/spawn-2")" 1 "$_m: second spawned job: 1 location"
    expect_eq "$(visits "$x/spawn-2" MPI_Recv)" "0 1 " \
        "$_m: second spawned job: one receive"
    expect_eq "$(profile_locations "$x/spawn-3")" 2 "$_m: third spawned job: 2 locations"
    expect_eq "$(visits "$x/spawn-3" MPI_Recv)" "0 1 1 1 " \
        "$_m: third spawned job: one receive per rank"
    expect_eq "$(entries "$x" '^spawn-[0-9]+$')" 3 \
        "$_m: three spawned jobs' directories"
    expect_eq "$(entries "$(dirname "$x")" "^$(basename "$x")-old-")" 0 \
        "$_m: nobody moved the parent's directory aside"
    for _d in "$x" "$x/spawn-1" "$x/spawn-2" "$x/spawn-3"; do
        expect_defs_clean "$_d" "$_m: ${_d#"$work"/}: trace definitions"
    done
    expect_eq "$(grep -c '^ENTER .*Region: "MPI_Send"' "$(trace_file "$x")")" 5 \
        "$_m: parent's trace: 5 sends"
    expect_eq "$(grep -c '^ENTER .*Region: "MPI_Recv"' "$(trace_file "$x/spawn-1")")" 2 \
        "$_m: first spawned job's trace: 2 receives"
    expect_eq "$(grep -c '^ENTER .*Region: "MPI_Recv"' "$(trace_file "$x")")" 0 \
        "$_m: parent's trace: no receive of the children"
    expect_grep 'this job was started by MPI_Comm_spawn' "$x/spawn-1/MANIFEST.md" \
        "$_m: MANIFEST.md of a spawned job says so"
    expect_no_grep 'MPI_Comm_spawn' "$x/MANIFEST.md" "$_m: the parent's MANIFEST.md: no such note"
}

run_spawn linked "$work/x" ./spawn_scorep
if [ "$ompi_hang" = 0 ]; then
    check_jobs linked "$work/x"
    # again: the old x with its spawned jobs moves aside as a whole
    run_spawn linked_again "$work/x" ./spawn_scorep
    if [ "$ompi_hang" = 0 ]; then
        expect_eq "$(entries "$work" '^x-old-')" 1 \
            "second run: the first run's directory moved aside"
        expect_eq "$(entries "$(ls -d "$work"/x-old-*)" '^spawn-[0-9]+$')" 3 \
            "second run: the first run's spawned jobs moved with it"
        expect_eq "$(find "$work/x" -maxdepth 1 -name 'spawn-*' | sort | sed 's|.*/||' | tr '\n' ' ')" \
            "spawn-1 spawn-2 spawn-3 " "second run: its own spawn-1 to spawn-3"
    fi
fi

run_spawn scorep_run "$work/r" "$top_builddir/scorep-run" ./spawn_plain
[ "$ompi_hang" = 1 ] || check_jobs scorep_run "$work/r"
check_profiles
echo "$checks checks passed"
