#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_shmem.sh: the OpenSHMEM adapter (issue #11) with real oshrun: test/shmem/shmem_rma.c
# linked with `scorep-cc oshcc` (2 and 4 PEs) and the plain program under scorep-run (3 PEs);
# test/shmem/shmem_mpi.c (MPI and SHMEM) at link time and under scorep-run --mpi (2 ranks).
# Checks the exact RMA events, bytes, collectives, locks per PE in the OTF2 trace (read with
# otf2-print, definitions without warnings, no message events: test/tools/trace_messages),
# the profile's bytes_put / bytes_get per call path and PE, and that the wrapper table covers
# every function shmem.h declares. Skipped (77) when the SHMEM adapter was not built.
. "$top_srcdir/test/integration/lib.sh"

PLAIN="$top_builddir/test/shmem/shmem_rma"
MESSAGES="$top_builddir/test/tools/trace_messages"
[ -x "$PLAIN" ] && [ -e "$top_builddir/.libs/libscorep-rt-shmem.so" ] ||
    { echo "SKIP: the SHMEM adapter was not built"; exit 77; }
command -v oshrun >/dev/null 2>&1 || { echo "SKIP: no oshrun"; exit 77; }
# oshmem segfaults in shmem_finalize without this (reference/environment.md)
export OMPI_MCA_osc='^rdma' OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# the table against the installed headers, and one exported wrapper per row
gen="$top_srcdir/build-aux/gen-shmem-wrappers"
spec="$top_srcdir/src/adapters/shmem/shmem_functions.spec"
expect_eq "$(python3 "$gen" --check-header "$spec" oshcc 2>&1)" \
    "917 declared, 916 wrapped, 1 skipped" "every function of shmem.h wrapped but shmem_broadcast"
run_to shmem.nm nm -D --defined-only "$top_builddir/.libs/libscorep-rt-shmem.so"
expect_eq "$(awk '$2 == "T" && $3 !~ /^scorep_/' shmem.nm | wc -l)" 916 "916 wrappers exported"

# oshrun_np N EXPDIR COMMAND...: a traced run; the exit status is left in $status
oshrun_np()
{
    _np=$1
    _exp=$2
    shift 2
    status=0
    env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$work/$_exp" \
        SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
        timeout 300 oshrun --oversubscribe -np "$_np" "$@" >"$_exp.out" 2>"$_exp.err" ||
        status=$?
}

events()
{
    count_lines "^$2 " "$(trace_file "$1")"
}

# unpaired_ops TRACE: RMA operations (location, matching id) not issued exactly once and
# completed exactly once on their location
unpaired_ops()
{
    awk '/^RMA_(PUT|GET|ATOMIC|OP_COMPLETE_BLOCKING|OP_COMPLETE_NON_BLOCKING) / {
            m = $0; sub(/.*Matching: /, "", m); sub(/[^0-9].*/, "", m); k = $2 ":" m
            if ($1 ~ /^RMA_OP_COMPLETE/) done[k]++; else op[k]++
        }
        END { bad = 0; for (k in op) bad += op[k] != 1 || done[k] != 1
              for (k in done) bad += !(k in op); print bad }' "$1"
}

