/* SPDX-License-Identifier: BSD-3-Clause */
/* ipc_shmem.c: the OpenSHMEM backend of the measurement's communication, for programs
 * without MPI. pshmem only, on symmetric buffers of its own (never the application's):
 * barrier and broadcast are pshmem collectives; point-to-point messages go through one
 * mailbox slot per sender on every PE (put, fence, flag; the receiver acknowledges each
 * chunk), and gather/scatter are built on them. Messages between two PEs arrive in order
 * (each carries its tag, checked on receipt). Part of libscorep-rt-shmem. */
#include "ipc/ipc_shmem.h"
#include "base/log.h"
#include "ipc/ipc.h"
#include "ipc/systree_comm_ipc.h"

#include <pshmem.h>
#include <stdlib.h>
#include <string.h>

enum { SLOT = 16384, HDR = 16, PAYLOAD = SLOT - HDR, BCAST_LONGS = 8192 };

typedef struct {
    int32_t tag;
    uint32_t len;
    uint64_t unused;
} chunk_hdr;

static int me, npes;
static char *inbox;        /* symmetric: npes slots; slot s is written by PE s */
static long *ready;        /* symmetric: ready[s] = chunks PE s has put into my slot s */
static long *acked;        /* symmetric: acked[d] = chunks PE d has taken from its slot me */
static long *bsrc, *bdst;  /* symmetric: broadcast staging */
static long *psync;        /* symmetric: pSync of the broadcasts */
static long *sent, *taken; /* local: chunks sent to / received from each PE */

static int s_rank(void)
{
    return me;
}

static int s_size(void)
{
    return npes;
}

static int s_barrier(void)
{
    pshmem_barrier_all();
    return 0;
}

static int s_send(const void *buf, size_t bytes, int dest, int tag)
{
    if (dest < 0 || dest >= npes || dest == me)
        return -1;
    char *slot = inbox + (size_t)me * SLOT;
    size_t off = 0;
    do {
        size_t n = bytes - off < PAYLOAD ? bytes - off : PAYLOAD;
        chunk_hdr h = {tag, (uint32_t)n, 0};
        /* the previous chunk must have been taken before its slot is overwritten */
        pshmem_long_wait_until(&acked[dest], SHMEM_CMP_GE, sent[dest]);
        pshmem_putmem(slot, &h, sizeof h, dest);
        if (n)
            pshmem_putmem(slot + HDR, (const char *)buf + off, n, dest);
        pshmem_fence(); /* data before flag */
        pshmem_long_p(&ready[me], ++sent[dest], dest);
        off += n;
    } while (off < bytes);
    return 0;
}

static int s_recv(void *buf, size_t bytes, int source, int tag)
{
    if (source < 0 || source >= npes || source == me)
        return -1;
    const char *slot = inbox + (size_t)source * SLOT;
    size_t off = 0;
    int rc = 0;
    do {
        size_t n = bytes - off < PAYLOAD ? bytes - off : PAYLOAD;
        long want = taken[source] + 1;
        pshmem_long_wait_until(&ready[source], SHMEM_CMP_GE, want);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        chunk_hdr h;
        memcpy(&h, slot, sizeof h);
        if (h.tag != tag || h.len != n)
            rc = -1; /* a protocol error of the runtime: the results of this run are lost */
        else if (n)
            memcpy((char *)buf + off, slot + HDR, n);
        taken[source] = want;
        pshmem_long_p(&acked[me], want, source);
        off += n;
    } while (off < bytes);
    return rc;
}

static int s_bcast(void *buf, size_t bytes, int root)
{
    if (root < 0 || root >= npes)
        return -1;
    for (size_t off = 0; off < bytes; off += BCAST_LONGS * sizeof(long)) {
        size_t n =
            bytes - off < BCAST_LONGS * sizeof(long) ? bytes - off : BCAST_LONGS * sizeof(long);
        if (me == root)
            memcpy(bsrc, (char *)buf + off, n);
        pshmem_broadcast64(bdst, bsrc, (n + 7) / 8, root, 0, 0, npes, psync);
        if (me != root)
            memcpy((char *)buf + off, bdst, n);
        pshmem_barrier_all(); /* pSync and staging may be reused after this */
    }
    return 0;
}

enum { TAG_GATHER = 7401, TAG_GATHERV = 7402, TAG_SCATTERV = 7403 };

