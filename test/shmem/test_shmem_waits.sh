#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_shmem_waits.sh: the RMA events of a contended lock and of point-to-point waits, as
# Score-P's SHMEM adapter records them (its lock and wait wrappers):
# test/shmem/shmem_waits.c linked with `scorep-cc oshcc`, 2 PEs under oshrun, traced, read
# with otf2-print. Per PE, in order, with the call each record is in: a shmem_test_lock that
# fails is an RmaTryLock (PE 0: 5, PE 1 holding the lock), a successful one an
# RmaRequestLock (as Score-P's lock wrappers: RmaAcquireLock is shmem_set_lock's); shmem_int_wait_until and shmem_long_wait an RmaWaitChange right after
# their Enter; all on the symmetric heap's window, remote: all PEs, the lock's id (its
# address) the same in every lock record of a PE, EXCLUSIVE. The profile is unchanged by
# them (visits of the calls).
. "$top_srcdir/test/integration/lib.sh"

[ -e "$top_builddir/.libs/libscorep-rt-shmem.so" ] || { echo "SKIP: the SHMEM adapter was not built"; exit 77; }
command -v oshrun >/dev/null 2>&1 && command -v oshcc >/dev/null 2>&1 ||
    { echo "SKIP: no oshrun or oshcc"; exit 77; }
# oshmem segfaults in shmem_finalize without this (reference/environment.md)
export OMPI_MCA_osc='^rdma' OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

"$SCOREP_CC" oshcc -o waits "$top_srcdir/test/shmem/shmem_waits.c" >cc.out 2>&1 ||
    fail "scorep-cc oshcc: $(cat cc.out)"
run_app w env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$work/exp" \
    TEST_TIMEOUT=120 oshrun --oversubscribe -np 2 ./waits
expect_eq "$status $(cat w.out)" "0 shmem_waits: ok" "2 PEs: exit status and output"
expect_no_grep 'scorep-rt' w.err "no message of the runtime"
expect_defs_clean exp "shmem_waits"
t=$(trace_file exp)

# sequence LOCATION: the location's lock and wait records "NAME@CALL" (+ " remote type" for
# locks; "+enter" when the record follows the Enter of its call directly), then "ids N":
# the number of distinct lock ids
sequence()
{
    awk -v loc="$1" '$2 == loc' "$t" | python3 -c '
import re, sys
stack, out, ids, prev = [], [], set(), ""
for line in sys.stdin:
    name = line.split()[0]
    m = re.search(r"Region: \"([^\"]*)\"", line)
    if name == "ENTER":
        stack.append(m.group(1))
    elif name == "LEAVE":
        stack.pop()
    elif re.match(r"RMA_(TRY|ACQUIRE|REQUEST|RELEASE)_LOCK$|RMA_WAIT_CHANGE$", name):
        f = dict(re.findall(r"(Window|Remote|Lock|Type): (\"[^\"]*\" <\d+>|[^,\n]+)", line))
        s = "%s@%s %s" % (name, stack[-1], re.sub(r" <\d+>$", "", f["Window"]))
        if "Lock" in f:
            ids.add(f["Lock"])
            s += " %s %s" % (f["Remote"], f.get("Type", "-"))
        if prev == "ENTER":
            s += " +enter"
        out.append(s)
    prev = name
out.append("ids %d" % len(ids))
print(";".join(out))
'
}

h='"SHMEM symmetric heap"'
try="RMA_TRY_LOCK@shmem_test_lock $h UNDEFINED EXCLUSIVE +enter"
# (an acquisition follows the call's lock primitive: after its Enter only when nothing else
# was recorded between; a release and a wait come before the call's work, right after the
# Enter)
expect_eq "$(sequence 0)" \
    "$try;$try;$try;$try;$try;RMA_WAIT_CHANGE@shmem_long_wait $h +enter;RMA_ACQUIRE_LOCK@shmem_set_lock $h UNDEFINED EXCLUSIVE +enter;RMA_RELEASE_LOCK@shmem_clear_lock $h UNDEFINED - +enter;RMA_REQUEST_LOCK@shmem_test_lock $h UNDEFINED EXCLUSIVE +enter;RMA_RELEASE_LOCK@shmem_clear_lock $h UNDEFINED - +enter;ids 1" \
    "PE 0: 5 failed tests (RmaTryLock), the wait, the lock set (RmaAcquireLock) then got by a test (RmaRequestLock); one lock id"
expect_eq "$(sequence 1)" \
    "RMA_ACQUIRE_LOCK@shmem_set_lock $h UNDEFINED EXCLUSIVE +enter;RMA_WAIT_CHANGE@shmem_int_wait_until $h +enter;RMA_RELEASE_LOCK@shmem_clear_lock $h UNDEFINED - +enter;ids 1" \
    "PE 1: the lock held across the wait for PE 0's flag"
expect_eq "$(profile_sum exp main/shmem_test_lock visits 0) $(profile_sum exp main/shmem_long_wait visits 0) $(profile_sum exp main/shmem_int_wait_until visits 1)" \
    "6 1 1" "profile: the calls' visits"
done_ok
