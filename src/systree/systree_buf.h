/* systree_buf.h: a growable byte buffer with variable-length integers, used to send sequence
 * definitions between ranks and to measure their size (sequence_bytes). */
#ifndef SYSTREE_BUF_H
#define SYSTREE_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct systree_buf {
    uint8_t *data;
    size_t len, cap;
    int failed; /* out of memory: later puts do nothing */
} systree_buf;

typedef struct systree_reader {
    const uint8_t *p, *end;
    int failed; /* read past the end or a malformed value */
} systree_reader;

void systree_put(systree_buf *b, const void *data, size_t len);
void systree_put_u8(systree_buf *b, uint8_t v);
void systree_put_uv(systree_buf *b, uint64_t v); /* LEB128 */
void systree_put_sv(systree_buf *b, int64_t v);  /* zig-zag, then LEB128 */
void systree_buf_free(systree_buf *b);

void systree_reader_init(systree_reader *r, const void *data, size_t len);
const void *systree_get(systree_reader *r, size_t len);
uint8_t systree_get_u8(systree_reader *r);
uint64_t systree_get_uv(systree_reader *r);
int64_t systree_get_sv(systree_reader *r);

#endif
