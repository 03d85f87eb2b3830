/* SPDX-License-Identifier: BSD-3-Clause */
/* test_cube_tar_blocks.c: a .cubex whose members are whole 512-byte blocks long must read
 * right in CubeLib 4.4, whose tar reader steps from a member of S > 0 bytes to the header at
 * 512 + (S / 512 + 1) * 512 bytes after the member's header (one block further than POSIX tar
 * when S is a multiple of 512), and in POSIX tar readers; also, our reader lists every member
 * of an archive written as CubeLib writes one (a whole zero block after such a member). */
#include "cube/cube.h"
#include "cube/cube_tar.h"
#include "unit_check.h"
#include "unit_tmp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { BLOCK = 512, MAX_MEMBERS = 32 };

typedef struct {
    char name[101];
    long data_at, size;
} member;

static long octal(const unsigned char *field, int width)
{
    long v = 0;
    for (int i = 0; i < width && field[i] >= '0' && field[i] <= '7'; i++)
        v = v * 8 + (field[i] - '0');
    return v;
}

static int all_zero(const unsigned char *b)
{
    for (int i = 0; i < BLOCK; i++)
        if (b[i] != 0)
            return 0;
    return 1;
}

/* The members found by walking buf as POSIX tar does (posix != 0: next header after the
 * padded size, end at a zero block) or as CubeLib 4.4's TarReader::readHeaders does (every
 * block read as a header whose name is not empty names a member, to the end of the file). */
static int walk(const unsigned char *buf, long len, int posix, member *out)
{
    int n = 0;
    for (long pos = 0; pos + BLOCK <= len && n < MAX_MEMBERS;) {
        const unsigned char *h = buf + pos;
        if (posix && all_zero(h))
            break;
        long size = octal(h + 124, 12);
        if (h[0] != '\0') {
            memcpy(out[n].name, h, 100);
            out[n].name[100] = '\0';
            out[n].data_at = pos + BLOCK;
            out[n++].size = size;
        }
        if (posix)
            pos += BLOCK + (size + BLOCK - 1) / BLOCK * BLOCK;
        else
            pos += BLOCK + (size == 0 ? 0 : (size / BLOCK + 1) * BLOCK);
    }
    return n;
}

static const member *find(const member *m, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(m[i].name, name) == 0)
            return &m[i];
    return NULL;
}

static unsigned char *slurp(const char *path, long *len)
{
    FILE *fp = fopen(path, "rb");
    unsigned char *buf = NULL;
    if (fp && fseek(fp, 0, SEEK_END) == 0 && (*len = ftell(fp)) > 0 &&
        fseek(fp, 0, SEEK_SET) == 0 && (buf = malloc((size_t)*len)) != NULL &&
        fread(buf, 1, (size_t)*len, fp) != (size_t)*len) {
        free(buf);
        buf = NULL;
    }
    if (fp)
        fclose(fp);
    return buf;
}

/* One call path, one location, time and visits; attribute "pad" holds pad_len 'x's. */
static int write_cube(const char *path, int pad_len, int compress)
{
    char err[256] = "", *pad = calloc((size_t)pad_len + 1, 1);
    cube_writer *w = cube_writer_new();
    int ok = w != NULL && pad != NULL;
    if (ok) {
        memset(pad, 'x', (size_t)pad_len);
        ok = cube_writer_attr(w, "pad", pad) == 0 &&
             cube_writer_metric(w, -1, "time", "Time", CUBE_DTYPE_DOUBLE, "sec", "",
                                CUBE_INCLUSIVE) == 0 &&
             cube_writer_metric(w, -1, "visits", "Visits", CUBE_DTYPE_UINT64, "occ", "",
                                CUBE_EXCLUSIVE) == 1 &&
             cube_writer_region(w, "main", "main", "user", "function", "m.c", 1, 9, "") == 0 &&
             cube_writer_cnode(w, -1, 0) == 0 &&
             cube_writer_stnode(w, -1, "machine", "machine") == 0 &&
             cube_writer_locgroup(w, 0, "rank 0", 0, "process") == 0 &&
             cube_writer_location(w, 0, "Master thread", 0, "thread") == 0 &&
             cube_writer_set_double(w, 0, 0, 0, 2.5) == 0 &&
             cube_writer_set_u64(w, 1, 0, 0, 7) == 0 &&
             cube_writer_write(w, path, compress != 0, err, sizeof err) == 0;
    }
    CHECK(ok, "writing %s: %s", path, err);
    cube_writer_free(w);
    free(pad);
    return ok ? 0 : -1;
}

