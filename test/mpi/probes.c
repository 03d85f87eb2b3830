/* SPDX-License-Identifier: BSD-3-Clause */
/* probes.c (2 processes or more; ranks 0 and 1 talk): plain, repeated and wildcard probes,
 * Mprobe+Mrecv, Improbe+Imrecv, wildcard receives. Rank 0 sends ints 1..6 to rank 1 on
 * MPI_COMM_WORLD with tags 10, 10, 11, 12, 13, 10; rank 1 takes them with:
 * Probe(0,10) twice + Recv (message id 1 of tag 10), Iprobe(ANY,ANY) + Recv(ANY,ANY) (id 2
 * of tag 10), Mprobe(0,11) + Mrecv (handle 1), Improbe(ANY,12) + Imrecv (handle 2),
 * Irecv(ANY,ANY) (tag 13), Recv(0,10) (id 3 of tag 10). Then rank 0 sends 7 and 8 with tag
 * 20; rank 1 has posted Irecv(ANY_SOURCE, 20) and then Irecv(0, 20) and waits for the
 * second first: MPI gives 7 (id 1) to the wildcard receive and 8 (id 2) to the other. */
#include "mpi_test.h"

int main(int argc, char **argv)
{
    int rank, size, v, flag, count;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    world(&rank, &size, 2);
    if (rank == 0) {
        static const int tags[6] = {10, 10, 11, 12, 13, 10};
        for (int i = 0; i < 6; i++) {
            v = i + 1;
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, tags[i], MPI_COMM_WORLD));
        }
        MPI_Barrier(MPI_COMM_WORLD); /* both tag-20 receives are posted */
        for (v = 7; v <= 8; v++)
            CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, 20, MPI_COMM_WORLD));
    } else if (rank == 1) {
        CHECK_MPI(MPI_Probe(0, 10, MPI_COMM_WORLD, &st));
        CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 10);
        CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
        CHECK(count == 1);
        CHECK_MPI(MPI_Probe(0, 10, MPI_COMM_WORLD, &st)); /* the same message again */
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, &st));
        CHECK(v == 1);
        do
            CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
        while (!flag);
        CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 10);
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        CHECK(v == 2 && st.MPI_TAG == 10);
        MPI_Message m;
        CHECK_MPI(MPI_Mprobe(0, 11, MPI_COMM_WORLD, &m, &st));
        CHECK(st.MPI_TAG == 11);
        CHECK_MPI(MPI_Mrecv(&v, 1, MPI_INT, &m, MPI_STATUS_IGNORE));
        CHECK(v == 3 && m == MPI_MESSAGE_NULL);
        do
            CHECK_MPI(MPI_Improbe(MPI_ANY_SOURCE, 12, MPI_COMM_WORLD, &flag, &m, &st));
        while (!flag);
        MPI_Request r;
        CHECK_MPI(MPI_Imrecv(&v, 1, MPI_INT, &m, &r));
        CHECK_MPI(MPI_Wait(&r, &st));
        CHECK(v == 4);
        CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r));
        CHECK_MPI(MPI_Wait(&r, &st));
        CHECK(v == 5 && st.MPI_TAG == 13 && st.MPI_SOURCE == 0);
        CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, &st));
        CHECK(v == 6);
        CHECK_MPI(MPI_Iprobe(0, 99, MPI_COMM_WORLD, &flag, &st));
        CHECK(!flag);
        /* MPI_PROC_NULL gives the no-process message */
        CHECK_MPI(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m, &st));
        CHECK(m == MPI_MESSAGE_NO_PROC);
        CHECK_MPI(MPI_Mrecv(&v, 0, MPI_INT, &m, &st));
        CHECK(st.MPI_SOURCE == MPI_PROC_NULL);
        /* wildcard receive posted before a specific one, completed after it */
        int w = 0, s = 0;
        MPI_Request rw, rs;
        CHECK_MPI(MPI_Irecv(&w, 1, MPI_INT, MPI_ANY_SOURCE, 20, MPI_COMM_WORLD, &rw));
        CHECK_MPI(MPI_Irecv(&s, 1, MPI_INT, 0, 20, MPI_COMM_WORLD, &rs));
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_MPI(MPI_Wait(&rs, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_Wait(&rw, MPI_STATUS_IGNORE));
        CHECK(w == 7 && s == 8);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
