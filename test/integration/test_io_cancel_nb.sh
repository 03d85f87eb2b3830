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
#         freed write's matching id, none for the waited one; the file holds the waited writes
#   memory  32 threads each writing more than an OTF2 chunk (1 MiB) of trace: the peak RSS of
#         a run that recorded one non-blocking request exceeds that of the same run without by
#         less than 4 MiB (the trace writer holds one location's writer at a time)
#   spill  8 threads in 4 MiB of trace memory (flush mode): a request issued by a worker
#         whose Begin went to its spill file is cancelled on its location, nothing else
#   split  2 ranks, the MPI-IO split collectives: each of write_at_all, read_at_all,
#         write_all, read_all, write_ordered, read_ordered as a _begin/_end pair (Begin with
#         NON_BLOCKING|COLLECTIVE and Issued in the _begin, Complete with 8 bytes in the
#         _end), then a write_at_all_begin and (on another file) a read_all_begin never ended:
#         exactly those two cancelled at the end of each rank's location, in issue order (after
#         MPI_Finalize: in main, the one call still open)
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
# "TYPE LOCATION REQUEST" of the non-blocking requests' Begins and ends, LOCATION the
# location's number in the process (id >> 32: ids are local << 32 | rank, Score-P's; aio_error
# may also find a request in progress: IoOperationTest, as many as the timing makes)
expect_eq "$(trace_other threads/exp | awk -v f="$2" -v g="$4" -v h="$6" '
    /^IO_OPERATION_/ {
        id = $0; if (!sub(/.*Matching Id: /, "", id)) next; sub(/[^0-9].*/, "", id)
        n = id == f ? "F" : id == g ? "G" : id == h ? "H" : ""
        if (n != "" && $1 ~ /^IO_OPERATION_(BEGIN|COMPLETE|CANCELLED)$/)
            print $1, ($2 - $2 % 4294967296) / 4294967296, n
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

part memory
# The trace writer's peak memory does not grow with the locations when non-blocking I/O was
# recorded (docs/io.md): 32 threads each write about 1.2 MiB of trace (io_nb_hold.c, 20000
# writes each); peak RSS (the process, from wait4) of a run that issued one aio_read never
# completed ("nb") minus that of the same run without ("none"). Before session 24 every
# location's OTF2 writer stayed open, with a chunk of 1 MiB, until all were read: 37 MiB more
# here (64 threads 75 MiB, 128 threads 150 MiB); now one writer is open at a time (0.1 MiB).
gcc -O2 -pthread -o io_nb_hold "$PROGRAMS/io_nb_hold.c" 2>build.err || fail "gcc io_nb_hold.c: $(cat build.err)"
for mode in none nb; do
    mkdir "hold_$mode"
    (cd "hold_$mode" && run_app app env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_ENABLE_TRACING=true \
        SCOREP_ENABLE_PROFILING=false SCOREP_TOTAL_MEMORY=200M SCOREP_EXPERIMENT_DIRECTORY=exp \
        python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
sys.exit(rc)' "$top_builddir/scorep-run" --io=posix "$work/io_nb_hold" 32 20000 "$mode" && echo "$status" >status)
    expect_eq "$(cat "hold_$mode/status") $(cat "hold_$mode/app.out")" "0 io_nb_hold: 32 threads, 20000 writes each" \
        "memory $mode: exit status and output"
    expect_no_grep 'scorep-rt' "hold_$mode/app.err" "memory $mode: no message of the runtime (the buffers held it all)"
done
# the premise: each thread's trace is larger than a chunk (its own .evt file, per location)
big=0
for evt in hold_nb/exp/traces/*.evt; do
    [ "$(stat -c %s "$evt")" -le 1048576 ] || big=$((big + 1))
done
expect_eq "$big" 32 "memory: 32 locations with more than 1 MiB of trace each"
expect_eq "$(trace_other hold_nb/exp | awk '$1 == "IO_OPERATION_CANCELLED" { print $2 }' | tr '\n' ' ')" "0 " \
    "memory nb: the aio_read never completed cancelled on location 0"
none_kib=$(tail -1 hold_none/app.err)
nb_kib=$(tail -1 hold_nb/app.err)
expect_ge 4096 "$((nb_kib - none_kib))" \
    "memory: 4 MiB at least as large as the peak RSS with non-blocking I/O ($nb_kib KiB) minus without ($none_kib KiB), KiB"

part spill
# the pre-pass reads a spill file too: 8 threads of 20000 writes in SCOREP_TOTAL_MEMORY=4M
# (flush mode writes the full buffers to spill files); the first worker issues the request
# before its writes, so its Begin is in its location's spill file. One cancel, on that
# location, with the Begin's matching id; every other operation completed.
mkdir spill
(cd spill && run_app app env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_ENABLE_TRACING=true \
    SCOREP_ENABLE_PROFILING=false SCOREP_VERBOSE=true SCOREP_TOTAL_MEMORY=4M SCOREP_EXPERIMENT_DIRECTORY=exp \
    "$top_builddir/scorep-run" --io=posix "$work/io_nb_hold" 8 20000 thread && echo "$status" >status)
expect_eq "$(cat spill/status) $(cat spill/app.out)" "0 io_nb_hold: 8 threads, 20000 writes each" \
    "spill: exit status and output"
# "LOCATION MATCHING" of the non-blocking Begin and of the cancel
nb_begin=$(trace_other spill/exp | awk '$1 == "IO_OPERATION_BEGIN" && /NON_BLOCKING/ {
    id = $0; sub(/.*Matching Id: /, "", id); print $2, id }')
expect_eq "$(trace_other spill/exp | awk '$1 == "IO_OPERATION_CANCELLED" {
    id = $0; sub(/.*Matching Id: /, "", id); print $2, id }')" "$nb_begin" \
    "spill: one cancel, the non-blocking Begin's (location and matching id: $nb_begin)"
set -- $nb_begin
# the runtime's messages number a location in its process: id >> 32 (ids: local << 32 | rank)
expect_ge "$(sed -n "s/^.*trace buffer of rank 0 location $(($1 >> 32)): .* pages, \([0-9]*\) flushes$/\1/p" spill/app.err)" 1 \
    "spill: the issuing location $1 flushed its buffer (its Begin went to the spill file)"
expect_grep "location $(($1 >> 32)): 1 non-blocking I/O operations issued and never completed: IoOperationCancelled" \
    spill/app.err "spill: the verbose line"
set -- $(begins_vs_ends spill/exp)
expect_eq "$1 $3" "$(($2 + 1)) 1" "spill: IoOperationBegin ($1) = Complete ($2) + Cancelled ($3), 1 cancel"
expect_eq "$(trace_check_nesting spill/exp)" 0 "spill: nesting"

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
    # (not the file's content: Open MPI may never carry out a freed write, test/programs/io_cancel_nb.c)
    expect_eq "$(head -c 8 mpi/nb.dat; tail -c +17 mpi/nb.dat | head -c 8)" "aaaaaaaabbbbbbbb" \
        "mpi: the waited-for writes in the file"
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

    part split
    mkdir split
    (cd split && run_app app env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_PROFILING=false \
        SCOREP_VERBOSE=true SCOREP_EXPERIMENT_DIRECTORY=exp timeout 120 mpirun -np 2 ../io_cancel_nb_mpi split && echo "$status" >status)
    [ "$(cat split/status)" = 0 ] || fail "split: exit status $(cat split/status): $(head -c 2000 split/app.err)"
    expect_eq "$(sort split/app.out)" "split rank 0 size 2
split rank 1 size 2" "split: the ranks' lines"
    expect_eq "$(head -c 48 split/split.dat)" "aaaaaaaabbbbbbbbAAAAAAAABBBBBBBB0000000011111111" \
        "split: the ended writes in the file"
    # per rank, the records of the MPI-IO handles in order, each "TYPE CALL FILE K [BYTES]":
    # CALL the innermost region, K the operation's number on its location (from its matching
    # id, in order of its Begin), BYTES those a Complete gives; with the Begins' mode and
    # flags, and the Issued right after each Begin in the same call
    trace_defs split/exp >split.defs
    awk -v defs=split.defs "$IO_HANDLES_AWK"'
        $3 !~ /^[0-9]+$/ || $2 !~ /^[0-9]+$/ { next }
        $1 == "ENTER" { r = $0; sub(/.*Region: "/, "", r); sub(/".*/, "", r); st[$2, ++d[$2]] = r; next }
        $1 == "LEAVE" { d[$2]--; next }
        $1 ~ /^IO_OPERATION_/ {
            h = handle(); if (par[h] != "MPI-IO") next
            f = file[h]; sub(/.*\//, "", f)
            id = $0; sub(/.*Matching Id: /, "", id); sub(/[^0-9].*/, "", id)
            if (!(($2, id) in k)) k[$2, id] = ++n[$2]
            x = ""
            if ($1 == "IO_OPERATION_BEGIN") {
                m = $0; sub(/.*Mode: /, "", m); sub(/, Bytes.*/, "", m); gsub(/ /, "", m); x = " " m
            }
            if ($1 == "IO_OPERATION_COMPLETE") { b = $0; sub(/.*Bytes Result: /, "", b); sub(/[^0-9].*/, "", b); x = " " b }
            print $2, $1, (d[$2] ? st[$2, d[$2]] : "-"), f, k[$2, id] x
        }' "$(trace_file split/exp)" >split.seq
    for r in 0 1; do
        expect_eq "$(awk -v r="$r" '$1 == r { $1 = ""; sub(/^ /, ""); print }' split.seq)" \
"IO_OPERATION_BEGIN MPI_File_write_at_all_begin split.dat 1 WRITE,OperationFlags:{NON_BLOCKING,COLLECTIVE}
IO_OPERATION_ISSUED MPI_File_write_at_all_begin split.dat 1
IO_OPERATION_COMPLETE MPI_File_write_at_all_end split.dat 1 8
IO_OPERATION_BEGIN MPI_File_read_at_all_begin split.dat 2 READ,OperationFlags:{NON_BLOCKING,COLLECTIVE}
IO_OPERATION_ISSUED MPI_File_read_at_all_begin split.dat 2
IO_OPERATION_COMPLETE MPI_File_read_at_all_end split.dat 2 8
IO_OPERATION_BEGIN MPI_File_write_all_begin split.dat 3 WRITE,OperationFlags:{NON_BLOCKING,COLLECTIVE}
IO_OPERATION_ISSUED MPI_File_write_all_begin split.dat 3
IO_OPERATION_COMPLETE MPI_File_write_all_end split.dat 3 8
IO_OPERATION_BEGIN MPI_File_read_all_begin split.dat 4 READ,OperationFlags:{NON_BLOCKING,COLLECTIVE}
IO_OPERATION_ISSUED MPI_File_read_all_begin split.dat 4
IO_OPERATION_COMPLETE MPI_File_read_all_end split.dat 4 8
IO_OPERATION_BEGIN MPI_File_write_ordered_begin split.dat 5 WRITE,OperationFlags:{NON_BLOCKING,COLLECTIVE}
IO_OPERATION_ISSUED MPI_File_write_ordered_begin split.dat 5
IO_OPERATION_COMPLETE MPI_File_write_ordered_end split.dat 5 8
IO_OPERATION_BEGIN MPI_File_read_ordered_begin split.dat 6 READ,OperationFlags:{NON_BLOCKING,COLLECTIVE}
IO_OPERATION_ISSUED MPI_File_read_ordered_begin split.dat 6
IO_OPERATION_COMPLETE MPI_File_read_ordered_end split.dat 6 8
IO_OPERATION_BEGIN MPI_File_write_at_all_begin split.dat 7 WRITE,OperationFlags:{NON_BLOCKING,COLLECTIVE}
IO_OPERATION_ISSUED MPI_File_write_at_all_begin split.dat 7
IO_OPERATION_BEGIN MPI_File_read_all_begin split2.dat 8 READ,OperationFlags:{NON_BLOCKING,COLLECTIVE}
IO_OPERATION_ISSUED MPI_File_read_all_begin split2.dat 8
IO_OPERATION_CANCELLED main split.dat 7
IO_OPERATION_CANCELLED main split2.dat 8" \
            "split: rank $r: each pair begun in its _begin, completed in its _end with 8 bytes; the 2 begins never ended cancelled at the end, in issue order"
    done
    set -- $(begins_vs_ends split/exp)
    expect_eq "$1" "$(($2 + $3))" "split: IoOperationBegin ($1) = Complete ($2) + Cancelled ($3)"
    expect_eq "$(trace_check_nesting split/exp)" 0 "split: nesting"
    expect_eq "$(trace_check_order split/exp)" 0 "split: timestamp order"
    # Open MPI's fbtl_posix carries a split read out by an aio_read of its own, which nobody
    # asks for when the read is never ended: whether it was asked before the end is Open MPI's
    # timing; any other cancel is such a POSIX AIO request of split.dat or split2.dat
    expect_eq "$(trace_other split/exp | awk -v defs=split.defs "$IO_HANDLES_AWK"'
        $1 == "IO_OPERATION_CANCELLED" && par[handle()] != "MPI-IO" {
            f = file[handle()]; sub(/.*\//, "", f); print par[handle()], f }' | sort -u |
        awk '$1 != "POSIX" || ($2 != "split.dat" && $2 != "split2.dat")')" "" \
        "split: the other cancels are Open MPI's POSIX AIO requests of the two files"
    # the verbose lines: one per rank (its location 0), each with that location's cancels
    expect_eq "$(sed -n 's/^.*location 0: \([0-9]*\) non-blocking I\/O operations issued and never completed: IoOperationCancelled$/\1/p' split/app.err | sort -n | tr '\n' ' ')" \
        "$(trace_other split/exp | awk '$1 == "IO_OPERATION_CANCELLED" { n[$2]++ } END { for (l in n) print n[l] }' | sort -n | tr '\n' ' ')" \
        "split: the verbose lines give each rank's cancels"
    expect_grep "^- $3 non-blocking I/O operations \(POSIX AIO, MPI-IO\) were issued and never completed" \
        split/exp/MANIFEST.md "split: MANIFEST.md's note sums the ranks' cancels"
    expect_no_grep "blocking I/O operations were still in progress" split/exp/MANIFEST.md \
        "split: no blocking operation cancelled"
fi
done_ok
