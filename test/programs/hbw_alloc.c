/* SPDX-License-Identifier: BSD-3-Clause */
/* hbw_alloc.c: memkind's hbwmalloc functions with known sizes and leaks, for
 * test_memory_hbw.sh. HBW_POLICY_PREFERRED: on a machine without high-bandwidth memory the
 * allocations come from ordinary memory (hbw_check_available() says ENODEV), with it from
 * HBM; the calls, sizes and leaks are the same on both paths. Nothing goes through stdio
 * (write(2) only), so that the program's own mallocs are just the one in plain(). */
#include <hbwmalloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failed;

static void check(int ok, const char *what)
{
    if (!ok) {
        /* stderr, unbuffered; the test expects it empty */
        (void)!write(2, what, strlen(what));
        (void)!write(2, " failed\n", 8);
        failed = 1;
    }
}

/* 3 x 1000 bytes, two freed: 1000 leaked */
__attribute__((noinline)) static void small(void)
{
    void *p[3];
    for (int i = 0; i < 3; i++)
        check((p[i] = hbw_malloc(1000)) != NULL, "hbw_malloc");
    hbw_free(p[0]);
    hbw_free(p[2]);
}

/* hbw_calloc 10 x 100 (1000), grown to 3000 by hbw_realloc (releases the 1000), freed */
__attribute__((noinline)) static void grow(void)
{
    char *p = hbw_calloc(10, 100);
    check(p != NULL && p[999] == 0, "hbw_calloc");
    p = hbw_realloc(p, 3000);
    check(p != NULL, "hbw_realloc");
    hbw_free(p);
}

/* 4096 bytes aligned to 64 (freed) and 8192 aligned to 4096 in 4 KiB pages (leaked) */
__attribute__((noinline)) static void aligned(void)
{
    void *a = NULL, *b = NULL;
    check(hbw_posix_memalign(&a, 64, 4096) == 0 && ((size_t)a & 63) == 0, "hbw_posix_memalign");
    check(hbw_posix_memalign_psize(&b, 4096, 8192, HBW_PAGESIZE_4KB) == 0 &&
              ((size_t)b & 4095) == 0,
          "hbw_posix_memalign_psize");
    hbw_free(a);
    (void)b;
}

/* an ordinary malloc/free pair of 500 bytes beside them */
__attribute__((noinline)) static void plain(void)
{
    char *volatile p = malloc(500);
    check(p != NULL, "malloc");
    free(p);
}

int main(void)
{
    check(hbw_set_policy(HBW_POLICY_PREFERRED) == 0, "hbw_set_policy");
    int hbm = hbw_check_available() == 0;
    small();
    grow();
    aligned();
    plain();
    char line[64];
    int n = snprintf(line, sizeof line, "hbm %s done %s\n", hbm ? "yes" : "no",
                     failed ? "with errors" : "ok");
    (void)!write(1, line, (size_t)n);
    return failed;
}
