/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_anchor.h: private interface between the Cube reader and its anchor.xml parser. */
#ifndef SCOREP_CUBE_ANCHOR_H
#define SCOREP_CUBE_ANCHOR_H

#include "cube/cube.h"

/* What anchor.xml says about how a metric's values are stored. */
typedef struct {
    int elem_size;  /* bytes per stored value; 0 = no data can be read (derived, unknown) */
    bool is_signed; /* for integers narrower than 8 bytes */
    bool derived;   /* POSTDERIVED/PREDERIVED_*: values are computed, never stored */
} cube_storage;

typedef struct {
    cube_storage *storage; /* per metric */
    int *cnode_order;      /* cnode ids in document order */
} cube_anchor_extra;

/* Fills r's definition arrays from anchor.xml held in xml[0..len) (modified in place).
 * Returns 0, or -1 with a message in err; on failure the caller frees r and extra. */
int cube_anchor_parse(cube_reader *r, cube_anchor_extra *extra, char *xml, size_t len, char *err,
                      size_t errlen);
void cube_anchor_extra_free(cube_anchor_extra *extra);

#endif
