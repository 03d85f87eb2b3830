/* SPDX-License-Identifier: BSD-3-Clause */
/* io_bench.c: the cost of a wrapped write (issue #21): N writes of 8 bytes to /dev/null
 * (the cheapest real write system call), timed around the loop with the thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID: on a loaded machine the wait for a CPU is not counted).
 *   io_bench N [isoc]   prints "ns_per_write X" (isoc: fwrite of 8 bytes + fflush instead,
 *                       so that every call reaches the kernel too)
 *   io_bench N unlocked N characters from /dev/zero with getc_unlocked called as a function
 *                       (through a pointer: one recorded call per character)
 *   io_bench N inline   64 N characters with <stdio.h>'s inline getc_unlocked (-O2): only
 *                       its __uflow at every refill of the stream's buffer is a call
 * The character modes read one character before the clock starts: the first recorded call
 * defines the region and the call path, which the loop should not pay. */
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
    int unlocked = argc > 2 && strcmp(argv[2], "unlocked") == 0;
    int inl = argc > 2 && strcmp(argv[2], "inline") == 0;
    static int (*volatile getc_fn)(FILE *) = getc_unlocked;
    char buf[8] = "12345678";
    int fd = open("/dev/null", O_WRONLY);
    FILE *f = fopen(unlocked || inl ? "/dev/zero" : "/dev/null", unlocked || inl ? "r" : "w");
    if (fd < 0 || !f)
        return 1;
    if (inl)
        n *= 64;
    long sum = 0;
    if (unlocked || inl)
        sum += getc_unlocked(f) + getc_fn(f);
    struct timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    for (long i = 0; i < n; i++) {
        if (unlocked) {
            sum += getc_fn(f);
        } else if (inl) {
            sum += getc_unlocked(f);
        } else if (isoc) {
            if (fwrite(buf, 1, sizeof buf, f) != sizeof buf || fflush(f) != 0)
                return 2;
        } else if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) {
            return 2;
        }
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    if (sum != 0) /* /dev/zero: all characters 0; keeps the loop */
        return 3;
    printf("ns_per_write %.2f\n", ns / (double)n);
    close(fd);
    fclose(f);
    return 0;
}
