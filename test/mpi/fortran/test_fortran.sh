#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_fortran.sh: the Fortran wrappers of the MPI adapter (mpi_fortran_wrappers.c): Fortran
# programs (`use mpi`, mpif.h, `use mpi_f08`) built with `scorep-cc mpif90` and, built plainly, run under
# scorep-run give the MPI events of C programs, with the same messages in both modes, and
# leave what the program observes unchanged (transparency.f90).
# Skipped (77) without the MPI adapter, mpif90, mpirun or otf2-print.
. "$top_srcdir/test/integration/lib.sh"

SRC="$top_srcdir/test/mpi/fortran"
ADAPTER="$top_builddir/.libs/libscorep-rt-mpi.so"
MESSAGES="$top_builddir/test/tools/trace_messages"
GENERATED="$top_builddir/src/adapters/mpi/mpi_fortran_wrappers.c"
[ -f "$ADAPTER" ] || { echo "SKIP: the MPI adapter was not built"; exit 77; }
[ -n "${MPIFC:-}" ] || { echo "SKIP: no mpif90 (configure found none)"; exit 77; }
command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
command -v otf2-print >/dev/null 2>&1 || { echo "SKIP: no otf2-print"; exit 77; }

# mpirun_np N NAME COMMAND...: output in NAME.out/NAME.err, exit status in $status
mpirun_np()
{
    _np=$1
    _name=$2
    shift 2
    status=0
    timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$_np" "$@" \
        >"$_name.out" 2>"$_name.err" || status=$?
    check_profiles
}

# measure NAME NP COMMAND...: runs COMMAND traced into experiment $work/NAME
measure()
{
    _name=$1
    _np=$2
    shift 2
    rm -rf "$work/$_name"
    SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$work/$_name" \
        SCOREP_RUN_LIBDIR="$top_builddir/.libs" mpirun_np "$_np" "$_name" "$@"
    expect_eq "$status" 0 "$_name runs"
    expect_file "$work/$_name/traces.otf2" "$_name wrote a trace"
    expect_defs_clean "$work/$_name" "$_name"
}

# per_rank EXP TYPE NP: the number of TYPE events of ranks 0..NP-1, separated by blanks
per_rank()
{
    _out=""
    _r=0
    while [ "$_r" -lt "$3" ]; do
        _out="$_out $(trace_count "$1" "$2" "$_r")"
        _r=$((_r + 1))
    done
    echo "${_out# }"
}

# regions EXP: "REGION COUNT" for every MPI region entered, sorted
regions()
{
    _f=$(trace_file "$1")
    awk -F'\t' '$1 == "ENTER" && $3 ~ /^MPI_/ { n[$3] += $4 } END { for (r in n) print r, n[r] }' \
        "${_f%.trace}.summary" | sort
}

# messages EXP: the message events of trace_messages without times, sorted, in a file
messages()
{
    "$MESSAGES" "$1/traces.otf2" >"$1.raw" 2>"$1.err" || fail "trace_messages $1 failed: $(cat "$1.err")"
    sed 's/ time=[0-9]*//' "$1.raw" | sort >"$1.msgs"
    echo "$1.msgs"
}

# match EXP: trace_messages --match without the clock-dependent 'late' count
match()
{
    _m=$("$MESSAGES" --match "$1/traces.otf2" 2>&1) || fail "messages of $1 do not match: $_m"
    echo "$_m" | sed 's/ late=[0-9]*//'
}

# --- the library: the Fortran names it defines are libmpi_mpifh's, it needs no Fortran library
"$MPIFC" -o ring "$SRC/ring.f90" >build.out 2>&1 || fail "$MPIFC ring.f90: $(cat build.out)"
MPIFH=$(ldd ./ring | awk '/libmpi_mpifh/ { print $3; exit }')
expect_file "$MPIFH" "a plain mpif90 program loads libmpi_mpifh"
nm -D --defined-only "$MPIFH" | awk '{ print $3 }' | sort -u >mpifh.syms
nm -D --defined-only "$ADAPTER" | awk '{ print $3 }' |
    grep -E '^(mpi_[a-z0-9_]*|MPI_[A-Z0-9_]*|MPI_[A-Za-z0-9_]*_f(08)?)$' | sort -u >all.syms
