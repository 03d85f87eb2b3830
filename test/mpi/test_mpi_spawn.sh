#!/bin/sh
# test_mpi_spawn.sh: jobs started by MPI_Comm_spawn measure into their own experiment
# directory. spawn.c, linked with the adapter, runs as 2 ranks that spawn 2 children, then
# 1: with SCOREP_EXPERIMENT_DIRECTORY=x the parent writes x, the first spawned job x/spawn-1,
# the second x/spawn-2. Before, every job took x for itself: a child job moved the parent's
# directory aside (overwriting was on) or wrote into the same files. A second run moves the
# whole x aside, spawned jobs included.
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs p2p_modes_scorep
scorep_cc mpicc -o spawn_scorep "$top_srcdir/test/mpi/spawn.c"

run_spawn() {
    status=0
    env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$work/x" \
        SCOREP_MPI_ENABLE_GROUPS=default,spawn \
        timeout 120 mpirun --oversubscribe --allow-run-as-root -np 2 ./spawn_scorep \
        >"$1.out" 2>"$1.err" || status=$?
    expect_eq "$status" 0 "$1: the program runs"
    expect_eq "$(LC_ALL=C sort "$1.out" | tr '\n' ';')" \
        "child 0 of 1 got 43;child 0 of 2 got 42;child 1 of 2 got 42;parent 0 ok;parent 1 ok;" \
        "$1: every process's line"
}

run_spawn first
check_profiles
expect_eq "$(profile_locations "$work/x")" 2 "parent: 2 locations"
expect_eq "$(profile_values "$work/x" main/spawn/MPI_Send visits)" "0 3" "parent: rank 0 sent 3 messages"
expect_eq "$(profile_values "$work/x" main/spawn/MPI_Comm_spawn visits | tr '\n' ' ')" "0 2 1 2 " \
    "parent: each rank spawned twice (the spawn group is on)"
expect_eq "$(profile_values "$work/x" main/spawn/MPI_Comm_disconnect visits | tr '\n' ' ')" "0 2 1 2 " \
    "parent: each rank disconnected twice"
expect_eq "$(profile_locations "$work/x/spawn-1")" 2 "first spawned job: 2 locations"
expect_eq "$(profile_values "$work/x/spawn-1" main/MPI_Recv visits | tr '\n' ' ')" "0 1 1 1 " \
    "first spawned job: one receive per rank"
expect_eq "$(profile_values "$work/x/spawn-1" main/MPI_Comm_disconnect visits | tr '\n' ' ')" "0 1 1 1 " \
    "first spawned job: one disconnect per rank"
expect_eq "$(profile_locations "$work/x/spawn-2")" 1 "second spawned job: 1 location"
expect_eq "$(profile_values "$work/x/spawn-2" main/MPI_Recv visits)" "0 1" \
    "second spawned job: one receive"
expect_eq "$(find "$work/x" -maxdepth 1 -name 'spawn-*' | wc -l | tr -d ' ')" 2 \
    "two spawned jobs' directories"
expect_eq "$(find "$work" -maxdepth 1 -name 'x-old-*' | wc -l | tr -d ' ')" 0 \
    "nobody moved the parent's directory aside"
for d in x x/spawn-1 x/spawn-2; do
    expect_defs_clean "$work/$d" "$d: trace definitions"
done
expect_eq "$(grep -c '^ENTER .*Region: "MPI_Send"' "$(trace_file "$work/x")")" 3 \
    "parent's trace: 3 sends"
expect_eq "$(grep -c '^ENTER .*Region: "MPI_Recv"' "$(trace_file "$work/x/spawn-1")")" 2 \
    "first spawned job's trace: 2 receives"
expect_eq "$(grep -c '^ENTER .*Region: "MPI_Recv"' "$(trace_file "$work/x")")" 0 \
    "parent's trace: no receive of the children"
expect_grep 'this job was started by MPI_Comm_spawn' "$work/x/spawn-1/MANIFEST.md" \
    "MANIFEST.md of a spawned job says so"
expect_no_grep 'MPI_Comm_spawn' "$work/x/MANIFEST.md" "the parent's MANIFEST.md: no such note"

# again: the old x with its spawned jobs moves aside as a whole
run_spawn second
expect_eq "$(find "$work" -maxdepth 1 -name 'x-old-*' | wc -l | tr -d ' ')" 1 \
    "second run: the first run's directory moved aside"
expect_eq "$(find "$work"/x-old-* -maxdepth 1 -name 'spawn-*' | wc -l | tr -d ' ')" 2 \
    "second run: the first run's spawned jobs moved with it"
expect_eq "$(find "$work/x" -maxdepth 1 -name 'spawn-*' | sort | sed 's|.*/||' | tr '\n' ' ')" \
    "spawn-1 spawn-2 " "second run: its own spawn-1 and spawn-2"
check_profiles
echo "$checks checks passed"
