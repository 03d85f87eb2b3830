#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_substrate_mpp.sh: the one-sided (RMA_*), non-blocking collective
# (MPI_NON_BLOCKING_COLLECTIVE_*) and communicator (COMM_CREATE/_DESTROY) events of substrate
# plugins, with a plugin built here from Score-P's public headers only
# (test/plugins/substrate_mpp.c: counts per type, every event logged with its arguments,
# handles checked against new_definition_handle). Real runs: test/mpi/rma.c under mpirun
# with 3 ranks, test/mpi/rma_remote.c (remote completions) with 2, test/programs/substrate_nbc.c
# with 3 ranks, test/shmem/shmem_rma.c and shmem_waits.c (RMA_TRY_LOCK, RMA_WAIT_CHANGE) under
# oshrun with 2 PEs, all traced: the counts per rank are those of the programs' design, and
# each rank's events (timestamps, ranks, bytes, matching ids, lock ids, operation, atomic
# and sync types, roots, levels, request ids) are exactly the trace's records (otf2-print).
. "$top_srcdir/test/integration/lib.sh"
require_mpi_programs rma
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export SCOREP_RUN_LIBDIR="$top_builddir/.libs" # scorep-run: this build's runtime
[ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: the MPI adapter was not built"; exit 77; }

mkdir plug
cc -shared -fPIC -O1 -Wall -Wextra -Werror -I"$top_srcdir/include" -o plug/libscorep_substrate_mpp.so \
    "$top_srcdir/test/plugins/substrate_mpp.c" -lpthread || fail "build of the test plugin"
export LD_LIBRARY_PATH="$work/plug${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# trace_log EXPDIR LOCATION: the location's RMA, non-blocking collective and communicator
# records in the plugin's log format, with Score-P's numbers for OTF2's names; handles
# (window, group, communicator) left out: the trace's are unified, the plugin's process-local
trace_log()
{
    awk -v loc="$2" '$2 == loc && $1 ~ /^(RMA_|NON_BLOCKING_COLLECTIVE_|COMM_(CREATE|DESTROY))/' \
        "$(trace_file "$1")" | python3 -c '
import re, sys
ops = {"BARRIER": 0, "BCAST": 1, "GATHER": 2, "GATHERV": 3, "SCATTER": 4, "SCATTERV": 5,
       "ALLGATHER": 6, "ALLGATHERV": 7, "ALLTOALL": 8, "ALLTOALLV": 9, "ALLTOALLW": 10,
       "ALLREDUCE": 11, "REDUCE": 12, "REDUCE_SCATTER": 13, "REDUCE_SCATTER_BLOCK": 14,
       "SCAN": 15, "EXSCAN": 16, "CREATE_HANDLE": 17, "DESTROY_HANDLE": 18, "ALLOCATE": 19,
       "DEALLOCATE": 20, "CREATE_HANDLE_AND_ALLOCATE": 21, "DESTROY_HANDLE_AND_DEALLOCATE": 22}
# SCOREP_RmaAtomicType: ADD (7) comes before FETCH_AND_ACCUMULATE (8)
atomics = {"ACCUMULATE": 0, "INCREMENT": 1, "TEST_AND_SET": 2, "COMPARE_AND_SWAP": 3, "SWAP": 4,
           "FETCH_AND_ADD": 5, "FETCH_AND_INCREMENT": 6, "FETCH_AND_ACCUMULATE": 8}
locks = {"EXCLUSIVE": 0, "SHARED": 1}
syncs = {"MEMORY": 0, "NOTIFY_IN": 1, "NOTIFY_OUT": 2}
def level(v):
    return str(("PROCESS" in v) * 1 + ("MEMORY" in v) * 2)
def rank(v):
    return "-1" if v in ("UNDEFINED", "NONE") else v.split()[0]
for line in sys.stdin:
    name, _, t, rest = (line.rstrip("\n").split(None, 3) + [""])[:4]
    f = dict(re.findall(r"([A-Z][A-Za-z ]*): (\{[^}]*\}|\"[^\"]*\" <\d+>|[^,]+)", rest))
    if name.startswith("NON_BLOCKING"):
        name = "MPI_" + name
    a = []
    if name == "RMA_COLLECTIVE_END":
        a = ["op=%d" % ops[f["Operation"]], "level=" + level(f["Level of Synchronicity"]),
             "root=" + rank(f["Root"]), "sent=" + f["Sent"], "received=" + f["Received"]]
    elif name in ("RMA_REQUEST_LOCK", "RMA_ACQUIRE_LOCK", "RMA_TRY_LOCK"):
        a = ["remote=" + rank(f["Remote"]), "lock=" + f["Lock"], "type=%d" % locks[f["Type"]]]
    elif name == "RMA_RELEASE_LOCK":
        a = ["remote=" + rank(f["Remote"]), "lock=" + f["Lock"]]
    elif name == "RMA_SYNC":
        a = ["remote=" + rank(f["Remote"]), "type=%d" % syncs[f["Sync Type"]]]
    elif name == "RMA_GROUP_SYNC":
        a = ["level=" + level(f["Level of Synchronicity"])]
    elif name in ("RMA_PUT", "RMA_GET"):
        a = ["remote=" + rank(f["Remote"]), "bytes=" + f["Bytes"], "id=" + f["Matching"]]
    elif name == "RMA_ATOMIC":
        a = ["remote=" + rank(f["Remote"]), "type=%d" % atomics[f["Type"]], "sent=" + f["Sent"],
             "received=" + f["Received"], "id=" + f["Matching"]]
    elif name.startswith("RMA_OP_"):
        a = ["id=" + f["Matching"]]
    elif name == "MPI_NON_BLOCKING_COLLECTIVE_REQUEST":
        a = ["request=" + f["Request"]]
    elif name == "MPI_NON_BLOCKING_COLLECTIVE_COMPLETE":
        a = ["root=" + rank(f["Root"]), "op=%d" % ops[f["Operation"]], "sent=" + f["Sent"],
             "received=" + f["Received"], "request=" + f["Request"]]
    print(" ".join([name, t] + a))
'
}

# plugin_log FILE: the plugin's log without handles, and without the level of
# RMA_COLLECTIVE_BEGIN (OTF2's record has none; checked on its own), and without the CPU
# location (de)activations (no trace records)
plugin_log()
{
    sed -n '/^log \(ACTIVATE\|DEACTIVATE\) /d; s/^log //p' "$1" | sed -E 's/ (win|group|comm)=[0-9]+//g; s/^(RMA_COLLECTIVE_BEGIN [0-9]+) level=[0-9]+$/\1/'
}

# counts FILE: "NAME n" of the event types with events
counts()
{
    awk '$1 == "count" && $3 != 0 { printf "%s %s;", $2, $3 }' "$1"
}

# ---- MPI one-sided: rma.c with 3 ranks. Per rank (test_mpi_programs.sh gives the totals):
# 2 windows (MPI_Win_create, MPI_Win_allocate) created and freed; 7 window collectives (2
# creations, 3 fences, 2 frees); locks requested and released 4 times (lock, lock_all, lock
# shared, lock_all); 1 Win_sync; 4 group syncs (post, start, complete, wait/test); 4 puts,
# 3 gets, 6 atomics (accumulate, fetch_and_op, raccumulate, rget_accumulate, get_accumulate,
# compare_and_swap), 13 local completions (RmaOpCompleteNonBlocking: Score-P records no
# blocking one for MPI; every synchronisation in rma.c separates the operations without a
# request, so each has its own matching id), 10 remote completions: the 4 request-based ones
# (MPI_Rput, MPI_Raccumulate at their flush, MPI_Rget with its request, MPI_Rget_accumulate
# at MPI_Win_unlock_all) and, as Score-P, the fence's MPI_Get, the MPI_Put at MPI_Win_unlock,
# the MPI_Get at MPI_Win_flush, MPI_Fetch_and_op at MPI_Win_flush_all, MPI_Get_accumulate and
# MPI_Compare_and_swap at MPI_Win_unlock_all (after MPI_Win_flush_local_all's local ones)
rc=0
SCOREP_EXPERIMENT_DIRECTORY=rma SCOREP_ENABLE_TRACING=true SCOREP_SUBSTRATE_PLUGINS=mpp \
    SUBSTRATE_MPP_OUT="$work/rma.mpp" timeout 120 mpirun -np 3 "$top_builddir/scorep-run" "$T/rma" \
    >rma.out 2>rma.err || rc=$?
expect_eq "$rc" 0 "rma: 3 ranks under scorep-run (rma.err: $(tail -n 3 rma.err))"
expect_no_grep 'scorep-rt' rma.err "rma: no message of the runtime"
for r in 0 1 2; do
    f=rma.mpp.$r
    expect_file "$f" "rma: rank $r's plugin output"
    expect_eq "$(counts "$f")" \
        "RMA_WIN_CREATE 2;RMA_WIN_DESTROY 2;RMA_COLLECTIVE_BEGIN 7;RMA_COLLECTIVE_END 7;RMA_REQUEST_LOCK 4;RMA_RELEASE_LOCK 4;RMA_SYNC 1;RMA_GROUP_SYNC 4;RMA_PUT 4;RMA_GET 3;RMA_ATOMIC 6;RMA_OP_COMPLETE_NON_BLOCKING 13;RMA_OP_COMPLETE_REMOTE 10;" \
        "rma: rank $r's events per type from the program's design"
    expect_eq "$(sed -n 's/^unannounced //p;s/^backwards //p' "$f" | tr '\n' ' ')" "0 0 " \
        "rma: rank $r: every window and group announced before its events; timestamps in order"
    expect_eq "$(sed -n 's/^announced windows \([0-9]*\) .* twice \([0-9]*\)$/\1 \2/p' "$f")" "2 0" \
        "rma: rank $r: its 2 windows announced once each"
    trace_log rma "$r" >rma.trace.$r
    plugin_log "$f" >rma.plugin.$r
    expect_eq "$(wc -l <rma.plugin.$r | tr -d ' ')" 67 "rma: rank $r: 67 events logged (the counts above)"
    expect_eq "$(cat rma.plugin.$r)" "$(cat rma.trace.$r)" \
        "rma: rank $r's events, timestamps and arguments as the trace's records"
    # the begin of a collective carries the level of its end (fences: process and memory)
    expect_eq "$(awk '$1 != "log" { next } $2 == "RMA_COLLECTIVE_BEGIN" { b = $4 } $2 == "RMA_COLLECTIVE_END" { print b, $5 }' "$f" | tr '\n' ';')" \
        "level=1 level=1;level=3 level=3;level=3 level=3;level=3 level=3;level=1 level=1;level=1 level=1;level=1 level=1;" \
        "rma: rank $r: each window collective's level at its begin as at its end"
done
# rank 0 of 3: puts to its right neighbour (1), gets from the left one (2), the accumulate
# on rank 0 (type 0) and compare_and_swap (3) on itself, fetch_and_op and get_accumulate as
# FETCH_AND_ACCUMULATE (Score-P's 8)
expect_eq "$(awk '$1 != "log" { next } $2 == "RMA_PUT" || $2 == "RMA_GET" { print $2, $5, $6 } $2 == "RMA_ATOMIC" { print $2, $5, $6 }' rma.mpp.0 | tr '\n' ';')" \
    "RMA_PUT remote=1 bytes=4;RMA_GET remote=2 bytes=4;RMA_ATOMIC remote=0 type=0;RMA_PUT remote=1 bytes=4;RMA_GET remote=1 bytes=4;RMA_ATOMIC remote=0 type=8;RMA_PUT remote=1 bytes=4;RMA_PUT remote=1 bytes=4;RMA_ATOMIC remote=1 type=0;RMA_GET remote=1 bytes=4;RMA_ATOMIC remote=1 type=8;RMA_ATOMIC remote=1 type=8;RMA_ATOMIC remote=0 type=3;" \
    "rma: rank 0's transfers: targets, bytes and atomic types from the program's design"

# profiling only (no trace records to take the time from): the same events, timestamps of
# their own still in order with the enters and exits
rc=0
SCOREP_EXPERIMENT_DIRECTORY=rmap SCOREP_SUBSTRATE_PLUGINS=mpp SUBSTRATE_MPP_OUT="$work/rmap.mpp" \
    timeout 120 mpirun -np 3 "$top_builddir/scorep-run" "$T/rma" >rmap.out 2>rmap.err || rc=$?
expect_eq "$rc" 0 "rma profiling: 3 ranks under scorep-run (rmap.err: $(tail -n 3 rmap.err))"
for r in 0 1 2; do
    expect_eq "$(counts rmap.mpp.$r)" "$(counts rma.mpp.$r)" "rma profiling: rank $r's events per type as when tracing"
    expect_eq "$(sed -n 's/^unannounced //p;s/^backwards //p' rmap.mpp.$r | tr '\n' ' ')" "0 0 " \
        "rma profiling: rank $r: handles announced; timestamps in order"
    expect_eq "$(plugin_log rmap.mpp.$r | cut -d' ' -f1,3- | md5sum)" "$(plugin_log rma.mpp.$r | cut -d' ' -f1,3- | md5sum)" \
        "rma profiling: rank $r's events and arguments (timestamps aside) as when tracing"
done

# ---- request-based RMA completions: rma_remote.c (test_mpi_rma_remote.sh gives its design)
# with 2 ranks; per rank 1 window, 3 Rput + 1 Rget, each completed locally and remotely once,
# and case E: 3 MPI_Put sharing one matching id and 1 MPI_Get, each id completed locally and
# remotely once (Score-P's implicit requests)
mpicc -O1 -o rma_remote "$top_srcdir/test/mpi/rma_remote.c" || fail "mpicc rma_remote.c"
rc=0
SCOREP_EXPERIMENT_DIRECTORY=rrem SCOREP_ENABLE_TRACING=true SCOREP_SUBSTRATE_PLUGINS=mpp \
    SUBSTRATE_MPP_OUT="$work/rrem.mpp" timeout 120 mpirun -np 2 "$top_builddir/scorep-run" ./rma_remote \
    >rrem.out 2>rrem.err || rc=$?
expect_eq "$rc $(cat rrem.out)" "0 rma_remote: 2 ranks ok" "rma_remote: 2 ranks under scorep-run (rrem.err: $(tail -n 3 rrem.err))"
for r in 0 1; do
    f=rrem.mpp.$r
    expect_eq "$(counts "$f")" \
        "RMA_WIN_CREATE 1;RMA_WIN_DESTROY 1;RMA_COLLECTIVE_BEGIN 2;RMA_COLLECTIVE_END 2;RMA_REQUEST_LOCK 1;RMA_RELEASE_LOCK 1;RMA_PUT 6;RMA_GET 2;RMA_OP_COMPLETE_NON_BLOCKING 6;RMA_OP_COMPLETE_REMOTE 6;" \
        "rma_remote: rank $r's events per type from the program's design"
    trace_log rrem "$r" >rrem.trace.$r
    plugin_log "$f" >rrem.plugin.$r
    expect_eq "$(cat rrem.plugin.$r)" "$(cat rrem.trace.$r)" \
        "rma_remote: rank $r's events, timestamps and arguments as the trace's records"
done

# ---- non-blocking collectives and communicators: substrate_nbc.c with 3 ranks; per rank 2
# communicators created (dup, split) and freed (split first), 3 non-blocking collectives:
# Ibarrier on the dup, Iallreduce and Ibcast (root 1) on MPI_COMM_WORLD
mpicc -O1 -o nbcprog "$PROGRAMS/substrate_nbc.c" || fail "mpicc substrate_nbc.c"
rc=0
SCOREP_EXPERIMENT_DIRECTORY=nbc SCOREP_ENABLE_TRACING=true SCOREP_SUBSTRATE_PLUGINS=mpp \
    SUBSTRATE_MPP_OUT="$work/nbc.mpp" timeout 120 mpirun -np 3 "$top_builddir/scorep-run" ./nbcprog \
    >nbc.out 2>nbc.err || rc=$?
expect_eq "$rc" 0 "nbc: 3 ranks under scorep-run (nbc.err: $(tail -n 3 nbc.err))"
expect_eq "$(cat nbc.out)" "sum 6 bcast 16" "nbc: program output"
for r in 0 1 2; do
    f=nbc.mpp.$r
    expect_eq "$(counts "$f")" \
        "MPI_NON_BLOCKING_COLLECTIVE_REQUEST 3;MPI_NON_BLOCKING_COLLECTIVE_COMPLETE 3;COMM_CREATE 2;COMM_DESTROY 2;" \
        "nbc: rank $r's events per type from the program's design"
    expect_eq "$(sed -n 's/^unannounced //p;s/^backwards //p' "$f" | tr '\n' ' ')" "0 0 " \
        "nbc: rank $r: every communicator announced before its events; timestamps in order"
    # the dup's handle (first COMM_CREATE) is the Ibarrier's and the last destroyed; the
    # split's (second) the first destroyed
    expect_eq "$(awk '$1 != "log" { next } $2 == "COMM_CREATE" { c[++n] = $4 } $2 == "COMM_DESTROY" { d = d " " $4 }
            $2 == "MPI_NON_BLOCKING_COLLECTIVE_COMPLETE" && $6 == "op=0" { b = $4 }
            END { print (b == c[1]), (d == " " c[2] " " c[1]) }' "$f")" "1 1" \
        "nbc: rank $r: the barrier on the dup; the split freed first, then the dup"
    expect_eq "$(awk '$1 == "log" && $2 ~ /^MPI_NON_BLOCKING_COLLECTIVE/ { print $2 == "MPI_NON_BLOCKING_COLLECTIVE_REQUEST" ? $4 : $5 " " $6 " " $9 }' "$f" | tr '\n' ';')" \
        "request=1;root=-1 op=0 request=1;request=2;root=-1 op=11 request=2;request=3;root=1 op=1 request=3;" \
        "nbc: rank $r: request, then completion: barrier, allreduce, broadcast from rank 1"
    trace_log nbc "$r" >nbc.trace.$r
    plugin_log "$f" >nbc.plugin.$r
    expect_eq "$(cat nbc.plugin.$r)" "$(cat nbc.trace.$r)" \
        "nbc: rank $r's events, timestamps and arguments as the trace's records"
done

# ---- SHMEM: shmem_rma.c (test_shmem.sh gives its design) with 2 PEs; per PE 4 puts, 3 gets,
# 3 atomics, 8 blocking and 2 non-blocking completions, the heap's window created and
# destroyed, 1 lock acquired and released, 14 collectives (PE 0 also the even PEs' barrier)
SHMEM_RMA="$top_builddir/test/shmem/shmem_rma"
if [ -x "$SHMEM_RMA" ] && [ -e "$top_builddir/.libs/libscorep-rt-shmem.so" ] && command -v oshrun >/dev/null 2>&1; then
    rc=0
    OMPI_MCA_osc='^rdma' SCOREP_EXPERIMENT_DIRECTORY=shm SCOREP_ENABLE_TRACING=true SCOREP_SUBSTRATE_PLUGINS=mpp \
        SUBSTRATE_MPP_OUT="$work/shm.mpp" timeout 120 oshrun --oversubscribe -np 2 \
        "$top_builddir/scorep-run" "$SHMEM_RMA" >shm.out 2>shm.err || rc=$?
    expect_eq "$rc" 0 "shmem: 2 PEs under scorep-run (shm.err: $(tail -n 3 shm.err))"
    expect_grep "shmem_rma: 2 PEs ok" shm.out "shmem: the program's own check"
    for r in 0 1; do
        f=shm.mpp.$r
        c=$((14 + (r == 0)))
        expect_eq "$(counts "$f")" \
            "RMA_WIN_CREATE 1;RMA_WIN_DESTROY 1;RMA_COLLECTIVE_BEGIN $c;RMA_COLLECTIVE_END $c;RMA_ACQUIRE_LOCK 1;RMA_RELEASE_LOCK 1;RMA_PUT 4;RMA_GET 3;RMA_ATOMIC 3;RMA_OP_COMPLETE_BLOCKING 8;RMA_OP_COMPLETE_NON_BLOCKING 2;" \
            "shmem: PE $r's events per type from the program's design"
        expect_eq "$(sed -n 's/^unannounced //p;s/^backwards //p' "$f" | tr '\n' ' ')" "0 0 " \
            "shmem: PE $r: every window announced before its events; timestamps in order"
        trace_log shm "$r" >shm.trace.$r
        plugin_log "$f" >shm.plugin.$r
        expect_eq "$(cat shm.plugin.$r)" "$(cat shm.trace.$r)" \
            "shmem: PE $r's events, timestamps and arguments as the trace's records"
        expect_eq "$(awk '$1 == "log" && $2 == "RMA_COLLECTIVE_BEGIN" { print $4 }' "$f" | sort -u)" "level=3" \
            "shmem: PE $r: collectives begin with Score-P's level (process and memory)"
    done
    # a contended lock and waits: shmem_waits.c (test_shmem_waits.sh gives its design)
    "$SCOREP_CC" oshcc -o waits "$top_srcdir/test/shmem/shmem_waits.c" >cc.out 2>&1 ||
        fail "scorep-cc oshcc: $(cat cc.out)"
    rc=0
    OMPI_MCA_osc='^rdma' SCOREP_EXPERIMENT_DIRECTORY=shw SCOREP_ENABLE_TRACING=true SCOREP_SUBSTRATE_PLUGINS=mpp \
        SUBSTRATE_MPP_OUT="$work/shw.mpp" timeout 120 oshrun --oversubscribe -np 2 ./waits >shw.out 2>shw.err ||
        rc=$?
    expect_eq "$rc $(cat shw.out)" "0 shmem_waits: ok" "shmem_waits: 2 PEs (shw.err: $(tail -n 3 shw.err))"
    expect_eq "$(counts shw.mpp.0)" \
        "RMA_WIN_CREATE 1;RMA_WIN_DESTROY 1;RMA_COLLECTIVE_BEGIN 2;RMA_COLLECTIVE_END 2;RMA_TRY_LOCK 5;RMA_ACQUIRE_LOCK 1;RMA_REQUEST_LOCK 1;RMA_RELEASE_LOCK 2;RMA_PUT 1;RMA_WAIT_CHANGE 1;RMA_OP_COMPLETE_BLOCKING 1;" \
        "shmem_waits: PE 0's events per type (5 failed lock tests, 1 lock set, 1 got by a test: RmaRequestLock as Score-P, 1 wait)"
    expect_eq "$(counts shw.mpp.1)" \
        "RMA_WIN_CREATE 1;RMA_WIN_DESTROY 1;RMA_COLLECTIVE_BEGIN 2;RMA_COLLECTIVE_END 2;RMA_ACQUIRE_LOCK 1;RMA_RELEASE_LOCK 1;RMA_PUT 1;RMA_WAIT_CHANGE 1;RMA_OP_COMPLETE_BLOCKING 1;" \
        "shmem_waits: PE 1's events per type (1 wait)"
    for r in 0 1; do
        trace_log shw "$r" >shw.trace.$r
        plugin_log shw.mpp.$r >shw.plugin.$r
        expect_eq "$(cat shw.plugin.$r)" "$(cat shw.trace.$r)" \
            "shmem_waits: PE $r's events, timestamps and arguments as the trace's records"
    done
else
    skip_part "SHMEM (adapter, shmem_rma or oshrun missing)"
fi
done_ok
