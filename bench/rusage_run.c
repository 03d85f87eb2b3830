/* SPDX-License-Identifier: BSD-3-Clause */
/* rusage_run.c: rusage_run OUTFILE PROGRAM [ARGS...] runs PROGRAM and writes
 * "maxrss_kib <KiB> wall_s <seconds>" of it to OUTFILE (peak RSS from wait4).
 * Exits with the program's exit status (128+signal when it was killed). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: rusage_run OUTFILE PROGRAM [ARGS...]\n");
        return 2;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "rusage_run: fork: %s\n", strerror(errno));
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        fprintf(stderr, "rusage_run: cannot run %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "rusage_run: wait4: %s\n", strerror(errno));
            return 2;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double wall = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
    FILE *f = fopen(argv[1], "w");
    if (!f) {
        fprintf(stderr, "rusage_run: cannot write %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    /* CPU time (user + system) after the wall time: on a shared machine it varies less */
    double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                 (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
    fprintf(f, "maxrss_kib %ld wall_s %.6f cpu_s %.6f\n", ru.ru_maxrss, wall, cpu);
    fclose(f);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
