/* SPDX-License-Identifier: BSD-3-Clause */
/* test_systree_names.c: unit tests of the name patterns of the sequence definitions: parsing,
 * widths, strides, periods, unrolling, the run limit and the class + number fallback. */
#include "systree/systree_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks, failures;

static void check(int ok, const char *what, int line)
{
    checks++;
    if (!ok) {
        failures++;
        fprintf(stderr, "test_systree_names.c:%d: FAILED: %s\n", line, what);
    }
}

#define CHECK(cond) check((cond) != 0, #cond, __LINE__)

static void check_str(const char *got, const char *want, int line)
{
    check(strcmp(got, want) == 0, want, line);
    if (strcmp(got, want) != 0)
        fprintf(stderr, "  got:  %s\n  want: %s\n", got, want);
}

#define CHECK_STR(got, want) check_str((got), (want), __LINE__)

/* The names of instance k, with "node" as the fallback class and k as its number. */
static const char *name(const systree_names *n, uint64_t k)
{
    static char buf[256];
    systree_names_render(n, k, "node", k, buf, sizeof buf);
    return buf;
}

/* Names given one by one, each appended as one instance. */
static void names_of(systree_names *n, const char *const *list, size_t count)
{
    if (systree_names_single(n, list[0]) != 0)
        exit(1);
    for (size_t i = 1; i < count; i++) {
        systree_names one;
        if (systree_names_single(&one, list[i]) != 0 || systree_names_append(n, i, &one, 1) != 0)
            exit(1);
        systree_names_free(&one);
    }
}

/* Every name of n equals the list it was made from. */
static void check_all(const systree_names *n, const char *const *list, size_t count, int line)
{
    for (size_t k = 0; k < count; k++)
        check_str(name(n, k), list[k], line);
}

static void test_parse(void)
{
    systree_run r;
    CHECK(systree_run_parse(&r, "node0001") == 0);
    CHECK_STR(r.prefix, "node");
    CHECK_STR(r.suffix, "");
    CHECK(r.numbered && r.base == 1 && r.width == 4 && r.count == 1);
    CHECK(systree_run_parse(&r, "node10") == 0 && r.base == 10 && r.width == 0);
    CHECK(systree_run_parse(&r, "MPI Rank 17") == 0 && r.base == 17);
    CHECK_STR(r.prefix, "MPI Rank ");
    CHECK(systree_run_parse(&r, "Master thread") == 0 && !r.numbered);
    CHECK_STR(r.prefix, "Master thread");
    CHECK(systree_run_parse(&r, "r12-c3.local") == 0 && r.base == 3);
    CHECK_STR(r.prefix, "r12-c");
    CHECK_STR(r.suffix, ".local");
    CHECK(systree_run_parse(&r, "0") == 0 && r.numbered && r.base == 0 && r.width == 0);
    CHECK(systree_run_parse(&r, "007") == 0 && r.base == 7 && r.width == 3);
    CHECK(systree_run_parse(&r, "n1234567890123456789") == 0 && !r.numbered); /* 19 digits */
    CHECK(systree_intern("abc") == systree_intern("abc"));
    CHECK(systree_intern_n("abcdef", 3) == systree_intern("abc"));
}

static void test_node0001_to_1024(void)
{
    static char buf[1024][16];
    const char *list[1024];
    for (int i = 0; i < 1024; i++) {
        snprintf(buf[i], sizeof buf[i], "node%04d", i + 1);
        list[i] = buf[i];
    }
    systree_names n;
    names_of(&n, list, 1024);
    CHECK(n.nruns == 1 && n.period == 1024);
    CHECK(n.runs[0].base == 1 && n.runs[0].stride == 1 && n.runs[0].count == 1024);
    CHECK(n.runs[0].width == 4);
    CHECK_STR(name(&n, 0), "node0001");
    CHECK_STR(name(&n, 1023), "node1024");
    check_all(&n, list, 1024, __LINE__);
    systree_names_free(&n);
}