# the mpi_f08 module's names (mpi_send_f08_) are checked against libmpi_usempif08 below
grep -v -E '^mpi_[a-z0-9_]*_f08_$' all.syms >ours.syms
grep -E '^mpi_[a-z0-9_]*_f08_$' all.syms >f08.syms
nwrapped=$(grep -c '^SCOREP_F_NAMES(' "$GENERATED")
expect_ge "$nwrapped" 300 "Fortran wrappers generated"
expect_eq "$(grep -c -E '^mpi_[a-z0-9_]*[a-z0-9]_$' ours.syms)" "$nwrapped" "one mpi_xxx_ per wrapper"
expect_eq "$(grep -c -E '^MPI_[A-Z0-9_]*$' ours.syms)" "$nwrapped" "one MPI_XXX per wrapper"
expect_eq "$(grep -c -E '^MPI_[A-Za-z0-9_]*_f$' ours.syms)" "$nwrapped" "one MPI_Xxx_f per wrapper"
expect_eq "$(wc -l <ours.syms | tr -d ' ')" \
    "$((nwrapped * 5 + $(grep -c -E '_f08$' ours.syms)))" "no other names"
expect_eq "$(comm -23 ours.syms mpifh.syms | head -n 5 | tr '\n' ' ')" "" \
    "every name defined is one libmpi_mpifh exports"
for f in init init_thread finalize initialized finalized abort comm_rank comm_size comm_dup \
    comm_split comm_free send recv isend irecv ssend bsend rsend issend ibsend irsend sendrecv \
    sendrecv_replace wait waitall waitany waitsome test testall testany testsome probe iprobe \
    mprobe improbe mrecv imrecv cancel request_free barrier bcast reduce allreduce gather \
    gatherv scatter scatterv allgather allgatherv alltoall alltoallv reduce_scatter scan exscan \
    ibarrier ibcast ireduce iallreduce igather igatherv iscatter iscatterv iallgather \
    iallgatherv ialltoall ialltoallv ireduce_scatter iscan iexscan win_create win_free \
    win_fence put get accumulate win_lock win_unlock; do
    grep -q -x "mpi_${f}_" ours.syms || fail "no Fortran wrapper mpi_${f}_"
    u=$(echo "$f" | tr a-z A-Z)
    grep -q -x "MPI_${u}" ours.syms || fail "no Fortran wrapper MPI_${u}"
    grep -q -x "mpi_${f}__" ours.syms || fail "no Fortran wrapper mpi_${f}__"
done
expect_no_grep '^mpi_wtime' ours.syms "MPI_Wtime is not wrapped"
# one mpi_xxx_f08_ per wrapper with an MPI_Xxx_f08 alias but the two deprecated functions
# mpi_f08 lacks (MPI_Attr_delete, MPI_Keyval_free), each a name of the mpi_f08 module
expect_eq "$(wc -l <f08.syms | tr -d ' ')" "$(($(grep -c -E '_f08$' ours.syms) - 2))" \
    "one mpi_xxx_f08_ per MPI_Xxx_f08"
"$MPIFC" -o f08c "$SRC/f08_calls.f90" >build.out 2>&1 || fail "$MPIFC f08_calls.f90: $(cat build.out)"
USEMPIF08=$(ldd ./f08c | awk '/libmpi_usempif08/ { print $3; exit }')
expect_file "$USEMPIF08" "a plain mpi_f08 program loads libmpi_usempif08"
nm -D --defined-only "$USEMPIF08" | awk '{ print $3 }' | sort -u >usempif08.syms
expect_eq "$(comm -23 f08.syms usempif08.syms | head -n 5 | tr '\n' ' ')" "" \
    "every mpi_xxx_f08_ defined is one libmpi_usempif08 exports"
for f in init finalize comm_rank send recv isend irecv waitall wait test iprobe allreduce \
    bcast barrier comm_split comm_set_name comm_get_name comm_free get_count; do
    grep -q -x "mpi_${f}_f08_" f08.syms || fail "no mpi_f08 wrapper mpi_${f}_f08_"
