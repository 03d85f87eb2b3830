/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_tar.c: the ustar container of .cubex files: streaming writer with size patching
 * (members can be larger than memory) and a reader over an in-memory archive. */
#include "cube/cube_tar.h"
#include "cube/cube_error.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TAR_BLOCK 512

/* Field offsets of the POSIX ustar header. */
enum {
    TAR_NAME = 0,
    TAR_MODE = 100,
    TAR_UID = 108,
    TAR_GID = 116,
    TAR_SIZE = 124,
    TAR_MTIME = 136,
    TAR_CHKSUM = 148,
    TAR_TYPE = 156,
    TAR_MAGIC = 257,
    TAR_VERSION = 263,
    TAR_PREFIX = 345
};

/* ------------------------------------------------------------------ writer */

static void put_octal(unsigned char *field, size_t width, uint64_t v)
{
    /* width-1 octal digits and a NUL, as GNU and BSD tar write them */
    field[width - 1] = '\0';
    for (size_t i = width - 1; i-- > 0;) {
        field[i] = (unsigned char)('0' + (v & 7));
        v >>= 3;
    }
}

/* Sizes beyond 8 GiB do not fit 11 octal digits; GNU tar's base-256 form takes over. */
static void put_size(unsigned char *field, uint64_t size)
{
    if (size < (UINT64_C(1) << 33)) {
        put_octal(field, 12, size);
        return;
    }
    memset(field, 0, 12);
    field[0] = 0x80;
    for (int i = 11; i >= 4; i--) {
        field[i] = (unsigned char)(size & 0xff);
        size >>= 8;
    }
}

static void fill_header(unsigned char *h, const char *name, uint64_t size)
{
    memset(h, 0, TAR_BLOCK);
    memcpy(h + TAR_NAME, name, strlen(name));
    put_octal(h + TAR_MODE, 8, 0644);
    put_octal(h + TAR_UID, 8, 0);
    put_octal(h + TAR_GID, 8, 0);
    put_size(h + TAR_SIZE, size);
    put_octal(h + TAR_MTIME, 12, (uint64_t)time(NULL));
    h[TAR_TYPE] = '0';
    memcpy(h + TAR_MAGIC, "ustar", 6);
    memcpy(h + TAR_VERSION, "00", 2);
    /* the checksum is computed with its own field read as blanks */
    memset(h + TAR_CHKSUM, ' ', 8);
    unsigned sum = 0;
    for (int i = 0; i < TAR_BLOCK; i++)
        sum += h[i];
    put_octal(h + TAR_CHKSUM, 7, sum);
    h[TAR_CHKSUM + 7] = ' ';
}

void cube_tar_header(unsigned char block[TAR_BLOCK], const char *name, uint64_t size)
{
    fill_header(block, name, size);
}

void cube_tar_writer_init(cube_tar_writer *tw, FILE *fp)
{
    tw->fp = fp;
    tw->header_at = -1;
    tw->data_at = -1;
}

/* CubeLib (4.4's TarReader::calculate_pos_of_next_header) expects the header after a member
 * of size S > 0 at 512 + (S / 512 + 1) * 512 bytes after the member's header: one block too
 * far when S is a multiple of 512, and CubeLib's own writer pads such a member with a whole
 * zero block. Where a POSIX reader expects the next header, CubeLib would skip it and lose
 * that member (a metric's index or data: the metric reads as 0 everywhere). An empty member
 * put there is the block CubeLib skips, and to tar readers an extra empty file, which a Cube
 * reader ignores; a zero block as CubeLib writes would end the archive for them. */
static int put_skip_member(cube_tar_writer *tw)
{
    char name[100];
    int len = snprintf(name, sizeof name, "%s.pad", tw->name);
    unsigned char h[TAR_BLOCK];
    fill_header(h, len > 0 && len < (int)sizeof name ? name : "pad", 0);
    return fwrite(h, 1, TAR_BLOCK, tw->fp) == TAR_BLOCK ? 0 : -1;
}