static void test_widths(void)
{
    static const char *natural[] = {"node8", "node9", "node10", "node11"};
    static const char *padded_then_natural[] = {"node08", "node09", "node10"};
    static const char *natural_then_padded[] = {"node7", "node08"};
    static const char *natural_wide[] = {"n100", "n101", "n099"};
    systree_names n;
    names_of(&n, natural, 4);
    CHECK(n.nruns == 1 && n.runs[0].width == 0);
    check_all(&n, natural, 4, __LINE__);
    systree_names_free(&n);
    names_of(&n, padded_then_natural, 3);
    CHECK(n.nruns == 1 && n.runs[0].width == 2);
    check_all(&n, padded_then_natural, 3, __LINE__);
    systree_names_free(&n);
    names_of(&n, natural_then_padded, 2); /* "node7" would print as "node07" */
    CHECK(n.nruns == 2);
    check_all(&n, natural_then_padded, 2, __LINE__);
    systree_names_free(&n);
    names_of(&n, natural_wide, 3); /* 099 has the width of 100, but breaks the run */
    check_all(&n, natural_wide, 3, __LINE__);
    systree_names_free(&n);
}

static void test_strides(void)
{
    static const char *even[] = {"node0", "node2", "node4", "node6"};
    static const char *down[] = {"c9x", "c8x", "c7x"};
    static const char *jump[] = {"n1", "n2", "n3", "n10", "n11"};
    systree_names n;
    names_of(&n, even, 4);
    CHECK(n.nruns == 1 && n.runs[0].stride == 2);
    check_all(&n, even, 4, __LINE__);
    systree_names_free(&n);
    names_of(&n, down, 3);
    CHECK(n.nruns == 1 && n.runs[0].stride == -1);
    check_all(&n, down, 3, __LINE__);
    systree_names_free(&n);
    names_of(&n, jump, 5);
    CHECK(n.nruns == 2 && n.runs[0].count == 3 && n.runs[1].base == 10);
    check_all(&n, jump, 5, __LINE__);
    systree_names_free(&n);
}

static void test_blocks(void)
{
    static const char *blocks[] = {"MPI Rank 0",  "MPI Rank 1",  "MPI Rank 2",  "MPI Rank 8",
                                   "MPI Rank 9",  "MPI Rank 10", "MPI Rank 16", "MPI Rank 17",
                                   "MPI Rank 18", "MPI Rank 24"};
    static const char *round_robin[] = {"r0", "r100", "r200", "r1", "r101", "r201", "r2", "r102"};
    systree_names n;
    names_of(&n, blocks, 10); /* three blocks of three ranks every 8, then one more */
    CHECK(n.nruns == 2 && n.runs[0].count == 3 && n.runs[0].reps == 3 && n.runs[0].outer == 8);
    CHECK(systree_run_len(&n.runs[0]) == 9 && n.runs[1].base == 24);
    check_all(&n, blocks, 10, __LINE__);
    systree_names_free(&n);
    names_of(&n, round_robin, 8); /* 0, 100, 200; 1, 101, 201; 2, 102 */
    CHECK(n.nruns == 2 && n.runs[0].stride == 100 && n.runs[0].outer == 1);
    CHECK(n.runs[0].reps == 2 && n.runs[1].count == 2);
    check_all(&n, round_robin, 8, __LINE__);
    /* whole blocks appended at once, e.g. the names of a second node */
    systree_names a, b;
    names_of(&a, blocks, 3);
    names_of(&b, blocks + 3, 3);
    CHECK(systree_names_append(&a, 3, &b, 3) == 0 && a.nruns == 1 && a.runs[0].reps == 2);
    systree_names_free(&b);
    names_of(&b, blocks + 6, 3);
    CHECK(systree_names_append(&a, 6, &b, 3) == 0 && a.nruns == 1 && a.runs[0].reps == 3);
    check_all(&a, blocks, 9, __LINE__);
    systree_names_free(&a);
    systree_names_free(&b);
    systree_names_free(&n);
}

static void test_period(void)
{
    static const char *threads[] = {"Master thread", "Pthread thread 1", "Pthread thread 2"};
    systree_names a, b;
    names_of(&a, threads, 3);
    names_of(&b, threads, 3);
    CHECK(a.nruns == 2 && a.period == 3);
    CHECK(systree_names_equal(&a, &b));
    CHECK(systree_names_append(&a, 3, &b, 3) == 0); /* a second process, same names */
    CHECK(systree_names_append(&a, 6, &b, 3) == 0); /* a third */
    CHECK(a.nruns == 2 && a.period == 3);
    for (int k = 0; k < 9; k++)
        CHECK_STR(name(&a, (uint64_t)k), threads[k % 3]);
    /* a fourth process whose thread names differ: the periods are written out */
    static const char *other[] = {"Master thread", "Pthread thread 7", "Pthread thread 8"};
    systree_names c;
    names_of(&c, other, 3);
    CHECK(systree_names_append(&a, 9, &c, 3) == 0);
    CHECK(a.period == 12 && a.nruns == 8);
    for (int k = 0; k < 12; k++)
        CHECK_STR(name(&a, (uint64_t)k), k < 9 ? threads[k % 3] : other[k - 9]);
    systree_names_free(&a);
    systree_names_free(&b);
    systree_names_free(&c);
}

