/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_check.h: CHECK(cond, fmt, ...) for the C unit tests that count their failures and
 * go on: a failed check prints FAIL file:line and the message and adds one to failures,
 * which main turns into the exit status (added to atomically: test_memory_map.c checks from
 * 4 threads). */
#ifndef UNIT_CHECK_H
#define UNIT_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            __atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);                                    \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#endif