done
readelf -d "$ADAPTER" >adapter.dyn
expect_no_grep 'NEEDED.*(libmpi_mpifh|libmpi_use|gfortran)' adapter.dyn \
    "the adapter needs no Fortran library"

# --- builds: scorep-cc mpif90 links the adapter before libmpi_mpifh
scorep_cc "$MPIFC" -o ring_scorep "$SRC/ring.f90"
scorep_cc "$MPIFC" -o calls_scorep "$SRC/mpifh_calls.f90"
"$MPIFC" -o calls "$SRC/mpifh_calls.f90" >build.out 2>&1 ||
    fail "$MPIFC mpifh_calls.f90: $(cat build.out)"
for p in ring_scorep calls_scorep; do
    readelf -d "$p" | awk '/NEEDED/ { n++ } /NEEDED.*libscorep-rt-mpi/ { a = n }
        /NEEDED.*libmpi_mpifh/ { f = n } END { exit !(a && (!f || a < f)) }' ||
        fail "$p: libscorep-rt-mpi is not needed before libmpi_mpifh: $(readelf -d "$p" | grep NEEDED)"
done
echo "ok: the programs need libscorep-rt-mpi before libmpi_mpifh"

# --- uninstrumented runs
mpirun_np 3 ring.plain ./ring
expect_eq "$status" 0 "ring runs uninstrumented"
expect_eq "$(grep -c '^ring ok rank' ring.plain.out)" 3 "ring: every rank ok"
mpirun_np 2 calls.plain ./calls
expect_eq "$status" 0 "mpifh_calls runs uninstrumented"

# --- ring.f90 (use mpi), 3 processes: linked and under scorep-run
measure ring_linked 3 ./ring_scorep
measure ring_run 3 "$top_builddir/scorep-run" ./ring
expect_eq "$(grep -c '^ring ok rank' ring_run.out)" 3 "ring under scorep-run: every rank ok"
for x in ring_linked ring_run; do
    e=$work/$x
    expect_eq "$(match "$e")" "sends=21 receives=21 matched=21 unmatched=0 mismatched_size=0 probes=0" \
        "$x: all messages matched"
    expect_eq "$(per_rank "$e" MPI_SEND 3)" "5 5 5" "$x: MPI_SEND per rank"
    expect_eq "$(per_rank "$e" MPI_RECV 3)" "5 5 5" "$x: MPI_RECV per rank"
    expect_eq "$(per_rank "$e" MPI_ISEND 3)" "2 2 2" "$x: MPI_ISEND per rank"
    expect_eq "$(per_rank "$e" MPI_ISEND_COMPLETE 3)" "2 2 2" "$x: MPI_ISEND_COMPLETE per rank"
    expect_eq "$(per_rank "$e" MPI_IRECV_REQUEST 3)" "2 2 2" "$x: MPI_IRECV_REQUEST per rank"
    expect_eq "$(per_rank "$e" MPI_IRECV 3)" "2 2 2" "$x: MPI_IRECV per rank"
    expect_eq "$(per_rank "$e" MPI_COLLECTIVE_END 3)" "5 5 5" "$x: collectives per rank"
    expect_eq "$(per_rank "$e" COMM_CREATE 3)" "2 2 2" "$x: communicators created"
    expect_eq "$(per_rank "$e" COMM_DESTROY 3)" "2 2 2" "$x: communicators freed"
    expect_eq "$(regions "$e" | tr '\n' ',')" "MPI_Allreduce 9,MPI_Barrier 3,MPI_Bcast 3,MPI_Comm_dup 3,MPI_Comm_free 6,MPI_Comm_rank 3,MPI_Comm_size 6,MPI_Comm_split 3,MPI_Finalize 3,MPI_Init 3,MPI_Initialized 3,MPI_Irecv 6,MPI_Isend 6,MPI_Recv 12,MPI_Send 9,MPI_Sendrecv 3,MPI_Ssend 3,MPI_Wait 6,MPI_Waitall 3," \
        "$x: MPI regions entered"
    m=$(messages "$e")
    expect_eq "$(grep -c '^SEND rank=1 comm=0 from=1 to=2 tag=10 bytes=16 ' "$m")" 3 \
        "$x: blocking sends of rank 1"
    expect_grep '^SEND rank=2 comm=0 from=2 to=0 tag=11 bytes=64 id=1 ' "$m" "$x: MPI_Ssend"
    expect_grep '^RECV rank=0 comm=0 from=2 to=0 tag=12 bytes=8 id=1 ' "$m" "$x: MPI_Sendrecv"
    expect_grep '^IRECV rank=1 comm=0 from=0 to=1 tag=20 bytes=40 id=1 ' "$m" "$x: MPI_Irecv"
    expect_grep '^ISEND rank=1 comm=0 from=1 to=2 tag=21 bytes=12 id=1 ' "$m" "$x: MPI_Isend"
