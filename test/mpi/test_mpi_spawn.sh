#!/bin/sh
# test_mpi_spawn.sh: jobs started by MPI_Comm_spawn are measured into their own experiment
# directory. spawn.c runs as 2 ranks that spawn 2 children, then 1: with
# SCOREP_EXPERIMENT_DIRECTORY=x the parent writes x, the first spawned job x/spawn-1, the
# second x/spawn-2. Before, every job took x for itself: a child job moved the parent's
# directory aside (overwriting was on) or wrote into the same files. A second run moves the
# whole x aside, spawned jobs included. Linked with the adapter, and built plainly under
# scorep-run (the children are started through env(1) with scorep-run's LD_PRELOAD; before,
# they ran unmeasured).
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs p2p_modes_scorep
scorep_cc mpicc -o spawn_scorep "$top_srcdir/test/mpi/spawn.c"
mpicc -o spawn_plain "$top_srcdir/test/mpi/spawn.c" || fail "build: mpicc spawn.c"

# run_spawn NAME DIR PROGRAM...: one run of the job into DIR
run_spawn() {
    _name=$1 _dir=$2
    shift 2
    status=0
    env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$_dir" \
        SCOREP_MPI_ENABLE_GROUPS=default,spawn SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
        timeout 120 mpirun --oversubscribe --allow-run-as-root -np 2 "$@" \
        >"$_name.out" 2>"$_name.err" || status=$?
    expect_eq "$status" 0 "$_name: the program runs"
    expect_eq "$(LC_ALL=C sort "$_name.out" | tr '\n' ';')" \
        "child 0 of 1 got 43;child 0 of 2 got 42;child 1 of 2 got 42;parent 0 ok;parent 1 ok;" \
        "$_name: every process's line"
}

# check_jobs MODE DIR PARENT_PREFIX CHILD_PREFIX: the three jobs' results (call paths: the
# compiler instrumentation of the linked program adds main and spawn)
check_jobs() {
    _m=$1 x=$2 P=$3 C=$4
    check_profiles
    expect_eq "$(profile_locations "$x")" 2 "$_m: parent: 2 locations"
    expect_eq "$(profile_values "$x" "${P}MPI_Send" visits)" "0 3" "$_m: parent: rank 0 sent 3 messages"
    expect_eq "$(profile_values "$x" "${P}MPI_Comm_spawn" visits | tr '\n' ' ')" "0 2 1 2 " \
        "$_m: parent: each rank spawned twice (the spawn group is on)"
    expect_eq "$(profile_values "$x" "${P}MPI_Comm_disconnect" visits | tr '\n' ' ')" "0 2 1 2 " \
        "$_m: parent: each rank disconnected twice"
    expect_eq "$(profile_locations "$x/spawn-1")" 2 "$_m: first spawned job: 2 locations"
    expect_eq "$(profile_values "$x/spawn-1" "${C}MPI_Recv" visits | tr '\n' ' ')" "0 1 1 1 " \
        "$_m: first spawned job: one receive per rank"
    expect_eq "$(profile_values "$x/spawn-1" "${C}MPI_Comm_disconnect" visits | tr '\n' ' ')" \
        "0 1 1 1 " "$_m: first spawned job: one disconnect per rank"
    expect_eq "$(profile_locations "$x/spawn-2")" 1 "$_m: second spawned job: 1 location"
    expect_eq "$(profile_values "$x/spawn-2" "${C}MPI_Recv" visits)" "0 1" \
        "$_m: second spawned job: one receive"
    expect_eq "$(find "$x" -maxdepth 1 -name 'spawn-*' | wc -l | tr -d ' ')" 2 \
        "$_m: two spawned jobs' directories"
    expect_eq "$(find "$(dirname "$x")" -maxdepth 1 -name "$(basename "$x")-old-*" | wc -l | tr -d ' ')" 0 \
        "$_m: nobody moved the parent's directory aside"
    for _d in "$x" "$x/spawn-1" "$x/spawn-2"; do
        expect_defs_clean "$_d" "$_m: ${_d#"$work"/}: trace definitions"
    done
    expect_eq "$(grep -c '^ENTER .*Region: "MPI_Send"' "$(trace_file "$x")")" 3 \
        "$_m: parent's trace: 3 sends"
    expect_eq "$(grep -c '^ENTER .*Region: "MPI_Recv"' "$(trace_file "$x/spawn-1")")" 2 \
        "$_m: first spawned job's trace: 2 receives"
    expect_eq "$(grep -c '^ENTER .*Region: "MPI_Recv"' "$(trace_file "$x")")" 0 \
        "$_m: parent's trace: no receive of the children"
    expect_grep 'this job was started by MPI_Comm_spawn' "$x/spawn-1/MANIFEST.md" \
        "$_m: MANIFEST.md of a spawned job says so"
    expect_no_grep 'MPI_Comm_spawn' "$x/MANIFEST.md" "$_m: the parent's MANIFEST.md: no such note"
}

run_spawn linked "$work/x" ./spawn_scorep
check_jobs linked "$work/x" main/spawn/ main/
# again: the old x with its spawned jobs moves aside as a whole
run_spawn linked_again "$work/x" ./spawn_scorep
expect_eq "$(find "$work" -maxdepth 1 -name 'x-old-*' | wc -l | tr -d ' ')" 1 \
    "second run: the first run's directory moved aside"
expect_eq "$(find "$work"/x-old-* -maxdepth 1 -name 'spawn-*' | wc -l | tr -d ' ')" 2 \
    "second run: the first run's spawned jobs moved with it"
expect_eq "$(find "$work/x" -maxdepth 1 -name 'spawn-*' | sort | sed 's|.*/||' | tr '\n' ' ')" \
    "spawn-1 spawn-2 " "second run: its own spawn-1 and spawn-2"

run_spawn scorep_run "$work/r" "$top_builddir/scorep-run" ./spawn_plain
check_jobs scorep_run "$work/r" "" ""
check_profiles
echo "$checks checks passed"
