/* spawn.c: MPI_Comm_spawn for test_mpi_spawn.sh. The parent job spawns two children, then
 * one more; rank 0 of the parent sends each child one int (42, then 43) over the
 * intercommunicator, and every child receives it from its parent's rank 0. Prints one line
 * per process: "parent R ok", "child R of 2 got 42", "child 0 of 1 got 43". */
#include <mpi.h>
#include <stdio.h>

static void spawn(char *self, int children, int value, int rank)
{
    MPI_Comm inter;
    MPI_Comm_spawn(self, MPI_ARGV_NULL, children, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                   MPI_ERRCODES_IGNORE);
    for (int c = 0; rank == 0 && c < children; c++)
        MPI_Send(&value, 1, MPI_INT, c, 1, inter);
    MPI_Comm_disconnect(&inter);
}

int main(int argc, char **argv)
{
    MPI_Comm parent;
    int rank, size, value = 0;
    (void)argc;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (parent == MPI_COMM_NULL) {
        spawn(argv[0], 2, 42, rank);
        spawn(argv[0], 1, 43, rank);
        printf("parent %d ok\n", rank);
    } else {
        MPI_Recv(&value, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE);
        printf("child %d of %d got %d\n", rank, size, value);
        MPI_Comm_disconnect(&parent);
    }
    MPI_Finalize();
    return 0;
}