done
expect_eq "$(cmp "$work/ring_linked.msgs" "$work/ring_run.msgs" >/dev/null && echo same)" same \
    "ring: the same messages linked and under scorep-run"
expect_eq "$(trace_count "$work/ring_linked" ENTER "" MAIN__)" 3 \
    "ring built by scorep-cc: the Fortran main program is instrumented"

# --- mpifh_calls.f90 (mpif.h), 2 processes, all groups: linked and under scorep-run
export SCOREP_MPI_ENABLE_GROUPS=all
measure calls_linked 2 ./calls_scorep
measure calls_run 2 "$top_builddir/scorep-run" ./calls
unset SCOREP_MPI_ENABLE_GROUPS
for x in calls_linked calls_run; do
    e=$work/$x
    expect_eq "$(match "$e")" "sends=16 receives=16 matched=16 unmatched=0 mismatched_size=0 probes=4" \
        "$x: all messages matched"
    expect_eq "$(per_rank "$e" MPI_SEND 2)" "4 6" "$x: MPI_SEND per rank"
    expect_eq "$(per_rank "$e" MPI_RECV 2)" "3 5" "$x: MPI_RECV per rank"
    expect_eq "$(per_rank "$e" MPI_ISEND 2)" "6 0" "$x: MPI_ISEND per rank"
    expect_eq "$(per_rank "$e" MPI_ISEND_COMPLETE 2)" "5 0" "$x: MPI_ISEND_COMPLETE (one freed)"
    expect_eq "$(per_rank "$e" MPI_IRECV_REQUEST 2)" "4 5" "$x: MPI_IRECV_REQUEST per rank"
    expect_eq "$(per_rank "$e" MPI_IRECV 2)" "3 5" "$x: MPI_IRECV per rank"
    expect_eq "$(per_rank "$e" MPI_REQUEST_CANCELLED 2)" "1 0" "$x: the cancelled receive"
    expect_eq "$(per_rank "$e" MPI_COLLECTIVE_END 2)" "14 14" "$x: blocking collectives"
    expect_eq "$(per_rank "$e" NON_BLOCKING_COLLECTIVE_REQUEST 2)" "17 17" \
        "$x: non-blocking collectives started"
    expect_eq "$(per_rank "$e" NON_BLOCKING_COLLECTIVE_COMPLETE 2)" "17 17" \
        "$x: non-blocking collectives completed"
    expect_eq "$(per_rank "$e" RMA_PUT 2)" "2 2" "$x: MPI_Put"
    expect_eq "$(per_rank "$e" RMA_GET 2)" "1 1" "$x: MPI_Get"
    expect_eq "$(per_rank "$e" RMA_ATOMIC 2)" "1 1" "$x: MPI_Accumulate"
    expect_eq "$(per_rank "$e" RMA_COLLECTIVE_END 2)" "6 6" "$x: window creation, fences, free"
    expect_eq "$(per_rank "$e" RMA_REQUEST_LOCK 2)" "1 1" "$x: MPI_Win_lock"
    expect_eq "$(per_rank "$e" RMA_RELEASE_LOCK 2)" "1 1" "$x: MPI_Win_unlock"
    expect_eq "$(per_rank "$e" RMA_WIN_DESTROY 2)" "1 1" "$x: MPI_Win_free"
    r=$(regions "$e")
    for want in "MPI_Bsend 2" "MPI_Buffer_attach 3" "MPI_Buffer_detach 3" "MPI_Cancel 1" \
        "MPI_Comm_get_name 2" "MPI_Comm_set_name 2" "MPI_Error_string 2" "MPI_Finalized 2" \
        "MPI_Ibsend 1" "MPI_Improbe 1" "MPI_Imrecv 1" "MPI_Irsend 1" "MPI_Issend 1" \
        "MPI_Mprobe 1" "MPI_Mrecv 1" "MPI_Probe 1" "MPI_Request_free 1" "MPI_Rsend 1" \
        "MPI_Sendrecv_replace 2" "MPI_Test_cancelled 1" "MPI_Get_count 1" "MPI_Waitall 3" "MPI_Waitany 2" \
        "MPI_Win_create 2" "MPI_Win_fence 8" "MPI_Win_free 2" "MPI_Ireduce_scatter_block 2" \
        "MPI_Iallreduce 4" "MPI_Alltoallv 2" "MPI_Exscan 2"; do
        echo "$r" | grep -q -x "$want" || fail "$x: expected region count '$want'; regions: $r"
    done
    for want in MPI_Iprobe MPI_Test MPI_Testall MPI_Testany MPI_Testsome MPI_Waitsome; do
        echo "$r" | grep -q "^$want " || fail "$x: no region $want"
    done
    ! echo "$r" | grep -E -q '_(f2c|c2f) ' ||
        fail "$x: handle conversions of the Fortran wrappers recorded: $r"
    echo "ok: $x: MPI regions entered"
    m=$(messages "$e")
    expect_grep '^PROBE rank=0 region=MPI_Mprobe comm=0 from=1 to=0 tag=7 bytes=4 id=1 handle=1' \
        "$m" "$x: MPI_Mprobe"
    expect_grep '^RECV rank=0 comm=0 from=1 to=0 tag=7 bytes=4 id=1 handle=1' "$m" "$x: MPI_Mrecv"
    expect_grep '^IRECV rank=0 comm=0 from=1 to=0 tag=8 bytes=4 id=1 handle=2' "$m" \
        "$x: MPI_Imrecv of the MPI_Improbe message"
    expect_grep '^SEND rank=1 comm=0 from=1 to=0 tag=1 bytes=20 id=1 ' "$m" \
        "$x: MPI_Sendrecv_replace"
