/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_names.h: names of system-tree elements kept as patterns (prefix + running number +
 * suffix, e.g. node0001..node1024), so that a regular machine's names take constant space. */
#ifndef SYSTREE_NAMES_H
#define SYSTREE_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Interned strings: equal strings get the same pointer (compared with ==), kept for the
 * lifetime of the process. NULL when out of memory. */
const char *systree_intern(const char *s);
const char *systree_intern_n(const char *s, size_t len);

/* count * reps names: prefix + number + suffix, where name j has the number
 * base + stride * (j % count) + outer * (j / count): `reps` blocks of `count` numbers, e.g.
 * the ranks of one node type (0..63, 128..191, ...) or ranks placed round-robin (0, 1024, ...,
 * then 1, 1025, ...). Not numbered: `count` times the literal prefix (reps is 1). */
typedef struct systree_run {
    const char *prefix, *suffix; /* interned; suffix is "" when there is none */
    uint64_t base;
    int64_t stride;
    uint64_t count;
    uint64_t reps;
    int64_t outer;
    uint8_t width; /* numbers zero-padded to this many digits; 0: as printed by %llu */
    bool numbered;
} systree_run;

/* Names in a run: count * reps. */
uint64_t systree_run_len(const systree_run *r);

/* The names of all instances of one sequence record, in depth-first order: instance k is
 * named by the runs at position k mod period. No runs: the fallback, class + number. */
typedef struct systree_names {
    uint64_t period;
    uint32_t nruns;
    systree_run *runs;
} systree_names;

/* Runs kept per record before its names fall back to class + number (default 32). */
extern uint32_t systree_names_max_runs;

/* One name: the last run of at most 18 digits is the number, what comes before and after it
 * prefix and suffix; "007" keeps width 3; a name without digits is a literal. */
int systree_run_parse(systree_run *r, const char *name);
/* Appends b to a when the names continue a's pattern (as one block, or as further blocks). */
bool systree_run_join(systree_run *a, const systree_run *b);

int systree_names_single(systree_names *n, const char *name);
void systree_names_free(systree_names *n);
int systree_names_copy(systree_names *dst, const systree_names *src);
bool systree_names_equal(const systree_names *a, const systree_names *b);
bool systree_names_is_fallback(const systree_names *n);
void systree_names_fallback(systree_names *n);
/* a names na instances, b nb: a becomes the names of a's instances followed by b's. Keeps a
 * when both are equal (a period), else concatenates, falling back past the run limit. */
int systree_names_append(systree_names *a, uint64_t na, const systree_names *b, uint64_t nb);
/* Name of instance k; the fallback uses klass + " " + class_ordinal. Returns the length
 * (as snprintf: the name is cut when size is too small). */
size_t systree_names_render(const systree_names *n, uint64_t k, const char *klass,
                            uint64_t class_ordinal, char *buf, size_t size);

#endif
