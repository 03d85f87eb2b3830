/* SPDX-License-Identifier: BSD-3-Clause */
/* intercomm.c (exactly 4 processes): intercommunicators as one definition for both groups.
 * Even and odd world ranks form two halves joined by MPI_Intercomm_create; every process
 * sends one message to each process of the other group and receives one from each, on the
 * intercommunicator and on its MPI_Comm_dup, MPI_Comm_idup, MPI_Comm_split (two one-to-one
 * intercommunicators) and MPI_Comm_create (world ranks 0 and 1 only), tags 11..15, and on a
 * second intercommunicator of the halves whose leaders, world ranks 2 and 1, meet over a
 * bridge communicator of their own (so world rank 0 defines it without knowing the bridge),
 * tag 16: 38 messages; then rings (tag 5) on MPI_Intercomm_merge and the two named dups
 * below: 12 messages, 50 in all. Names: the intercommunicator "halves" (both
 * sides), a dup of MPI_COMM_WORLD "partly named" by world ranks 1 and 3 only, one "beta"
 * on rank 0 and "alpha" elsewhere, and an RMA window "window of halves". */
#include "mpi_test.h"

#include <string.h>

/* one message to every process of the remote group, one from each */
static void exchange(MPI_Comm inter, int tag)
{
    int rs, me;
    MPI_Comm_remote_size(inter, &rs);
    MPI_Comm_rank(inter, &me);
    MPI_Request *req = malloc(sizeof *req * (size_t)rs);
    int *out = malloc(sizeof *out * (size_t)rs);
    for (int r = 0; r < rs; r++) {
        out[r] = me;
        CHECK_MPI(MPI_Isend(&out[r], 1, MPI_INT, r, tag, inter, &req[r]));
    }
    for (int r = 0; r < rs; r++) {
        int got = -1;
        CHECK_MPI(MPI_Recv(&got, 1, MPI_INT, r, tag, inter, MPI_STATUS_IGNORE));
        CHECK(got == r); /* the sender's rank in its (the remote) group */
    }
    CHECK_MPI(MPI_Waitall(rs, req, MPI_STATUSES_IGNORE));
    free(req);
    free(out);
}

static void ring(MPI_Comm comm)
{
    int r, n, got = -1;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    CHECK_MPI(MPI_Sendrecv(&r, 1, MPI_INT, (r + 1) % n, 5, &got, 1, MPI_INT, (r + n - 1) % n, 5,
                           comm, MPI_STATUS_IGNORE));
    CHECK(got == (r + n - 1) % n);
}

static void names(int rank)
{
    MPI_Comm partly, differ;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &partly));
    if (rank % 2 == 1)
        CHECK_MPI(MPI_Comm_set_name(partly, "partly named"));
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &differ));
    CHECK_MPI(MPI_Comm_set_name(differ, rank == 0 ? "beta" : "alpha"));
    ring(partly);
    ring(differ);
    int mem = 0;
    MPI_Win win;
    CHECK_MPI(MPI_Win_create(&mem, sizeof mem, sizeof mem, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    CHECK_MPI(MPI_Win_set_name(win, "window of halves"));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Win_fence(0, win));
    CHECK_MPI(MPI_Win_free(&win));
    CHECK_MPI(MPI_Comm_free(&partly));
    CHECK_MPI(MPI_Comm_free(&differ));
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 4);
    CHECK(size == 4);
    MPI_Comm half, inter, dup, idup, split, created, merged;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    /* leaders: world ranks 0 and 1 (local rank 0 of each half) */
    CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 33, &inter));
    CHECK_MPI(MPI_Comm_set_name(inter, "halves"));
    exchange(inter, 11);
    CHECK_MPI(MPI_Comm_dup(inter, &dup));
    exchange(dup, 12);
    MPI_Request r;
    CHECK_MPI(MPI_Comm_idup(inter, &idup, &r));
    CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    exchange(idup, 13);
    int lr;
    MPI_Comm_rank(inter, &lr);
    CHECK_MPI(MPI_Comm_split(inter, lr, 0, &split)); /* {0}x{1} and {2}x{3} */
    exchange(split, 14);
    MPI_Group local, first;
    CHECK_MPI(MPI_Comm_group(inter, &local));
    int zero = 0;
    CHECK_MPI(MPI_Group_incl(local, 1, &zero, &first));
    CHECK_MPI(MPI_Comm_create(inter, first, &created)); /* {0}x{1} */
    CHECK((rank < 2) == (created != MPI_COMM_NULL));
    if (created != MPI_COMM_NULL) {
        exchange(created, 15);
        CHECK_MPI(MPI_Comm_free(&created));
    }
    /* bridge: {1, 2} (world rank 1 is its rank 0) and {0, 3}; leaders 2 (local rank 1 of the
     * evens) and 1 (local rank 0 of the odds) */
    MPI_Comm bridge, inter2;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank == 1 || rank == 2, rank == 1 ? 0 : 1, &bridge));
    CHECK_MPI(MPI_Intercomm_create(half, rank % 2 ? 0 : 1, bridge, rank % 2 ? 1 : 0, 34, &inter2));
    exchange(inter2, 16);
    CHECK_MPI(MPI_Comm_free(&inter2));
    CHECK_MPI(MPI_Comm_free(&bridge));
    CHECK_MPI(MPI_Intercomm_merge(inter, rank % 2, &merged));
    ring(merged);
    names(rank);
    MPI_Comm comms[] = {half, inter, dup, idup, split, merged};
    for (size_t i = 0; i < sizeof comms / sizeof comms[0]; i++)
        CHECK_MPI(MPI_Comm_free(&comms[i]));
    MPI_Group_free(&local);
    MPI_Group_free(&first);
    MPI_Finalize();
    return 0;
}