int cube_tar_begin_member(cube_tar_writer *tw, const char *name)
{
    if (tw->header_at >= 0 || strlen(name) >= 100) {
        errno = EINVAL;
        return -1;
    }
    unsigned char h[TAR_BLOCK];
    fill_header(h, name, 0);
    memcpy(tw->name, name, strlen(name) + 1);
    tw->header_at = ftello(tw->fp);
    if (tw->header_at < 0 || fwrite(h, 1, TAR_BLOCK, tw->fp) != TAR_BLOCK)
        return -1;
    tw->data_at = tw->header_at + TAR_BLOCK;
    return 0;
}

off_t cube_tar_member_start(const cube_tar_writer *tw)
{
    return tw->data_at;
}

int cube_tar_end_member(cube_tar_writer *tw)
{
    if (tw->header_at < 0) {
        errno = EINVAL;
        return -1;
    }
    off_t end = ftello(tw->fp);
    if (end < tw->data_at)
        return -1;
    uint64_t size = (uint64_t)(end - tw->data_at);
    static const unsigned char zeros[TAR_BLOCK];
    size_t pad = (size_t)((TAR_BLOCK - size % TAR_BLOCK) % TAR_BLOCK);
    if (pad > 0 && fwrite(zeros, 1, pad, tw->fp) != pad)
        return -1;
    off_t after = end + (off_t)pad;
    unsigned char h[TAR_BLOCK];
    fill_header(h, tw->name, size);
    if (fseeko(tw->fp, tw->header_at, SEEK_SET) != 0 ||
        fwrite(h, 1, TAR_BLOCK, tw->fp) != TAR_BLOCK)
        return -1;
    if (fseeko(tw->fp, after, SEEK_SET) != 0)
        return -1;
    tw->header_at = -1;
    tw->data_at = -1;
    return size > 0 && size % TAR_BLOCK == 0 ? put_skip_member(tw) : 0;
}

int cube_tar_finish(cube_tar_writer *tw)
{
    static const unsigned char zeros[2 * TAR_BLOCK];
    if (tw->header_at >= 0) {
        errno = EINVAL;
        return -1;
    }
    return fwrite(zeros, 1, sizeof zeros, tw->fp) == sizeof zeros ? 0 : -1;
}

/* ------------------------------------------------------------------ reader */

static bool parse_number(const unsigned char *field, size_t width, uint64_t *out)
{
    uint64_t v = 0;
    if (field[0] & 0x80) { /* base-256 (GNU) */
        for (size_t i = 1; i < width; i++)
            v = (v << 8) | field[i];
        *out = v;
        return true;
    }
    size_t i = 0;
    while (i < width && field[i] == ' ')
        i++;
    for (; i < width && field[i] >= '0' && field[i] <= '7'; i++)
        v = (v << 3) | (uint64_t)(field[i] - '0');
    if (i < width && field[i] != '\0' && field[i] != ' ')
        return false;
    *out = v;
    return true;
}

static bool checksum_ok(const unsigned char *h)
{
    uint64_t stored;
    if (!parse_number(h + TAR_CHKSUM, 8, &stored))
        return false;
    uint64_t sum = 0;
    for (int i = 0; i < TAR_BLOCK; i++)
        sum += (i >= TAR_CHKSUM && i < TAR_CHKSUM + 8) ? ' ' : h[i];
    return sum == stored;
}

static bool all_zero(const unsigned char *h)
{
    for (int i = 0; i < TAR_BLOCK; i++)
        if (h[i] != 0)
            return false;
    return true;
}

/* ustar splits long names into prefix "/" name. */
static char *member_name(const unsigned char *h)
{
    char name[101], prefix[156];
    memcpy(name, h + TAR_NAME, 100);
    name[100] = '\0';
    prefix[0] = '\0';
    if (memcmp(h + TAR_MAGIC, "ustar", 5) == 0) {
        memcpy(prefix, h + TAR_PREFIX, 155);
        prefix[155] = '\0';
    }
    size_t lp = strlen(prefix), ln = strlen(name);
    char *out = malloc(lp + ln + 2);
    if (out == NULL)
        return NULL;
    if (lp > 0)
        sprintf(out, "%s/%s", prefix, name);
    else
        memcpy(out, name, ln + 1);
    return out;
}

