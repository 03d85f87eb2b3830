/* SPDX-License-Identifier: BSD-3-Clause */
/* recover_mpi.c: `mpirun -np N scorep-recover EXPDIR`: each MPI process of the recovery plays
 * one rank of the job that died (N = the job's ranks), and the finalize's writers run
 * over this ipc backend on a duplicate of MPI_COMM_WORLD (plain MPI: the tool is not
 * measured). Built only when MPI is (RECOVER_WITH_MPI). */
#include "tools/recover_mpi.h"

#ifdef RECOVER_WITH_MPI
#include "ipc/systree_comm_ipc.h"

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <stdlib.h>

static MPI_Comm comm = MPI_COMM_NULL;

static int m_rank(void)
{
    int r;
    MPI_Comm_rank(comm, &r);
    return r;
}

static int m_size(void)
{
    int s;
    MPI_Comm_size(comm, &s);
    return s;
}

static int ok(int rc)
{
    return rc == MPI_SUCCESS ? 0 : -1;
}

static int m_barrier(void)
{
    return ok(MPI_Barrier(comm));
}

static int m_bcast(void *buf, size_t bytes, int root)
{
    return bytes > INT_MAX ? -1 : ok(MPI_Bcast(buf, (int)bytes, MPI_BYTE, root, comm));
}

static int m_gather(const void *send, size_t bytes, void *recv, int root)
{
    return bytes > INT_MAX
               ? -1
               : ok(MPI_Gather(send, (int)bytes, MPI_BYTE, recv, (int)bytes, MPI_BYTE, root, comm));
}

/* counts and displacements in bytes as MPI's ints (at root only) */
static int *to_ints(const size_t *counts, const size_t *displs, int n)
{
    int *v = malloc(2 * (size_t)n * sizeof *v);
    for (int i = 0; v && i < n; i++) {
        if (counts[i] > INT_MAX || displs[i] > INT_MAX) {
            free(v);
            return NULL;
        }
        v[i] = (int)counts[i];
        v[n + i] = (int)displs[i];
    }
    return v;
}

static int m_gatherv(const void *send, size_t bytes, void *recv, const size_t *counts,
                     const size_t *displs, int root)
{
    int n = m_size(), *v = NULL;
    if (m_rank() == root && !(v = to_ints(counts, displs, n)))
        return -1; /* (the others then wait in the gather: as MPI itself, a usage error) */
    int rc = bytes > INT_MAX ? -1
                             : ok(MPI_Gatherv(send, (int)bytes, MPI_BYTE, recv, v, v ? v + n : NULL,
                                              MPI_BYTE, root, comm));
    free(v);
    return rc;
}

static int m_scatterv(const void *send, const size_t *counts, const size_t *displs, void *recv,
                      size_t bytes, int root)
{
    int n = m_size(), *v = NULL;
    if (m_rank() == root && !(v = to_ints(counts, displs, n)))
        return -1;
    int rc = bytes > INT_MAX ? -1
                             : ok(MPI_Scatterv(send, v, v ? v + n : NULL, MPI_BYTE, recv,
                                               (int)bytes, MPI_BYTE, root, comm));
    free(v);
    return rc;
}

static int m_send(const void *buf, size_t bytes, int dest, int tag)
{
    return bytes > INT_MAX ? -1 : ok(MPI_Send(buf, (int)bytes, MPI_BYTE, dest, tag, comm));
}

static int m_recv(void *buf, size_t bytes, int source, int tag)
{
    return bytes > INT_MAX
               ? -1
               : ok(MPI_Recv(buf, (int)bytes, MPI_BYTE, source, tag, comm, MPI_STATUS_IGNORE));
}

static int m_max(uint64_t *v)
{
    return ok(MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_UINT64_T, MPI_MAX, comm));
}

static const scorep_ipc backend = {"recover-mpi", m_rank,   m_size,    m_barrier,
                                   m_bcast,       m_gather, m_gatherv, m_scatterv,
                                   m_send,        m_recv,   m_max,     systree_comm_ipc_world};

const scorep_ipc *scorep_recover_mpi_init(int *argc, char ***argv)
{
    int provided;
    if (!(getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK")) ||
        MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
        return NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    return &backend;
}

void scorep_recover_mpi_finalize(void)
{
    if (comm == MPI_COMM_NULL)
        return;
    MPI_Comm_free(&comm);
    MPI_Finalize();
}

#else /* built without MPI: always the serial recovery */

const scorep_ipc *scorep_recover_mpi_init(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return NULL;
}

void scorep_recover_mpi_finalize(void) {}

#endif
