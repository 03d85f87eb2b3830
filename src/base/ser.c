/* SPDX-License-Identifier: BSD-3-Clause */
/* ser.c: byte buffer helpers (see ser.h). */
#include "base/ser.h"

#include <stdlib.h>
#include <string.h>

enum { SER_FIRST_CAPACITY = 64 };

void ser_put(ser_buf *b, const void *data, size_t len)
{
    if (b->failed)
        return;
    if (b->len + len > b->cap) {
        /* small first: the system-tree algorithm holds millions of short messages at once
         * (scorep-systree-sim keeps every simulated rank's), and doubling is as fast later */
        size_t c = b->cap ? b->cap : SER_FIRST_CAPACITY;
        while (c < b->len + len)
            c *= 2;
        unsigned char *d = realloc(b->data, c);
        if (!d) {
            b->failed = 1;
            return;
        }
        b->data = d;
        b->cap = c;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
}

void ser_u32(ser_buf *b, uint32_t v)
{
    ser_put(b, &v, sizeof v);
}

void ser_u64(ser_buf *b, uint64_t v)
{
    ser_put(b, &v, sizeof v);
}

void ser_f64(ser_buf *b, double v)
{
    ser_put(b, &v, sizeof v);
}

void ser_str(ser_buf *b, const char *s)
{
    if (!s) {
        ser_u32(b, UINT32_MAX);
        return;
    }
    uint32_t n = (uint32_t)strlen(s);
    ser_u32(b, n);
    ser_put(b, s, n);
}

void ser_free(ser_buf *b)
{
    free(b->data);
    *b = (ser_buf){0};
}

const void *ser_get(ser_reader *r, size_t len)
{
    if (r->failed || (size_t)(r->end - r->p) < len) {
        r->failed = 1;
        return NULL;
    }
    const void *p = r->p;
    r->p += len;
    return p;
}

uint32_t ser_get_u32(ser_reader *r)
{
    uint32_t v = 0;
    const void *p = ser_get(r, sizeof v);
    if (p)
        memcpy(&v, p, sizeof v);
    return v;
}

uint64_t ser_get_u64(ser_reader *r)
{
    uint64_t v = 0;
    const void *p = ser_get(r, sizeof v);
    if (p)
        memcpy(&v, p, sizeof v);
    return v;
}

double ser_get_f64(ser_reader *r)
{
    double v = 0;
    const void *p = ser_get(r, sizeof v);
    if (p)
        memcpy(&v, p, sizeof v);
    return v;
}

char *ser_get_str(ser_reader *r)
{
    uint32_t n = ser_get_u32(r);
    if (n == UINT32_MAX || r->failed)
        return NULL;
    const char *s = ser_get(r, n);
    char *d = s ? malloc(n + 1) : NULL;
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}