static int push_member(cube_tar_member **members, size_t *n, size_t *cap, char *name,
                       const unsigned char *data, uint64_t size)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        cube_tar_member *m = realloc(*members, nc * sizeof *m);
        if (m == NULL)
            return -1;
        *members = m;
        *cap = nc;
    }
    (*members)[*n].name = name;
    (*members)[*n].data = data;
    (*members)[*n].size = size;
    (*n)++;
    return 0;
}

int cube_tar_list(const unsigned char *buf, size_t len, cube_tar_member **members, size_t *n,
                  char *err, size_t errlen)
{
    size_t cap = 0, pos = 0;
    char *long_name = NULL; /* GNU 'L' record: the real name of the next member */
    *members = NULL;
    *n = 0;
    bool ended = false; /* by the zero block(s) every tar writer puts at the end */
    while (pos + TAR_BLOCK <= len) {
        const unsigned char *h = buf + pos;
        if (all_zero(h)) {
            /* CubeLib's writer pads a member of a multiple of 512 bytes with a whole zero
             * block (TarReader::end_file_blocks_in_tar); two zero blocks end the archive */
            if (pos + 2 * TAR_BLOCK <= len && !all_zero(h + TAR_BLOCK)) {
                pos += TAR_BLOCK;
                continue;
            }
            ended = true;
            break;
        }
        uint64_t size;
        if (!checksum_ok(h) || !parse_number(h + TAR_SIZE, 12, &size)) {
            cube_set_err(err, errlen, "not a tar archive (bad header at offset %zu)", pos);
            goto fail;
        }
        size_t data_at = pos + TAR_BLOCK;
        if (size > len - data_at) {
            cube_set_err(err, errlen, "truncated tar archive (member at offset %zu)", pos);
            goto fail;
        }
        char type = (char)h[TAR_TYPE];
        if (type == 'L') {
            free(long_name);
            long_name = strndup((const char *)buf + data_at, (size_t)size);
            if (long_name == NULL)
                goto oom;
        } else if (type == '0' || type == '\0') {
            char *name = long_name ? long_name : member_name(h);
            long_name = NULL;
            if (name == NULL)
                goto oom;
            if (push_member(members, n, &cap, name, buf + data_at, size) != 0) {
                free(name);
                goto oom;
            }
        }
        /* directories, pax headers and links carry nothing a cube reader needs */
        pos = data_at + (size_t)((size + TAR_BLOCK - 1) / TAR_BLOCK) * TAR_BLOCK;
    }
    free(long_name);
    long_name = NULL;
    if (!ended && pos == 0 && len > 0) {
        cube_set_err(err, errlen, "not a tar archive (%zu bytes: shorter than a tar header)",
                     len);
        goto fail;
    }
    if (!ended && len > 0) {
        /* a file cut short (full disk, unfinished copy): say so, rather than name the member
         * that the cut happened to remove */
        cube_set_err(err, errlen,
                     "truncated tar archive (it ends at byte %zu, %s, without the end-of-archive "
                     "block; the file was cut short: a full disk, or a copy that did not finish)",
                     len, pos < len ? "inside a member's header" : "after a member");
        goto fail;
    }
    if (*n == 0) {
        cube_set_err(err, errlen, "not a tar archive (no members)");
        return -1;
    }
    return 0;
oom:
    cube_set_err(err, errlen, "out of memory while listing the archive");
fail:
    free(long_name);
    cube_tar_members_free(*members, *n);
    *members = NULL;
    *n = 0;
    return -1;
}

void cube_tar_members_free(cube_tar_member *members, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(members[i].name);
    free(members);
}
