/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_plan.c: the fixed layout of a .cubex written by many processes at once (cube.h):
 * per metric an index listing the call paths with values (all of them unless the caller
 * says which) and an uncompressed data member whose rows sit at computed offsets, so that
 * every process writes its locations' slice of every row with pwrite, without gathering
 * values; anchor.xml goes last. */
#include "cube/cube_enum.h"
#include "cube/cube_plan.h"
#include "cube/cube_tar.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { BLOCK = 512, INDEX_HEAD = 11 + 4 + 2 + 1 + 4, DATA_HEAD = 10 };

static uint64_t padded(uint64_t size)
{
    return (size + BLOCK - 1) / BLOCK * BLOCK;
}

static uint64_t index_bytes(const cube_plan *p, int metric)
{
    return INDEX_HEAD + 4 * (uint64_t)p->n_rows[metric];
}

static uint64_t data_bytes(const cube_plan *p, int metric)
{
    return DATA_HEAD + (uint64_t)p->n_rows[metric] * p->n_locations * sizeof(uint64_t);
}

void cube_plan_free(cube_plan *p)
{
    if (p == NULL)
        return;
    free(p->metric_file);
    free(p->deep_pos);
    free(p->wide_pos);
    free(p->kind);
    free(p->index_at);
    free(p->data_at);
    free(p->row_bits);
    free(p->row_rank);
    free(p->n_rows);
    free(p->file_metric);
    free(p);
}

/* seq[k] = node at position k  ->  pos[node] = k */
static void invert(const int *seq, int n, int *pos)
{
    for (int k = 0; k < n; k++)
        pos[seq[k]] = k;
}

/* The same enumerations as cube_writer.c's layout: the ids read back equal the writer's. */
static int enumerate(cube_plan *p, const cube_plan_desc *d)
{
    size_t nm = (size_t)d->n_metrics + 1, nc = (size_t)d->n_cnodes + 1;
    int *seq = malloc((nm > nc ? nm : nc) * sizeof(int));
    cube_tree t = {0};
    int rc = seq ? 0 : -1;
    if (rc == 0 && (rc = cube_tree_build(&t, d->metric_parent, NULL, d->n_metrics)) == 0 &&
        (rc = cube_tree_deep(&t, seq)) == 0)
        invert(seq, d->n_metrics, p->metric_file);
    cube_tree_free(&t);
    memset(&t, 0, sizeof t);
    if (rc == 0 && (rc = cube_tree_build(&t, d->cnode_parent, NULL, d->n_cnodes)) == 0 &&
        (rc = cube_tree_deep(&t, seq)) == 0) {
        invert(seq, d->n_cnodes, p->deep_pos);
        if ((rc = cube_tree_wide(&t, seq)) == 0)
            invert(seq, d->n_cnodes, p->wide_pos);
    }
    cube_tree_free(&t);
    free(seq);
    return rc;
}

static bool used(const cube_plan_desc *d, int metric, int cnode)
{
    if (d->row_used == NULL)
        return true;
    uint64_t bit = (uint64_t)metric * (uint64_t)d->n_cnodes + (uint64_t)cnode;
    return (d->row_used[bit / 64] >> (bit % 64)) & 1;
}

/* The rows of each metric: bits in its enumeration's order, and the ranks of the words. */
static void number_rows(cube_plan *p, const cube_plan_desc *d)
{
    for (int m = 0; m < p->n_metrics; m++) {
        uint64_t *bits = p->row_bits + (size_t)m * p->words;
        const int *pos = p->kind[m] == CUBE_INCLUSIVE ? p->wide_pos : p->deep_pos;
        for (int c = 0; c < p->n_cnodes; c++)
            if (used(d, m, c))
                bits[pos[c] / 64] |= 1ULL << (pos[c] % 64);
        uint32_t n = 0;
        for (size_t w = 0; w < p->words; w++) {
            p->row_rank[(size_t)m * p->words + w] = n;
            n += (uint32_t)__builtin_popcountll(bits[w]);
        }
        p->n_rows[m] = n;
        p->file_metric[p->metric_file[m]] = m;
    }
}

