/* SPDX-License-Identifier: BSD-3-Clause */
/* longjmp_regions.c: jumps out of frames that have regions open whose leave is not the plain
 * one, for test_longjmp_regions.sh: a dynamic and a (selectable) user region in abandoned
 * frames, and a read that a signal handler's siglongjmp abandons (POSIX I/O, recorded with
 * --io=posix). Built with and without compiler instrumentation; the expected call paths and
 * events are in the comments. */
#include <scorep/SCOREP_User.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define NI __attribute__((noinline))

static jmp_buf env;
static sigjmp_buf senv;
static volatile int count;
static volatile sig_atomic_t reading;

/* the call made after each jump: region "back" (under function after when instrumented) */
NI static void after(void)
{
    SCOREP_USER_REGION_BY_NAME_BEGIN("back", SCOREP_USER_REGION_TYPE_COMMON)
    count++;
    SCOREP_USER_REGION_BY_NAME_END("back")
}

/* ------------------------------------------------------------------ user regions */
/* sel: a plain region, selected when SCOREP_SELECTIVE_CONFIG_FILE names it; the jump leaves
 * it at its frame's abandonment (selected: recording goes off after its Leave, as its END
 * would switch it) */
NI static void d2(void)
{
    SCOREP_USER_REGION_DEFINE(sel)
    SCOREP_USER_REGION_BEGIN(sel, "sel", SCOREP_USER_REGION_TYPE_COMMON)
    count++;
    longjmp(env, 1);
}

/* dyn: a dynamic region (an instance per visit in the profile: dyn/instance=N); jump: its
 * frame is abandoned in d2, else it ends as written (no children) */
NI static void d1(int jump)
{
    SCOREP_USER_REGION_DEFINE(dyn)
    SCOREP_USER_REGION_BEGIN(dyn, "dyn", SCOREP_USER_REGION_TYPE_DYNAMIC)
    if (jump)
        d2();
    else
        count++;
    SCOREP_USER_REGION_END(dyn)
}

/* left at the jump innermost first: sel d2 dyn d1; then after. Called twice: paths
 * case_user/d1/dyn/instance=1/d2/sel and .../instance=2/..., case_user/after/back */
NI static void case_user(void)
{
    if (setjmp(env) == 0)
        d1(1);
    else
        after();
}

/* ------------------------------------------------------------------ I/O */
/* SIGALRM's handler jumps out of the blocked read (only then: reading, set just before the
 * read; an earlier signal re-arms the timer) */
static void on_alarm(int sig)
{
    (void)sig;
    if (reading)
        siglongjmp(senv, 1);
    struct itimerval it = {{0, 0}, {0, 20000}};
    setitimer(ITIMER_REAL, &it, NULL);
}

/* the read of an empty pipe blocks until the signal: read and io_read are left at the jump
 * (read's operation completes unsized, EINTR) */
NI static void io_read(int fd)
{
    char c;
    count++;
    reading = 1;
    if (read(fd, &c, 1) >= 0)
        fprintf(stderr, "read returned\n");
}

/* after the jump the thread's I/O is recorded again: the write and the read of one byte are
 * case_io's children. Paths: case_io/io_read/read, case_io/write, case_io/read,
 * case_io/after/back, case_io/close (twice) */
NI static void case_io(void)
{
    int p[2];
    char c;
    if (pipe(p) != 0)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART: a returning handler ends the read (EINTR) */
    sigaction(SIGALRM, &sa, NULL);
    if (sigsetjmp(senv, 1) == 0) {
        struct itimerval it = {{0, 0}, {0, 50000}};
        setitimer(ITIMER_REAL, &it, NULL);
        io_read(p[0]);
    } else {
        reading = 0;
        if (write(p[1], "x", 1) == 1 && read(p[0], &c, 1) == 1)
            after();
    }
    close(p[0]);
    close(p[1]);
}

int main(int argc, char **argv)
{
    (void)argv;
    case_user();
    case_user();
    d1(0); /* dyn ended by its END: main/d1/dyn/instance=1 (dyn/instance=3 without functions) */
    if (argc > 1) /* any argument: the I/O case too */
        case_io();
    printf("done %d\n", count);
    return 0;
}
