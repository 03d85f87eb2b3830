/* SPDX-License-Identifier: BSD-3-Clause */
/* io_bench.c: the cost of a wrapped write (issue #21): N writes of 8 bytes to /dev/null
 * (the cheapest real write system call), timed around the loop with the thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID: on a loaded machine the wait for a CPU is not counted).
 *   io_bench N [isoc]   prints "ns_per_write X" (isoc: fwrite of 8 bytes + fflush instead,
 *                       so that every call reaches the kernel too) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    int isoc = argc > 2 && strcmp(argv[2], "isoc") == 0;
    char buf[8] = "12345678";
    int fd = open("/dev/null", O_WRONLY);
    FILE *f = fopen("/dev/null", "w");
    if (fd < 0 || !f)
        return 1;
    struct timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    for (long i = 0; i < n; i++) {
        if (isoc) {
            if (fwrite(buf, 1, sizeof buf, f) != sizeof buf || fflush(f) != 0)
                return 2;
        } else if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) {
            return 2;
        }
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    printf("ns_per_write %.2f\n", ns / (double)n);
    close(fd);
    fclose(f);
    return 0;
}
