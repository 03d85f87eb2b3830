/* SPDX-License-Identifier: BSD-3-Clause */
/* rescue.c: the program of the rescue tests (issue #29): work() and a barrier in a loop;
 * after 200 rounds one process ends as argv[1] says, without MPI_Finalize: segv (in
 * crash_here, called from main), abort (MPI_Abort(3), serial: abort()), exit (exit(3)),
 * term (every process waits for the SIGTERM the test sends), kill (SIGKILL to itself 3 s
 * later), normal (all finish), cutspill and closespill (as term; after the rounds the
 * process cuts its trace's spill file to 0 bytes, or closes its descriptor, and prints its
 * size: the rescue cannot read the flushed records back). Built with -DRESCUE_MPI for 3
 * ranks (rank 1 ends), without it as a serial program (a second argument: process 0 ends as
 * the first says). With 4 ranks, rank 0 sends rank 2 a message after the rounds. */
#ifdef RESCUE_MPI
#include <mpi.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile double sink;

__attribute__((noinline)) void work(void)
{
    for (int i = 0; i < 20000; i++)
        sink += i * 0.5;
}

__attribute__((noinline)) void crash_here(void)
{
    volatile int *p = (volatile int *)(sink < -1 ? &sink : 0);
    *p = 1;
}

/* The measurement's spill file (core/flush.c: an unlinked ".scorep-spill-*" file), cut to 0
 * bytes or closed as how says; its size before, or -1 when there is none. */
static long spoil_spill(const char *how)
{
    long size = -1;
    char link[64], target[4096];
    for (int fd = 0; fd < 1024; fd++) {
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n <= 0)
            continue;
        target[n] = 0;
        if (!strstr(target, "/.scorep-spill-"))
            continue;
        size = lseek(fd, 0, SEEK_END);
        if (!strcmp(how, "cutspill") ? ftruncate(fd, 0) != 0 : close(fd) != 0)
            perror("spoil_spill");
    }
    return size;
}

static void barrier(void)
{
#ifdef RESCUE_MPI
    MPI_Barrier(MPI_COMM_WORLD);
#endif
}

/* (the segfault is called from main itself: the tests look for main/crash_here/SIGSEGV);
 * noinline: the tests look for main/end_as (the plugins leave inlined functions out) */
__attribute__((noinline)) static void end_as(const char *how)
{
    if (!strcmp(how, "abort")) {
#ifdef RESCUE_MPI
        MPI_Abort(MPI_COMM_WORLD, 3);
#else
        abort();
#endif
    }
    if (!strcmp(how, "exit"))
        exit(3);
    if (!strcmp(how, "kill")) {
        sleep(3);
        kill(getpid(), SIGKILL);
    }
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "normal";
    int rank = 0;
#ifdef RESCUE_MPI
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#endif
    for (int i = 0; i < 200; i++) {
        work();
        barrier();
    }
#ifdef RESCUE_MPI
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size == 4) { /* the job with a missing rank: a message past it, rank 0 to rank 2 */
        int v = 42;
        if (rank == 0)
            MPI_Send(&v, 1, MPI_INT, 2, 7, MPI_COMM_WORLD);
        else if (rank == 2)
            MPI_Recv(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
#endif
    if (!strcmp(how, "cutspill") || !strcmp(how, "closespill")) {
        printf("rank %d: spill file of %ld bytes spoilt\n", rank, spoil_spill(how));
        how = "term";
    }
    printf("rank %d: 200 rounds\n", rank);
    fflush(stdout);
    /* every rank has printed, and mpirun had time to forward it, before one ends the job
     * (Open MPI drops output it has not forwarded when a rank aborts) */
    barrier();
    usleep(200000);
    if (!strcmp(how, "term"))
        for (;;)
            pause(); /* the test's SIGTERM ends it */
    if ((rank == 1 || argc > 2) && !strcmp(how, "segv"))
        crash_here();
    if (rank == 1 || argc > 2)
        end_as(how);
    if (strcmp(how, "normal") != 0)
        for (;;) { /* the others go on until the job is ended */
            work();
            barrier();
        }
#ifdef RESCUE_MPI
    MPI_Finalize();
#endif
    return 0;
}
