/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_buf.h: the byte buffer of src/base/ser.h with variable-length integers, used to send
 * sequence definitions between ranks and to measure their size (sequence_bytes). */
#ifndef SYSTREE_BUF_H
#define SYSTREE_BUF_H

#include "base/ser.h"

#include <stddef.h>
#include <stdint.h>

/* one buffer type for all of the runtime's messages: growth and out-of-memory handling
 * (failed: later puts do nothing; reads past the end set failed) live in ser.c */
typedef ser_buf systree_buf;
typedef ser_reader systree_reader;

static inline void systree_put(systree_buf *b, const void *data, size_t len)
{
    if (len)
        ser_put(b, data, len);
}

static inline const void *systree_get(systree_reader *r, size_t len)
{
    return ser_get(r, len);
}

static inline void systree_buf_free(systree_buf *b)
{
    ser_free(b);
}

/* A message's bytes in a buffer of their exact size (malloc'ed, for the caller) copied from
 * `scratch`, which is emptied for the next message: one allocation per message instead of a
 * doubling series, and no unused capacity while millions of messages are in flight (the
 * simulator). NULL when out of memory or when a put into scratch failed. */
void *systree_buf_take(systree_buf *scratch, size_t *len);

void systree_put_u8(systree_buf *b, uint8_t v);
void systree_put_uv(systree_buf *b, uint64_t v); /* LEB128 */
void systree_put_sv(systree_buf *b, int64_t v);  /* zig-zag, then LEB128 */

void systree_reader_init(systree_reader *r, const void *data, size_t len);
uint8_t systree_get_u8(systree_reader *r);
uint64_t systree_get_uv(systree_reader *r);
int64_t systree_get_sv(systree_reader *r);

#endif
