/* SPDX-License-Identifier: BSD-3-Clause */
/* test_subsystem.c: two subsystems and an at_finalize function registered from a
 * constructor (after the runtime's init, as an adapter library would) print each phase the
 * runtime calls; test_subsystem.sh compares the order with the one core/subsystem.h and
 * docs/design.md ("Life cycle") give. */
#include "runtime/runtime.h"
#include "core/location.h"

#include <pthread.h>
#include <stdio.h>

static void say(const char *fmt, const char *who, long a, long b)
{
    printf(fmt, who, a, b);
    fflush(stdout);
}

#define PHASES(X)                                                                                  \
    static void X##_init(void)                                                                     \
    {                                                                                              \
        say("%s init active=%ld\n", #X, scorep_measurement_on(), 0);                             \
    }                                                                                              \
    static void X##_begin(bool mpi)                                                                \
    {                                                                                              \
        say("%s begin mpi=%ld\n", #X, mpi, 0);                                                     \
    }                                                                                              \
    static void X##_created(scorep_location *l)                                                    \
    {                                                                                              \
        say("%s location_created %ld own_thread=%ld\n", #X, (long)l->id,                           \
            scorep_tls_location == l);                                                             \
    }                                                                                              \
    static void X##_end(void)                                                                      \
    {                                                                                              \
        say("%s end active=%ld\n", #X, scorep_measurement_on(), 0);                              \
    }                                                                                              \
    static void X##_finalize(void)                                                                 \
    {                                                                                              \
        say("%s finalize\n", #X, 0, 0);                                                            \
    }                                                                                              \
    static const scorep_subsystem X = {#X, X##_init, X##_begin, X##_created, X##_end, X##_finalize, NULL};

PHASES(A)
PHASES(B)

static void at_finalize(void)
{
    say("%s at_finalize active=%ld\n", "C", scorep_measurement_on(), 0);
}

__attribute__((constructor)) static void register_them(void)
{
    if (scorep_runtime_register(&A) != 0 || scorep_runtime_register(&B) != 0 ||
        scorep_runtime_at_finalize(at_finalize) != 0)
        say("%s registration failed\n", "test", 0, 0);
}

static void *thread(void *arg)
{
    (void)arg;
    return scorep_location_get();
}

int main(void)
{
    for (int i = 0; i < 2; i++) {
        pthread_t t;
        void *l = NULL;
        if (pthread_create(&t, NULL, thread, NULL) != 0 || pthread_join(t, &l) != 0 || !l)
            say("%s thread %ld has no location\n", "test", i, 0);
    }
    say("%s main returns\n", "test", 0, 0);
    return 0;
}
