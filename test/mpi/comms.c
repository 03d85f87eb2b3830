/* SPDX-License-Identifier: BSD-3-Clause */
/* comms.c (4 processes, works with 2 or more): communicator and group life cycle: split,
 * dup, dup_with_info, create, create_group, idup, split_type, intercommunicator create and
 * merge (and a dup of the intercommunicator), Cartesian, graph and distributed graph
 * topologies, MPI_COMM_SELF, group algebra. Each new communicator carries one message ring
 * or a collective so that it is used. */
#include "mpi_test.h"

/* a ring exchange on comm (intracommunicator); checks the neighbour's rank */
static void ring(MPI_Comm comm)
{
    int r, n, got = -1;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    CHECK_MPI(MPI_Sendrecv(&r, 1, MPI_INT, (r + 1) % n, 5, &got, 1, MPI_INT, (r + n - 1) % n, 5,
                           comm, MPI_STATUS_IGNORE));
    CHECK(got == (r + n - 1) % n);
}

int main(int argc, char **argv)
{
    int rank, size, x;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    MPI_Comm half, dup, dupi, created, cgroup, idup, shared, inter, interdup, merged, cart, graph,
        dist;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    ring(half);
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    ring(dup);
    MPI_Info info;
    MPI_Info_create(&info);
    CHECK_MPI(MPI_Comm_dup_with_info(half, info, &dupi));
    MPI_Info_free(&info);
    ring(dupi);
    MPI_Group wg, evens, odds, u, inter_g;
    CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    int ne = (size + 1) / 2, *ev = malloc(sizeof(int) * (size_t)ne);
    for (int i = 0; i < ne; i++)
        ev[i] = 2 * i;
    CHECK_MPI(MPI_Group_incl(wg, ne, ev, &evens));
    CHECK_MPI(MPI_Group_excl(wg, ne, ev, &odds));
    CHECK_MPI(MPI_Group_union(odds, evens, &u));
    CHECK_MPI(MPI_Group_intersection(odds, evens, &inter_g));
    int gs;
    MPI_Group_size(inter_g, &gs);
    CHECK(gs == 0);
    CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, evens, &created));
    CHECK((rank % 2 == 0) == (created != MPI_COMM_NULL));
    if (created != MPI_COMM_NULL)
        ring(created);
    if (rank % 2 == 1) {
        CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, odds, 17, &cgroup));
        ring(cgroup);
        CHECK_MPI(MPI_Comm_free(&cgroup));
    }
    MPI_Request r;
    CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &idup, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    ring(idup);
    CHECK_MPI(
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared));
    ring(shared);
    /* intercommunicator between the even and the odd half; leaders are world ranks 0, 1 */
    CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 33, &inter));
    int is_inter, rs;
    MPI_Comm_test_inter(inter, &is_inter);
    MPI_Comm_remote_size(inter, &rs);
    CHECK(is_inter && rs == (rank % 2 ? (size + 1) / 2 : size / 2));
    int hr;
    MPI_Comm_rank(half, &hr);
    if (hr == 0) { /* the two leaders exchange over the intercommunicator */
        int got;
        CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, 0, 6, &got, 1, MPI_INT, 0, 6, inter,
                               MPI_STATUS_IGNORE));
        CHECK(got == 1 - rank);
    }
    CHECK_MPI(MPI_Comm_dup(inter, &interdup));
    x = 1;
    int y = 0;
    CHECK_MPI(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, interdup));
    CHECK(y == rs);
    CHECK_MPI(MPI_Intercomm_merge(inter, rank % 2, &merged));
    ring(merged);
    int dims[2] = {0, 0}, periods[2] = {1, 0};
    CHECK_MPI(MPI_Dims_create(size, 2, dims));
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart));
    int coords[2], src, dst;
    CHECK_MPI(MPI_Cart_coords(cart, 0, 2, coords));
    CHECK_MPI(MPI_Cart_shift(cart, 0, 1, &src, &dst));
    MPI_Comm row;
    int remain[2] = {0, 1};
    CHECK_MPI(MPI_Cart_sub(cart, remain, &row));
    ring(row);
    int *index = malloc(sizeof(int) * (size_t)size);
    int *edges = malloc(sizeof(int) * 2 * (size_t)size);
    for (int i = 0; i < size; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + 1) % size;
        edges[2 * i + 1] = (i + size - 1) % size;
    }
    CHECK_MPI(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &graph));
    int nn;
    CHECK_MPI(MPI_Graph_neighbors_count(graph, rank, &nn));
    CHECK(nn == 2);
    /* weights given: GCC 12 warns about Open MPI's MPI_UNWEIGHTED (a zero-length array) */
    int out[1] = {(rank + 1) % size}, in[1] = {(rank + size - 1) % size}, w[1] = {1};
    CHECK_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, in, w, 1, out, w, MPI_INFO_NULL, 0,
                                             &dist));
    int got = -1;
    CHECK_MPI(MPI_Neighbor_allgather(&rank, 1, MPI_INT, &got, 1, MPI_INT, dist));
    CHECK(got == in[0]);
    /* MPI_COMM_SELF */
    CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, 0, 9, &got, 1, MPI_INT, 0, 9, MPI_COMM_SELF,
                           MPI_STATUS_IGNORE));
    CHECK(got == rank);
    MPI_Comm selfdup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &selfdup));
    CHECK_MPI(MPI_Barrier(selfdup));
    MPI_Comm comms[] = {half,   dup,  dupi, idup,  shared, inter,  interdup,
                        merged, cart, row,  graph, dist,   selfdup};
    for (size_t i = 0; i < sizeof comms / sizeof comms[0]; i++)
        CHECK_MPI(MPI_Comm_free(&comms[i]));
    if (created != MPI_COMM_NULL)
        CHECK_MPI(MPI_Comm_free(&created));
    /* many short-lived communicators: no fixed limit */
    for (int i = 0; i < 300; i++) {
        MPI_Comm t;
        CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &t));
        if (i % 50 == 0)
            ring(t);
        CHECK_MPI(MPI_Comm_free(&t));
    }
    MPI_Group_free(&wg);
    MPI_Group_free(&evens);
    MPI_Group_free(&odds);
    MPI_Group_free(&u);
    MPI_Group_free(&inter_g);
    free(ev);
    free(index);
    free(edges);
    MPI_Finalize();
    return 0;
}