static void test_literals(void)
{
    systree_names a, b;
    CHECK(systree_names_single(&a, "Process") == 0);
    CHECK(systree_names_single(&b, "Process") == 0);
    for (uint64_t k = 1; k < 1000; k++)
        CHECK(systree_names_append(&a, k, &b, 1) == 0);
    CHECK(a.nruns == 1 && a.period == 1);
    CHECK_STR(name(&a, 999), "Process");
    systree_names_free(&b);
    CHECK(systree_names_single(&b, "Other") == 0); /* 1000 x Process, then Other: 2 runs */
    CHECK(systree_names_append(&a, 1000, &b, 1) == 0);
    CHECK(a.nruns == 2 && a.period == 1001 && a.runs[0].count == 1000);
    CHECK_STR(name(&a, 999), "Process");
    CHECK_STR(name(&a, 1000), "Other");
    systree_names_free(&a);
    systree_names_free(&b);
}

static void test_fallback(void)
{
    static const char *irregular[] = {"alpha", "beta", "gamma", "delta"};
    uint32_t saved = systree_names_max_runs;
    systree_names n, one;
    names_of(&n, irregular, 4); /* within the limit: kept exactly */
    CHECK(n.nruns == 4);
    check_all(&n, irregular, 4, __LINE__);
    systree_names_free(&n);
    systree_names_max_runs = 3;
    names_of(&n, irregular, 4);
    CHECK(systree_names_is_fallback(&n));
    CHECK_STR(name(&n, 2), "node 2");
    CHECK(systree_names_single(&one, "epsilon") == 0); /* stays the fallback */
    CHECK(systree_names_append(&n, 4, &one, 1) == 0 && systree_names_is_fallback(&n));
    CHECK(systree_names_append(&one, 1, &n, 5) == 0 && systree_names_is_fallback(&one));
    systree_names_max_runs = saved;
    systree_names copy;
    CHECK(systree_names_single(&one, "node0001") == 0 && systree_names_copy(&copy, &one) == 0);
    CHECK(systree_names_equal(&one, &copy) && copy.runs != one.runs);
    systree_names_free(&n);
    systree_names_free(&one);
    systree_names_free(&copy);
}

/* Rendering as snprintf(buf, size, "%s%0*llu%s") does: zero padding, the largest number,
 * and a name cut to the buffer with its full length returned. */
static void test_render(void)
{
    char buf[64];
    systree_run r = {"p", "s", UINT64_MAX, 0, 1, 1, 0, 0, true};
    systree_names n = {1, 1, &r};
    CHECK(systree_names_render(&n, 0, "node", 0, buf, sizeof buf) == 22);
    CHECK_STR(buf, "p18446744073709551615s");
    r.base = 5;
    r.width = 20;
    CHECK(systree_names_render(&n, 0, "node", 0, buf, sizeof buf) == 22);
    CHECK_STR(buf, "p00000000000000000005s");
    systree_names one;
    CHECK(systree_names_single(&one, "node007x") == 0);
    memset(buf, '#', sizeof buf);
    CHECK(systree_names_render(&one, 0, "node", 0, buf, 6) == 8);
    CHECK_STR(buf, "node0");
    CHECK(buf[6] == '#');
    CHECK(systree_names_render(&one, 0, "node", 0, buf, 5) == 8);
    CHECK_STR(buf, "node");
    CHECK(systree_names_render(&one, 0, "node", 0, buf, 1) == 8 && buf[0] == '\0');
    buf[0] = '#';
    CHECK(systree_names_render(&one, 0, "node", 0, buf, 0) == 8 && buf[0] == '#');
    CHECK(systree_names_render(&one, 0, "node", 0, buf, 9) == 8);
    CHECK_STR(buf, "node007x");
    systree_names_free(&one);
    static const char *three[] = {"n0998", "n0999", "n1000"};
    names_of(&n, three, 3);
    check_all(&n, three, 3, __LINE__);
    systree_names_free(&n);
}

int main(void)
{
    test_render();
    test_parse();
    test_node0001_to_1024();
    test_widths();
    test_strides();
    test_blocks();
    test_period();
    test_literals();
    test_fallback();
    printf("test_systree_names: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
