#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_io_cancel_nb.sh: non-blocking I/O requests the program never completes get an
# IoOperationCancelled at the end of the location that issued them (docs/io.md, "Edge
# cases"), so that every IoOperationBegin is matched. test/programs/io_cancel_nb.c:
#   aio   4 AIO requests: A completed (aio_error, aio_return), B done but never asked, C on a
#         pipe nobody writes, D the same by lio_listio(LIO_NOWAIT): exactly one cancel each for
#         B, C, D with their aiocb's address as matching id (the program prints them), on
#         the issuing location, none for A; begins = completes + cancels; well nested, in
#         order; the verbose line and MANIFEST.md's note say 3
#   full  the same, then writes that fill SCOREP_TOTAL_MEMORY (SCOREP_TRACING_REDUCTION=none),
#         then B completed (its Complete lost in the full buffer) and E issued (not recorded
#         at all): cancels for B, C, D (B's because its completion is lost), none for A and
#         E, written after the MeasurementOnOff(OFF) marker; the trace reads back whole
#   threads  requests that cross locations: F issued by a helper thread and never completed,
#         G issued by the helper and completed by main (whose location is read first), H
#         issued by main and completed by the helper: one cancel, F's, on the helper's
#         location 1, none for G or H
#   mpi   2 ranks, each an MPI_File_iwrite_at waited for and one whose request it frees
#         while active (MPI_Request_free): one cancel per rank on its MPI-IO handle, with the
#         freed write's matching id, none for the waited one; the file holds what both wrote
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/integration/io_trace.sh"

gcc -O2 -pthread -o io_cancel_nb "$PROGRAMS/io_cancel_nb.c" 2>build.err || fail "gcc io_cancel_nb.c: $(cat build.err)"

# kinds EXPDIR OUT: location 0's records other than Enter and Leave as "TYPE NAME KIND", NAME
# the request's letter from the program's line OUT (its aiocb's address) or "-", KIND the
# handle: "file" (nb.dat), "null" (/dev/null), "pipe" (no file) or "-" (no handle)
kinds()
{
    trace_defs "$1" >"$work/.nb_defs"
    trace_other "$1" | awk -v defs="$work/.nb_defs" -v names="$(cat "$2")" "$IO_HANDLES_AWK"'
        BEGIN { n = split(names, w, " "); for (i = 1; i < n; i += 2) who[w[i + 1]] = w[i] }
        $2 == 0 {
            id = $0; if (!sub(/.*Matching Id: /, "", id)) id = ""; sub(/[^0-9].*/, "", id)
            k = "-"
            if (index($0, "Handle: ")) {
                h = handle()
                k = file[h] ~ /\/nb\.dat$/ ? "file" : file[h] == "/dev/null" ? "null" : "pipe"
            }
            print $1, (id in who ? who[id] : "-"), k
        }'
}

# cancels EXPDIR OUT: "NAME KIND" per IoOperationCancelled of location 0 but those of
# /dev/null's handle (a write the full buffer cut: the blocking case, test_io_cancel.sh)
cancels()
{
    kinds "$1" "$2" | awk '$1 == "IO_OPERATION_CANCELLED" && $3 != "null" { print $2, $3 }' | sort
}

# begins_vs_ends EXPDIR: "BEGINS COMPLETES CANCELLED"
begins_vs_ends()
{
    echo "$(io_events "$1" IO_OPERATION_BEGIN) $(io_events "$1" IO_OPERATION_COMPLETE)" \
        "$(io_events "$1" IO_OPERATION_CANCELLED)"
}

for mode in aio full; do
    part "$mode"
    mkdir "$mode"
    # full: 64 KiB hold no more than some hundred writes' records; 20000 writes overflow it
    if [ "$mode" = full ]; then
        set -- env SCOREP_TOTAL_MEMORY=64k SCOREP_TRACING_REDUCTION=none
        fill=20000
    else
        set -- env
        fill=0
    fi
    (cd "$mode" && run_app app "$@" SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_ENABLE_TRACING=true \
        SCOREP_ENABLE_PROFILING=false SCOREP_VERBOSE=true SCOREP_EXPERIMENT_DIRECTORY=exp \
        "$top_builddir/scorep-run" --io=posix ../io_cancel_nb "$mode" "$fill" && echo "$status" >status)
    [ "$(cat "$mode/status")" = 0 ] || fail "$mode: exit status $(cat "$mode/status"): $(head -c 2000 "$mode/app.err")"
    expect_eq "$(cat "$mode/status")" 0 "$mode: exit status"
    exp="$mode/exp"
    expect_eq "$(cancels "$exp" "$mode/app.out")" "B file
