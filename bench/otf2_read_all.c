/* SPDX-License-Identifier: BSD-3-Clause */
/* otf2_read_all.c: the floor of the analysis benchmark: reads every event of an OTF2 archive
 * once with OTF2's global event reader (all locations, no callbacks), as any post-mortem tool
 * must at least do. Prints the events and the seconds it took. */
#include <otf2/otf2.h>
#include <stdio.h>
#include <time.h>

struct locs {
    uint64_t id[4096];
    size_t n;
};

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t events,
                                      OTF2_LocationGroupRef group)
{
    (void)name;
    (void)type;
    (void)events;
    (void)group;
    struct locs *l = u;
    if (l->n < sizeof l->id / sizeof l->id[0])
        l->id[l->n++] = self;
    return OTF2_CALLBACK_SUCCESS;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: otf2_read_all traces.otf2\n");
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    OTF2_Reader *r = OTF2_Reader_Open(argv[1]);
    if (!r)
        return 1;
    OTF2_Reader_SetSerialCollectiveCallbacks(r);
    OTF2_GlobalDefReader *gd = OTF2_Reader_GetGlobalDefReader(r);
    OTF2_GlobalDefReaderCallbacks *dc = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dc, def_location);
    static struct locs locs;
    OTF2_Reader_RegisterGlobalDefCallbacks(r, gd, dc, &locs);
    uint64_t n;
    OTF2_Reader_ReadAllGlobalDefinitions(r, gd, &n);
    OTF2_GlobalDefReaderCallbacks_Delete(dc);
    OTF2_Reader_CloseGlobalDefReader(r, gd);
    for (size_t i = 0; i < locs.n; i++)
        OTF2_Reader_SelectLocation(r, locs.id[i]);
    OTF2_Reader_OpenEvtFiles(r);
    for (size_t i = 0; i < locs.n; i++)
        OTF2_Reader_GetEvtReader(r, locs.id[i]);
    OTF2_GlobalEvtReader *ge = OTF2_Reader_GetGlobalEvtReader(r);
    /* no callbacks: OTF2 still decodes every event, the floor of any tool */
    OTF2_Reader_ReadAllGlobalEvents(r, ge, &n);
    OTF2_Reader_CloseGlobalEvtReader(r, ge);
    OTF2_Reader_CloseEvtFiles(r);
    OTF2_Reader_Close(r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%llu %.6f\n", (unsigned long long)n,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    return 0;
}