done
expect_eq "$(cmp "$work/calls_linked.msgs" "$work/calls_run.msgs" >/dev/null && echo same)" \
    same "mpifh_calls: the same messages linked and under scorep-run"

# --- transparency.f90 (mpif.h), 2 processes: what the program observes (error codes,
# statuses, indices, flags, handles) is the same uninstrumented, linked and under scorep-run
scorep_cc "$MPIFC" -o transp_scorep "$SRC/transparency.f90"
"$MPIFC" -o transp "$SRC/transparency.f90" >build.out 2>&1 ||
    fail "$MPIFC transparency.f90: $(cat build.out)"
mpirun_np 2 transp.plain ./transp
expect_eq "$status" 0 "transparency.f90 runs uninstrumented"
measure transp_linked 2 ./transp_scorep
measure transp_run 2 "$top_builddir/scorep-run" ./transp
for x in transp.plain transp_linked transp_run; do
    sort -s -k2,2n "$x.out" >"$x.sorted" # stable: each rank's lines in their order
done
expect_eq "$(wc -l <transp.plain.sorted | tr -d ' ')" 41 "transparency.f90: lines observed"
expect_grep '^rank 1 truncated recv ierr 15 status      0    30$' transp.plain.sorted \
    "MPI_RECV writes the status of a truncated message"
expect_grep '^rank 1 truncated wait ierr 15 status    -77   -88$' transp.plain.sorted \
    "MPI_WAIT leaves the status alone on an error"
expect_grep '^rank 1 waitany null index -32766 status     -1    -1$' transp.plain.sorted \
    "MPI_WAITANY on null requests: MPI_UNDEFINED"