# check EXPDIR NP HOW PREFIX: the numbers shmem_rma.c gives with NP PEs; PREFIX: "main/"
# with compiler instrumentation, "" without
check()
{
    x=$work/$1
    n=$2
    w="$3 ($n PEs)"
    p=$4
    expect_eq "$status" 0 "$w: runs"
    expect_grep "shmem_rma: $n PEs ok" "$1.out" "$w: the program's own check"
    expect_defs_clean "$x" "$w"
    # trace_messages --match refuses a trace without messages (exit 1), saying so
    expect_eq "$("$MESSAGES" --match "$x/traces.otf2" 2>&1; echo "exit $?")" \
        "trace_messages: the trace holds no message
sends=0 receives=0 matched=0 unmatched=0 mismatched_size=0 probes=0 late=0
exit 1" "$w: no MPI messages (SHMEM transfers are RMA operations)"
    t=$(trace_file "$x")
    expect_eq "$(trace_check_order "$x")" 0 "$w: timestamps increase per location"
    expect_eq "$(trace_check_nesting "$x")" 0 "$w: regions nest"
    expect_eq "$(unpaired_ops "$t")" 0 "$w: each RMA operation completed exactly once"
    # per PE: 4 puts (long_put, int_p, putmem_nbi, long_p), 3 gets, 3 atomics
    expect_eq "$(events "$x" RMA_PUT)" $((4 * n)) "$w: puts"
    expect_eq "$(events "$x" RMA_GET)" $((3 * n)) "$w: gets"
    expect_eq "$(events "$x" RMA_ATOMIC)" $((3 * n)) "$w: atomics"
    expect_eq "$(events "$x" RMA_OP_COMPLETE_BLOCKING)" $((8 * n)) "$w: blocking completions"
    expect_eq "$(events "$x" RMA_OP_COMPLETE_NON_BLOCKING)" $((2 * n)) "$w: nbi completed at quiet"
    expect_eq "$(events "$x" RMA_WIN_CREATE)" "$n" "$w: the heap's window per PE"
    expect_eq "$(events "$x" RMA_WIN_DESTROY)" "$n" "$w: window destroyed at finalize"
    expect_eq "$(events "$x" RMA_ACQUIRE_LOCK)" "$n" "$w: locks acquired"
    expect_eq "$(events "$x" RMA_RELEASE_LOCK)" "$n" "$w: locks released"
    for r in $(seq 0 $((n - 1))); do
        right=$(((r + 1) % n))
        left=$(((r + n - 1) % n))
        for b in 64 4 100 8; do
            tgt=$right
            [ "$b" != 8 ] || tgt=0
            expect_eq "$(count_lines "^RMA_PUT +$r .*Remote: $tgt .*Bytes: $b, " "$t")" 1 \
                "$w: PE $r puts $b bytes to PE $tgt"
        done
        for b in 128 8 48; do
            expect_eq "$(count_lines "^RMA_GET +$r .*Remote: $left .*Bytes: $b, " "$t")" 1 \
                "$w: PE $r gets $b bytes from PE $left"
        done
        expect_eq "$(count_lines "^RMA_ATOMIC +$r .*Remote: 0 .*Type: FETCH_AND_ADD, Sent: 8, Received: 8," "$t")" 1 \
            "$w: PE $r fetch-add on PE 0"
        expect_eq "$(count_lines "^RMA_ATOMIC +$r .*Type: COMPARE_AND_SWAP, Sent: 16, Received: 8," "$t")" 1 \
            "$w: PE $r compare-swap"
    done
    # collectives per PE: 8 barriers (7 barrier_all, sync_all), broadcast, fcollect, sum,
    # alltoall, malloc, free; the even PEs' barrier on their active set
    evens=$(((n + 1) / 2))
    expect_eq "$(events "$x" RMA_COLLECTIVE_BEGIN)" $((14 * n + evens)) "$w: collectives begun"
    expect_eq "$(events "$x" RMA_COLLECTIVE_END)" $((14 * n + evens)) "$w: collectives ended"
    c() { count_lines "^RMA_COLLECTIVE_END .*Operation: $1, Window: \"$2\".*$3" "$t"; }
    expect_eq "$(c BARRIER "SHMEM symmetric heap" "")" $((8 * n)) "$w: barriers of all PEs"
    expect_eq "$(c BARRIER "SHMEM active set" "")" "$evens" "$w: barrier of the active set"
    expect_eq "$(c BCAST "SHMEM symmetric heap" "Root: 0 .*Sent: 32, Received: 32")" "$n" \
        "$w: broadcast"
    expect_eq "$(c ALLGATHER "SHMEM symmetric heap" "Sent: 16, Received: $((16 * n))")" "$n" \
        "$w: fcollect"
    expect_eq "$(c ALLREDUCE "SHMEM symmetric heap" "Sent: 24, Received: 24")" "$n" "$w: sum"
    expect_eq "$(c ALLTOALL "SHMEM symmetric heap" "Sent: $((8 * n)), Received: $((8 * n))")" \
        "$n" "$w: alltoall"
    expect_eq "$(c ALLOCATE "SHMEM symmetric heap" "")" "$n" "$w: shmem_malloc"
    expect_eq "$(c DEALLOCATE "SHMEM symmetric heap" "")" "$n" "$w: shmem_free"
    trace_defs "$x" >"$1.defs"
    if [ "$evens" = 1 ]; then
        set_members='1 Member: 0 \('
    else
        set_members="$evens Members: 0 \\(.*\\), 2 \\("
    fi
    expect_grep "^GROUP .*COMM_GROUP.* $set_members" "$1.defs" "$w: the active set {0, 2, ...}"
    expect_grep '^RMA_WIN .*"SHMEM active set".*Communicator: "SHMEM active set"' "$1.defs" \
        "$w: the active set's window"
    # profile: bytes per call path and PE
    for r in $(seq 0 $((n - 1))); do
        expect_eq "$(profile_sum "$x" ${p}shmem_long_put bytes_put "$r")" 64 "$w: PE $r long_put"
        expect_eq "$(profile_sum "$x" ${p}shmem_putmem_nbi bytes_put "$r")" 100 "$w: PE $r putmem_nbi"
        expect_eq "$(profile_sum "$x" ${p}shmem_long_get bytes_get "$r")" 128 "$w: PE $r long_get"
        expect_eq "$(profile_sum "$x" ${p}shmem_getmem_nbi bytes_get "$r")" 48 "$w: PE $r getmem_nbi"
        expect_eq "$(profile_sum "$x" ${p}shmem_long_atomic_compare_swap bytes_put "$r")" 16 \
            "$w: PE $r compare-swap operands"
    done
    expect_eq "$(profile_sum "$x" ${p}shmem_int_p bytes_put)" $((4 * n)) "$w: int_p, all PEs"
    expect_eq "$(profile_sum "$x" ${p}shmem_long_g bytes_get)" $((8 * n)) "$w: long_g, all PEs"
    expect_eq "$(profile_sum "$x" ${p}shmem_barrier_all visits)" $((7 * n)) "$w: barrier_all visits"
    expect_eq "$(profile_locations "$x")" "$n" "$w: one location per PE in the system tree"
}

