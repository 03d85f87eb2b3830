/* systree_buf.c: the byte buffer and LEB128 integers of systree_buf.h. */
#include "systree/systree_buf.h"

#include <stdlib.h>
#include <string.h>

static int reserve(systree_buf *b, size_t more)
{
    if (b->failed)
        return -1;
    if (b->len + more <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + more)
        cap *= 2;
    uint8_t *d = realloc(b->data, cap);
    if (d == NULL) {
        b->failed = 1;
        return -1;
    }
    b->data = d;
    b->cap = cap;
    return 0;
}

void systree_put(systree_buf *b, const void *data, size_t len)
{
    if (len == 0 || reserve(b, len) != 0)
        return;
    memcpy(b->data + b->len, data, len);
    b->len += len;
}

void systree_put_u8(systree_buf *b, uint8_t v)
{
    systree_put(b, &v, 1);
}

void systree_put_uv(systree_buf *b, uint64_t v)
{
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

void systree_buf_free(systree_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

void systree_reader_init(systree_reader *r, const void *data, size_t len)
{
    r->p = data;
    r->end = r->p + len;
    r->failed = 0;
}

const void *systree_get(systree_reader *r, size_t len)
{
    if (r->failed || (size_t)(r->end - r->p) < len) {
        r->failed = 1;
        return NULL;
    }
    const void *p = r->p;
    r->p += len;
    return p;
}

uint8_t systree_get_u8(systree_reader *r)
{
    const uint8_t *p = systree_get(r, 1);
    return p ? *p : 0;
}

uint64_t systree_get_uv(systree_reader *r)
{
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
