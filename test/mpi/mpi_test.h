/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_test.h: checks for the MPI test programs. They run uninstrumented and through the
 * MPI adapter; any failed check aborts the whole job with a message. */
#ifndef MPI_TEST_H
#define MPI_TEST_H

#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                          \
        }                                                                                          \
    } while (0)

#define CHECK_MPI(call) CHECK((call) == MPI_SUCCESS)

/* rank and size of MPI_COMM_WORLD; aborts unless size is at least min */
static inline void world(int *rank, int *size, int min)
{
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    if (*size < min) {
        if (*rank == 0)
            fprintf(stderr, "needs at least %d processes\n", min);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* The RMA programs' start: MPI_Init, world() with at least 2 ranks, the right and left
 * neighbours on the ring and a window of slots ints (MPI_Win_allocate on MPI_COMM_WORLD,
 * displacement unit one int) */
static inline void rma_ring_init(int *argc, char ***argv, int slots, int *rank, int *size,
                                 int *right, int *left, int **base, MPI_Win *win)
{
    MPI_Init(argc, argv);
    world(rank, size, 2);
    *right = (*rank + 1) % *size;
    *left = (*rank + *size - 1) % *size;
    CHECK_MPI(MPI_Win_allocate((MPI_Aint)slots * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL,
                               MPI_COMM_WORLD, base, win));
}

/* MPI_Init_thread with MPI_THREAD_MULTIPLE and world(): a library without it ends the job
 * with status 77, which the test scripts count as a skip (name says which program) */
static inline void world_multiple(int *argc, char ***argv, int *rank, int *size, int min,
                                  const char *name)
{
    int provided;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    world(rank, size, min);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (*rank == 0)
            fprintf(stderr, "%s: MPI_THREAD_MULTIPLE not provided, skipped\n", name);
        MPI_Finalize();
        exit(77);
    }
}

/* The threads of the MPI_THREAD_MULTIPLE programs: each gets its number, the process's rank
 * and its own duplicate of a communicator */
typedef struct {
    int id, rank;
    MPI_Comm comm;
} thread_arg;

/* Runs work in n threads (at most 16), each with its thread_arg, waits for them and frees
 * their communicators */
static inline void run_threads(int n, MPI_Comm comm, int rank, void *(*work)(void *))
{
    pthread_t t[16];
    thread_arg a[16];
    CHECK(n <= 16);
    for (int i = 0; i < n; i++) {
        a[i] = (thread_arg){i, rank, MPI_COMM_NULL};
        CHECK_MPI(MPI_Comm_dup(comm, &a[i].comm));
    }
    for (int i = 0; i < n; i++)
        CHECK(pthread_create(&t[i], NULL, work, &a[i]) == 0);
    for (int i = 0; i < n; i++)
        CHECK(pthread_join(t[i], NULL) == 0);
    for (int i = 0; i < n; i++)
        CHECK_MPI(MPI_Comm_free(&a[i].comm));
}

#endif
