/* SPDX-License-Identifier: BSD-3-Clause */
/* io_score.c: the I/O pattern of a Fortran application's file handling (Quantum ESPRESSO's
 * pw.x: many stat calls, open/write/close, a stream read whole after fseek/ftell, fflush of
 * stdout, ftruncate, unlink) for test_score_io.sh: calls with 0, 1 and 2 I/O records each,
 * so that scorep-score's trace estimate is right only when it counts them per function. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 200;
    char buf[4096] = {0};
    long total = 0;
    for (int i = 0; i < rounds; i++) {
        struct stat st;
        /* the stat family: a region, no I/O record */
        for (int k = 0; k < 5; k++)
            if (stat("io_score.dat", &st) == 0)
                total += st.st_size > 0;
        /* a descriptor: create, write, seek, truncate, stat, close (handle events, operations) */
        int fd = open("io_score.dat", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            return 1;
        for (int k = 0; k < 3; k++)
            if (write(fd, buf, 1000) != 1000)
                return 2;
        if (lseek(fd, 0, SEEK_SET) != 0 || ftruncate(fd, 2000) != 0 || fstat(fd, &st) != 0)
            return 3;
        close(fd);
        /* a stream: its size by fseek/ftell, read whole */
        FILE *f = fopen("io_score.dat", "r");
        if (!f || fseek(f, 0, SEEK_END) != 0)
            return 4;
        long n = ftell(f);
        if (n != 2000 || fseek(f, 0, SEEK_SET) != 0 || fread(buf, 1, (size_t)n, f) != (size_t)n)
            return 5;
        fclose(f);
        total += n;
        fflush(stdout);
    }
    unlink("io_score.dat");
    printf("%ld\n", total);
    return 0;
}
