/* SPDX-License-Identifier: BSD-3-Clause */
/* ipc_mpi.c: the MPI backend of the measurement's communication (PMPI only); it calls the
 * runtime's MPI life cycle through the hooks the runtime registers (scorep_ipc_hooks). Part
 * of libscorep-rt-mpi. Inside MPI_Init it runs on MPI_COMM_WORLD itself: the program has no
 * communication yet that could mix with the tool's, and a communicator created there would
 * shift the handle values (Fortran integers) of the program's own communicators.
 * MPI_Finalize's steps run on a private duplicate. */
#include "ipc/ipc.h"
#include "ipc/ipc_mpi.h"
#include "systree/systree_comm_mpi.h"

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* Its presence tells the core (dlsym) that this is an MPI program. */
__attribute__((visibility("default"))) const int scorep_mpi_adapter_present = 1;

static MPI_Comm comm = MPI_COMM_NULL;
static int world_rank, world_size;

static int ok(int rc)
{
    return rc == MPI_SUCCESS ? 0 : -1;
}

static int m_rank(void)
{
    return world_rank;
}

static int m_size(void)
{
    return world_size;
}

static int m_barrier(void)
{
    return ok(PMPI_Barrier(comm));
}

/* MPI counts are int: send big buffers as MPI_BYTE in chunks of at most 1 GiB */
enum { CHUNK = 1 << 30 };

static int m_bcast(void *buf, size_t bytes, int root)
{
    for (size_t off = 0; off < bytes; off += CHUNK) {
        int n = (int)(bytes - off < CHUNK ? bytes - off : CHUNK);
        if (PMPI_Bcast((char *)buf + off, n, MPI_BYTE, root, comm) != MPI_SUCCESS)
            return -1;
    }
    return 0;
}

static int m_gather(const void *send, size_t bytes, void *recv, int root)
{
    return ok(PMPI_Gather(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, root, comm));
}

/* gatherv/scatterv with byte counts: done with point-to-point so sizes may exceed INT_MAX
 * in total; rank order, root copies its own part. */
static int m_send(const void *buf, size_t bytes, int dest, int tag)
{
    for (size_t off = 0; off < bytes || off == 0; off += CHUNK) {
        int n = (int)(bytes - off < CHUNK ? bytes - off : CHUNK);
        if (PMPI_Send((const char *)buf + off, n, MPI_BYTE, dest, tag, comm) != MPI_SUCCESS)
            return -1;
        if (bytes == 0)
            break;
    }
    return 0;
}

static int m_recv(void *buf, size_t bytes, int source, int tag)
{
    for (size_t off = 0; off < bytes || off == 0; off += CHUNK) {
        int n = (int)(bytes - off < CHUNK ? bytes - off : CHUNK);
        if (PMPI_Recv((char *)buf + off, n, MPI_BYTE, source, tag, comm, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
            return -1;
        if (bytes == 0)
            break;
    }
    return 0;
}

enum { TAG_GATHERV = 7301, TAG_SCATTERV = 7302 };

static int m_gatherv(const void *send, size_t bytes, void *recv, const size_t *counts,
                     const size_t *displs, int root)
{
    if (world_rank != root)
        return m_send(send, bytes, root, TAG_GATHERV);
    int rc = 0;
    for (int r = 0; r < world_size; r++) {
        if (r == root) {
            if (counts[r] != bytes)
                rc = -1;
            else if (bytes)
                memmove((char *)recv + displs[r], send, bytes);
        } else if (m_recv((char *)recv + displs[r], counts[r], r, TAG_GATHERV) != 0) {
            rc = -1;
        }
    }
    return rc;
}

static int m_scatterv(const void *send, const size_t *counts, const size_t *displs, void *recv,
                      size_t bytes, int root)
{
    if (world_rank != root)
        return m_recv(recv, bytes, root, TAG_SCATTERV);
    int rc = 0;
    for (int r = 0; r < world_size; r++) {
        if (r == root) {
            if (counts[r] != bytes)
                rc = -1;
            else if (bytes)
                memmove(recv, (const char *)send + displs[r], bytes);
        } else if (m_send((const char *)send + displs[r], counts[r], r, TAG_SCATTERV) != 0) {
            rc = -1;
        }
    }
    return rc;
}

static int m_max_u64(uint64_t *v)
{
    uint64_t in = *v;
    return ok(PMPI_Allreduce(&in, v, 1, MPI_UINT64_T, MPI_MAX, comm));
}

static systree_comm *systree_world(void)
{
    return systree_comm_mpi_create(comm);
}

static const scorep_ipc ipc_mpi = {"mpi",     m_rank,     m_size, m_barrier, m_bcast,  m_gather,
                                   m_gatherv, m_scatterv, m_send, m_recv,    m_max_u64,
                                   systree_world};

int scorep_mpi_world_rank(void)
{
    return world_rank;
}

int scorep_mpi_world_size(void)
{
    return world_size;
}

void scorep_mpi_after_init(void)
{
    if (comm != MPI_COMM_NULL)
        return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    comm = MPI_COMM_WORLD;
    scorep_ipc_set(&ipc_mpi);
    MPI_Comm parent = MPI_COMM_NULL;
    PMPI_Comm_get_parent(&parent);
    const scorep_ipc_hooks *h = scorep_ipc_hooks_get();
    if (h)
        h->ready(parent != MPI_COMM_NULL);
}

void scorep_mpi_before_finalize(void)
{
    if (comm == MPI_COMM_NULL)
        return;
    /* a program may leave messages unreceived; on a duplicate they cannot meet the tool's */
    if (PMPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS)
        comm = MPI_COMM_WORLD;
    const scorep_ipc_hooks *h = scorep_ipc_hooks_get();
    if (h)
        h->finalize();
    if (comm != MPI_COMM_WORLD)
        PMPI_Comm_free(&comm);
    comm = MPI_COMM_NULL;
    scorep_ipc_set(NULL);
}
