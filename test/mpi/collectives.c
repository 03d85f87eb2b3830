/* SPDX-License-Identifier: BSD-3-Clause */
/* collectives.c (any number of processes, 4 in the tests): every blocking collective (with
 * and without MPI_IN_PLACE), its non-blocking version, and the neighbourhood collectives on
 * a periodic 1-d Cartesian topology. Values are checked. */
#include "mpi_test.h"

#include <string.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 1);
    MPI_Comm c = MPI_COMM_WORLD;
    int n = size, one = rank + 1, x, sum = n * (n + 1) / 2;
    int *all = malloc(sizeof(int) * (size_t)n), *buf = malloc(sizeof(int) * (size_t)n);
    int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)n);
    for (int i = 0; i < n; i++) {
        counts[i] = 1;
        displs[i] = i;
        types[i] = MPI_INT;
    }
    for (int nb = 0; nb < 2; nb++) {
        MPI_Request r = MPI_REQUEST_NULL;
/* name: the blocking function without MPI_, iname: its non-blocking twin */
#define RUN(name, iname, ...)                                                                      \
    do {                                                                                           \
        if (nb)                                                                                    \
            CHECK_MPI(MPI_##iname(__VA_ARGS__, &r));                                               \
        else                                                                                       \
            CHECK_MPI(MPI_##name(__VA_ARGS__));                                                    \
        if (nb)                                                                                    \
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));                                            \
    } while (0)
        if (nb) {
            CHECK_MPI(MPI_Ibarrier(c, &r));
            CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Barrier(c));
        }
        x = rank == 0 ? 42 : 0;
        RUN(Bcast, Ibcast, &x, 1, MPI_INT, 0, c);
        CHECK(x == 42);
        RUN(Gather, Igather, &one, 1, MPI_INT, all, 1, MPI_INT, 0, c);
        if (rank == 0)
            for (int i = 0; i < n; i++)
                CHECK(all[i] == i + 1);
        RUN(Gatherv, Igatherv, &one, 1, MPI_INT, all, counts, displs, MPI_INT, n - 1, c);
        if (rank == n - 1)
            for (int i = 0; i < n; i++)
                CHECK(all[i] == i + 1);
        for (int i = 0; i < n; i++)
            all[i] = 10 * i;
        RUN(Scatter, Iscatter, all, 1, MPI_INT, &x, 1, MPI_INT, 0, c);
        CHECK(x == 10 * rank);
        RUN(Scatterv, Iscatterv, all, counts, displs, MPI_INT, &x, 1, MPI_INT, 0, c);
        CHECK(x == 10 * rank);
        RUN(Allgather, Iallgather, &one, 1, MPI_INT, all, 1, MPI_INT, c);
        for (int i = 0; i < n; i++)
            CHECK(all[i] == i + 1);
        RUN(Allgatherv, Iallgatherv, &one, 1, MPI_INT, all, counts, displs, MPI_INT, c);
        CHECK(all[n - 1] == n);
        for (int i = 0; i < n; i++)
            buf[i] = rank * 100 + i;
        RUN(Alltoall, Ialltoall, buf, 1, MPI_INT, all, 1, MPI_INT, c);
        for (int i = 0; i < n; i++)
            CHECK(all[i] == i * 100 + rank);
        RUN(Alltoallv, Ialltoallv, buf, counts, displs, MPI_INT, all, counts, displs, MPI_INT, c);
        CHECK(all[0] == rank);
        {
            int *bd = malloc(sizeof(int) * (size_t)n);
            for (int i = 0; i < n; i++)
                bd[i] = i * (int)sizeof(int);
            RUN(Alltoallw, Ialltoallw, buf, counts, bd, types, all, counts, bd, types, c);
            CHECK(all[n - 1] == (n - 1) * 100 + rank);
            free(bd);
        }
        RUN(Allreduce, Iallreduce, &one, &x, 1, MPI_INT, MPI_SUM, c);
        CHECK(x == sum);
        RUN(Reduce, Ireduce, &one, &x, 1, MPI_INT, MPI_SUM, n - 1, c);
        if (rank == n - 1)
            CHECK(x == sum);
        for (int i = 0; i < n; i++)
            buf[i] = 1;
        RUN(Reduce_scatter, Ireduce_scatter, buf, &x, counts, MPI_INT, MPI_SUM, c);
        CHECK(x == n);
        RUN(Reduce_scatter_block, Ireduce_scatter_block, buf, &x, 1, MPI_INT, MPI_SUM, c);
        CHECK(x == n);
        RUN(Scan, Iscan, &one, &x, 1, MPI_INT, MPI_SUM, c);
        CHECK(x == (rank + 1) * (rank + 2) / 2);
        x = -1;
        RUN(Exscan, Iexscan, &one, &x, 1, MPI_INT, MPI_SUM, c);
        if (rank > 0)
            CHECK(x == rank * (rank + 1) / 2);
        /* in place */
        x = one;
        RUN(Allreduce, Iallreduce, MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, c);
        CHECK(x == sum);
        all[rank] = one;
        RUN(Allgather, Iallgather, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, c);
        CHECK(all[0] == 1);
        if (rank == 0) {
            x = one;
            RUN(Reduce, Ireduce, MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, 0, c);
            CHECK(x == sum);
            all[0] = one;
            RUN(Gather, Igather, MPI_IN_PLACE, 1, MPI_INT, all, 1, MPI_INT, 0, c);
        } else {
            RUN(Reduce, Ireduce, &one, NULL, 1, MPI_INT, MPI_SUM, 0, c);
            RUN(Gather, Igather, &one, 1, MPI_INT, NULL, 1, MPI_INT, 0, c);
        }
        /* neighbourhood collectives on a ring */
        MPI_Comm ring;
        int dims[1] = {n}, periods[1] = {1};
        CHECK_MPI(MPI_Cart_create(c, 1, dims, periods, 0, &ring));
        int nb2[2];
        RUN(Neighbor_allgather, Ineighbor_allgather, &one, 1, MPI_INT, nb2, 1, MPI_INT, ring);
        CHECK(nb2[0] == (rank + n - 1) % n + 1 && nb2[1] == (rank + 1) % n + 1);
        int sb[2] = {one, one}, cnt2[2] = {1, 1}, dsp2[2] = {0, 1};
        RUN(Neighbor_alltoall, Ineighbor_alltoall, sb, 1, MPI_INT, nb2, 1, MPI_INT, ring);
        CHECK(nb2[1] == (rank + 1) % n + 1);
        RUN(Neighbor_allgatherv, Ineighbor_allgatherv, &one, 1, MPI_INT, nb2, cnt2, dsp2, MPI_INT,
            ring);
        RUN(Neighbor_alltoallv, Ineighbor_alltoallv, sb, cnt2, dsp2, MPI_INT, nb2, cnt2, dsp2,
            MPI_INT, ring);
        MPI_Aint bdw[2] = {0, sizeof(int)};
        MPI_Datatype t2[2] = {MPI_INT, MPI_INT};
        RUN(Neighbor_alltoallw, Ineighbor_alltoallw, sb, cnt2, bdw, t2, nb2, cnt2, bdw, t2, ring);
        CHECK(nb2[0] == (rank + n - 1) % n + 1);
        CHECK_MPI(MPI_Comm_free(&ring));
    }
    int in = 3, inout = 4;
    CHECK_MPI(MPI_Reduce_local(&in, &inout, 1, MPI_INT, MPI_SUM));
    CHECK(inout == 7);
    free(all);
    free(buf);
    free(counts);
    free(displs);
    free(types);
    MPI_Finalize();
    return 0;
}
