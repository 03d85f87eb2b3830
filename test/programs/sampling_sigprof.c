/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_sigprof.c: installs its own SIGPROF handler (as gprof-style code does), so that
 * sampling stops; the runtime must say so at the end. */
#include <signal.h>
#include <stdio.h>

static volatile sig_atomic_t got;

static void on_prof(int sig)
{
    (void)sig;
    got++;
}

int main(void)
{
    signal(SIGPROF, on_prof);
    volatile double x = 0;
    for (long i = 0; i < 20000000; i++)
        x += (double)i * 1e-9;
    printf("done\n");
    return 0;
}
