/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_values.h: the arithmetic of Cube values that the reader (cube_reader.c) and the
 * distributed engine (cube_engine.c) must share so that both derive the same views:
 * combining two values of a metric and which view of a metric is the stored one. Inline:
 * both call it once per value of a derived row. */
#ifndef SCOREP_CUBE_VALUES_H
#define SCOREP_CUBE_VALUES_H

#include "cube/cube.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline bool cube_dtype_is_minmax(cube_dtype t)
{
    return t == CUBE_DTYPE_MINDOUBLE || t == CUBE_DTYPE_MAXDOUBLE;
}

static inline uint64_t cube_value_from_double(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* acc (op)= v in the metric's arithmetic: sum, difference, min or max. */
static inline uint64_t cube_value_combine(cube_dtype t, uint64_t acc, uint64_t v, bool subtract)
{
    if (t == CUBE_DTYPE_UINT64 || t == CUBE_DTYPE_INT64)
        return subtract ? acc - v : acc + v; /* two's complement covers INT64 too */
    double a = cube_value_to_double(t, acc), b = cube_value_to_double(t, v);
    if (t == CUBE_DTYPE_MINDOUBLE)
        return cube_value_from_double(b < a ? b : a);
    if (t == CUBE_DTYPE_MAXDOUBLE)
        return cube_value_from_double(b > a ? b : a);
    return cube_value_from_double(subtract ? a - b : a + b);
}

/* Whether a view of metric m is its stored rows; the other view is derived. Min/max
 * values are stored per node, so their exclusive view is always the stored one. */
static inline bool cube_view_is_stored(const cube_metric *m, cube_view view)
{
    if (view == CUBE_VIEW_STORED)
        return true;
    if (cube_dtype_is_minmax(m->dtype))
        return view == CUBE_VIEW_EXCLUSIVE || m->kind == CUBE_INCLUSIVE;
    return (view == CUBE_VIEW_INCLUSIVE) == (m->kind == CUBE_INCLUSIVE);
}

#endif
