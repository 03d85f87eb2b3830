/* SPDX-License-Identifier: BSD-3-Clause */
/* io_nb_hold.c: the trace writer's memory with non-blocking I/O recorded (test_io_cancel_nb.sh,
 * part memory). io_nb_hold T N MODE: T threads (at most 512) each make N one-byte writes to
 * /dev/null (4 trace records each under scorep-run --io=posix: N = 20000 fills an OTF2 chunk
 * of 1 MiB); MODE "nb": main first issues an aio_read of a regular file (the program) that
 * it never completes (so the process has recorded non-blocking I/O), "none": it does not,
 * "thread": the first worker to start issues it before its writes (with a small
 * SCOREP_TOTAL_MEMORY its Begin goes to the location's spill file). */
#include <aio.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long n_writes;
static int in_thread; /* MODE "thread": the first worker issues the request */
static struct aiocb cb;
static char buf[8];

/* an aio_read of 8 bytes of path, never completed */
static int issue(const char *path)
{
    cb.aio_fildes = open(path, O_RDONLY);
    cb.aio_buf = buf;
    cb.aio_nbytes = sizeof buf;
    if (cb.aio_fildes < 0 || aio_read(&cb) != 0) {
        perror("io_nb_hold: aio_read");
        return -1;
    }
    return 0;
}

static void *worker(void *arg)
{
    int fd = *(int *)arg;
    if (__atomic_exchange_n(&in_thread, 0, __ATOMIC_ACQ_REL) && issue("/proc/self/exe") != 0)
        return (void *)1;
    for (long i = 0; i < n_writes; i++)
        if (write(fd, "x", 1) != 1)
            return (void *)1;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: io_nb_hold THREADS WRITES nb|none\n");
        return 2;
    }
    int nt = atoi(argv[1]);
    n_writes = atol(argv[2]);
    if (nt < 1 || nt > 512 || n_writes < 0) {
        fprintf(stderr, "io_nb_hold: 1 to 512 threads, writes >= 0\n");
        return 2;
    }
    if (strcmp(argv[3], "nb") == 0 && issue("/proc/self/exe") != 0)
        return 1;
    in_thread = strcmp(argv[3], "thread") == 0;
    int fd = open("/dev/null", O_WRONLY);
    if (fd < 0) {
        perror("io_nb_hold: /dev/null");
        return 1;
    }
    pthread_t th[512];
    for (int i = 0; i < nt; i++)
        if (pthread_create(&th[i], NULL, worker, &fd) != 0) {
            fprintf(stderr, "io_nb_hold: pthread_create failed\n");
            return 1;
        }
    int bad = 0;
    for (int i = 0; i < nt; i++) {
        void *r;
        pthread_join(th[i], &r);
        bad |= r != NULL;
    }
    printf("io_nb_hold: %d threads, %ld writes each\n", nt, n_writes);
    return bad;
}
