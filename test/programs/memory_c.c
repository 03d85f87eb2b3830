/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_c.c: known allocations for test_memory_recording.sh. Per function, the bytes allocated,
 * freed and leaked are fixed (comments); two threads each leak 4096 bytes; strdup
 * allocates through libc. stdout is unbuffered, so that stdio allocates nothing. The
 * output is the same with and without measurement. */
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))
void *keep[8]; /* global: the compiler may not elide the leaked allocations */
static unsigned long sum; /* added to by the main thread and both workers: atomically */

static void use(void *p, size_t n)
{
    memset(p, 1, n);
    __atomic_fetch_add(&sum, ((unsigned char *)p)[n - 1], __ATOMIC_RELAXED);
}

/* malloc 1000, leaked */
NOINLINE void leak_malloc(void)
{
    keep[0] = malloc(1000);
    use(keep[0], 1000);
}

/* 10 x malloc(100) and free: 1000 allocated, 1000 freed */
NOINLINE void churn(void)
{
    for (int i = 0; i < 10; i++) {
        char *q = malloc(100);
        use(q, 100);
        free(q);
    }
}

/* calloc 300; realloc to 500 (300 freed, 500 allocated) and to 200 (500 freed, 200
 * allocated); free 200 */
NOINLINE void grow(void)
{
    char *c = calloc(10, 30);
    use(c, 300);
    char *r = realloc(c, 500);
    use(r, 500);
    char *s = realloc(r, 200);
    use(s, 200);
    free(s);
}

/* posix_memalign 256 leaked, aligned_alloc 128 freed, memalign 96 leaked, valloc 200 freed */
NOINLINE void aligned(void)
{
    if (posix_memalign(&keep[1], 64, 256) != 0)
        exit(2);
    use(keep[1], 256);
    void *a = aligned_alloc(64, 128);
    use(a, 128);
    free(a);
    keep[2] = memalign(32, 96);
    use(keep[2], 96);
    void *v = valloc(200);
    use(v, 200);
    free(v);
}

/* strdup: 9 bytes through libc's malloc, leaked */
NOINLINE void dup(void)
{
    keep[3] = strdup("measured");
}

static pthread_key_t key;

/* the key's destructor: program code that frees after the thread's start routine ended */
NOINLINE void drop(void *p)
{
    free(p);
}

/* per thread: 4096 leaked, 512 freed; 128 freed by the key's destructor after the thread's
 * start routine returned (not recorded, but no leak either) */
NOINLINE void *worker(void *arg)
{
    void *k = malloc(128);
    use(k, 128);
    pthread_setspecific(key, k);
    void *a = malloc(4096), *b = malloc(512);
    use(a, 4096);
    use(b, 512);
    free(b);
    return a;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    leak_malloc();
    churn();
    grow();
    aligned();
    dup();
    pthread_t t[2];
    void *r[2];
    pthread_key_create(&key, drop);
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], &r[i]);
    printf("sum %lu %s %d\n", __atomic_load_n(&sum, __ATOMIC_RELAXED), (char *)keep[3], r[0] != r[1]);
    return 0;
}
