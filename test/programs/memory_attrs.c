/* SPDX-License-Identifier: BSD-3-Clause */
/* memory_attrs.c: known allocations whose trace attributes test_memory_recording.sh checks
 * (ALLOCATION_SIZE, DEALLOCATION_SIZE, ARGUMENT_ADDRESS, RESULT_ADDRESS): it prints every
 * address the allocator returned, in call order, for the test to find in the trace. */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* volatile: the compiler must not turn realloc(NULL, n) into malloc(n), nor drop free(NULL),
 * nor warn about the sizes that are meant to fail */
static void *volatile none;
static volatile size_t huge = (size_t)-1;

/* without stdio, whose buffer would be one more allocation */
static void say(const char *line)
{
    if (write(1, line, strlen(line)) < 0)
        _exit(2);
}

static void show(const char *what, const void *p)
{
    char line[80];
    snprintf(line, sizeof line, "%s %ju\n", what, (uintmax_t)(uintptr_t)p);
    say(line);
}

__attribute__((noinline)) static void work(void)
{
    char *p = malloc(1000);
    show("malloc", p);
    p[0] = 1;
    free(p);
    char *q = realloc(none, 100);
    show("realloc_new", q);
    char *q2 = realloc(q, 300);
    show("realloc_grow", q2);
    char *q3 = realloc(q2, huge); /* fails: q2 stays */
    show("realloc_fail", q3);
    show("realloc_free", realloc(q2, 0)); /* frees q2, returns NULL */
    char *r = reallocarray(none, 10, 20);
    show("reallocarray_new", r);
    char *r2 = reallocarray(r, 10, 40);
    show("reallocarray_grow", r2);
    errno = 0;
    char *r3 = reallocarray(r2, huge, 2); /* overflow: ENOMEM, r2 stays */
    show("reallocarray_overflow", r3);
    say(errno == ENOMEM ? "reallocarray_overflow errno ENOMEM\n" : "reallocarray_overflow errno other\n");
    free(r2);
    char *s = pvalloc(5000);
    show("pvalloc", s);
    free(s);
    free(none);
}

int main(void)
{
    work();
    return 0;
}
