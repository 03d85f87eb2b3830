/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_waits.c (2 PEs): a contended lock and point-to-point waits with known counts, for
 * test_shmem_waits.sh. PE 1 takes the lock; after a barrier PE 0 tries it TRIES times with
 * shmem_test_lock (each fails: PE 1 holds it until PE 0 sets its flag, which PE 0 does only
 * afterwards), then sets PE 1's flag (shmem_int_p + shmem_quiet); PE 1 waits for it with
 * shmem_int_wait_until, releases the lock and sets PE 0's flag, which PE 0 waits for with
 * shmem_long_wait. PE 0 then takes the lock with shmem_set_lock and once more with a
 * successful shmem_test_lock. Per PE: PE 0 TRIES failed tests, 1 wait, 2 acquisitions and
 * releases; PE 1 1 wait, 1 acquisition and release. Prints "shmem_waits: ok" on PE 0. */
#include <shmem.h>
#include <stdio.h>

#define TRIES 5

static long lock, flag0;
static int flag1;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe();
    if (shmem_n_pes() != 2) {
        if (me == 0)
            fprintf(stderr, "shmem_waits: needs 2 PEs\n");
        shmem_global_exit(2);
    }
    if (me == 1)
        shmem_set_lock(&lock);
    shmem_barrier_all();
    if (me == 0) {
        int got = 0;
        for (int i = 0; i < TRIES; i++)
            got += shmem_test_lock(&lock) == 0;
        if (got) {
            fprintf(stderr, "shmem_waits: PE 0 got the lock PE 1 holds\n");
            shmem_global_exit(1);
        }
        shmem_int_p(&flag1, 1, 1);
        shmem_quiet();
        /* the wait deprecated in OpenSHMEM 1.4 (Score-P wraps it too) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        shmem_long_wait(&flag0, 0);
#pragma GCC diagnostic pop
        shmem_set_lock(&lock);
        shmem_clear_lock(&lock);
        if (shmem_test_lock(&lock) != 0) {
            fprintf(stderr, "shmem_waits: the free lock was not taken\n");
            shmem_global_exit(1);
        }
        shmem_clear_lock(&lock);
    } else {
        shmem_int_wait_until(&flag1, SHMEM_CMP_EQ, 1);
        shmem_clear_lock(&lock);
        shmem_long_p(&flag0, 1, 0);
        shmem_quiet();
    }
    shmem_barrier_all();
    if (me == 0)
        printf("shmem_waits: ok\n");
    shmem_finalize();
    return 0;
}
