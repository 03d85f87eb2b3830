/* SPDX-License-Identifier: BSD-3-Clause */
/* taskgraph.c: OpenMP tasks with dependences for the task-graph tests
 * (test_analysis_taskgraph.sh; 2 threads). Built with scorep-cc, as an MPI program unless
 * NO_MPI is defined.
 *   diamond: A (0.1 s) -> B (0.2 s), A -> C (0.05 s), B and C -> D (0.1 s), created by one
 *            thread of a team of 2 (one rank)
 *   send:    2 ranks; rank 1 runs a task of 0.2 s on its worker thread (a team of 2), then
 *            sends to rank 0, which waits in MPI_Recv (Late Sender ~0.2 s): the task delays
 *            the send while rank 1's master waits in the region's barrier
 * The task constructs carry markers (TASK_A ...) that the test finds with grep. */
#ifndef NO_MPI
#include <mpi.h>
#endif
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include "scenario.h"

static void work(double seconds)
{
    spin_until(now() + seconds);
}

static void diamond(void)
{
    int x = 0, y = 0, z = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
#pragma omp task depend(out : x) /* TASK_A */
        {
            work(0.1);
            x = 1;
        }
#pragma omp task depend(in : x) depend(out : y) /* TASK_B */
        {
            work(0.2);
            y = x + 1;
        }
#pragma omp task depend(in : x) depend(out : z) /* TASK_C */
        {
            work(0.05);
            z = x + 2;
        }
#pragma omp task depend(in : y, z) /* TASK_D */
        {
            work(0.1);
            x = y + z;
        }
    }
    if (x != 5)
        fprintf(stderr, "diamond: x = %d, not 5\n", x);
}

#ifndef NO_MPI
static void send(int rank)
{
    int v = 0;
    if (rank == 1) {
        /* thread 1 creates the task and waits for it, so it runs it at once; the master
         * stays in its own work meanwhile (no scheduling point), then waits in the barrier */
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 1) {
#pragma omp task /* TASK_SLOW */
                {
                    work(0.2);
                    v = 42;
                }
#pragma omp taskwait
            } else {
                work(0.05);
            }
        }
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (v != 42)
            fprintf(stderr, "send: got %d, not 42\n", v);
    }
}
#endif

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "diamond";
#ifndef NO_MPI
    int rank = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (!strcmp(what, "send"))
        send(rank);
    else
#endif
        diamond();
#ifndef NO_MPI
    MPI_Finalize();
#endif
    return 0;
}