# link time: scorep-cc oshcc; the 4-PE run also has 1500 user regions per PE, so that the
# definitions sent through the SHMEM ipc backend span many 16 KiB mailbox chunks
"$SCOREP_CC" oshcc -o rma_scorep "$top_srcdir/test/shmem/shmem_rma.c" >cc.out 2>&1 ||
    fail "scorep-cc oshcc: $(cat cc.out)"
"$SCOREP_CC" --user oshcc -DMANY_REGIONS -o rma_regions "$top_srcdir/test/shmem/shmem_rma.c" \
    >cc.out 2>&1 || fail "scorep-cc --user oshcc: $(cat cc.out)"
oshrun_np 2 link2 ./rma_scorep
check link2 2 "link time" main/
oshrun_np 4 link4 ./rma_regions
check link4 4 "link time" main/
expect_eq "$(profile_paths "$work/link4" | grep -c '^main/many_regions/pe[0-3]_user_region_with_a_long_name_[0-9]*$')" \
    6000 "link time (4 PEs): 1500 user regions of each PE unified"
expect_eq "$(profile_sum "$work/link4" main/many_regions/pe3_user_region_with_a_long_name_1499 visits 3)" 1 \
    "link time (4 PEs): PE 3's last user region on PE 3"

# preload: the plain program under scorep-run
oshrun_np 3 preload "$top_builddir/scorep-run" "$PLAIN"
check preload 3 "scorep-run" ""

# the system tree over the SHMEM ipc backend: 4 PEs on 2 "nodes" (SCOREP_NODE_NAME), with
# sequence definitions and with the plain method (split, exchange, broadcast, maximum of
# src/ipc/systree_comm_ipc.c)
cat >onnode <<'SH'
#!/bin/sh
SCOREP_NODE_NAME=$(printf 'node%04d' $((OMPI_COMM_WORLD_RANK / 2 + 1))) exec "$@"
SH
chmod +x onnode
for seq in true false; do
    oshrun_np 4 nodes_$seq env SCOREP_MACHINE_NAME=testbox \
        SCOREP_ENABLE_SYSTEM_TREE_SEQUENCE_DEFINITIONS=$seq ./onnode ./rma_scorep
    expect_eq "$status" 0 "2 nodes, sequence definitions $seq: runs"
    expect_eq "$("$CUBE_DUMP" --system "$work/nodes_$seq/profile.cubex" | cut -f2- | sort | tr '\t\n' '|;')" \
        "testbox/node0001|MPI Rank 0|Master thread|0;testbox/node0001|MPI Rank 1|Master thread|1;testbox/node0002|MPI Rank 2|Master thread|2;testbox/node0002|MPI Rank 3|Master thread|3;" \
        "2 nodes, sequence definitions $seq: Cube system tree"
    expect_defs_clean "$work/nodes_$seq" "2 nodes, sequence definitions $seq"
    expect_eq "$(trace_defs "$work/nodes_$seq" | grep -c '^SYSTEM_TREE_NODE')" 3 \
        "2 nodes, sequence definitions $seq: OTF2 machine + 2 nodes"
done

# threads (SHMEM_THREAD_MULTIPLE), 2 PEs: threads 1 and 2 of each PE put 1 and 2 times
# blocking and once non-blocking; the completions are recorded on the issuing thread (thread
# locations are numbered in the order the threads start measuring: counts, not ids)
"$SCOREP_CC" oshcc -o threads_scorep "$top_srcdir/test/shmem/shmem_threads.c" -lpthread \
    >cc.out 2>&1 || fail "scorep-cc oshcc (threads): $(cat cc.out)"
