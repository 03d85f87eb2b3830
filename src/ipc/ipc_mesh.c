/* SPDX-License-Identifier: BSD-3-Clause */
/* ipc_mesh.c: an ipc backend among processes forked by one parent, one stream socket per
 * pair of ranks (scorep-recover: each child plays one rank of a job that died, and the
 * finalize code runs over this backend as it runs over MPI). Collectives are built on the
 * point-to-point messages, rooted and linear: recovery is not the hot path. */
#include "ipc/ipc_mesh.h"
#include "base/fd_io.h"
#include "ipc/systree_comm_ipc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int my_rank, n_ranks;
static const int *peer_fd;

/* a message read while waiting for another tag from the same peer */
typedef struct pending {
    struct pending *next;
    int src, tag;
    size_t len;
    unsigned char data[];
} pending;
static pending *queue;

enum { TAG_BCAST = -100, TAG_GATHER = -101, TAG_SCATTER = -102, TAG_MAX = -103 };

static int mesh_rank(void)
{
    return my_rank;
}

static int mesh_size(void)
{
    return n_ranks;
}

static int mesh_send(const void *buf, size_t bytes, int dest, int tag)
{
    if (dest < 0 || dest >= n_ranks || dest == my_rank)
        return -1;
    int64_t head[2] = {tag, (int64_t)bytes};
    return scorep_write_all(peer_fd[dest], head, sizeof head) ||
                   scorep_write_all(peer_fd[dest], buf, bytes)
               ? -1
               : 0;
}

/* The next message from src with tag: from the queue, else read, queueing others. A message
 * longer than bytes is an error (as MPI's truncation); a shorter one fills the front. */
static int mesh_recv(void *buf, size_t bytes, int src, int tag)
{
    if (src < 0 || src >= n_ranks || src == my_rank)
        return -1;
    for (pending **pp = &queue; *pp; pp = &(*pp)->next)
        if ((*pp)->src == src && (*pp)->tag == tag) {
            pending *m = *pp;
            *pp = m->next;
            int rc = m->len <= bytes ? 0 : -1;
            if (rc == 0)
                memcpy(buf, m->data, m->len);
            free(m);
            return rc;
        }
    for (;;) {
        int64_t head[2];
        if (scorep_read_all(peer_fd[src], head, sizeof head) != 0 || head[1] < 0)
            return -1;
        size_t len = (size_t)head[1];
        if (head[0] == tag) {
            if (len > bytes)
                return -1;
            return scorep_read_all(peer_fd[src], buf, len);
        }
        pending *m = malloc(sizeof *m + len);
        if (!m || scorep_read_all(peer_fd[src], m->data, len) != 0) {
            free(m);
            return -1;
        }
        m->src = src;
        m->tag = (int)head[0];
        m->len = len;
        pending **tail = &queue;
        while (*tail)
            tail = &(*tail)->next;
        m->next = NULL;
        *tail = m;
    }
}

static int mesh_bcast(void *buf, size_t bytes, int root)
{
    if (my_rank != root)
        return mesh_recv(buf, bytes, root, TAG_BCAST);
    int rc = 0;
    for (int r = 0; r < n_ranks; r++)
        if (r != root)
            rc |= mesh_send(buf, bytes, r, TAG_BCAST);
    return rc;
}

static int mesh_gatherv(const void *send, size_t bytes, void *recv, const size_t *counts,
                        const size_t *displs, int root)
{
    if (my_rank != root)
        return mesh_send(send, bytes, root, TAG_GATHER);
    if (counts[root] != bytes)
        return -1;
    memmove((char *)recv + displs[root], send, bytes);
    int rc = 0;
    for (int r = 0; r < n_ranks; r++)
        if (r != root)
            rc |= mesh_recv((char *)recv + displs[r], counts[r], r, TAG_GATHER);
    return rc;
}

static int mesh_gather(const void *send, size_t bytes, void *recv, int root)
{
    size_t *counts = NULL, *displs = NULL;
    if (my_rank == root) {
        counts = malloc(2 * (size_t)n_ranks * sizeof *counts);
        if (!counts)
            return -1;
        displs = counts + n_ranks;
        for (int r = 0; r < n_ranks; r++) {
            counts[r] = bytes;
            displs[r] = (size_t)r * bytes;
        }
    }
    int rc = mesh_gatherv(send, bytes, recv, counts, displs, root);
    free(counts);
    return rc;
}

static int mesh_scatterv(const void *send, const size_t *counts, const size_t *displs, void *recv,
                         size_t bytes, int root)
{
    if (my_rank != root)
        return mesh_recv(recv, bytes, root, TAG_SCATTER);
    if (counts[root] != bytes)
        return -1;
    memmove(recv, (const char *)send + displs[root], bytes);
    int rc = 0;
    for (int r = 0; r < n_ranks; r++)
        if (r != root)
            rc |= mesh_send((const char *)send + displs[r], counts[r], r, TAG_SCATTER);
    return rc;
}

static int mesh_allreduce_max(uint64_t *v)
{
    int rc = 0;
    if (my_rank == 0) {
        for (int r = 1; r < n_ranks; r++) {
            uint64_t x = 0;
            rc |= mesh_recv(&x, sizeof x, r, TAG_MAX);
            if (x > *v)
                *v = x;
        }
    } else {
        rc |= mesh_send(v, sizeof *v, 0, TAG_MAX);
    }
    return rc | mesh_bcast(v, sizeof *v, 0);
}

static int mesh_barrier(void)
{
    uint64_t v = 0;
    return mesh_allreduce_max(&v);
}

static const scorep_ipc mesh = {"mesh",       mesh_rank,          mesh_size,
                                mesh_barrier, mesh_bcast,         mesh_gather,
                                mesh_gatherv, mesh_scatterv,      mesh_send,
                                mesh_recv,    mesh_allreduce_max, systree_comm_ipc_world};

const scorep_ipc *scorep_ipc_mesh(int rank, int size, const int *fds)
{
    my_rank = rank;
    n_ranks = size;
    peer_fd = fds;
    return &mesh;
}

int *scorep_ipc_mesh_sockets(int size)
{
    int *pairs = malloc((size_t)size * (size_t)size * sizeof *pairs);
    if (!pairs)
        return NULL;
    for (int i = 0; i < size * size; i++)
        pairs[i] = -1;
    for (int i = 0; i < size; i++)
        for (int j = i + 1; j < size; j++) {
            int sv[2];
            if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
                scorep_ipc_mesh_close(pairs, size, -1);
                return NULL;
            }
            pairs[i * size + j] = sv[0];
            pairs[j * size + i] = sv[1];
        }
    return pairs;
}

void scorep_ipc_mesh_close(int *pairs, int size, int keep)
{
    for (int i = 0; i < size; i++)
        for (int j = 0; j < size; j++)
            if (i != keep && pairs[i * size + j] >= 0) {
                close(pairs[i * size + j]);
                pairs[i * size + j] = -1;
            }
}
