/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_rma.c: an OpenSHMEM test program with known communication per PE (2-4 PEs): puts,
 * gets, non-blocking puts/gets, atomics, collectives on all PEs and on an active set, a lock.
 * test_shmem.sh checks the events and bytes of its measured runs against these numbers.
 * Built with `scorep-cc --user` and -DMANY_REGIONS, every PE also visits 1500 user regions of
 * its own (names longer than the SHMEM ipc's 16 KiB mailbox chunks in total). */
#ifdef MANY_REGIONS
#include <scorep/SCOREP_User.h>
#endif
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

static long src[16], dst[16], bcast_dst[4], coll_dst[8], a2a_src[4], a2a_dst[4];
static long red_src[3], red_dst[3], pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 3];
static long psync[SHMEM_REDUCE_SYNC_SIZE], psync2[SHMEM_REDUCE_SYNC_SIZE];
static long lock, counter;
static int flag;
static char bytes_dst[100];

#ifdef MANY_REGIONS
static void many_regions(int me)
{
    char name[64];
    for (int i = 0; i < 1500; i++) {
        snprintf(name, sizeof name, "pe%d_user_region_with_a_long_name_%04d", me, i);
        SCOREP_USER_REGION_BY_NAME_BEGIN(name, SCOREP_USER_REGION_TYPE_COMMON)
        SCOREP_USER_REGION_BY_NAME_END(name)
    }
}
#else
static void many_regions(int me)
{
    (void)me;
}
#endif

static void reset(long *p, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = SHMEM_SYNC_VALUE;
}

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
    if (n > 4) {
        fprintf(stderr, "shmem_rma: 2-4 PEs\n");
        shmem_global_exit(2);
    }
    many_regions(me);
    char *heap = shmem_malloc(100);
    for (int i = 0; i < 16; i++)
        src[i] = me * 100 + i;
    reset(psync, SHMEM_REDUCE_SYNC_SIZE);
    reset(psync2, SHMEM_REDUCE_SYNC_SIZE);
    shmem_barrier_all();

    /* puts: 64 + 4 bytes blocking, 100 non-blocking */
    shmem_long_put(dst, src, 8, right);
    shmem_int_p(&flag, me, right);
    shmem_putmem_nbi(heap, bytes_dst, 100, right);
    shmem_quiet();
    /* gets: 128 + 8 bytes blocking, 48 non-blocking */
    shmem_long_get(dst, src, 16, left);
    long g = shmem_long_g(&src[0], left);
    shmem_getmem_nbi(bytes_dst, heap, 48, left);
    shmem_quiet();
    shmem_barrier_all();

    /* atomics on PE 0: fetch-add (8 sent, 8 fetched), inc (0, 0), compare-swap (16, 8) */
    shmem_long_atomic_fetch_add(&counter, 1, 0);
    shmem_long_atomic_inc(&counter, 0);
    shmem_long_atomic_compare_swap(&counter, -1, 0, 0);
    shmem_barrier_all();

    /* lock: set, put 8 bytes, clear */
    shmem_set_lock(&lock);
    shmem_long_p(&counter, 7, 0);
    shmem_clear_lock(&lock);

    /* collectives on all PEs */
    shmem_broadcast64(bcast_dst, src, 4, 0, 0, 0, n, psync);
    shmem_barrier_all();
    shmem_fcollect64(coll_dst, src, 2, 0, 0, n, psync);
    shmem_barrier_all();
    for (int i = 0; i < 3; i++)
        red_src[i] = me + i;
    shmem_long_sum_to_all(red_dst, red_src, 3, 0, 0, n, pwrk, psync2);
    shmem_barrier_all();
    shmem_alltoall64(a2a_dst, a2a_src, 1, 0, 0, n, psync);
    shmem_sync_all();
    /* a collective of the active set {0, 2, ...} (start 0, stride 2^1) */
    int evens = (n + 1) / 2;
    if (me % 2 == 0)
        shmem_barrier(0, 1, evens, psync2);
    shmem_barrier_all();

    int ok = red_dst[0] == (long)n * (n - 1) / 2 && (me == 0 || bcast_dst[3] == 3) &&
             g == left * 100 && coll_dst[2 * (n - 1)] == (n - 1) * 100;
    if (me == 0)
        printf("shmem_rma: %d PEs %s\n", n, ok ? "ok" : "WRONG RESULTS");
    shmem_free(heap);
    shmem_finalize();
    return ok ? 0 : 1;
}
