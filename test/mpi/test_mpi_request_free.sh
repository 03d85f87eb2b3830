#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_request_free.sh: MPI_Request_free of active persistent point-to-point requests
# (test/mpi/request_free.c, 2 ranks, under scorep-run, traced; docs/mpi.md "Request table").
# requests.c (test_mpi_programs.sh) frees an active Issend and an active Irecv; here the
# persistent ones, started and freed: rank 0's MPI_Ssend_init + MPI_Start records MPI_ISEND
# (tag 11) and, its completion never seen, no MPI_ISEND_COMPLETE; rank 1's MPI_Recv_init +
# MPI_Start records MPI_IRECV_REQUEST and no MPI_IRECV, the message it takes (rank 0's first
# tag 12 send, id 1) has no receive event, and the blocking receive of the second has id 2.
# Nothing is cancelled. Expected from MPI's rules (a freed active request completes
# unobserved; the first posted receive takes the first message) and Score-P's adapter (an
# active persistent request marked for deallocation records nothing more).
. "$top_srcdir/test/integration/lib.sh"

[ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: the MPI adapter was not built"; exit 77; }
command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1 ||
    { echo "SKIP: no mpirun or mpicc"; exit 77; }
MESSAGES="$top_builddir/test/tools/trace_messages"
[ -x "$MESSAGES" ] || { echo "SKIP: test/tools/trace_messages was not built"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mpicc -O1 -Wall -Wextra -Werror -o request_free "$top_srcdir/test/mpi/request_free.c" || fail "build: request_free"
run_app r env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$work/exp" \
    SCOREP_RUN_LIBDIR="$top_builddir/.libs" TEST_TIMEOUT=120 \
    mpirun -np 2 "$top_builddir/scorep-run" ./request_free
expect_eq "$status $(cat r.out)" "0 request_free: ok" "2 ranks: exit status and output"
expect_no_grep 'scorep-rt' r.err "no message of the runtime"
t=$(trace_file exp)

# per location, the point-to-point records in order: "LOCATION TYPE TAG" (TAG "-" for none)
expect_eq "$(awk '$1 ~ /^MPI_/ && $1 !~ /^MPI_COLLECTIVE/ {
        tag = "-"; if (match($0, /Tag: [0-9]+/)) tag = substr($0, RSTART + 5, RLENGTH - 5)
        print $2, $1, tag }' "$t" | sort -s -k1,1)" "0 MPI_ISEND 11
0 MPI_SEND 12
0 MPI_SEND 12
1 MPI_RECV 11
1 MPI_IRECV_REQUEST -
1 MPI_RECV 12" "the freed persistent send and receive: their start, no completion"
"$MESSAGES" exp/traces.otf2 >msgs.raw 2>msgs.err || fail "trace_messages: $(cat msgs.err)"
expect_eq "$(sed 's/ time=[0-9]*//' msgs.raw)" "ISEND rank=0 comm=0 from=0 to=1 tag=11 bytes=4 id=1 handle=0
RECV rank=1 comm=0 from=0 to=1 tag=11 bytes=4 id=1 handle=0
SEND rank=0 comm=0 from=0 to=1 tag=12 bytes=4 id=1 handle=0
SEND rank=0 comm=0 from=0 to=1 tag=12 bytes=4 id=2 handle=0
RECV rank=1 comm=0 from=0 to=1 tag=12 bytes=4 id=2 handle=0" \
    "messages: the one the freed receive took (tag 12, id 1) without receive; the next one id 2"
status=0
out=$("$MESSAGES" --match exp/traces.otf2 2>&1) || status=$?
expect_eq "$status $(echo "$out" | sed 's/ late=[0-9]*//')" \
    "1 sends=3 receives=2 matched=2 unmatched=1 mismatched_size=0 probes=0" \
    "trace_messages --match: every message matched but the one the freed receive took"
expect_eq "$(count_lines '^MPI_REQUEST_CANCELLED ' "$t")" 0 "nothing cancelled"
done_ok
