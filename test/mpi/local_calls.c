/* SPDX-License-Identifier: BSD-3-Clause */
/* local_calls.c (2 processes): MPI's local calls, which the adapter stamps with one timer
 * reading (spec item 'local'), in known numbers: per process the main thread calls
 * MPI_Comm_rank 1000 times (plus once in world()), MPI_Comm_size 500 times (plus once),
 * MPI_Type_size 250 times between MPI_Barriers, and under MPI_THREAD_MULTIPLE two threads call
 * MPI_Comm_rank 300 times each at the same time. Exit status 77: no MPI_THREAD_MULTIPLE.
 * MPI calls made from inside a wrapped call go straight to PMPI (the adapter's nesting flag):
 * the delete callback of an attribute, which MPI_Comm_free calls, makes one call of each local
 * kind and an MPI_Send + MPI_Recv to itself (a message path's wrappers), none of them recorded.
 * User regions "nested" > "dup" around MPI_Comm_dup make the trace's stream of the callback's
 * depth (2) exist, so that the local calls' fast path could record them there. */
#include "mpi_test.h"

#include <pthread.h>
#include <scorep/SCOREP_User.h>

enum { RANK_CALLS = 1000, SIZE_CALLS = 500, TYPE_CALLS = 250, THREADS = 2, THREAD_CALLS = 300 };

static void *work(void *p)
{
    int r = -1, *want = p;
    for (int i = 0; i < THREAD_CALLS; i++) {
        CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &r));
        CHECK(r == *want);
    }
    return NULL;
}

static int nested_calls;

/* inside MPI_Comm_free: its calls are nested in a wrapped call */
static int delete_fn(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)value, (void)extra;
    int s, ts, rank, in = 0, out = 42;
    CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &s));
    CHECK_MPI(MPI_Type_size(MPI_INT, &ts));
    CHECK_MPI(MPI_Send(&out, 1, MPI_INT, rank, 7, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Recv(&in, 1, MPI_INT, rank, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(in == 42 && ts == (int)sizeof(int));
    nested_calls++;
    return MPI_SUCCESS;
}

static void nested(void)
{
    MPI_Comm dup;
    int key;
    SCOREP_USER_REGION_BY_NAME_BEGIN("nested", SCOREP_USER_REGION_TYPE_COMMON)
    SCOREP_USER_REGION_BY_NAME_BEGIN("dup", SCOREP_USER_REGION_TYPE_COMMON)
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    SCOREP_USER_REGION_BY_NAME_END("dup")
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &key, NULL));
    CHECK_MPI(MPI_Comm_set_attr(dup, key, &nested_calls));
    CHECK_MPI(MPI_Comm_free(&dup));
    CHECK_MPI(MPI_Comm_free_keyval(&key));
    SCOREP_USER_REGION_BY_NAME_END("nested")
    CHECK(nested_calls == 1);
}

int main(int argc, char **argv)
{
    int rank, size, r, s, ts;
    world_multiple(&argc, &argv, &rank, &size, 2, "local_calls");
    for (int i = 0; i < RANK_CALLS; i++) {
        CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &r));
        CHECK(r == rank);
    }
    for (int i = 0; i < SIZE_CALLS; i++) {
        CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &s));
        CHECK(s == size);
    }
    for (int i = 0; i < TYPE_CALLS; i++) {
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Type_size(MPI_DOUBLE, &ts));
        CHECK(ts == (int)sizeof(double));
    }
    nested();
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, work, &rank) == 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    MPI_Finalize();
    return 0;
}
