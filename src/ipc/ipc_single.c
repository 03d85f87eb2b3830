/* SPDX-License-Identifier: BSD-3-Clause */
/* ipc_single.c: the single-process backend (rank 0 of 1, collectives are copies), and the
 * collective helpers every backend shares (scorep_ipc_gather_blobs, _allreduce_or). */
#include "ipc/ipc.h"

#include <stdlib.h>
#include <string.h>

static int one_rank(void)
{
    return 0;
}

static int one_size(void)
{
    return 1;
}

static int nothing(void)
{
    return 0;
}

static int bcast(void *buf, size_t bytes, int root)
{
    (void)buf;
    (void)bytes;
    return root == 0 ? 0 : -1;
}

static int gather(const void *send, size_t bytes, void *recv, int root)
{
    if (root != 0)
        return -1;
    memmove(recv, send, bytes);
    return 0;
}

static int gatherv(const void *send, size_t bytes, void *recv, const size_t *counts,
                   const size_t *displs, int root)
{
    if (root != 0 || counts[0] != bytes)
        return -1;
    memmove((char *)recv + displs[0], send, bytes);
    return 0;
}

static int scatterv(const void *send, const size_t *counts, const size_t *displs, void *recv,
                    size_t bytes, int root)
{
    if (root != 0 || counts[0] != bytes)
        return -1;
    memmove(recv, (const char *)send + displs[0], bytes);
    return 0;
}

static int no_p2p(const void *buf, size_t bytes, int peer, int tag)
{
    (void)buf;
    (void)bytes;
    (void)peer;
    (void)tag;
    return -1;
}

static int no_recv(void *buf, size_t bytes, int peer, int tag)
{
    return no_p2p(buf, bytes, peer, tag);
}

static int max_u64(uint64_t *v)
{
    (void)v;
    return 0;
}

const scorep_ipc scorep_ipc_single = {"single", one_rank, one_size, nothing, bcast,  gather,
                                      gatherv,  scatterv, no_p2p,   no_recv, max_u64,
                                      NULL};

static const scorep_ipc *current = &scorep_ipc_single;

const scorep_ipc *scorep_ipc_get(void)
{
    return current;
}

void scorep_ipc_set(const scorep_ipc *backend)
{
    current = backend ? backend : &scorep_ipc_single;
}

static int job_multi = -1; /* -1: the backend's */

int scorep_ipc_job_multi(void)
{
    return job_multi >= 0 ? job_multi : current != &scorep_ipc_single;
}

void scorep_ipc_set_job_multi(int multi)
{
    job_multi = multi < 0 ? -1 : multi != 0;
}

static const scorep_ipc_hooks *hooks;

void scorep_ipc_set_hooks(const scorep_ipc_hooks *h)
{
    __atomic_store_n(&hooks, h, __ATOMIC_RELEASE);
}

const scorep_ipc_hooks *scorep_ipc_hooks_get(void)
{
    return __atomic_load_n(&hooks, __ATOMIC_ACQUIRE);
}

int scorep_ipc_gather_blobs(const void *data, size_t len, unsigned char **all, size_t **offsets,
                            size_t **lengths)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    int size = ipc->size(), root = ipc->rank() == 0;
    uint64_t mine = len, *lens = root ? calloc(size, sizeof *lens) : NULL;
    size_t *counts = root ? calloc(size, sizeof *counts) : NULL;
    size_t *displs = root ? calloc(size, sizeof *displs) : NULL;
    unsigned char *buf = NULL;
    int rc = root && (!lens || !counts || !displs) ? -1 : 0;
    if (ipc->gather(&mine, sizeof mine, lens, 0) != 0)
        rc = -1;
    size_t total = 0;
    for (int r = 0; root && rc == 0 && r < size; r++) {
        counts[r] = lens[r];
        displs[r] = total;
        total += lens[r];
    }
    if (root && rc == 0 && !(buf = malloc(total ? total : 1)))
        rc = -1;
    /* ranks take part whatever happened at the root (small blobs are sent eagerly); a root
     * without memory for the blobs cannot receive them */
    if ((!root || rc == 0) && ipc->gatherv(data, len, buf, counts, displs, 0) != 0)
        rc = -1;
    free(lens);
    if (rc != 0 || !root) {
        free(buf);
        free(counts);
        free(displs);
        buf = NULL;
        counts = displs = NULL;
    }
    *all = buf;
    *offsets = displs;
    *lengths = counts;
    return rc;
}

enum { TAG_OR = 1910, OR_PIECE = 512 /* words: 4 KiB */ };

int scorep_ipc_allreduce_or(uint64_t *words, size_t n)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    int rank = ipc->rank(), size = ipc->size();
    uint64_t failed = words == NULL;
    if (ipc->allreduce_max_u64(&failed) != 0 || failed)
        return -1; /* every rank knows: nobody sends */
    int rc = 0;
    for (int d = 1; d < size; d <<= 1) {
        if (rank & d) { /* the partner has its words too: it takes every piece */
            for (size_t at = 0; at < n; at += OR_PIECE) {
                size_t k = n - at < OR_PIECE ? n - at : OR_PIECE;
                if (ipc->send(words + at, k * sizeof *words, rank - d, TAG_OR) != 0)
                    rc = -1;
            }
            break;
        }
        if (rank + d >= size)
            continue;
        uint64_t piece[OR_PIECE];
        for (size_t at = 0; at < n; at += OR_PIECE) {
            size_t k = n - at < OR_PIECE ? n - at : OR_PIECE;
            if (ipc->recv(piece, k * sizeof *piece, rank + d, TAG_OR) != 0) {
                rc = -1;
                continue;
            }
            for (size_t i = 0; i < k; i++)
                words[at + i] |= piece[i];
        }
    }
    if (ipc->bcast(words, n * sizeof *words, 0) != 0)
        rc = -1;
    failed = rc != 0;
    if (ipc->allreduce_max_u64(&failed) != 0 || failed)
        return -1;
    return 0;
}
