#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_profile_parallel.sh: profile.cubex written in parallel (issue #19: every process
# writes its locations' slice of every row, no gathering; SCOREP_PROFILING_CUBE_WRITER)
# against the gathering writer, which the Score-P samples validate: 4 MPI ranks with 2
# threads each, one process (parallel forced), 2 SHMEM PEs. Timings differ from run to run,
# so the runs must agree on everything else: system tree, call paths, visits and bytes
# (exclusive and inclusive), and a time on every (call path, location) that was visited.
# The archive order tells which writer ran (parallel: anchor.xml last).
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs threads_scorep
DUMP="$top_builddir/scorep-cube-dump"

# run NAME WRITER LAUNCHER...: one measured run into $work/NAME; exit status $want (0)
run() {
    _name=$1 _writer=$2
    shift 2
    # bounded; a run still going after 240 s prints its ranks' stacks (one hang of
    # threads_scorep under MPI_THREAD_MULTIPLE was seen once in a CI run, session 10)
    run_bounded "$_name" 240 '_scorep( |$)' env SCOREP_PROFILING_CUBE_WRITER="$_writer" \
        SCOREP_EXPERIMENT_DIRECTORY="$work/$_name" "$@"
    expect_eq "$status" "${want:-0}" "$_name: runs"
    expect_file "$work/$_name/profile.cubex" "$_name: wrote profile.cubex"
}

# same_profiles A B WHAT: the deterministic content of two runs' profiles agrees
same_profiles() {
    _a=$work/$1/profile.cubex _b=$work/$2/profile.cubex
    expect_eq "$(tar tf "$_a" | tail -n 1)" anchor.xml "$3: the parallel writer ran (anchor last)"
    expect_eq "$(tar tf "$_b" | head -n 1)" anchor.xml "$3: the gathering writer ran (anchor first)"
    # threads register in the order they start, which differs from run to run: values are
    # compared per call path as the sorted list over its locations (location column left out)
    _norm() { cut -f1,2,4- | LC_ALL=C sort; }
    for _o in "--system" "-m visits" "-i -m visits"; do
        # shellcheck disable=SC2086 # the options are split on purpose
        "$DUMP" $_o "$_a" >a.txt || fail "$3: scorep-cube-dump $_o of the parallel profile"
        # shellcheck disable=SC2086
        "$DUMP" $_o "$_b" >b.txt || fail "$3: scorep-cube-dump $_o of the gathered profile"
        if [ "$_o" != --system ]; then
            _norm <a.txt >a.n && mv a.n a.txt
            _norm <b.txt >b.n && mv b.n b.txt
        fi
        expect_eq "$(cmp a.txt b.txt >/dev/null && echo same)" same "$3: scorep-cube-dump $_o"
    done
    "$DUMP" "$_a" >all.txt || fail "$3: scorep-cube-dump of the parallel profile"
    _m=$(head -n 1 all.txt | tr '\t' '\n' | sed -n 's/=.*//p' | grep '^bytes_' | tr '\n' ',' || true)
    if [ -n "$_m" ]; then
        "$DUMP" -m "${_m%,}" "$_a" >a.txt && "$DUMP" -m "${_m%,}" "$_b" >b.txt ||
            fail "$3: scorep-cube-dump -m ${_m%,}"
        _norm <a.txt >a.n && _norm <b.txt >b.n
        expect_eq "$(cmp a.n b.n >/dev/null && echo same)" same "$3: ${_m%,}"
    fi
    # both writers omit all-zero rows: the indexes of the deterministic metrics (visits,
    # bytes) list the same call paths (file ids: the metrics' order in anchor.xml)
    tar xOf "$_a" anchor.xml >anchor_a.xml || fail "$3: anchor.xml of the parallel profile"
    _ids=$(sed -n 's/.*<uniq_name>\([^<]*\)<.*/\1/p' anchor_a.xml |
        awk '$0 == "visits" || /^bytes_/ { print NR - 1 }')
    expect_eq "$(echo "$_ids" | head -n 1)" 0 "$3: visits, the first metric, has its index compared"
    tar tf "$_a" >members_a.txt && tar tf "$_b" >members_b.txt || fail "$3: tar tf"
    for _i in $_ids; do
        # a metric without any value has no members at all in either file
        _in=$(grep -cx "$_i.index" members_a.txt || true)
        expect_eq "$_in" "$(grep -cx "$_i.index" members_b.txt || true)" \
            "$3: $_i.index in both profiles or in neither"
        [ "$_in" = 1 ] || continue
        tar xOf "$_a" "$_i.index" >ia.bin && tar xOf "$_b" "$_i.index" >ib.bin ||
            fail "$3: $_i.index in both profiles"
        expect_eq "$(cmp ia.bin ib.bin >/dev/null && echo same)" same \
            "$3: $_i.index lists the gathering writer's rows"
    done
    # a visited (call path, location) has a positive inclusive time, an unvisited none
    "$DUMP" -i -m visits,time "$_a" >vt.txt || fail "$3: scorep-cube-dump -i -m visits,time"
    awk -F'\t' '{ v = $4; t = $5; sub(/.*=/, "", v); sub(/.*=/, "", t)
        if ((v > 0) != (t > 0)) bad++ } END { print bad + 0 }' vt.txt >bad.txt
    expect_eq "$(cat bad.txt)" 0 "$3: inclusive time exactly where there are visits"
}