oshrun_np 2 threads ./threads_scorep
if grep -q "not provided" threads.out; then
    # whether oshmem provides SHMEM_THREAD_MULTIPLE is asked of the same program without
    # the measurement, so that the adapter cannot hide its own failure behind this skip
    oshcc -o threads_plain "$top_srcdir/test/shmem/shmem_threads.c" -lpthread >cc.out 2>&1 ||
        fail "oshcc (threads): $(cat cc.out)"
    oshrun_np 2 threads_plain ./threads_plain
    expect_grep "not provided" threads_plain.out \
        "threads: SHMEM_THREAD_MULTIPLE is missing without the measurement too"
    skip_part_here "SHMEM threads" "oshmem does not provide SHMEM_THREAD_MULTIPLE here"
else
    expect_eq "$status" 0 "threads: runs"
    expect_grep "shmem_threads: 2 PEs ok" threads.out "threads: the program's own check"
    t=$(trace_file "$work/threads")
    per_loc() { awk -v ty="$1" '$1 == ty { n[$2]++ } END { for (l in n) print l, n[l] }' "$t" | sort -n; }
    # masters: ids 0 and 1 (their PEs); threads above
    expect_eq "$(per_loc RMA_PUT | awk '$1 >= 2 { print $2 }' | sort -n | tr '\n' ' ')" "2 2 3 3 " \
        "threads: puts per thread location (1 + 1 and 2 + 1 per PE)"
    expect_eq "$(per_loc RMA_PUT | awk '$1 < 2' | wc -l)" 0 "threads: no puts on the master threads"
    # (the threads' ids local << 32 | PE: locals 1 and 2 of PEs 0 and 1)
    expect_eq "$(per_loc RMA_OP_COMPLETE_NON_BLOCKING | tr '\n' ' ')" \
        "$(loc_id 0 1) 1 $(loc_id 1 1) 1 $(loc_id 0 2) 1 $(loc_id 1 2) 1 " \
        "threads: each nbi put completed on its thread (at its quiet)"
    expect_eq "$(unpaired_ops "$t")" 0 "threads: each RMA operation completed exactly once"
    expect_eq "$(trace_check_nesting "$work/threads")" 0 "threads: regions nest"
    expect_eq "$(profile_locations "$work/threads")" 6 "threads: 3 locations per PE"
fi

# MPI and SHMEM in one program: measured over MPI (MPI_Init installs the MPI backend),
# written in shmem_finalize (which ends MPI in Open MPI 4.1); link time and scorep-run --mpi
mixed()
{
    x=$work/$1
    w=$2
    expect_eq "$status" 0 "$w: runs"
    expect_grep "shmem_mpi: 2 ranks ok" "$1.out" "$w: the program's own check"
    expect_defs_clean "$x" "$w"
    expect_eq "$("$MESSAGES" --match "$x/traces.otf2" 2>&1)" \
        "sends=2 receives=2 matched=2 unmatched=0 mismatched_size=0 probes=0 late=0" "$w: MPI messages"
    expect_eq "$(events "$x" RMA_PUT)" 2 "$w: SHMEM puts"
    expect_eq "$(count_lines '^RMA_PUT .*Window: "SHMEM symmetric heap".* Bytes: 32, ' "$(trace_file "$x")")" 2 \
        "$w: 32 bytes each on the heap's window"
    expect_eq "$(events "$x" RMA_COLLECTIVE_END)" 2 "$w: barrier_all"
    expect_eq "$(profile_sum "$x" "${3}shmem_long_put" bytes_put 1)" 32 "$w: bytes_put of PE 1"
    expect_eq "$(profile_locations "$x")" 2 "$w: two locations"
}
"$SCOREP_CC" oshcc -o mixed_scorep "$top_srcdir/test/shmem/shmem_mpi.c" -lscorep-rt-mpi \
    >cc.out 2>&1 || fail "scorep-cc oshcc -lscorep-rt-mpi: $(cat cc.out)"
oshcc -o mixed_plain "$top_srcdir/test/shmem/shmem_mpi.c" >cc.out 2>&1 || fail "oshcc: $(cat cc.out)"
oshrun_np 2 mixed_link ./mixed_scorep
mixed mixed_link "MPI+SHMEM, link time" main/
oshrun_np 2 mixed_pre "$top_builddir/scorep-run" --mpi ./mixed_plain
mixed mixed_pre "MPI+SHMEM, scorep-run --mpi" ""

done_ok