C pipe
D pipe" "$mode: one cancel each for B, C, D (request, handle); none for A or E"
    expect_eq "$(trace_other "$exp" | awk '$1 == "IO_OPERATION_CANCELLED" && $2 != 0' | wc -l)" 0 \
        "$mode: no cancel on another location"
    set -- $(begins_vs_ends "$exp")
    expect_eq "$1" "$(($2 + $3))" "$mode: IoOperationBegin ($1) = Complete ($2) + Cancelled ($3)"
    expect_eq "$(trace_check_nesting "$exp")" 0 "$mode: nesting"
    expect_eq "$(trace_check_order "$exp")" 0 "$mode: timestamp order"
    # the cancels are the location's last records but its end, in issue order
    expect_eq "$(kinds "$exp" "$mode/app.out" | tail -4 | tr '\n' ' ')" \
        "IO_OPERATION_CANCELLED B file IO_OPERATION_CANCELLED C pipe IO_OPERATION_CANCELLED D pipe PROGRAM_END - - " \
        "$mode: the cancels end the trace, before ProgramEnd"
    expect_grep "^- 3 non-blocking I/O operations \(POSIX AIO, MPI-IO\) were issued and never completed in the trace" \
        "$exp/MANIFEST.md" "$mode: MANIFEST.md's note"
    # (full: the stop may cut a /dev/null write after its Begin, a blocking one: its note)
    [ "$mode" = full ] || expect_no_grep "blocking I/O operations were still in progress" "$exp/MANIFEST.md" \
        "$mode: no note of blocking ones"
    expect_grep "location 0: 3 non-blocking I/O operations issued and never completed: IoOperationCancelled" \
        "$mode/app.err" "$mode: the verbose line"
    if [ "$mode" = full ]; then
        # the buffer stopped: the OFF marker comes before the cancels; B's Begin and Issued are
        # there, its Complete is not, E has no record at all
        # from the OFF marker on: the cancels (a /dev/null write the stop cut may come first)
        expect_eq "$(kinds "$exp" "$mode/app.out" | awk '$1 == "MEASUREMENT_ON_OFF" { on = 1 } on && $3 != "null" { print $1 }' | uniq -c | awk '{ print $1, $2 }' | tr '\n' ' ')" \
            "1 MEASUREMENT_ON_OFF 3 IO_OPERATION_CANCELLED 1 PROGRAM_END " "full: OFF, then the 3 cancels"
        set -- $(cat "$mode/app.out")
        expect_eq "$(trace_other "$exp" | awk -v b="$4" -v e="${10}" '
            { id = $0; if (!sub(/.*Matching Id: /, "", id)) next; sub(/[^0-9].*/, "", id) }
            id == b { nb[$1]++ } id == e { ne++ }
            END { print nb["IO_OPERATION_BEGIN"] + 0, nb["IO_OPERATION_ISSUED"] + 0, nb["IO_OPERATION_COMPLETE"] + 0, ne + 0 }')" \
            "1 1 0 0" "full: B's Begin, Issued, no Complete; nothing of E"
        expect_grep "events lost" "$mode/app.err" "full: the loss is said"
    fi
done

part threads
mkdir threads
(cd threads && run_app app env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_ENABLE_TRACING=true \
    SCOREP_ENABLE_PROFILING=false SCOREP_VERBOSE=true SCOREP_EXPERIMENT_DIRECTORY=exp \
    "$top_builddir/scorep-run" --io=posix ../io_cancel_nb threads && echo "$status" >status)
[ "$(cat threads/status)" = 0 ] || fail "threads: exit status $(cat threads/status): $(head -c 2000 threads/app.err)"
expect_eq "$(cat threads/status)" 0 "threads: exit status"
set -- $(cat threads/app.out)
expect_eq "$1 $3 $5" "F G H" "threads: the program's line"
# "TYPE LOCATION REQUEST" of the non-blocking requests' Begins and ends (aio_error may also
# find a request in progress: IoOperationTest, as many as the timing makes)
expect_eq "$(trace_other threads/exp | awk -v f="$2" -v g="$4" -v h="$6" '
    /^IO_OPERATION_/ {
        id = $0; if (!sub(/.*Matching Id: /, "", id)) next; sub(/[^0-9].*/, "", id)
        n = id == f ? "F" : id == g ? "G" : id == h ? "H" : ""
        if (n != "" && $1 ~ /^IO_OPERATION_(BEGIN|COMPLETE|CANCELLED)$/) print $1, $2, n
    }' | sort)" "IO_OPERATION_BEGIN 0 H
