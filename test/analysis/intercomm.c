/* SPDX-License-Identifier: BSD-3-Clause */
/* intercomm.c: MPI program with prescribed wait states in collectives on an intercommunicator
 * (test_analysis_intercomm.sh): 4 ranks in two groups, A = world ranks {0, 1} and B = {2, 3},
 * joined by MPI_Intercomm_create. Before each scenario all ranks synchronise; then ranks spin
 * to known multiples of D seconds before they enter the collective. Each scenario is a user
 * region of its own. The program prints when each rank actually entered ("T scenario rank
 * enter seconds absolute", its own clock just before the call): the test moves each onto the
 * trace's enter of that call (trace_marks.py) and derives the expected waits from those and
 * from the intercommunicator semantics (a rank waits for the other group). */
#include <mpi.h>
#include <scorep/SCOREP_User.h>
#include <stdio.h>
#include <stdlib.h>
#include "scenario.h"

static double D = 0.2, t0;
static int rank, group; /* group 0: A (world 0, 1), 1: B (world 2, 3) */
static MPI_Comm inter;

static const char *scenario = "";
static scenario_marks marks;
static void M(const char *what)
{
    double t = now();
    /* nanoseconds in both: trace_marks.py takes the common start as the difference, and six
     * decimals gave each rank its own start (+-0.5 us), which a sum of many
     * waits across two ranks multiplies (0.1 ms in test_analysis.sh) */
    marks_add(&marks, "T %s %d %s %.9f %.9f", scenario, rank, what, t - t0, t);
}

#define SCEN_BEGIN(h, name)                                                                        \
    scenario = name;                                                                               \
    SCOREP_USER_REGION_DEFINE(h)                                                                   \
    SCOREP_USER_REGION_BEGIN(h, name, SCOREP_USER_REGION_TYPE_COMMON)
#define SCEN_END(h) SCOREP_USER_REGION_END(h)

/* waits until k*D after the scenario's start */
static void spin_to(double k)
{
    spin_until(t0 + k * D);
}

/* barrier: world rank 1 (A) enters at D, rank 3 (B) at 2D, ranks 0 and 2 at once. A rank
 * waits for the last rank of the other group: rank 0 2D, rank 1 D, rank 2 D, rank 3 0 */
static void ic_barrier(void)
{
    SCEN_BEGIN(h, "ic_barrier")
    spin_to(rank == 1 ? 1 : rank == 3 ? 2 : 0);
    M("enter");
    MPI_Barrier(inter);
    SCEN_END(h)
}

/* broadcast from group A: rank 0 is the root (MPI_ROOT) and enters at D, rank 1 takes no part
 * (MPI_PROC_NULL); ranks 2 and 3 name root 0 of the remote group and wait D */
static void ic_bcast_a(void)
{
    SCEN_BEGIN(h, "ic_bcast_a")
    int x[256] = {0};
    int root = group == 1 ? 0 : rank == 0 ? MPI_ROOT : MPI_PROC_NULL;
    if (rank == 0)
        spin_to(1);
    M("enter");
    MPI_Bcast(x, 256, MPI_INT, root, inter);
    SCEN_END(h)
}

/* broadcast from group B: rank 3 (B's rank 1) is the root and enters at D, rank 2 takes no
 * part; ranks 0 and 1 name root 1 of the remote group and wait D */
static void ic_bcast_b(void)
{
    SCEN_BEGIN(h, "ic_bcast_b")
    int x[256] = {0};
    int root = group == 0 ? 1 : rank == 3 ? MPI_ROOT : MPI_PROC_NULL;
    if (rank == 3)
        spin_to(1);
    M("enter");
    MPI_Bcast(x, 256, MPI_INT, root, inter);
    SCEN_END(h)
}

/* allreduce: rank 0 enters at D, rank 2 at 2D. Each group receives the other's reduction and
 * waits for its last rank: rank 0 D, rank 1 2D, rank 2 0, rank 3 D */
static void ic_allreduce(void)
{
    SCEN_BEGIN(h, "ic_allreduce")
    int x = rank, y;
    spin_to(rank == 0 ? 1 : rank == 2 ? 2 : 0);
    M("enter");
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, inter);
    SCEN_END(h)
}

/* reduce to group A's rank 1 (MPI_ROOT; rank 0 MPI_PROC_NULL): B's ranks 2 and 3 send at D
 * and 2D; the root waits for the first of them: D (Early Reduce) */
static void ic_reduce(void)
{
    SCEN_BEGIN(h, "ic_reduce")
    int x = rank, y = 0;
    int root = group == 1 ? 1 : rank == 1 ? MPI_ROOT : MPI_PROC_NULL;
    if (rank >= 2)
        spin_to(rank - 1);
    M("enter");
    MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, root, inter);
    SCEN_END(h)
}

/* point-to-point on the intercommunicator: world 0 (A) sends to B's rank 1 (world 3) at D;
 * world 3 receives from A's rank 0 and waits D (Late Sender). Peers on an intercommunicator are
 * ranks of the other group */
static void ic_p2p(void)
{
    SCEN_BEGIN(h, "ic_p2p")
    int x = 1;
    if (rank == 0) {
        spin_to(1);
        M("enter");
        MPI_Send(&x, 1, MPI_INT, 1, 5, inter);
    } else if (rank == 3) {
        M("enter");
        MPI_Recv(&x, 1, MPI_INT, 0, 5, inter, MPI_STATUS_IGNORE);
    }
    SCEN_END(h)
}

static void start(void)
{
    t0 = scenario_start(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1)
        D = atof(argv[1]);
    if (size != 4) {
        if (rank == 0)
            fprintf(stderr, "intercomm: needs 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    group = rank / 2;
    MPI_Comm local;
    MPI_Comm_split(MPI_COMM_WORLD, group, rank, &local);
    /* local leader: local rank 0; remote leader: world rank 2 for A, 0 for B */
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, group == 0 ? 2 : 0, 99, &inter);
    void (*scen[])(void) = {ic_barrier, ic_bcast_a, ic_bcast_b, ic_allreduce, ic_reduce, ic_p2p};
    for (size_t i = 0; i < sizeof scen / sizeof scen[0]; i++) {
        start();
        scen[i]();
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    marks_print(&marks);
    if (rank == 0)
        printf("intercomm done D=%g\n", D);
    return 0;
}
