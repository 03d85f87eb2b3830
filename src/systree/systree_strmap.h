/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_strmap.h: interned string -> small id, in order of first use: the string tables
 * of the serialised forms. */
#ifndef SYSTREE_STRMAP_H
#define SYSTREE_STRMAP_H

#include "systree/systree_buf.h"

#include <stddef.h>
#include <stdint.h>

enum { SYSTREE_STRMAP_SMALL = 16 };

/* Small tables (most messages) are searched linearly without allocating. */
typedef struct systree_strmap {
    const char *small[SYSTREE_STRMAP_SMALL]; /* the strings by id while cap is 0 */
    const char **key;
    uint32_t *id;
    size_t cap, n;
    const char **order; /* the strings by id once hashed */
} systree_strmap;

int systree_strmap_add(systree_strmap *m, const char *interned);
uint32_t systree_strmap_id(const systree_strmap *m, const char *interned); /* added before */
void systree_strmap_put(const systree_strmap *m, systree_buf *b); /* count, then the strings */
void systree_strmap_free(systree_strmap *m);

/* The strings of a table as written by systree_strmap_put, interned. */
typedef struct systree_strtab {
    const char **s;
    uint64_t n;
} systree_strtab;

int systree_strtab_get(systree_reader *r, systree_strtab *t);
const char *systree_strtab_ref(systree_reader *r, const systree_strtab *t); /* read an id */

#endif
