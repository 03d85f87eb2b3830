/* SPDX-License-Identifier: BSD-3-Clause */
/* systree_buf.c: the LEB128 integers of systree_buf.h, on ser.c's byte buffer. */
#include "systree/systree_buf.h"

#include <stdlib.h>
#include <string.h>

void *systree_buf_take(systree_buf *scratch, size_t *len)
{
    void *d = scratch->failed ? NULL : malloc(scratch->len ? scratch->len : 1);
    if (d)
        memcpy(d, scratch->data, scratch->len);
    *len = scratch->len;
    scratch->len = 0;
    scratch->failed = 0;
    return d;
}

void systree_put_u8(systree_buf *b, uint8_t v)
{
    systree_put(b, &v, 1);
}

void systree_put_uv(systree_buf *b, uint64_t v)
{
    if (b->cap - b->len >= 10 && !b->failed) { /* room for any value: write in place */
        unsigned char *p = b->data + b->len;
        do {
            *p = (uint8_t)(v & 0x7f);
            v >>= 7;
            *p++ |= v ? 0x80 : 0;
        } while (v);
        b->len = (size_t)(p - b->data);
        return;
    }
    uint8_t tmp[10];
    size_t n = 0;
    do {
        tmp[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        tmp[n++] |= v ? 0x80 : 0;
    } while (v);
    systree_put(b, tmp, n);
}

void systree_put_sv(systree_buf *b, int64_t v)
{
    systree_put_uv(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void systree_reader_init(systree_reader *r, const void *data, size_t len)
{
    r->p = data;
    r->end = r->p + len;
    r->failed = 0;
}

uint8_t systree_get_u8(systree_reader *r)
{
    const uint8_t *p = systree_get(r, 1);
    return p ? *p : 0;
}

uint64_t systree_get_uv(systree_reader *r)
{
    if (r->end - r->p >= 10 && !r->failed) { /* any value fits: read in place */
        const unsigned char *p = r->p;
        uint64_t v = 0;
        for (unsigned shift = 0; shift < 64; shift += 7) {
            uint8_t byte = *p++;
            v |= (uint64_t)(byte & 0x7f) << shift;
            if (!(byte & 0x80)) {
                r->p = p;
                return v;
            }
        }
        r->p = p;
        r->failed = 1;
        return 0;
    }
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        uint8_t byte = systree_get_u8(r);
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return v;
    }
    r->failed = 1;
    return 0;
}

int64_t systree_get_sv(systree_reader *r)
{
    uint64_t u = systree_get_uv(r);
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}
