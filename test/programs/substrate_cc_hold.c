/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_cc_hold.c: one parallel region of two threads (LLVM's libomp, OMP_WAIT_POLICY=
 * active): the worker reaches the implicit barrier at once and spins there, sampled, while
 * the master waits (SIGPROF blocked: the worker's samples are the only ones) and then ends
 * the team, writing the idle worker's barrier exit, team end and deactivation itself.
 * test_substrate_cc.sh holds, meanwhile, the worker inside the signal handler of a barrier
 * sample (gdb, which then sets worker_held; argument "held": the master waits for that, up
 * to 20 s) or the master inside the plugin's callback of the worker's barrier exit
 * (substrate_cc.c, SUBSTRATE_CC_HOLD_MS; no argument: the master waits 100 ms): the plugin
 * must get the worker's samples in timestamp order around those events either way. Sleeps
 * 0.6 s after the region, so that a held handler ends before the measurement does. */
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* the worker is in the region (gdb's breakpoint condition: a sample of the worker's) */
volatile int worker_in;
/* set by gdb: the worker is held inside the handler of a sample taken in the barrier */
volatile int worker_held;

/* a macro, not a function: an instrumented call would be unwound at its enter, and the
 * master's unwinding (libunwind) stops at gdb's breakpoint too, until gdb, holding the
 * worker, takes it up */
#define SLEEP_MS(ms)                                                                               \
    do {                                                                                           \
        struct timespec d_ = {(ms) / 1000, ((ms) % 1000) * 1000000L};                              \
        while (nanosleep(&d_, &d_) != 0)                                                           \
            ;                                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    int held = argc > 1 && strcmp(argv[1], "held") == 0;
    sigset_t prof;
    sigemptyset(&prof);
    sigaddset(&prof, SIGPROF);
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1) {
            worker_in = 1;
        } else {
            pthread_sigmask(SIG_BLOCK, &prof, NULL);
            for (int i = 0; i < (held ? 20000 : 100) && !worker_held; i++)
                SLEEP_MS(1);
        }
    }
    worker_in = 0;
    SLEEP_MS(600);
    pthread_sigmask(SIG_UNBLOCK, &prof, NULL);
    puts(held && !worker_held ? "not held" : "done");
    return 0;
}