IO_OPERATION_BEGIN 1 F
IO_OPERATION_BEGIN 1 G
IO_OPERATION_CANCELLED 1 F
IO_OPERATION_COMPLETE 0 G
IO_OPERATION_COMPLETE 1 H" "threads: F cancelled on its issuing location 1; G and H completed across locations"
expect_eq "$(trace_check_nesting threads/exp)" 0 "threads: nesting"
expect_eq "$(trace_check_order threads/exp)" 0 "threads: timestamp order"
expect_grep "location 1: 1 non-blocking I/O operations issued and never completed: IoOperationCancelled" \
    threads/app.err "threads: the verbose line"

part mpi
if ! command -v mpirun >/dev/null 2>&1 || ! command -v mpicc >/dev/null 2>&1; then
    skip_part "mpirun/mpicc"
else
    # CI runs as root, and 2 ranks may share one core
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    scorep_cc --io=posix mpicc -DIO_CANCEL_NB_MPI -o io_cancel_nb_mpi "$PROGRAMS/io_cancel_nb.c"
    mkdir mpi
    (cd mpi && run_app app env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_PROFILING=false \
        SCOREP_VERBOSE=true SCOREP_EXPERIMENT_DIRECTORY=exp timeout 120 mpirun -np 2 ../io_cancel_nb_mpi && echo "$status" >status)
    [ "$(cat mpi/status)" = 0 ] || fail "mpi: exit status $(cat mpi/status): $(head -c 2000 mpi/app.err)"
    expect_eq "$(cat mpi/status)" 0 "mpi: exit status"
    expect_eq "$(sort mpi/app.out)" "rank 0 offsets 0 8
rank 1 offsets 16 24" "mpi: the ranks' lines"
    expect_eq "$(cat mpi/nb.dat)" "aaaaaaaaAAAAAAAAbbbbbbbbBBBBBBBB" "mpi: the file (the program saw the freed write arrive)"
    # per rank (location = rank) on the MPI-IO handle: "LOC BEGINS COMPLETES CANCELS OK", OK
    # 1 when the cancel's matching id is that of the rank's second Begin
    trace_defs mpi/exp >mpi.defs
    expect_eq "$(trace_other mpi/exp | awk -v defs=mpi.defs "$IO_HANDLES_AWK"'
        /^IO_OPERATION_(BEGIN|COMPLETE|CANCELLED) / {
            if (par[handle()] != "MPI-IO") next
            id = $0; sub(/.*Matching Id: /, "", id); sub(/[^0-9].*/, "", id)
            seen[$2] = 1
            if ($1 == "IO_OPERATION_BEGIN") { b[$2]++; if (b[$2] == 2) second[$2] = id }
            else if ($1 == "IO_OPERATION_COMPLETE") c[$2]++
            else { x[$2]++; xid[$2] = id }
        }
        END { for (l in seen) print l, b[l] + 0, c[l] + 0, x[l] + 0, (xid[l] != "" && xid[l] == second[l]) }' | sort)" \
        "0 2 1 1 1
1 2 1 1 1" "mpi: per rank: 2 MPI-IO begins, 1 complete, 1 cancel of the freed write's id"
    set -- $(begins_vs_ends mpi/exp)
    expect_eq "$1" "$(($2 + $3))" "mpi: IoOperationBegin ($1) = Complete ($2) + Cancelled ($3) (POSIX AIO of Open MPI's fbtl too)"
    expect_eq "$(trace_check_nesting mpi/exp)" 0 "mpi: nesting"
    expect_eq "$(trace_check_order mpi/exp)" 0 "mpi: timestamp order"
    expect_grep "^- $3 non-blocking I/O operations \(POSIX AIO, MPI-IO\) were issued and never completed" \
        mpi/exp/MANIFEST.md "mpi: MANIFEST.md's note sums the ranks' cancels"
fi
done_ok
