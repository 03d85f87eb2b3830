#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_sampling_dlopen.sh: sampling a program that maps and unmaps a library 3000 times
# (test/programs/sampling_dlopen.c) at a 20 us perf clock must not hang it. libunwind finds
# unwind tables through dl_iterate_phdr, which takes the dynamic linker's object-list lock;
# dlopen and dlclose hold that lock while they change the list. Until session 27 a sample
# that interrupted them there waited for the lock in its handler forever (here the first run
# of three hung; Open MPI's MPI_Init maps its components so: 4 of 10 runs of 3 ranks hung).
# Such samples now get no frames (sampling.c, dl_changing); SCOREP_VERBOSE counts the ones
# outside every call, which it leaves out.
. "$top_srcdir/test/integration/lib.sh"
command -v gcc >/dev/null 2>&1 || { echo "SKIP: no gcc"; exit 77; }
export SCOREP_RUN_LIBDIR="$top_builddir/.libs"
gcc -shared -fPIC -o libsdl.so "$PROGRAMS/sampling_dlopen_lib.c" || fail "gcc -shared failed"
gcc -O1 -o dlloop "$PROGRAMS/sampling_dlopen.c" -ldl || fail "gcc failed"
task_clock=$(perf_probe task_clock 20000)
if [ "$task_clock" != ok ]; then
    skip_part_here "sampling dlopen and dlclose at a 20 us perf clock" "the kernel refuses perf_event_open to this process ($task_clock)"
    echo "PASS: $checks checks"
    exit 0
fi
left=0
for r in 1 2 3; do
    rc=0
    timeout -k 5 60 env SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS=perf_task_clock@20000 \
        SCOREP_VERBOSE=true SCOREP_EXPERIMENT_DIRECTORY=dl$r \
        "$top_builddir/scorep-run" ./dlloop "$work/libsdl.so" 3000 >dl$r.out 2>dl$r.err || rc=$?
    expect_eq "$rc:$(cat dl$r.out)" "0:done" "run $r: ends (no hang: 124 or 137 is the timeout), its output"
    n=$(sed -n 's/.* \([0-9]*\) left out outside them while the dynamic linker changed its objects$/\1/p' dl$r.err)
    expect_eq "$(echo "$n" | grep -c '^[0-9][0-9]*$')" 1 "run $r: the verbose line of the main thread's samples"
    left=$((left + n))
done
# the guard engaged: the program spends most of its time inside dlopen and dlclose
expect_ge "$left" 1 "samples left out while the dynamic linker changed its objects (3 runs)"
echo "PASS: $checks checks"
