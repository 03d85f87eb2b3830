/* SPDX-License-Identifier: BSD-3-Clause */
/* spawn.c: MPI_Comm_spawn for test_mpi_spawn.sh. The parent job spawns two children, then
 * one more, then with MPI_Comm_spawn_multiple two commands of one process each (the second
 * with the argument "x"); rank 0 of the parent sends each child one int (42, 43, 44) over
 * the intercommunicator, and every child receives it from its parent's rank 0. Prints one
 * line per process: "parent R ok", "child R of N got V" (" x" appended for the argument). */
#include <mpi.h>
#include <stdio.h>

static void send_all(MPI_Comm inter, int children, int value, int rank)
{
    for (int c = 0; rank == 0 && c < children; c++)
        MPI_Send(&value, 1, MPI_INT, c, 1, inter);
    MPI_Comm_disconnect(&inter);
}

static void spawn(char *self, int children, int value, int rank)
{
    MPI_Comm inter;
    MPI_Comm_spawn(self, MPI_ARGV_NULL, children, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                   MPI_ERRCODES_IGNORE);
    send_all(inter, children, value, rank);
}

static void spawn_two_commands(char *self, int value, int rank)
{
    MPI_Comm inter;
    char *commands[2] = {self, self}, *none[1] = {NULL}, *x[2] = {"x", NULL};
    char **argvs[2] = {none, x};
    int procs[2] = {1, 1};
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
    MPI_Comm_spawn_multiple(2, commands, argvs, procs, infos, 0, MPI_COMM_WORLD, &inter,
                            MPI_ERRCODES_IGNORE);
    send_all(inter, 2, value, rank);
}

int main(int argc, char **argv)
{
    MPI_Comm parent;
    int rank, size, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (parent == MPI_COMM_NULL) {
        spawn(argv[0], 2, 42, rank);
        spawn(argv[0], 1, 43, rank);
        spawn_two_commands(argv[0], 44, rank);
        printf("parent %d ok\n", rank);
    } else {
        MPI_Recv(&value, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE);
        printf("child %d of %d got %d%s\n", rank, size, value, argc > 1 ? " x" : "");
        MPI_Comm_disconnect(&parent);
    }
    MPI_Finalize();
    return 0;
}
