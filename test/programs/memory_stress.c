/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_stress.c: 4 threads allocate blocks of varying sizes; half of each thread's blocks
 * are freed by the next thread (a cross-thread free), half by itself; each thread leaks one
 * block of 1000 + its number bytes. The program counts what it allocated and freed and
 * prints the totals (test_memory_recording.sh compares them with the profile). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { THREADS = 4, BLOCKS = 20000, RING = 64 };

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    void *slot[RING];
    size_t size[RING];
    unsigned head, tail;
    int done;
} queue;

static queue q[THREADS];
static unsigned long long allocated[THREADS], freed[THREADS], leaked[THREADS];
void *leaks[THREADS];

static void put(queue *x, void *p, size_t n)
{
    pthread_mutex_lock(&x->lock);
    while (x->head - x->tail == RING)
        pthread_cond_wait(&x->cond, &x->lock);
    x->slot[x->head % RING] = p;
    x->size[x->head % RING] = n;
    x->head++;
    pthread_cond_broadcast(&x->cond);
    pthread_mutex_unlock(&x->lock);
}

/* frees what the previous thread queued; returns 0 once it is done and the queue empty */
static int drain(queue *x, int t, int wait)
{
    pthread_mutex_lock(&x->lock);
    while (wait && x->head == x->tail && !x->done)
        pthread_cond_wait(&x->cond, &x->lock);
    int more = !(x->head == x->tail && x->done);
    while (x->head != x->tail) {
        free(x->slot[x->tail % RING]);
        freed[t] += x->size[x->tail % RING];
        x->tail++;
    }
    pthread_cond_broadcast(&x->cond);
    pthread_mutex_unlock(&x->lock);
    return more;
}

__attribute__((noinline)) void *worker(void *arg)
{
    int t = (int)(long)arg;
    unsigned seed = 17u * (unsigned)t + 1;
    queue *next = &q[(t + 1) % THREADS], *mine = &q[t];
    for (int i = 0; i < BLOCKS; i++) {
        size_t n = 1 + rand_r(&seed) % 3000;
        char *p = malloc(n);
        memset(p, t, n);
        allocated[t] += n;
        if (i % 2)
            put(next, p, n);
        else {
            free(p);
            freed[t] += n;
        }
        if (i % 16 == 0)
            drain(mine, t, 0);
    }
    leaks[t] = malloc(1000 + (size_t)t);
    allocated[t] += 1000 + (size_t)t;
    leaked[t] = 1000 + (size_t)t;
    pthread_mutex_lock(&next->lock);
    next->done = 1;
    pthread_cond_broadcast(&next->cond);
    pthread_mutex_unlock(&next->lock);
    while (drain(mine, t, 1))
        ;
    return NULL;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        pthread_mutex_init(&q[t].lock, NULL);
        pthread_cond_init(&q[t].cond, NULL);
    }
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, worker, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    unsigned long long a = 0, f = 0, l = 0;
    for (int t = 0; t < THREADS; t++) {
        a += allocated[t];
        f += freed[t];
        l += leaked[t];
    }
    printf("allocated %llu freed %llu leaked %llu\n", a, f, l);
    return a == f + l ? 0 : 1;
}
