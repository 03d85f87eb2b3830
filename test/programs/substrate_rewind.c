/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_rewind.c: rewind regions, trace buffer flushes and a run long enough for an
 * asynchronous metric plugin's values, for the substrate plugin test: 4 rewind points of
 * region "rw", each around one call of work, checked with 1, 0, 1, 0 (discard every other);
 * then argv[1] calls of tiny (default 0: a flush mode run with little memory fills its
 * buffer), then a sleep of argv[2] milliseconds (default 0); with a third argument one more
 * check of rw, with 1, without its point. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <scorep/SCOREP_User.h>

long sink;

__attribute__((noinline)) void work(int i)
{
    sink += i;
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void tiny(long i)
{
    sink += i & 1;
    __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
    long calls = argc > 1 ? atol(argv[1]) : 0, ms = argc > 2 ? atol(argv[2]) : 0;
    SCOREP_USER_REWIND_DEFINE(rw)
    for (int i = 0; i < 4; i++) {
        SCOREP_USER_REWIND_POINT(rw, "rw")
        work(i);
        SCOREP_USER_REWIND_CHECK(rw, i % 2 == 0)
    }
    if (argc > 3) {
        SCOREP_USER_REWIND_CHECK(rw, 1)
    }
    for (long i = 0; i < calls; i++)
        tiny(i);
    if (ms > 0) {
        struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&t, NULL);
    }
    printf("sink %ld\n", sink);
    return 0;
}
