/* SPDX-License-Identifier: BSD-3-Clause */
/* an_load_probe.c: how many MPI ranks an OTF2 archive has (the members of MPI's
 * COMM_LOCATIONS group; 0 for a program without MPI), read from its global definitions
 * before the analysis chooses its processes: scorep-analyze initialises MPI only for a trace
 * of an MPI program (an_net.h). */
#include "analysis/an_load.h"
#include "trace/otf2_read_guard.h"

#include <otf2/otf2.h>
#include <stdio.h>

static OTF2_CallbackCode d_group(void *u, OTF2_GroupRef self, OTF2_StringRef name,
                                 OTF2_GroupType type, OTF2_Paradigm p, OTF2_GroupFlag f, uint32_t n,
                                 const uint64_t *members)
{
    (void)self, (void)name, (void)f, (void)members;
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && p == OTF2_PARADIGM_MPI)
        *(uint32_t *)u = n;
    return OTF2_CALLBACK_SUCCESS;
}

int an_load_otf2_mpi_ranks(const char *anchor, uint32_t *mpi_ranks, char *err, size_t len)
{
    *mpi_ranks = 0;
    otf2_read_guard_begin(anchor); /* damaged files found before OTF2 reads */
    OTF2_Reader *r = OTF2_Reader_Open(anchor);
    OTF2_GlobalDefReader *gdr = NULL;
    OTF2_GlobalDefReaderCallbacks *dc = NULL;
    int rc = -1;
    if (r && OTF2_Reader_SetSerialCollectiveCallbacks(r) == OTF2_SUCCESS &&
        (gdr = OTF2_Reader_GetGlobalDefReader(r)) && (dc = OTF2_GlobalDefReaderCallbacks_New())) {
        uint64_t n;
        OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dc, d_group);
        if (OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, dc, mpi_ranks) == OTF2_SUCCESS &&
            otf2_read_guard_global_defs(r, gdr, &n) == OTF2_SUCCESS)
            rc = 0;
    }
    OTF2_GlobalDefReaderCallbacks_Delete(dc);
    if (gdr)
        OTF2_Reader_CloseGlobalDefReader(r, gdr);
    if (r)
        OTF2_Reader_Close(r);
    otf2_read_guard_end();
    if (rc)
        snprintf(err, len, "%s: the global definitions are unreadable%s%s", anchor,
                 otf2_read_guard_error()[0] ? ": " : "", otf2_read_guard_error());
    return rc;
}
