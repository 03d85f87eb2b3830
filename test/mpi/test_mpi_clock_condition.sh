#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_clock_condition.sh: on one host, with one clock, a trace must not hold a receive
# that completes before its send began, nor a collective that ends on a rank before a rank
# whose data it needs began it (issue #27). Runs clock_order (4 processes: sends racing
# posted receives, persistent and cancelled requests, non-blocking collectives beside
# point-to-point on duplicated communicators, derived datatypes) linked with the adapter and
# plainly under scorep-run, with tracing; checks each trace with clock_condition.py (OTF2's
# own Python reader, python3-otf2, not the runtime's code) and counts its events with
# otf2-print against the program's design (clock_order.c). Needs mpirun and python3-otf2.
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs clock_order clock_order_scorep

# python3-otf2 (Debian's python3-otf2) may live in the system python only
python3=$(python3_with_otf2)
[ -n "$python3" ] || fail "no python3 with the otf2 module (Debian package python3-otf2)"

status=0
timeout 300 mpirun --oversubscribe --allow-run-as-root -np 4 "$T/clock_order" >plain.out 2>&1 ||
    status=$?
expect_eq "$status" 0 "clock_order runs uninstrumented"

for mode in linked run; do
    x=$work/$mode
    set -- "$T/clock_order_scorep"
    [ "$mode" = linked ] || set -- "$top_builddir/scorep-run" "$T/clock_order"
    status=0
    env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$x" \
        SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
        timeout 300 mpirun --oversubscribe --allow-run-as-root -np 4 \
        "$@" >"$mode.out" 2>"$mode.err" || status=$?
    check_profiles
    expect_eq "$status" 0 "clock_order ($mode) runs measured"
    expect_file "$x/traces.otf2" "clock_order ($mode) wrote a trace"
    # what MPI decided: cb = the unmatched MPI_Isend was cancelled, rc = the matched
    # MPI_Irecv was cancelled all the same (Open MPI 4.1: 0 and 0)
    cb=$(sed -n 's/^send cancelled=\([01]\)$/\1/p' "$mode.out")
    rc=$(sed -n 's/^recv cancelled=\([01]\)$/\1/p' "$mode.out")
    expect_eq "${cb:+ok}${rc:+ok}" okok "clock_order ($mode) reports both cancellations"
    echo "clock_order ($mode): send cancelled=$cb, receive cancelled=$rc"
    n=$((349 - cb))
    run_to "$mode.cc" "$python3" "$top_srcdir/test/mpi/clock_condition.py" "$x/traces.otf2" -v
    cat "$mode.cc"
    expect_eq "$(sed 's/ collectives=[0-9]*//' "$mode.cc")" \
        "sends=$n receives=$n matched=$n unmatched=0 cancelled=$cb violations=0 coll_violations=0" \
        "clock_order ($mode): every receive after its send, every collective after its begins"
    # the events of the design (clock_order.c's header), all processes together
    expect_eq "$(trace_count "$x" MPI_ISEND)" 338 "clock_order ($mode): MpiIsend (starts included)"
    expect_eq "$(trace_count "$x" MPI_ISEND_COMPLETE)" $((338 - cb)) \
        "clock_order ($mode): MpiIsendComplete"
    expect_eq "$(trace_count "$x" MPI_SEND)" 11 "clock_order ($mode): MpiSend"
    expect_eq "$(trace_count "$x" MPI_RECV)" $((243 + 1 - cb + rc)) "clock_order ($mode): MpiRecv"
    expect_eq "$(trace_count "$x" MPI_IRECV)" $((104 + 1 - rc)) "clock_order ($mode): MpiIrecv"
    expect_eq "$(trace_count "$x" MPI_IRECV_REQUEST)" 106 "clock_order ($mode): MpiIrecvRequest"
    expect_eq "$(trace_count "$x" MPI_REQUEST_CANCELLED)" $((cb + 1 + rc)) \
        "clock_order ($mode): MpiRequestCancelled"
    expect_eq "$(trace_count "$x" NON_BLOCKING_COLLECTIVE_REQUEST)" 240 \
        "clock_order ($mode): non-blocking collectives started"
    expect_eq "$(trace_count "$x" NON_BLOCKING_COLLECTIVE_COMPLETE)" 240 \
        "clock_order ($mode): non-blocking collectives completed"
    expect_eq "$(trace_count "$x" ENTER "" MPI_Barrier)" 796 "clock_order ($mode): barriers"
done

echo "$checks checks passed"
