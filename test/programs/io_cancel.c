/* SPDX-License-Identifier: BSD-3-Clause */
/* io_cancel.c: a read that never completes when the measurement ends (test_io_cancel.sh).
 * A helper thread reads 3 messages of 3 bytes from pipe "data" (main writes them: 3 writes,
 * 3 reads, all complete), then blocks in read on pipe "idle", which nobody writes. Main waits
 * until the helper is in that read, then ends the process while it still blocks:
 *   io_cancel return  the helper joinable, main returns
 *   io_cancel exit    the helper detached, main calls exit()
 * Exactly one operation (the read of idle's read end) is begun and never completed.
 * Built with -DIO_CANCEL_MPI every rank does the same between MPI_Init_thread and
 * MPI_Finalize (the measurement ends in MPI_Finalize, the helpers still blocked). */
#ifdef IO_CANCEL_MPI
#include <mpi.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int data[2], idle[2], ready[2];

static void *helper(void *arg)
{
    (void)arg;
    char buf[3];
    for (int i = 0; i < 3; i++)
        if (read(data[0], buf, sizeof buf) != 3)
            abort();
    /* tell main we are about to block; that write is one more completed operation */
    if (write(ready[1], "r", 1) != 1)
        abort();
    if (read(idle[0], buf, 1) >= 0) /* never returns: nobody writes idle */
        abort();
    return NULL;
}

int main(int argc, char **argv)
{
#ifdef IO_CANCEL_MPI
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
#endif
    if (argc != 2 || (strcmp(argv[1], "return") && strcmp(argv[1], "exit"))) {
        fprintf(stderr, "usage: io_cancel return|exit\n");
        return 2;
    }
    if (pipe(data) || pipe(idle) || pipe(ready))
        return 1;
    /* the descriptors, whose handles the test looks up by name ("fd N") */
    printf("data %d %d idle %d %d ready %d %d\n", data[0], data[1], idle[0], idle[1], ready[0],
           ready[1]);
    fflush(stdout);
    pthread_t t;
    if (pthread_create(&t, NULL, helper, NULL))
        return 1;
    for (int i = 0; i < 3; i++)
        if (write(data[1], "abc", 3) != 3)
            return 1;
    char c;
    if (read(ready[0], &c, 1) != 1)
        return 1;
    /* the helper is between its write and its read: give it time to enter the read */
    struct timespec d = {0, 200 * 1000 * 1000};
    nanosleep(&d, NULL);
#ifdef IO_CANCEL_MPI
    MPI_Finalize();
#endif
    if (!strcmp(argv[1], "exit")) {
        pthread_detach(t);
        exit(0);
    }
    return 0;
}