# 4 ranks, threads on ranks 0 and 1: the acceptance's MPI+threads profile
run mpi_par parallel mpirun --oversubscribe --allow-run-as-root -np 4 "$T/threads_scorep"
run mpi_gat gather mpirun --oversubscribe --allow-run-as-root -np 4 "$T/threads_scorep"
"$DUMP" --system "$work/mpi_par/profile.cubex" >sys.txt || fail "scorep-cube-dump --system"
expect_eq "$(wc -l <sys.txt | tr -d ' ')" 8 \
    "ranks 0 and 1 with 3 threads, ranks 2 and 3 with one: 8 locations"
same_profiles mpi_par mpi_gat "MPI 4x3"
# fewer rows for bytes_sent (the send call paths) than for visits (every call path)
idx_size() { tar tvf "$work/mpi_par/profile.cubex" "$1.index" | awk '{ print $3 }'; }
sent=$(sed -n 's/.*<uniq_name>\([^<]*\)<.*/\1/p' anchor_a.xml | awk '$0 == "bytes_sent" { print NR - 1 }')
expect_eq "$(echo "$sent" | grep -c '^[0-9][0-9]*$')" 1 "MPI 4x3: bytes_sent is among the metrics"
expect_ge "$(idx_size 0)" "$(($(idx_size "$sent") + 4))" \
    "MPI 4x3: bytes_sent's index omits the call paths without sends (4 bytes a call path)"
# the default with several processes is the parallel writer
run mpi_auto auto mpirun --oversubscribe --allow-run-as-root -np 2 "$T/threads_scorep"
expect_eq "$(tar tf "$work/mpi_auto/profile.cubex" | tail -n 1)" anchor.xml \
    "auto with 2 processes: the parallel writer"

# rank 2 cannot allocate the broadcast call tree (test-only variable, as if memory ran out):
# every rank learns it, the run ends normally with one message and no profile, nobody hangs
status=0
env SCOREP_PROFILING_CUBE_WRITER=parallel SCOREP_TEST_PROFILE_TREE_ALLOC_FAIL=2 \
    SCOREP_EXPERIMENT_DIRECTORY="$work/mpi_nomem" timeout 120 \
    mpirun --oversubscribe --allow-run-as-root -np 3 "$T/threads_scorep" >nomem.out 2>nomem.err ||
    status=$?
expect_eq "$status" 0 "rank 2 without memory for the call tree: the run ends normally (nomem.err: $(tail -n 4 nomem.err))"
expect_eq "$(count_lines "cannot collect the profile's call tree: no profile written" nomem.err)" 1 \
    "rank 2 without memory for the call tree: one message"
expect_eq "$(test -e "$work/mpi_nomem/profile.cubex" && echo yes)" "" \
    "rank 2 without memory for the call tree: no profile.cubex"

# one process, the parallel writer forced (auto gathers: compressed rows)
scorep_cc gcc -O2 -o calls_gcc "$PROGRAMS/calls.c" -lpthread
want=3 # calls.c's own exit status
run one_par parallel ./calls_gcc
run one_gat auto ./calls_gcc
want=0
same_profiles one_par one_gat "one process"

# SHMEM: the ipc backend of OpenSHMEM carries the call-tree reduction
if command -v oshrun >/dev/null 2>&1; then
    export OMPI_MCA_osc='^rdma' OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    "$SCOREP_CC" oshcc -o rma_scorep "$top_srcdir/test/shmem/shmem_rma.c" >cc.out 2>&1 ||
        fail "build: scorep-cc oshcc shmem_rma.c"
    run shm_par parallel oshrun --oversubscribe -np 2 ./rma_scorep
    run shm_gat gather oshrun --oversubscribe -np 2 ./rma_scorep
    same_profiles shm_par shm_gat "SHMEM 2 PEs"
else
    skip_part oshrun
fi
check_profiles
echo "$checks checks passed"