/* anchor.xml, the first member, is made a whole number of blocks long; every member a Cube
 * reader needs is then found by both walks at the same place, and our reader reads it. */
static void check_block_sized_anchor(const char *path, int compress)
{
    long len;
    unsigned char *buf;
    member posix[MAX_MEMBERS], cubelib[MAX_MEMBERS];
    if (write_cube(path, 0, compress) != 0 || (buf = slurp(path, &len)) == NULL)
        return;
    int pad = (int)((BLOCK - octal(buf + 124, 12) % BLOCK) % BLOCK);
    free(buf);
    if (write_cube(path, pad, compress) != 0 || (buf = slurp(path, &len)) == NULL)
        return;
    CHECK(strcmp((const char *)buf, "anchor.xml") == 0 && octal(buf + 124, 12) % BLOCK == 0,
          "precondition: anchor.xml first and a multiple of %d bytes long", BLOCK);
    int np = walk(buf, len, 1, posix), nc = walk(buf, len, 0, cubelib);
    const char *const need[] = {"anchor.xml", "0.index", "0.data", "1.index", "1.data"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        const member *p = find(posix, np, need[i]), *c = find(cubelib, nc, need[i]);
        CHECK(p != NULL, "compress %d: POSIX tar finds no %s", compress, need[i]);
        CHECK(c != NULL, "compress %d: CubeLib's tar walk finds no %s", compress, need[i]);
        CHECK(!p || !c || (p->data_at == c->data_at && p->size == c->size),
              "compress %d: %s at %ld (%ld bytes) for POSIX tar, %ld (%ld) for CubeLib", compress,
              need[i], p ? p->data_at : -1, p ? p->size : -1, c ? c->data_at : -1,
              c ? c->size : -1);
    }
    free(buf);
    char err[256] = "";
    cube_reader *r = cube_reader_open(path, err, sizeof err);
    CHECK(r != NULL, "compress %d: our reader: %s", compress, err);
    if (r != NULL) {
        CHECK(cube_reader_stored(r, 0, 0, 0) == 2.5 && cube_reader_stored(r, 1, 0, 0) == 7.0,
              "compress %d: values read back %g %g, set 2.5 7", compress,
              cube_reader_stored(r, 0, 0, 0), cube_reader_stored(r, 1, 0, 0));
        cube_reader_free(r);
    }
}

/* CubeLib's own writer: header, a 512-byte member, one zero block, the next header. */
static void check_cubelib_padding(void)
{
    unsigned char buf[7 * BLOCK] = {0};
    cube_tar_header(buf, "a", BLOCK);
    memset(buf + BLOCK, 'a', BLOCK);
    cube_tar_header(buf + 3 * BLOCK, "b", 3);
    memcpy(buf + 4 * BLOCK, "bbb", 3);
    cube_tar_member *m = NULL;
    size_t n = 0;
    char err[256] = "";
    CHECK(cube_tar_list(buf, sizeof buf, &m, &n, err, sizeof err) == 0, "listing: %s", err);
    CHECK(n == 2 && strcmp(m[0].name, "a") == 0 && m[0].size == BLOCK &&
              strcmp(m[1].name, "b") == 0 && m[1].size == 3 && memcmp(m[1].data, "bbb", 3) == 0,
          "CubeLib's padding block: %zu members listed, 2 (a, b) expected", n);
    cube_tar_members_free(m, n);
}

int main(void)
{
    char path[4096];
    unit_tmp_template(path, sizeof path, "test_cube_tar_blocks");
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("mkstemp");
        return 1;
    }
    close(fd);
    check_block_sized_anchor(path, 0);
    check_block_sized_anchor(path, 1);
    remove(path);
    check_cubelib_padding();
    return failures ? 1 : 0;
}
