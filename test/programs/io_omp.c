/* SPDX-License-Identifier: BSD-3-Clause */
/* io_omp.c: OpenMP threads doing I/O for test_io.sh: thread t of 4 writes (t + 1) * 100
 * bytes to its own file in (t + 1) writes of 100 bytes. */
#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    long total = 0;
#pragma omp parallel num_threads(4) reduction(+ : total)
    {
        int t = omp_get_thread_num();
        char name[32], buf[100];
        memset(buf, 't', sizeof buf);
        snprintf(name, sizeof name, "omp%d.dat", t);
        int fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        for (int i = 0; i <= t; i++)
            total += write(fd, buf, sizeof buf);
        close(fd);
    }
    printf("omp total %ld\n", total);
    return 0;
}
