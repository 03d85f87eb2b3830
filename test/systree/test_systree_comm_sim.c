/* SPDX-License-Identifier: BSD-3-Clause */
/* test_systree_comm_sim.c: unit tests of the simulated backend of systree_comm.h: splits
 * (with and without keys, of a family of several groups, members left out), exchanges (the
 * receiver gets the sender's buffer, several messages to one member, a receive without a
 * send), broadcast, and the counters. Expected values worked out by hand from MPI's rules. */
#include "systree/systree_comm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks, failures;

static void check(int ok, const char *what, int line)
{
    checks++;
    if (!ok) {
        failures++;
        fprintf(stderr, "test_systree_comm_sim.c:%d: FAILED: %s\n", line, what);
    }
}

#define CHECK(cond) check((cond) != 0, #cond, __LINE__)

/* Members of f (world rank, rank, size, parent member) equal the expected lists. */
static void check_family(const systree_comm *f, size_t ngroups, const uint64_t *world,
                         const int *rank, const int *size, const size_t *parent, size_t n,
                         int line)
{
    check(systree_comm_nlocal(f) == n, "members", line);
    check(systree_comm_ngroups(f) == ngroups, "groups", line);
    for (size_t m = 0; m < n && m < systree_comm_nlocal(f); m++) {
        int ok = systree_comm_world(f, m) == world[m] && systree_comm_rank(f, m) == rank[m] &&
                 systree_comm_size(f, m) == size[m] && systree_comm_parent(f, m) == parent[m];
        check(ok, "member's world rank, rank, size and parent", line);
        if (!ok)
            fprintf(stderr, "  member %zu: world %llu rank %d size %d parent %zu\n", m,
                    (unsigned long long)systree_comm_world(f, m), systree_comm_rank(f, m),
                    systree_comm_size(f, m), systree_comm_parent(f, m));
    }
}

static systree_comm *world8(void)
{
    systree_comm *w = systree_comm_sim_world(8);
    if (w == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return w;
}

/* MPI_Comm_split: groups by colour (ascending), members by (key, old rank); without keys,
 * colours in runs and out of order, as a system tree's split by node has them. */
static void test_split(void)
{
    systree_comm *w = world8(), *f = NULL, *g = NULL, *k = NULL;
    int64_t color[8] = {5, 5, 3, 3, 5, 1, 1, 3};
    CHECK(systree_comm_split(w, color, NULL, &f) == 0);
    static const uint64_t fw[] = {5, 6, 2, 3, 7, 0, 1, 4};
    static const int fr[] = {0, 1, 0, 1, 2, 0, 1, 2}, fs[] = {2, 2, 3, 3, 3, 3, 3, 3};
    static const size_t fp[] = {5, 6, 2, 3, 7, 0, 1, 4};
    check_family(f, 3, fw, fr, fs, fp, 8, __LINE__);

    /* keys 7 - rank: each colour's members in reverse order */
    uint64_t key[8] = {7, 6, 5, 4, 3, 2, 1, 0};
    CHECK(systree_comm_split(w, color, key, &k) == 0);
    static const uint64_t kw[] = {6, 5, 7, 3, 2, 4, 1, 0};
    static const size_t kp[] = {6, 5, 7, 3, 2, 4, 1, 0};
    check_family(k, 3, kw, fr, fs, kp, 8, __LINE__);

    /* f's groups {5,6} {2,3,7} {0,1,4} split again: runs never cross a group, and member 6
     * (world 1) is left out */
    int64_t again[8] = {1, 0, 0, 1, 0, 1, SYSTREE_UNDEFINED, 0};
    CHECK(systree_comm_split(f, again, NULL, &g) == 0);
    static const uint64_t gw[] = {6, 5, 2, 7, 3, 4, 0};
    static const int gr[] = {0, 0, 0, 1, 0, 0, 0}, gs[] = {1, 1, 2, 2, 1, 1, 1};
    static const size_t gp[] = {1, 0, 2, 4, 3, 7, 5};
    check_family(g, 6, gw, gr, gs, gp, 7, __LINE__);

    systree_sim_stats st;
    systree_comm_sim_stats(w, &st);
    CHECK(st.splits == 1 + 1 + 3); /* one per group split: the world twice, f's three */
    systree_comm_free(g);
    systree_comm_free(k);
    systree_comm_free(f);
    systree_comm_free(w);
}

static void *copy_of(const char *s)
{
    char *p = malloc(strlen(s) + 1);
    if (p == NULL)
        exit(1);
    return strcpy(p, s);
}

/* The receiver gets the sender's buffer itself (the call took it over); two messages to one
 * member come to the right receives whichever order they are asked in. */
static void test_exchange(void)
{
    systree_comm *w = world8();
    void *a = copy_of("abc"), *b = copy_of("hello"), *c = copy_of("xy");
    systree_msg send[3] = {{1, 0, a, 3}, {3, 2, b, 5}, {2, 0, c, 2}};
    systree_msg recv[3] = {{0, 2, NULL, 0}, {2, 3, NULL, 0}, {0, 1, NULL, 0}};
    CHECK(systree_comm_exchange(w, send, 3, recv, 3) == 0);
    CHECK(recv[0].data == c && recv[0].len == 2 && memcmp(recv[0].data, "xy", 2) == 0);
    CHECK(recv[1].data == b && recv[1].len == 5 && memcmp(recv[1].data, "hello", 5) == 0);
    CHECK(recv[2].data == a && recv[2].len == 3 && memcmp(recv[2].data, "abc", 3) == 0);
    for (int i = 0; i < 3; i++)
        free(recv[i].data);

    /* sent + received per rank: 0: 3 + 2, 1: 3, 2: 2 + 5, 3: 5; rank 2 sends "xy" to rank
     * 0 after both took part in one message each: two rounds */
    systree_sim_stats st;
    systree_comm_sim_stats(w, &st);
    CHECK(st.messages == 3 && st.total_bytes == 10);
    CHECK(st.max_bytes == 7 && st.max_bytes_rank == 2 && st.rounds == 2);

    /* the same round again: the chains of the first were emptied */
    void *d = copy_of("again");
    systree_msg s2[1] = {{7, 6, d, 5}}, r2[1] = {{6, 7, NULL, 0}};
    CHECK(systree_comm_exchange(w, s2, 1, r2, 1) == 0 && r2[0].data == d);
    free(r2[0].data);

    /* a receive nothing was sent for: an error (the sends are freed by the call) */
    systree_msg s3[1] = {{1, 0, copy_of("lost"), 4}}, r3[1] = {{0, 2, NULL, 0}};
    CHECK(systree_comm_exchange(w, s3, 1, r3, 1) != 0);
    CHECK(r3[0].data == NULL);
    systree_comm_free(w);
}

/* Each active group gets its rank 0's bytes; others nothing. */
static void test_bcast(void)
{
    systree_comm *w = world8(), *f = NULL;
    int64_t color[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    CHECK(systree_comm_split(w, color, NULL, &f) == 0);
    systree_blob in[2] = {{copy_of("one"), 3}, {copy_of("two"), 3}}, out[2];
    char active[2] = {1, 0};
    CHECK(systree_comm_bcast(f, active, in, out) == 0);
    CHECK(out[0].len == 3 && memcmp(out[0].data, "one", 3) == 0);
    CHECK(out[1].data == NULL && out[1].len == 0);
    for (int i = 0; i < 2; i++) {
        free(in[i].data);
        free(out[i].data);
    }
    systree_comm_free(f);
    systree_comm_free(w);
}

int main(void)
{
    test_split();
    test_exchange();
    test_bcast();
    printf("test_systree_comm_sim: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
