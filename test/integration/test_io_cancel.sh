#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_io_cancel.sh: an I/O operation begun and not completed when the measurement ends gets
# an IoOperationCancelled at the end of its location's trace (docs/io.md), so that every
# IoOperationBegin is matched. test/programs/io_cancel.c: a helper thread blocks in read on a
# pipe nobody writes while main returns ("return") or, the helper detached, calls exit()
# ("exit"). Per handle (otf2-print): begins, completes and cancels exact from the program's
# design; begins = completes + cancelled; the cancel has the Begin's matching id and location,
# comes before the read's Leave and the trace stays well nested; the verbose line and
# MANIFEST.md say it (an MPI part: 2 ranks, each with a blocked helper, MANIFEST sums them);
# scorep-report reads it (no operation for the cancelled read).
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/integration/io_trace.sh"

gcc -O2 -pthread -o io_cancel "$PROGRAMS/io_cancel.c" 2>build.err || fail "gcc io_cancel.c: $(cat build.err)"

# io_counts EXPDIR: "HANDLE-NAME BEGINS COMPLETES CANCELLED LOCATIONS" per handle named "fd N",
# LOCATIONS the set of locations of its records (their numbers in the process: id >> 32)
io_counts()
{
    trace_defs "$1" >"$work/.io_defs"
    trace_other "$1" | awk -v defs="$work/.io_defs" '
        BEGIN {
            while ((getline line < defs) > 0) {
                if (line !~ /^IO_HANDLE /) continue
                split(line, w, " "); n = line; sub(/^[^"]*"/, "", n); sub(/".*/, "", n)
                name[w[2]] = n
            }
        }
        $1 ~ /^IO_OPERATION_(BEGIN|COMPLETE|CANCELLED)$/ {
            h = $0; sub(/.*Handle: "[^"]*" </, "", h); sub(/>.*/, "", h)
            if (name[h] !~ /^fd [0-9]+$/) next
            k = name[h]; seen[k] = 1
            if ($1 == "IO_OPERATION_BEGIN") b[k]++
            else if ($1 == "IO_OPERATION_COMPLETE") c[k]++
            else x[k]++
            n = ($2 - $2 % 4294967296) / 4294967296 # the number in the process: id >> 32
            if (index(" " l[k] " ", " " n " ") == 0) l[k] = (l[k] == "" ? n : l[k] " " n)
        }
        END { for (k in seen) print k, b[k] + 0, c[k] + 0, x[k] + 0, l[k] }' | sort
}

for mode in return exit; do
    part "$mode"
    mkdir "$mode"
    (cd "$mode" && run_app app env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_ENABLE_TRACING=true \
        SCOREP_ENABLE_PROFILING=false SCOREP_VERBOSE=true SCOREP_EXPERIMENT_DIRECTORY=exp \
        "$top_builddir/scorep-run" --io=posix ../io_cancel "$mode" && echo "$status" >status)
    [ "$(cat "$mode/status")" = 0 ] || fail "$mode: exit status $(cat "$mode/status"): $(head -c 2000 "$mode/app.err")"
    expect_eq "$(cat "$mode/status")" 0 "$mode: exit status"
    set -- $(cat "$mode/app.out")
    expect_eq "$1 $4 $7" "data idle ready" "$mode: the program's descriptors line"
    dr=$2 dw=$3 ir=$5 rr=$8 rw=$9
    exp="$mode/exp"
    # main is location 0, the helper location 1 (its first event comes after main's first;
    # its trace id $h: local << 32 | rank)
    h=$(loc_id 0 1)
    {
        echo "fd $dr 3 3 0 1"   # the helper's three reads of data
        echo "fd $dw 3 3 0 0"   # main's three writes of data
        echo "fd $ir 1 0 1 1"   # the helper's read of idle: begun, never completed
        echo "fd $rr 1 1 0 0"   # main's read of ready
        echo "fd $rw 1 1 0 1"   # the helper's write of ready
    } | sort >"$mode.expected"
    io_counts "$exp" >"$mode.got"
    expect_eq "$(cat "$mode.got")" "$(cat "$mode.expected")" "$mode: begins, completes, cancels per handle"
    # begins = completes + cancelled over all handles (stdout's too)
    expect_eq "$(io_events "$exp" IO_OPERATION_BEGIN)" \
        "$(($(io_events "$exp" IO_OPERATION_COMPLETE) + $(io_events "$exp" IO_OPERATION_CANCELLED)))" \
        "$mode: IoOperationBegin = Complete + Cancelled"
    # the cancel names the Begin's matching id, and is the helper's record just before the
    # read's Leave (then its ThreadEnd or nothing)
    mid_b=$(trace_other "$exp" | awk -v h="fd $ir" -v w="$h" '$1 == "IO_OPERATION_BEGIN" && $2 == w && index($0, "Handle: \"" h "\"") { id = $0; sub(/.*Matching Id: /, "", id); sub(/[^0-9].*/, "", id); last = id } END { print last }')
    mid_c=$(trace_other "$exp" | awk '$1 == "IO_OPERATION_CANCELLED" { id = $0; sub(/.*Matching Id: /, "", id); sub(/[^0-9].*/, "", id); print $2, id }')
    expect_eq "$mid_c" "$h $mid_b" "$mode: the cancel's location and matching id (the helper's Begin on idle)"
    after=$(trace_events "$exp" | awk -v w="$h" '$2 == w && $1 == "IO_OPERATION_CANCELLED" { n = 1; next }
        n == 1 && $2 == w { r = $0; sub(/.*Region: "/, "", r); sub(/".*/, "", r); print $1, r; exit }')
    expect_eq "$after" "LEAVE read" "$mode: the record after the cancel"
    expect_eq "$(trace_check_nesting "$exp")" 0 "$mode: nesting"
    expect_eq "$(trace_check_order "$exp")" 0 "$mode: timestamp order"
    # scorep-report reads the trace: the cancelled read is no operation (the idle pipe has no
    # row); the pipes' rows "READ_BYTES WRITE_BYTES READS WRITES FLUSHES FAILED"
    io_report "$exp" "$mode/report" >"$mode.report"
    expect_eq "$(awk '$1 == "POSIX" { print $3, $4, $5, $6, $7, $8 }' "$mode.report" | sort)" \
        "4 4 1 1 0 0
9 9 3 3 0 0" "$mode: scorep-report's POSIX rows (ready: the helper's thread id, data)"
    expect_grep "^- 1 blocking I/O operations were still in progress when the measurement ended .*IoOperationCancelled" \
        "$exp/MANIFEST.md" "$mode: MANIFEST.md's note"
    expect_grep "location 1: 1 I/O operations still in progress at the end: IoOperationCancelled" \
        "$mode/app.err" "$mode: the verbose line"
done

# MPI: on each of 2 ranks a helper blocks in read when MPI_Finalize ends the measurement
# (MEEP's case): one cancel per rank, on each rank's helper location (global id: thread
# number * 2 + rank), begins = completes + cancelled, and MANIFEST.md sums the ranks (2)
part mpi
if ! command -v mpirun >/dev/null 2>&1 || ! command -v mpicc >/dev/null 2>&1; then
    skip_part "mpirun/mpicc"
else
    # CI runs as root, and 2 ranks may share one core
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    scorep_cc --io=posix mpicc -pthread -DIO_CANCEL_MPI -o io_cancel_mpi "$PROGRAMS/io_cancel.c"
    mkdir mpi
    (cd mpi && run_app app env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_PROFILING=false \
        SCOREP_EXPERIMENT_DIRECTORY=exp timeout 120 mpirun -np 2 ../io_cancel_mpi return && echo "$status" >status)
    [ "$(cat mpi/status)" = 0 ] || fail "mpi: exit status $(cat mpi/status): $(head -c 2000 mpi/app.err)"
    expect_eq "$(cat mpi/status)" 0 "mpi: exit status"
    expect_eq "$(awk '$1 == "data" && $4 == "idle" { n++ } END { print n + 0 }' mpi/app.out)" 2 \
        "mpi: the ranks' descriptors lines"
    # each rank's idle read end (the ranks' descriptor numbers may differ)
    idle_fds=$(awk '$1 == "data" { printf " fd %s ", $5 }' mpi/app.out)
    expect_eq "$(trace_other mpi/exp | awk -v idle="$idle_fds" '$1 == "IO_OPERATION_CANCELLED" {
            h = $0; sub(/.*Handle: "/, "", h); sub(/".*/, "", h)
            print $2, (index(idle, " " h " ") ? "idle" : h) }' | sort)" \
        "$(loc_id 0 1) idle
$(loc_id 1 1) idle" "mpi: one cancel per rank, on its helper's location and its idle pipe"
    expect_eq "$(io_events mpi/exp IO_OPERATION_BEGIN)" \
        "$(($(io_events mpi/exp IO_OPERATION_COMPLETE) + $(io_events mpi/exp IO_OPERATION_CANCELLED)))" \
        "mpi: IoOperationBegin = Complete + Cancelled"
    expect_eq "$(trace_check_nesting mpi/exp)" 0 "mpi: nesting"
    expect_grep "^- 2 blocking I/O operations were still in progress when the measurement ended" \
        mpi/exp/MANIFEST.md "mpi: MANIFEST.md's note sums the ranks"
fi
done_ok
