/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_enum.c: child lists and the deep/wide call-tree enumerations shared by the Cube
 * reader and writer; iterative so that deep call paths cannot overflow the C stack. */
#include "cube/cube_enum.h"

#include <stdlib.h>

int cube_tree_build(cube_tree *t, const int *parent, const int *order, int n)
{
    t->n = n;
    t->n_roots = 0;
    t->roots = malloc(((size_t)n + 1) * sizeof(int));
    t->child_off = calloc((size_t)n + 2, sizeof(int));
    t->children = malloc(((size_t)n + 1) * sizeof(int));
    if (t->roots == NULL || t->child_off == NULL || t->children == NULL)
        goto fail;
    for (int i = 0; i < n; i++) {
        if (parent[i] < -1 || parent[i] >= n || parent[i] == i)
            goto fail;
        if (parent[i] >= 0)
            t->child_off[parent[i] + 2]++;
    }
    /* counting sort by parent; child_off[v+1] runs as the fill cursor of v */
    for (int v = 0; v < n; v++)
        t->child_off[v + 2] += t->child_off[v + 1];
    for (int k = 0; k < n; k++) {
        int v = order ? order[k] : k;
        if (v < 0 || v >= n)
            goto fail;
        if (parent[v] < 0)
            t->roots[t->n_roots++] = v;
        else
            t->children[t->child_off[parent[v] + 1]++] = v;
    }
    return 0;
fail:
    cube_tree_free(t);
    return -1;
}

void cube_tree_free(cube_tree *t)
{
    free(t->roots);
    free(t->child_off);
    free(t->children);
    t->roots = t->child_off = t->children = NULL;
    t->n = t->n_roots = 0;
}

/* Pushes the children of v (or the roots when v < 0) reversed, so they pop in order. */
static int push_reversed(const cube_tree *t, int v, int *stack, int *top)
{
    const int *list = v < 0 ? t->roots : t->children + t->child_off[v];
    int count = v < 0 ? t->n_roots : t->child_off[v + 1] - t->child_off[v];
    if (*top + count > t->n)
        return -1; /* more pushes than nodes: a cycle */
    for (int i = count - 1; i >= 0; i--)
        stack[(*top)++] = list[i];
    return 0;
}

int cube_tree_deep(const cube_tree *t, int *seq)
{
    int *stack = malloc(((size_t)t->n + 1) * sizeof(int));
    int top = 0, emitted = 0, rc = 0;
    if (stack == NULL)
        return -1;
    rc = push_reversed(t, -1, stack, &top);
    while (rc == 0 && top > 0) {
        int v = stack[--top];
        if (emitted == t->n) {
            rc = -1;
            break;
        }
        seq[emitted++] = v;
        rc = push_reversed(t, v, stack, &top);
    }
    free(stack);
    return (rc == 0 && emitted == t->n) ? 0 : -1;
}

int cube_tree_wide(const cube_tree *t, int *seq)
{
    int *stack = malloc(((size_t)t->n + 1) * sizeof(int));
    int emitted = 0, rc = 0;
    if (stack == NULL)
        return -1;
    /* One root at a time (CubeLib's order): the root, then its subtree with every node's
     * children listed before any of them is descended into; only then the next root. */
    for (int r = 0; rc == 0 && r < t->n_roots; r++) {
        int top = 0;
        if (emitted == t->n) {
            rc = -1;
            break;
        }
        seq[emitted++] = t->roots[r];
        stack[top++] = t->roots[r];
        while (rc == 0 && top > 0) {
            int v = stack[--top];
            int count = t->child_off[v + 1] - t->child_off[v];
            if (emitted + count > t->n) {
                rc = -1;
                break;
            }
            for (int i = 0; i < count; i++)
                seq[emitted++] = t->children[t->child_off[v] + i];
            rc = push_reversed(t, v, stack, &top);
        }
    }
    free(stack);
    return (rc == 0 && emitted == t->n) ? 0 : -1;
}
