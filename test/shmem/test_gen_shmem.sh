#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_gen_shmem.sh: build-aux/gen-shmem-wrappers: the real table is valid and lists 916
# functions with the expected events; a broken table is refused with its file:line and the
# reason. Needs python3 only (no OpenSHMEM).
. "$top_srcdir/test/integration/lib.sh"
gen="$top_srcdir/build-aux/gen-shmem-wrappers"
spec="$top_srcdir/src/adapters/shmem/shmem_functions.spec"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

python3 "$gen" --check "$spec" || fail "the table is invalid"
python3 "$gen" --list "$spec" >list || fail "--list"
expect_eq "$(wc -l <list)" 916 "916 functions"
expect_grep '^shmem_int_put rma put,complete$' list "shmem_int_put: RmaPut, completion"
expect_grep '^shmem_putmem_nbi rma put_nbi$' list "shmem_putmem_nbi: RmaPut only"
expect_grep '^shmem_barrier_all barrier coll_begin,coll_world_end,quiet$' list "barrier_all"
expect_grep '^shmem_long_sum_to_all all2all coll_begin,coll_end$' list "reductions"
expect_grep '^shmem_set_lock rma lock_acquired$' list "set_lock"
expect_eq "$(grep -c ' atomic,complete$' list)" 298 "298 atomics"
expect_grep '^shmem_test_lock rma lock_granted|lock_tried$' list \
    "test_lock: RmaRequestLock when it got the lock (as Score-P), else RmaTryLock"
expect_eq "$(grep -c ' function wait_change$' list) $(grep -c '_wait\(_until\)\? ' list)" "23 23" \
    "the 23 waits (shmem_wait, shmem_TYPE_wait(_until), shmemx_int32/64_wait(_until)): RmaWaitChange"
expect_grep '^shmem_int_test function -$' list "shmem_int_test: a plain region"

# bad tables: exit 1, "FILE:LINE: reason"
bad()
{
    printf '%s\n' "$1" >bad.spec
    rc=0
    python3 "$gen" --check bad.spec >out 2>err || rc=$?
    expect_eq "$rc" 1 "$2: refused"
    expect_grep "^gen-shmem-wrappers: bad.spec:1: $3" err "$2: message"
}
bad 'shmem_x | rma | void | int pe | put(pe)' "wrong argument count" 'put takes 2 arguments'
bad 'shmem_x | rma | void | int pe | put(pe, nbytes)' "unknown name" '"nbytes" in "nbytes" is not a parameter of shmem_x'
bad 'shmem_x | rma | void | int pe | teleport(pe)' "unknown item" 'unknown item "teleport\(pe\)"'
bad 'shmem_x | remote | void | int pe | -' "unknown role" 'unknown role "remote"'
bad 'shmem_x | rma | void | int pe' "missing field" 'expected 5 fields separated by "\|", found 4'
bad 'shmem_x | all2all | void | int s | coll(GATHER, s, 0, 1, -1, 0, 0)' "unknown collective" \
    'unknown collective "GATHER"'
done_ok
