/* SPDX-License-Identifier: BSD-3-Clause */
/* score_sync.c: records scorep-score's estimate left out until session 25 (found by CP2K,
 * whose trace buffer was 12.7% larger than estimated), for test_score_sync.sh: OpenMP
 * critical constructs (a lock acquired and released: 2 records per visit) and
 * omp_set_lock/omp_unset_lock (1 each) on 2 threads, and MPI communicators made and freed
 * (MPI_Comm_dup, MPI_Comm_split, MPI_Cart_create, MPI_Cart_sub; MPI_Comm_free: a CommCreate
 * or CommDestroy record each). Prints the critical counter and the communicators' sizes. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long counter = 0, locked = 0;
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel num_threads(2)
    {
        for (int i = 0; i < 1000; i++) {
#pragma omp critical
            counter++;
            omp_set_lock(&lock);
            locked++;
            omp_unset_lock(&lock);
        }
    }
    omp_destroy_lock(&lock);
    long sizes = 0;
    for (int i = 0; i < 50; i++) {
        MPI_Comm dup, split, cart, sub;
        int dims[1] = {size}, periods[1] = {0}, remain[1] = {1};
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_split(dup, 0, rank, &split);
        MPI_Cart_create(split, 1, dims, periods, 0, &cart);
        MPI_Cart_sub(cart, remain, &sub);
        int n;
        MPI_Comm_size(sub, &n);
        sizes += n;
        MPI_Comm_free(&sub);
        MPI_Comm_free(&cart);
        MPI_Comm_free(&split);
        MPI_Comm_free(&dup);
    }
    printf("rank %d critical %ld locked %ld sizes %ld\n", rank, counter, locked, sizes);
    MPI_Finalize();
    return 0;
}
