/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_edge.c: edge cases of memory recording (test_memory_recording.sh): free(NULL),
 * realloc(NULL, n) and realloc(p, 0), a block allocated while recording is off and freed
 * while on (a free of unknown size), one allocated while on and freed while off (no leak),
 * and a fork whose child allocates and execs. The output is the same without measurement. */
#include <scorep/SCOREP_User.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))
void *keep[4];
/* volatile: the compiler may turn realloc(NULL, n) into malloc(n) and drop free(NULL) */
void *volatile null_ptr;

/* free(NULL) is a call of free that releases nothing */
NOINLINE void free_null(void)
{
    free(null_ptr);
}

/* realloc(NULL, 64) allocates 64; realloc(p, 0) releases them (glibc returns NULL) */
NOINLINE void realloc_edges(void)
{
    char *p = realloc(null_ptr, 64);
    p[63] = 1;
    keep[0] = realloc(p, 0);
}

NOINLINE void alloc_unrecorded(void)
{
    keep[1] = malloc(300);
}

NOINLINE void free_unknown(void)
{
    free(keep[1]);
}

NOINLINE void alloc_recorded(void)
{
    keep[2] = malloc(500);
}

NOINLINE void free_unrecorded(void)
{
    free(keep[2]);
}

/* the child allocates (not measured: the runtime stops in a forked child) and execs */
NOINLINE int child(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        char *c = malloc(4000);
        c[0] = 'x';
        execl("/bin/echo", "echo", "child", (char *)NULL);
        _exit(3);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 99;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    free_null();
    realloc_edges();
    SCOREP_RECORDING_OFF();
    alloc_unrecorded();
    SCOREP_RECORDING_ON();
    free_unknown();
    alloc_recorded();
    SCOREP_RECORDING_OFF();
    free_unrecorded();
    SCOREP_RECORDING_ON();
    int rc = child();
    printf("parent %d %d\n", rc, keep[0] == NULL);
    return 0;
}
