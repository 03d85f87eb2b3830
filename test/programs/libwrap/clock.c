/* SPDX-License-Identifier: BSD-3-Clause */
/* clock.c: calls libc's clock_gettime 3 times (test_libwrap.sh wraps it at run time while the
 * measurement's timer is clock_gettime too: only these 3 calls may be recorded). */
#include <stdio.h>
#include <time.h>

int main(void)
{
    struct timespec ts;
    int ok = 0;
    for (int i = 0; i < 3; i++)
        ok += clock_gettime(CLOCK_MONOTONIC, &ts) == 0;
    printf("%d calls\n", ok);
    return 0;
}
