#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_subsystem.sh: the runtime calls the phases of registered subsystems (core/subsystem.h)
# in the documented order (test_subsystem.c): registered after init, init and begin at once;
# location_created on each new thread's own location, in registration order; at finalize
# end in registration order with the measurement off, then finalize in reverse order.
. "$top_srcdir/test/integration/lib.sh"

run_app sub env SCOREP_EXPERIMENT_DIRECTORY=exp "$top_builddir/test/unit/test_subsystem"
expect_eq "$status" 0 "exit status"
expect_eq "$(cat sub.err)" "" "no warning"
expect_eq "$(cat sub.out)" "A init active=1
A begin mpi=0
B init active=1
B begin mpi=0
A location_created 1 own_thread=1
B location_created 1 own_thread=1
A location_created 2 own_thread=1
B location_created 2 own_thread=1
test main returns
A end active=0
B end active=0
C at_finalize active=0
B finalize
A finalize" "the phases in order"
expect_eq "$(profile_sum exp pthread_create visits)" 2 "the profile is written"
done_ok
