/* SPDX-License-Identifier: BSD-3-Clause */
/* rma_request_bench.c: cost per request-based RMA operation with many open on one window
 * (bench/run_rma_bench.sh). Each rank, in MPI_Win_lock_all: K MPI_Rputs of one int to its
 * right neighbour, MPI_Waitall, MPI_Win_flush_all; repeated so that about 2*10^5 operations
 * run per K (K = 1, 100, 10^4, or the arguments), the fastest repetition kept. Prints
 * "K <k> ns_per_op <t>" on rank 0 (the slower rank's figure). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size;
    static const int defaults[] = {1, 100, 10000};
    int nk = argc > 1 ? argc - 1 : 3;
    int kmax = 1;
    for (int a = 0; a < nk; a++) {
        int k = argc > 1 ? atoi(argv[a + 1]) : defaults[a];
        kmax = k > kmax ? k : kmax;
    }
    int *base, *src = malloc(kmax * sizeof *src);
    MPI_Request *req = malloc(kmax * sizeof *req);
    MPI_Win win;
    if (!src || !req ||
        MPI_Win_allocate(kmax * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                         &win) != MPI_SUCCESS) {
        fprintf(stderr, "rma_request_bench: no memory for %d requests\n", kmax);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Win_lock_all(0, win);
    for (int a = 0; a < nk; a++) {
        int k = argc > 1 ? atoi(argv[a + 1]) : defaults[a];
        if (k < 1 || k > kmax)
            continue;
        int reps = 200000 / k < 5 ? 5 : 200000 / k, block = reps / 5;
        double best = 1e30;
        for (int b = 0; b < 5; b++) { /* the fastest of 5 blocks of reps/5 repetitions */
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int r = 0; r < block; r++) {
                for (int i = 0; i < k; i++) {
                    src[i] = r + i;
                    MPI_Rput(&src[i], 1, MPI_INT, right, i, 1, MPI_INT, win, &req[i]);
                }
                MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
                MPI_Win_flush_all(win);
            }
            double t = (MPI_Wtime() - t0) / ((double)block * k), worst;
            MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            best = worst < best ? worst : best;
        }
        if (rank == 0)
            printf("K %d ns_per_op %.0f\n", k, best * 1e9);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    free(src);
    free(req);
    MPI_Finalize();
    return 0;
}
