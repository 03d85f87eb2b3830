/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_threads.c: OpenSHMEM with SHMEM_THREAD_MULTIPLE (test_shmem.sh): on every PE thread t
 * (t = 1, 2) puts t times 8 bytes and once 16 bytes non-blocking to the next PE, then calls
 * shmem_quiet, which completes that thread's non-blocking put only. */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>

static long slots[3][2];

static void *worker(void *arg)
{
    int t = (int)(long)arg, right = (shmem_my_pe() + 1) % shmem_n_pes();
    long v[2] = {t, t};
    for (int i = 0; i < t; i++)
        shmem_long_put(slots[t], v, 1, right);
    shmem_putmem_nbi(slots[t], v, sizeof v, right);
    shmem_quiet();
    return NULL;
}

int main(void)
{
    int provided = -1;
    if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0 ||
        provided != SHMEM_THREAD_MULTIPLE) {
        printf("shmem_threads: SHMEM_THREAD_MULTIPLE not provided\n");
        shmem_finalize();
        return 77;
    }
    pthread_t th[2];
    for (long t = 1; t <= 2; t++)
        if (pthread_create(&th[t - 1], NULL, worker, (void *)t) != 0)
            return 1;
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
    int ok = slots[1][1] == 1 && slots[2][1] == 2;
    if (shmem_my_pe() == 0)
        printf("shmem_threads: %d PEs %s\n", shmem_n_pes(), ok ? "ok" : "WRONG RESULTS");
    shmem_finalize();
    return ok ? 0 : 1;
}