static int s_gatherv(const void *send, size_t bytes, void *recv, const size_t *counts,
                     const size_t *displs, int root)
{
    if (me != root)
        return s_send(send, bytes, root, TAG_GATHERV);
    int rc = 0;
    for (int r = 0; r < npes; r++) {
        if (r == root) {
            if (counts[r] != bytes)
                rc = -1;
            else if (bytes)
                memmove((char *)recv + displs[r], send, bytes);
        } else if (s_recv((char *)recv + displs[r], counts[r], r, TAG_GATHERV) != 0) {
            rc = -1;
        }
    }
    return rc;
}

static int s_gather(const void *send, size_t bytes, void *recv, int root)
{
    if (me != root)
        return s_send(send, bytes, root, TAG_GATHER);
    int rc = 0;
    for (int r = 0; r < npes; r++) {
        char *at = (char *)recv + (size_t)r * bytes;
        if (r == root)
            memmove(at, send, bytes);
        else if (s_recv(at, bytes, r, TAG_GATHER) != 0)
            rc = -1;
    }
    return rc;
}

static int s_scatterv(const void *send, const size_t *counts, const size_t *displs, void *recv,
                      size_t bytes, int root)
{
    if (me != root)
        return s_recv(recv, bytes, root, TAG_SCATTERV);
    int rc = 0;
    for (int r = 0; r < npes; r++) {
        if (r == root) {
            if (counts[r] != bytes)
                rc = -1;
            else if (bytes)
                memmove(recv, (const char *)send + displs[r], bytes);
        } else if (s_send((const char *)send + displs[r], counts[r], r, TAG_SCATTERV) != 0) {
            rc = -1;
        }
    }
    return rc;
}

static int s_max_u64(uint64_t *v)
{
    uint64_t *all = me == 0 ? malloc((size_t)npes * sizeof *all) : NULL;
    uint64_t failed = me == 0 && !all;
    int rc = 0;
    if (!failed)
        rc = s_gather(v, sizeof *v, all, 0);
    for (int r = 0; me == 0 && !failed && r < npes; r++)
        if (all[r] > *v)
            *v = all[r];
    free(all);
    /* a root without memory still sends a value: "failed" everywhere is the safe answer */
    if (failed)
        *v = UINT64_MAX;
    return s_bcast(v, sizeof *v, 0) == 0 && rc == 0 && !failed ? 0 : -1;
}

static const scorep_ipc ipc_shmem = {"shmem",   s_rank,     s_size, s_barrier, s_bcast,  s_gather,
                                     s_gatherv, s_scatterv, s_send, s_recv,    s_max_u64,
                                     systree_comm_ipc_world};

static void *block; /* the one symmetric allocation holding all of the above */

static void release(void)
{
    pshmem_free(block);
    free(sent);
    free(taken);
    block = NULL;
    inbox = NULL;
    ready = acked = bsrc = bdst = psync = sent = taken = NULL;
}

/* One symmetric block: oshmem fails an allocation on all PEs alike (the heap is symmetric),
 * so no agreement is needed. Static variables of a shared library are not symmetric. */
static size_t block_bytes(void)
{
    return (size_t)npes * SLOT +
           (2 * (size_t)npes + 2 * BCAST_LONGS + SHMEM_BCAST_SYNC_SIZE) * sizeof(long);
}

int scorep_shmem_ipc_start(void)
{
    me = pshmem_my_pe();
    npes = pshmem_n_pes();
    block = pshmem_malloc(block_bytes());
    sent = calloc((size_t)npes, sizeof(long));
    taken = calloc((size_t)npes, sizeof(long));
    if (!block || !sent || !taken) {
        scorep_warn("PE %d: cannot allocate the measurement's %zu bytes of symmetric memory "
                    "(SHMEM_SYMMETRIC_HEAP_SIZE); the run writes no results",
                    me, block_bytes());
        release();
        me = 0;
        npes = 1;
        return -1;
    }
    inbox = block;
    ready = (long *)(inbox + (size_t)npes * SLOT);
    acked = ready + npes;
    bsrc = acked + npes;
    bdst = bsrc + BCAST_LONGS;
    psync = bdst + BCAST_LONGS;
    memset(ready, 0, 2 * (size_t)npes * sizeof(long));
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    pshmem_barrier_all(); /* initialised everywhere before the first message */
    scorep_ipc_set(&ipc_shmem);
    return 0;
}

void scorep_shmem_ipc_stop(void)
{
    if (scorep_ipc_get() != &ipc_shmem)
        return;
    scorep_ipc_set(NULL);
    pshmem_barrier_all(); /* nobody still waits for a message */
    release();
}
