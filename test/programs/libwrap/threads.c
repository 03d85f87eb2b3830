/* SPDX-License-Identifier: BSD-3-Clause */
/* threads.c: wrapped calls from several threads (test_libwrap.sh): thread i (1..3) calls
 * mylib's ml_add 100*i times, the main thread none; prints the sum, 0 + 1 + ... per thread. */
#include <mylib.h>
#include <pthread.h>
#include <stdio.h>

static void *worker(void *arg)
{
    long n = 100 * (long)arg, s = 0;
    for (long k = 0; k < n; ++k)
        s = ml_add((int)s, (int)k);
    return (void *)s;
}

int main(void)
{
    pthread_t t[3];
    long total = 0;
    for (long i = 0; i < 3; ++i)
        if (pthread_create(&t[i], NULL, worker, (void *)(i + 1)) != 0)
            return 1;
    for (int i = 0; i < 3; ++i) {
        void *r;
        if (pthread_join(t[i], &r) != 0)
            return 1;
        total += (long)r;
    }
    printf("%ld\n", total);
    return 0;
}
