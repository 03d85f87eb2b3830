/* SPDX-License-Identifier: BSD-3-Clause */
/* trace_collectives.c: OTF2's collective callbacks implemented over the measurement's ipc
 * layer, so that OTF2 never calls MPI itself (and never shows up in the measurement). */
#include "ipc/ipc.h"
#include "trace/trace_otf2.h"

#include <stdlib.h>

static size_t type_size(OTF2_Type t)
{
    switch (t) {
    case OTF2_TYPE_UINT8:
    case OTF2_TYPE_INT8:
        return 1;
    case OTF2_TYPE_UINT16:
    case OTF2_TYPE_INT16:
        return 2;
    case OTF2_TYPE_UINT32:
    case OTF2_TYPE_INT32:
    case OTF2_TYPE_FLOAT:
        return 4;
    default:
        return 8;
    }
}

static OTF2_CallbackCode code(int rc)
{
    return rc == 0 ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_ERROR;
}

static OTF2_CallbackCode get_size(void *u, OTF2_CollectiveContext *c, uint32_t *size)
{
    (void)u;
    (void)c;
    *size = (uint32_t)scorep_ipc_get()->size();
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode get_rank(void *u, OTF2_CollectiveContext *c, uint32_t *rank)
{
    (void)u;
    (void)c;
    *rank = (uint32_t)scorep_ipc_get()->rank();
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode barrier(void *u, OTF2_CollectiveContext *c)
{
    (void)u;
    (void)c;
    return code(scorep_ipc_get()->barrier());
}

static OTF2_CallbackCode bcast(void *u, OTF2_CollectiveContext *c, void *data, uint32_t n,
                               OTF2_Type t, uint32_t root)
{
    (void)u;
    (void)c;
    return code(scorep_ipc_get()->bcast(data, n * type_size(t), (int)root));
}

static OTF2_CallbackCode gather(void *u, OTF2_CollectiveContext *c, const void *in, void *out,
                                uint32_t n, OTF2_Type t, uint32_t root)
{
    (void)u;
    (void)c;
    return code(scorep_ipc_get()->gather(in, n * type_size(t), out, (int)root));
}

/* byte counts and displacements from element counts (root only) */
static int byte_layout(const uint32_t *elements, OTF2_Type t, size_t **counts, size_t **displs)
{
    int size = scorep_ipc_get()->size();
    *counts = calloc(size, sizeof **counts);
    *displs = calloc(size, sizeof **displs);
    if (!*counts || !*displs)
        return -1;
    size_t off = 0;
    for (int r = 0; r < size; r++) {
        (*counts)[r] = elements[r] * type_size(t);
        (*displs)[r] = off;
        off += (*counts)[r];
    }
    return 0;
}

static OTF2_CallbackCode gatherv(void *u, OTF2_CollectiveContext *c, const void *in, uint32_t in_n,
                                 void *out, const uint32_t *out_n, OTF2_Type t, uint32_t root)
{
    (void)u;
    (void)c;
    const scorep_ipc *ipc = scorep_ipc_get();
    size_t *counts = NULL, *displs = NULL;
    int rc = (uint32_t)ipc->rank() == root ? byte_layout(out_n, t, &counts, &displs) : 0;
    if (rc == 0)
        rc = ipc->gatherv(in, in_n * type_size(t), out, counts, displs, (int)root);
    free(counts);
    free(displs);
    return code(rc);
}

static OTF2_CallbackCode scatter(void *u, OTF2_CollectiveContext *c, const void *in, void *out,
                                 uint32_t n, OTF2_Type t, uint32_t root)
{
    (void)u;
    (void)c;
    const scorep_ipc *ipc = scorep_ipc_get();
    int size = ipc->size();
    size_t *counts = calloc(size, sizeof *counts), *displs = calloc(size, sizeof *displs);
    int rc = counts && displs ? 0 : -1;
    for (int r = 0; rc == 0 && r < size; r++) {
        counts[r] = n * type_size(t);
        displs[r] = (size_t)r * counts[r];
    }
    if (rc == 0)
        rc = ipc->scatterv(in, counts, displs, out, n * type_size(t), (int)root);
    free(counts);
    free(displs);
    return code(rc);
}

static OTF2_CallbackCode scatterv(void *u, OTF2_CollectiveContext *c, const void *in,
                                  const uint32_t *in_n, void *out, uint32_t out_n, OTF2_Type t,
                                  uint32_t root)
{
    (void)u;
    (void)c;
    const scorep_ipc *ipc = scorep_ipc_get();
    size_t *counts = NULL, *displs = NULL;
    int rc = (uint32_t)ipc->rank() == root ? byte_layout(in_n, t, &counts, &displs) : 0;
    if (rc == 0)
        rc = ipc->scatterv(in, counts, displs, out, out_n * type_size(t), (int)root);
    free(counts);
    free(displs);
    return code(rc);
}

static void release(void *u, OTF2_CollectiveContext *g, OTF2_CollectiveContext *l)
{
    (void)u;
    (void)g;
    (void)l;
}

static const OTF2_CollectiveCallbacks callbacks = {
    release, get_size, get_rank, NULL, NULL, barrier, bcast, gather, gatherv, scatter, scatterv};

int scorep_trace_set_collectives(OTF2_Archive *a)
{
    if (scorep_ipc_get()->size() == 1)
        return OTF2_Archive_SetSerialCollectiveCallbacks(a) == OTF2_SUCCESS ? 0 : -1;
    /* OTF2 only passes the context through; any non-NULL value marks "the global comm" */
    static int context;
    return OTF2_Archive_SetCollectiveCallbacks(
               a, &callbacks, NULL, (OTF2_CollectiveContext *)&context, NULL) == OTF2_SUCCESS
               ? 0
               : -1;
}
