#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_python_mpi.sh: an mpi4py job measured as Python (issue #30): `mpirun -np 3
# scorep-python ring.py` preloads the MPI adapter by itself (started by mpirun), and
# `mpirun -np 3 python3 -m scorep --mpp=mpi` as Score-P's bindings are called: the token
# ring's 12 messages all pair in the trace (trace_messages, otf2-print), the Python function
# send_token has 12 visits over the 3 ranks, each MPI_Send and MPI_Recv under the Python
# function that called it.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/python/lib_python.sh"
command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
[ -x "$top_builddir/.libs/libscorep-rt-mpi.so" ] || [ -f "$top_builddir/.libs/libscorep-rt-mpi.so" ] ||
    { echo "SKIP: scorep-rt was built without the MPI adapter"; exit 77; }
if ! "$PY" -c 'import mpi4py' 2>/dev/null; then
    [ "${CI:-}" != true ] || fail "mpi4py is not installed for $PY (python3-mpi4py; with CI=true every test must run)"
    echo "SKIP: mpi4py is not installed for $PY (Debian: python3-mpi4py)"
    exit 77
fi
MESSAGES="$top_builddir/test/tools/trace_messages"

run_py r SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=r \
    timeout 240 mpirun --oversubscribe --allow-run-as-root -np 3 "$SCOREP_PYTHON" "$PYPROGS/ring.py"
expect_grep '^ring done$' r.out "the ring went round"
expect_eq "$(profile_locations r)" 3 "three ranks, one location each"
R='__main__:<module>/__main__:ring'
expect_eq "$(profile_sum r "$R/__main__:send_token" visits)" 12 "send_token: 12 visits in all"
expect_eq "$(profile_values r "$R/__main__:send_token" visits | sort)" "0 4
1 4
2 4" "send_token: 4 visits on each rank"
expect_eq "$(profile_sum r "$R/__main__:send_token/MPI_Send" visits)" 12 \
    "MPI_Send: 12 visits, all under send_token"
expect_eq "$(profile_sum r "$R/__main__:recv_token/MPI_Recv" visits)" 12 \
    "MPI_Recv: 12 visits, all under recv_token"
m=$("$MESSAGES" --match r/traces.otf2 2>&1) || fail "the messages do not pair: $m"
expect_eq "$(echo "$m" | sed 's/ late=.*//')" \
    "sends=12 receives=12 matched=12 unmatched=0 mismatched_size=0 probes=0" \
    "every message pairs (trace_messages --match)"
expect_eq "$(trace_count r MPI_SEND)" 12 "otf2-print: 12 MPI_SEND events"
expect_eq "$(trace_count r MPI_RECV)" 12 "otf2-print: 12 MPI_RECV events"
expect_eq "$(trace_check_nesting r)" 0 "the trace nests on every rank"

# Score-P's form: python3 -m scorep --mpp=mpi (profile only)
run_py b SCOREP_EXPERIMENT_DIRECTORY=b PYTHONPATH="$SCOREP_PYTHON_PATH" \
    timeout 240 mpirun --oversubscribe --allow-run-as-root -np 3 "$PY" -m scorep --mpp=mpi "$PYPROGS/ring.py"
expect_eq "$(profile_sum b "$R/__main__:send_token/MPI_Send" visits)" 12 \
    "python3 -m scorep --mpp=mpi: MPI_Send 12 visits under send_token"
done_ok
