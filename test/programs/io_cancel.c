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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/syscall.h>
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
    /* tell main our thread id, we are about to block; that write (4 bytes) is one more
     * completed operation */
    int32_t tid = (int32_t)syscall(SYS_gettid);
    if (write(ready[1], &tid, sizeof tid) != sizeof tid)
        abort();
    if (read(idle[0], buf, 1) >= 0) /* never returns: nobody writes idle */
        abort();
    return NULL;
}

/* Waits (up to 10 s) until thread tid sits in the read of idle: /proc's syscall file starts
 * with the syscall number and its first argument (the descriptor, in hex). Read with raw
 * system calls, which no wrapper sees, so that the trace holds the design's operations only.
 * Without that file: 200 ms, by which time the helper is in its read but on a loaded box. */
static void wait_blocked(int32_t tid)
{
    char path[64], buf[128], want[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)tid);
    snprintf(want, sizeof want, "%ld 0x%x ", (long)SYS_read, (unsigned)idle[0]);
    struct timespec d = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 1000; i++) {
        long fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
        if (fd < 0)
            break;
        long n = syscall(SYS_read, fd, buf, sizeof buf - 1);
        syscall(SYS_close, fd);
        if (n > 0) {
            buf[n] = 0;
            if (!strncmp(buf, want, strlen(want)))
                return;
        }
        nanosleep(&d, NULL);
    }
    d.tv_nsec = 200 * 1000 * 1000;
    nanosleep(&d, NULL);
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
    int32_t tid;
    if (read(ready[0], &tid, sizeof tid) != sizeof tid)
        return 1;
    wait_blocked(tid);
#ifdef IO_CANCEL_MPI
    MPI_Finalize();
#endif
    if (!strcmp(argv[1], "exit")) {
        pthread_detach(t);
        exit(0);
    }
    return 0;
}
