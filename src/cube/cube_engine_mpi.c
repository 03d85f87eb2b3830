/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_engine_mpi.c: cube_engine_comm over MPI (see cube_engine_mpi.h): sends are
 * non-blocking on copies, completed ones are released on every later call; receives probe
 * for the next message from anyone. Built into the tools only: libscorep_cube stays free
 * of MPI. */
#include "config.h"
#include "cube/cube_engine_mpi.h"

#include <stdlib.h>
#include <string.h>

#ifdef CUBE_ENGINE_WITH_MPI
#include <mpi.h>

typedef struct {
    MPI_Request req;
    void *buf;
} outgoing;

static struct {
    MPI_Comm comm;
    outgoing *out;
    size_t n, cap;
    int started;
} mpi;

static void release_done(void)
{
    size_t k = 0;
    for (size_t i = 0; i < mpi.n; i++) {
        int done = 0;
        MPI_Test(&mpi.out[i].req, &done, MPI_STATUS_IGNORE);
        if (done)
            free(mpi.out[i].buf);
        else
            mpi.out[k++] = mpi.out[i];
    }
    mpi.n = k;
}

static int m_send(void *ctx, int dest, int tag, const void *buf, size_t len)
{
    (void)ctx;
    release_done();
    if (mpi.n == mpi.cap) {
        size_t cap = mpi.cap ? 2 * mpi.cap : 64;
        outgoing *o = realloc(mpi.out, cap * sizeof *o);
        if (o == NULL)
            return -1;
        mpi.out = o;
        mpi.cap = cap;
    }
    void *copy = malloc(len ? len : 1);
    if (copy == NULL || len > (size_t)INT32_MAX) {
        free(copy);
        return -1;
    }
    memcpy(copy, buf, len);
    if (MPI_Isend(copy, (int)len, MPI_BYTE, dest, tag, mpi.comm, &mpi.out[mpi.n].req) !=
        MPI_SUCCESS) {
        free(copy);
        return -1;
    }
    mpi.out[mpi.n++].buf = copy;
    return 0;
}

static int m_recv(void *ctx, int *source, int *tag, void **buf, size_t *len)
{
    (void)ctx;
    MPI_Status st;
    int count = 0;
    release_done();
    if (MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, mpi.comm, &st) != MPI_SUCCESS ||
        MPI_Get_count(&st, MPI_BYTE, &count) != MPI_SUCCESS || count < 0)
        return -1;
    *buf = malloc(count ? (size_t)count : 1);
    if (*buf == NULL)
        return -1;
    if (MPI_Recv(*buf, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, mpi.comm, MPI_STATUS_IGNORE) !=
        MPI_SUCCESS) {
        free(*buf);
        *buf = NULL;
        return -1;
    }
    *source = st.MPI_SOURCE;
    *tag = st.MPI_TAG;
    *len = (size_t)count;
    return 0;
}

static int under_launcher(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

void cube_engine_transport_init(int *argc, char ***argv, cube_engine_comm *comm)
{
    int provided, rank, size;
    if (!under_launcher() ||
        MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) {
        cube_engine_comm_single(comm);
        return;
    }
    mpi.started = 1;
    MPI_Comm_dup(MPI_COMM_WORLD, &mpi.comm);
    MPI_Comm_rank(mpi.comm, &rank);
    MPI_Comm_size(mpi.comm, &size);
    *comm = (cube_engine_comm){rank, size, NULL, m_send, m_recv};
}

void cube_engine_transport_finalize(void)
{
    if (!mpi.started)
        return;
    for (size_t i = 0; i < mpi.n; i++) {
        MPI_Wait(&mpi.out[i].req, MPI_STATUS_IGNORE);
        free(mpi.out[i].buf);
    }
    free(mpi.out);
    mpi.n = mpi.cap = 0;
    MPI_Comm_free(&mpi.comm);
    MPI_Finalize();
}

#else /* built without MPI: always one process */

void cube_engine_transport_init(int *argc, char ***argv, cube_engine_comm *comm)
{
    (void)argc, (void)argv;
    cube_engine_comm_single(comm);
}

void cube_engine_transport_finalize(void) {}
#endif
