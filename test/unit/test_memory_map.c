/* SPDX-License-Identifier: BSD-3-Clause */
/* test_memory_map.c: the memory adapter's address table (src/adapters/memory/memory_map.c)
 * against a plain array: random puts and takes (addresses that collide, reuse of freed
 * addresses, growth of shards, lookups of untracked addresses), then four threads at once. */
#include "adapters/memory/memory_map.h"
#include "unit_check.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 20000 };
static uint64_t sizes[N]; /* 0: not in the table */

static uintptr_t addr_of(int i)
{
    return 0x100000 + (uintptr_t)i * 16; /* like malloc's 16-byte granules */
}

static void sum_each(const scorep_alloc_rec *r, void *arg)
{
    *(uint64_t *)arg += r->size;
}

static void single(void)
{
    scorep_alloc_map m = {0};
    uint64_t live = 0;
    srand(7);
    for (int op = 0; op < 400000; op++) {
        int i = rand() % N;
        scorep_alloc_rec r;
        if (sizes[i] == 0 && rand() % 3) {
            scorep_alloc_rec put = {.addr = addr_of(i), .size = 1 + (uint64_t)(rand() % 5000)};
            CHECK(scorep_alloc_map_put(&m, &put), "put %d", i);
            sizes[i] = put.size;
            live += put.size;
        } else {
            bool found = scorep_alloc_map_take(&m, addr_of(i), &r);
            CHECK(found == (sizes[i] != 0), "take %d: found %d, expected %d", i, found,
                  sizes[i] != 0);
            if (found) {
                CHECK(r.size == sizes[i], "take %d: size %llu, expected %llu", i,
                      (unsigned long long)r.size, (unsigned long long)sizes[i]);
                live -= sizes[i];
                sizes[i] = 0;
            }
        }
    }
    uint64_t n = 0, sum = 0;
    for (int i = 0; i < N; i++)
        n += sizes[i] != 0;
    scorep_alloc_map_each(&m, sum_each, &sum);
    CHECK(scorep_alloc_map_count(&m) == n, "count %llu, expected %llu",
          (unsigned long long)scorep_alloc_map_count(&m), (unsigned long long)n);
    CHECK(sum == live, "sum of sizes %llu, expected %llu", (unsigned long long)sum,
          (unsigned long long)live);
    /* a replaced record (a free that was not seen) keeps one entry */
    scorep_alloc_rec a = {.addr = 0x42, .size = 1}, b = {.addr = 0x42, .size = 2}, r;
    scorep_alloc_map_put(&m, &a);
    scorep_alloc_map_put(&m, &b);
    CHECK(scorep_alloc_map_take(&m, 0x42, &r) && r.size == 2, "replaced record");
    CHECK(!scorep_alloc_map_take(&m, 0x42, &r), "replaced record taken twice");
    CHECK(m.lost == 0, "lost %llu", (unsigned long long)m.lost);
}

static scorep_alloc_map shared;

/* the threads' addresses interleave (thread t: granules 4i + t), so they meet on every
 * shard and in its clusters */
static uintptr_t thread_addr(long t, int i)
{
    return 0x1000000 + ((uintptr_t)i * 4 + (uintptr_t)t) * 16;
}

static void *worker(void *arg)
{
    long t = (long)arg;
    for (int round = 0; round < 40; round++) {
        for (int i = 0; i < 5000; i++) {
            scorep_alloc_rec r = {.addr = thread_addr(t, i), .size = (uint64_t)i + 1};
            CHECK(scorep_alloc_map_put(&shared, &r), "thread put");
        }
        for (int i = 0; i < 5000; i++) {
            scorep_alloc_rec r;
            CHECK(scorep_alloc_map_take(&shared, thread_addr(t, i), &r) &&
                      r.size == (uint64_t)i + 1,
                  "thread %ld take %d", t, i);
        }
    }
    return NULL;
}

static void threads(void)
{
    pthread_t t[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    CHECK(scorep_alloc_map_count(&shared) == 0, "threads: %llu records left",
          (unsigned long long)scorep_alloc_map_count(&shared));
}

int main(void)
{
    single();
    threads();
    if (failures)
        return 1;
    printf("PASS test_memory_map\n");
    return 0;
}
