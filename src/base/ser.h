/* SPDX-License-Identifier: BSD-3-Clause */
/* ser.h: a growable byte buffer with little helpers to write and read definitions for
 * sending them between processes (unification, profile gathering). */
#ifndef SCOREP_SER_H
#define SCOREP_SER_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    unsigned char *data;
    size_t len, cap;
    int failed; /* out of memory: later puts do nothing */
} ser_buf;

typedef struct {
    const unsigned char *p, *end;
    int failed; /* read past the end */
} ser_reader;

void ser_put(ser_buf *b, const void *data, size_t len);
void ser_u32(ser_buf *b, uint32_t v);
void ser_u64(ser_buf *b, uint64_t v);
void ser_f64(ser_buf *b, double v);
void ser_str(ser_buf *b, const char *s); /* NULL is written as a distinct value */
void ser_free(ser_buf *b);

const void *ser_get(ser_reader *r, size_t len);
uint32_t ser_get_u32(ser_reader *r);
uint64_t ser_get_u64(ser_reader *r);
double ser_get_f64(ser_reader *r);
/* returns a malloc'ed copy, or NULL for a NULL string */
char *ser_get_str(ser_reader *r);

#endif
