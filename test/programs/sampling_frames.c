/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_frames.c: CPU time in uninstrumented functions whose frames the unwinding at
 * instrumented enters inserts, while no call below them is open (test_sampling_frames.sh):
 * mid (left out by the test's filter) works before, between and after its two calls of the
 * instrumented leaf(); at exit, bye (left out too) writes "bye" (an I/O call below exit's
 * frames), works, and reads 128 MiB from /dev/zero (CPU time inside an I/O call). WORK_MS of
 * CPU time per stretch. */
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define WORK_MS 30

static volatile double sink;

static long thread_cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

/* inlined into its callers: their samples' innermost frame is the caller itself */
static inline __attribute__((always_inline)) void work(void)
{
    long end = thread_cpu_ns() + WORK_MS * 1000000L;
    double x = 0;
    while (thread_cpu_ns() < end)
        for (int i = 0; i < 20000; i++)
            x += (double)i * 1e-9;
    sink += x;
}

__attribute__((noinline)) void leaf(void)
{
    double x = 0;
    for (int i = 0; i < 1000; i++)
        x += (double)i * 1e-9;
    sink += x;
}

__attribute__((noinline)) void mid(void)
{
    work();
    leaf();
    work();
    leaf();
    work();
}

/* 128 MiB from /dev/zero in one read: CPU time inside an I/O call (the kernel's) */
static void read_zeros(void)
{
    size_t n = 128u << 20;
    char *buf = malloc(n);
    int fd = open("/dev/zero", O_RDONLY);
    if (!buf || fd < 0 || read(fd, buf, n) != (ssize_t)n)
        _exit(4);
    close(fd);
    free(buf);
}

__attribute__((noinline)) void bye(void)
{
    if (write(1, "bye\n", 4) != 4)
        _exit(3);
    work();
    read_zeros();
}

int main(void)
{
    atexit(bye);
    mid();
    return 0;
}
