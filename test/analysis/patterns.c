/* SPDX-License-Identifier: BSD-3-Clause */
/* patterns.c: the parts of Scalasca 2.6's metric tree beyond the wait states of waitstates.c
 * (test_analysis_patterns.sh), on 2 ranks, each scenario in a user region of its own after a
 * common start (scenario_start), D = argv[1] seconds:
 * - sync_ls: rank 0 sends a message without bytes after D, rank 1 receives it at once: one
 *   Late Sender of a synchronisation (mpi_sls_count 1), D long, at rank 1's MPI_Recv;
 * - sync_lr: rank 0 sends one with MPI_Ssend at once, rank 1 receives it after D: one Late
 *   Receiver of a synchronisation (mpi_slr_count 1) at rank 0's MPI_Ssend;
 * - sync_wo: rank 0 sends tag 1 at once and tag 2 after D, both without bytes; rank 1
 *   receives tag 2 first (waits D) and then tag 1: one Late Sender in wrong order
 *   (mpi_sls_count 1, mpi_slswo_count 1) at rank 1's MPI_Recv;
 * - comm, win, fence, win_free, file_open, file_all: rank 1 enters MPI_Comm_dup,
 *   MPI_Win_create, the closing MPI_Win_fence, MPI_Win_free, MPI_File_open and
 *   MPI_File_write_all D after rank 0, which waits there about D (communicator, window and
 *   file management, one-sided active-target synchronisation, collective file I/O: Scalasca's
 *   Wait at Window Create, Wait at Fence, Wait at Window Free in the window calls); in the
 *   fence epoch rank 0 puts one double to rank 1 (8 bytes, bytes_put) and rank 1 gets two
 *   from rank 0 (16 bytes, bytes_get); MPI_File_write (individual file I/O) in between;
 * - work: each rank computes D in the user region "work" (Computation);
 * - solo: rank 0 alone computes D / 2 in the user region "solo_work" inside it (a call path
 *   one location of two visits: square's imbalance_above_single on rank 0,
 *   imbalance_below_singularity on rank 1, each half of rank 0's time there).
 * The file is argv[2] (removed at the end). Prints its marks (M) after MPI_Finalize. */
#include <mpi.h>
#include <scorep/SCOREP_User.h>
#include <stdio.h>
#include <stdlib.h>

#include "scenario.h"

static double D = 0.2, t0;
static int rank;

/* when the rank acted (the node's clock, seconds after the scenario's start), printed at the
 * end as "T scenario rank what seconds": the test derives the expected times from them, so
 * that a rank the scheduler let act late does not fail it */
static scenario_marks marks;
static const char *scen = "";
static void M(const char *what)
{
    marks_add(&marks, "T %s %d %s %.6f", scen, rank, what, now() - t0);
}

#define SCEN(h, name)                                                                              \
    scen = name;                                                                                   \
    SCOREP_USER_REGION_DEFINE(h) SCOREP_USER_REGION_BEGIN(h, name, SCOREP_USER_REGION_TYPE_COMMON)
#define SCEN_END(h) SCOREP_USER_REGION_END(h)

static void start(void)
{
    t0 = scenario_start(MPI_COMM_WORLD);
}

/* rank 1 waits until D after the start (the late rank of a scenario) */
static void late(void)
{
    if (rank == 1)
        spin_until(t0 + D);
}

static void sync_messages(void)
{
    start();
    SCEN(ls, "sync_ls")
    if (rank == 0) {
        M("begin");
        spin_until(t0 + D);
        M("send");
        MPI_Send(NULL, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
    } else {
        MPI_Recv(NULL, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    SCEN_END(ls)
    start();
    SCEN(lr, "sync_lr")
    if (rank == 0) {
        MPI_Ssend(NULL, 0, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
    } else {
        spin_until(t0 + D);
        MPI_Recv(NULL, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    SCEN_END(lr)
    start();
    SCEN(wo, "sync_wo")
    if (rank == 0) {
        MPI_Send(NULL, 0, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
        spin_until(t0 + D);
        MPI_Send(NULL, 0, MPI_BYTE, 1, 4, MPI_COMM_WORLD);
    } else {
        MPI_Recv(NULL, 0, MPI_BYTE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(NULL, 0, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    SCEN_END(wo)
}

static void management(void)
{
    start();
    SCEN(cm, "comm")
    MPI_Comm dup;
    late();
    M("enter");
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_free(&dup);
    SCEN_END(cm)
    start();
    SCEN(wn, "win")
    static double buf[4];
    MPI_Win win;
    late();
    M("enter");
    MPI_Win_create(buf, sizeof buf, sizeof buf[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    SCEN_END(wn)
    start();
    SCEN(fc, "fence")
    double x = 1;
    MPI_Win_fence(0, win);
    double y[2];
    if (rank == 0)
        MPI_Put(&x, 1, MPI_DOUBLE, 1, 0, 1, MPI_DOUBLE, win);
    else
        MPI_Get(y, 2, MPI_DOUBLE, 0, 2, 2, MPI_DOUBLE, win);
    spin_until(t0 + (rank == 1 ? 2 : 1) * D);
    M("enter");
    MPI_Win_fence(0, win);
    SCEN_END(fc)
    start();
    SCEN(wf, "win_free")
    late();
    M("enter");
    MPI_Win_free(&win);
    SCEN_END(wf)
}

static void file_io(const char *path)
{
    MPI_File fh;
    start();
    SCEN(fo, "file_open")
    late();
    M("enter");
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    SCEN_END(fo)
    int v = rank;
    MPI_File_write_at(fh, rank * (MPI_Offset)sizeof v, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    start();
    SCEN(fa, "file_all")
    late();
    MPI_File_write_at_all(fh, (2 + rank) * (MPI_Offset)sizeof v, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
    SCEN_END(fa)
    MPI_File_close(&fh);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || argc < 3) {
        if (rank == 0)
            fprintf(stderr, "patterns: needs 2 ranks and the arguments D FILE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    D = atof(argv[1]);
    sync_messages();
    management();
    file_io(argv[2]);
    start();
    SCEN(wk, "work")
    M("begin");
    spin_until(t0 + D);
    M("end");
    SCEN_END(wk)
    start();
    SCEN(so, "solo")
    if (rank == 0) {
        SCOREP_USER_REGION_DEFINE(sw)
        SCOREP_USER_REGION_BEGIN(sw, "solo_work", SCOREP_USER_REGION_TYPE_COMMON)
        M("begin");
        spin_until(t0 + D / 2);
        M("end");
        SCOREP_USER_REGION_END(sw)
    }
    SCEN_END(so)
    MPI_Finalize();
    marks_print(&marks);
    if (rank == 0)
        remove(argv[2]);
    return 0;
}