cube_plan *cube_plan_new(const cube_plan_desc *d)
{
    if (d == NULL || d->n_metrics <= 0 || d->n_cnodes <= 0 || d->n_locations == 0 ||
        d->metric_parent == NULL || d->metric_kind == NULL || d->cnode_parent == NULL)
        return NULL;
    cube_plan *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    size_t nm = (size_t)d->n_metrics, nc = (size_t)d->n_cnodes;
    p->n_metrics = d->n_metrics;
    p->n_cnodes = d->n_cnodes;
    p->n_locations = d->n_locations;
    p->metric_file = malloc(nm * sizeof(int));
    p->kind = malloc(nm * sizeof *p->kind);
    p->deep_pos = malloc(nc * sizeof(int));
    p->wide_pos = malloc(nc * sizeof(int));
    p->index_at = malloc(nm * sizeof(uint64_t));
    p->data_at = malloc(nm * sizeof(uint64_t));
    p->words = (nc + 63) / 64;
    p->row_bits = calloc(nm * p->words, sizeof(uint64_t));
    p->row_rank = malloc(nm * p->words * sizeof(uint32_t));
    p->n_rows = malloc(nm * sizeof(uint32_t));
    p->file_metric = malloc(nm * sizeof(int));
    if (!p->metric_file || !p->kind || !p->deep_pos || !p->wide_pos || !p->index_at ||
        !p->data_at || !p->row_bits || !p->row_rank || !p->n_rows || !p->file_metric ||
        enumerate(p, d) != 0) {
        cube_plan_free(p);
        return NULL;
    }
    memcpy(p->kind, d->metric_kind, nm * sizeof *p->kind);
    number_rows(p, d);
    uint64_t at = 0;
    for (int k = 0; k < p->n_metrics; k++) { /* file ids in order: k.index, k.data */
        if (p->n_rows[p->file_metric[k]] == 0) { /* no member, as the gathering writer */
            p->index_at[k] = p->data_at[k] = UINT64_MAX;
            continue;
        }
        p->index_at[k] = at;
        at += BLOCK + padded(index_bytes(p, p->file_metric[k]));
        p->data_at[k] = at;
        at += BLOCK + padded(data_bytes(p, p->file_metric[k]));
    }
    p->anchor_at = at;
    return p;
}

uint64_t cube_plan_anchor_offset(const cube_plan *p)
{
    return p->anchor_at;
}

static int pwrite_all(int fd, const void *buf, size_t len, uint64_t at)
{
    const unsigned char *b = buf;
    while (len > 0) {
        ssize_t n = pwrite(fd, b, len, (off_t)at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        b += n;
        len -= (size_t)n;
        at += (uint64_t)n;
    }
    return 0;
}

int cube_plan_write_slice(const cube_plan *p, int fd, int metric, int cnode, uint64_t first,
                          uint64_t n, const uint64_t *raw)
{
    if (metric < 0 || metric >= p->n_metrics || cnode < 0 || cnode >= p->n_cnodes ||
        first > p->n_locations || n > p->n_locations - first) {
        errno = EINVAL;
        return -1;
    }
    uint64_t i = 0;
    while (i < n && raw[i] == 0)
        i++;
    if (i == n)
        return 0; /* the hole reads as zeros */
    int pos = p->kind[metric] == CUBE_INCLUSIVE ? p->wide_pos[cnode] : p->deep_pos[cnode];
    size_t w = (size_t)metric * p->words + (size_t)pos / 64;
    uint64_t below = (1ULL << (pos % 64)) - 1, bits = p->row_bits[w];
    if (!((bits >> (pos % 64)) & 1)) {
        errno = EINVAL; /* the description said this row holds only zeros */
        return -1;
    }
    uint64_t row = p->row_rank[w] + (uint64_t)__builtin_popcountll(bits & below);
    uint64_t at = p->data_at[p->metric_file[metric]] + BLOCK + DATA_HEAD +
                  (row * p->n_locations + first) * sizeof(uint64_t);
    return pwrite_all(fd, raw, n * sizeof(uint64_t), at);
}

/* The index lists the positions (in the metric's enumeration) that have rows, ascending. */
static int write_index(const cube_plan *p, int fd, int file_id)
{
    int metric = p->file_metric[file_id];
    size_t len = (size_t)index_bytes(p, metric);
    unsigned char *b = malloc(BLOCK + len);
    if (b == NULL)
        return -1;
    char name[32];
    snprintf(name, sizeof name, "%d.index", file_id);
    cube_tar_header(b, name, len);
    unsigned char *q = b + BLOCK;
    const uint32_t probe = 1, n = p->n_rows[metric];
    const uint16_t version = 0;
    memcpy(q, "CUBEX.INDEX", 11);
    memcpy(q + 11, &probe, 4);
    memcpy(q + 15, &version, 2);
    q[17] = 1; /* sparse: the form Score-P writes and every reader knows */
    memcpy(q + 18, &n, 4);
    const uint64_t *bits = p->row_bits + (size_t)metric * p->words;
    uint32_t i = 0;
    for (uint32_t pos = 0; pos < (uint32_t)p->n_cnodes; pos++)
        if ((bits[pos / 64] >> (pos % 64)) & 1)
            memcpy(q + INDEX_HEAD + 4 * (size_t)i++, &pos, 4);
    int rc = pwrite_all(fd, b, BLOCK + len, p->index_at[file_id]);
    free(b);
    return rc;
}

int cube_plan_write_frame(const cube_plan *p, int fd)
{
    for (int k = 0; k < p->n_metrics; k++) {
        if (p->index_at[k] == UINT64_MAX)
            continue; /* a metric without values */
        unsigned char h[BLOCK + DATA_HEAD];
        char name[32];
        snprintf(name, sizeof name, "%d.data", k);
        cube_tar_header(h, name, data_bytes(p, p->file_metric[k]));
        memcpy(h + BLOCK, "CUBEX.DATA", DATA_HEAD);
        if (write_index(p, fd, k) != 0 || pwrite_all(fd, h, sizeof h, p->data_at[k]) != 0)
            return -1;
    }
    return 0; /* rows never written and the padding are holes up to the anchor */
}