expect_grep '^rank 1 waitsome index 3 status      0     5$' transp.plain.sorted \
    "MPI_WAITSOME: 1-based indices"
for x in transp_linked transp_run; do
    expect_eq "$(diff transp.plain.sorted "$x.sorted" | head -n 20)" "" \
        "$x: the program observes what it observes uninstrumented"
    expect_eq "$(match "$work/$x")" \
        "sends=13 receives=13 matched=13 unmatched=0 mismatched_size=0 probes=0" \
        "$x: messages matched (the 9 truncated ones included)"
done

# --- f08_calls.f90 (use mpi_f08), 2 processes: events and what the program observes, linked
# and under scorep-run
scorep_cc "$MPIFC" -o f08c_scorep "$SRC/f08_calls.f90"
mpirun_np 2 f08c.plain ./f08c
expect_eq "$status" 0 "f08_calls.f90 runs uninstrumented"
export SCOREP_MPI_ENABLE_GROUPS=all
measure f08c_linked 2 ./f08c_scorep
measure f08c_run 2 "$top_builddir/scorep-run" ./f08c
unset SCOREP_MPI_ENABLE_GROUPS
for x in f08c.plain f08c_linked f08c_run; do
    sort -s -k2,2n "$x.out" >"$x.sorted"
done
expect_eq "$(wc -l <f08c.plain.sorted | tr -d ' ')" 18 "f08_calls.f90: lines observed"
expect_grep '^rank 1 recv    3   6   9  12 status   0  5 count 4$' f08c.plain.sorted \
    "mpi_f08: data, TYPE(MPI_Status) fields and MPI_Get_count"
expect_grep '^rank 0 comm name half of the world length 17$' f08c.plain.sorted \
    "mpi_f08: a communicator name both ways"
for x in f08c_linked f08c_run; do
    e=$work/$x
    expect_eq "$(diff f08c.plain.sorted "$x.sorted" | head -n 20)" "" \
        "$x: the program observes what it observes uninstrumented"
    expect_eq "$(match "$e")" "sends=7 receives=7 matched=7 unmatched=0 mismatched_size=0 probes=1" \
        "$x: all messages matched"
    expect_eq "$(per_rank "$e" MPI_SEND 2)" "3 1" "$x: MPI_SEND per rank"
    expect_eq "$(per_rank "$e" MPI_RECV 2)" "1 3" "$x: MPI_RECV per rank"
    expect_eq "$(per_rank "$e" MPI_ISEND 2)" "2 1" "$x: MPI_ISEND per rank"
    expect_eq "$(per_rank "$e" MPI_IRECV 2)" "1 2" "$x: MPI_IRECV per rank"
    expect_eq "$(per_rank "$e" MPI_COLLECTIVE_END 2)" "3 3" "$x: Allreduce, Bcast, Barrier"
    r=$(regions "$e")
    for want in "MPI_Init 2" "MPI_Finalize 2" "MPI_Send 6" "MPI_Recv 4" "MPI_Waitall 2" "MPI_Wait 1" \
        "MPI_Allreduce 2" "MPI_Bcast 2" "MPI_Barrier 2" "MPI_Comm_split 2" \
        "MPI_Comm_set_name 2" "MPI_Comm_get_name 2" "MPI_Comm_free 2" "MPI_Get_count 3" \
        "MPI_Comm_set_errhandler 2"; do
        echo "$r" | grep -q -x "$want" || fail "$x: expected region count '$want'; regions: $r"
    done
    m=$(messages "$e")
    expect_eq "$(grep -c '^SEND rank=0 comm=0 from=0 to=1 tag=5 bytes=16 ' "$m")" 3 \
        "$x: the 3 blocking sends of rank 0"
    expect_grep '^PROBE rank=0 region=MPI_Iprobe comm=0 from=1 to=0 tag=7 bytes=4 id=1' "$m" \
        "$x: MPI_Iprobe"
done
expect_eq "$(trace_count "$work/f08c_linked" ENTER "" MAIN__)" 2 \
    "f08_calls built by scorep-cc: the Fortran main program is instrumented"

done_ok
