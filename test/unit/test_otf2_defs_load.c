/* SPDX-License-Identifier: BSD-3-Clause */
/* test_otf2_defs_load.c: the shared OTF2 definitions loader (src/trace/otf2_defs_load.c) on an
 * archive written here with OTF2's own writer: every definition kind the readers use comes
 * back in the model at its reference with the values written (references left out stay
 * undefined), the chosen locations' event files open; a definition with a reference beyond
 * its file's size, a damaged definition file and a missing archive are refused with a
 * message naming the file. */
#include "trace/otf2_defs_load.h"
#include "trace/otf2_read_guard.h"
#include "unit_check.h"
#include "unit_tmp.h"

#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l, void *c, bool f)
{
    (void)u, (void)ft, (void)l, (void)c, (void)f;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l)
{
    (void)u, (void)ft, (void)l;
    return 0;
}

static const OTF2_FlushCallbacks flush = {pre_flush, post_flush};

enum {
    S_EMPTY,
    S_RANK0,
    S_RANK1,
    S_MASTER,
    S_WORKER,
    S_MAIN,
    S_FILE_C,
    S_WORLD,
    S_INTER,
    S_WIN,
    S_CYCLES,
    S_UNIT,
    S_MSGID,
    S_PARAM,
    S_POSIX,
    S_POSIX_NAME,
    S_DATA,
    S_MACHINE,
    S_NODE,
    S_CLS_MACHINE,
    S_CLS_NODE,
    N_STRINGS
};
static const char *const strings[N_STRINGS] = {"",
                                               "MPI Rank 0",
                                               "MPI Rank 1",
                                               "Master thread",
                                               "OMP thread 1",
                                               "main",
                                               "main.c",
                                               "MPI_COMM_WORLD",
                                               "inter",
                                               "win",
                                               "PAPI_TOT_CYC",
                                               "#",
                                               "mpi_message_id",
                                               "dep in",
                                               "POSIX",
                                               "POSIX I/O",
                                               "data.bin",
                                               "cluster",
                                               "n01",
                                               "machine",
                                               "node"};

/* the definitions of a 2-rank run, rank 0 with 2 threads: references chosen with gaps */
static void write_globals(OTF2_GlobalDefWriter *g, uint32_t extra_string)
{
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 500, 9000, 42);
    for (uint32_t s = 0; s < N_STRINGS; s++)
        OTF2_GlobalDefWriter_WriteString(g, s, strings[s]);
    if (extra_string)
        OTF2_GlobalDefWriter_WriteString(g, extra_string, "far away");
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, S_MACHINE, S_CLS_MACHINE,
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 1, S_NODE, S_CLS_NODE, 0);
    OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, S_RANK0, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocationGroup(g, 1, S_RANK1, OTF2_LOCATION_GROUP_TYPE_PROCESS, 1,
                                            OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(g, 0, S_MASTER, OTF2_LOCATION_TYPE_CPU_THREAD, 1, 0);
    OTF2_GlobalDefWriter_WriteLocation(g, 1, S_MASTER, OTF2_LOCATION_TYPE_CPU_THREAD, 1, 1);
    OTF2_GlobalDefWriter_WriteLocation(g, 2, S_WORKER, OTF2_LOCATION_TYPE_CPU_THREAD, 1, 0);
    OTF2_GlobalDefWriter_WriteRegion(g, 3, S_MAIN, S_MAIN, S_EMPTY, OTF2_REGION_ROLE_FUNCTION,
                                     OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, S_FILE_C, 10, 20);
    const uint64_t locations[] = {0, 1}, world[] = {0, 1}, one[] = {1};
    OTF2_GlobalDefWriter_WriteGroup(g, 0, S_EMPTY, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                    OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2, locations);
    OTF2_GlobalDefWriter_WriteGroup(g, 1, S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, 2, world);
    OTF2_GlobalDefWriter_WriteGroup(g, 4, S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, 1, one);
    OTF2_GlobalDefWriter_WriteComm(g, 0, S_WORLD, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    OTF2_GlobalDefWriter_WriteInterComm(g, 2, S_INTER, 1, 4, 0, OTF2_COMM_FLAG_NONE);
    OTF2_GlobalDefWriter_WriteRmaWin(g, 1, S_WIN, 0, OTF2_RMA_WIN_FLAG_NONE);
    OTF2_GlobalDefWriter_WriteMetricMember(g, 0, S_CYCLES, S_EMPTY, OTF2_METRIC_TYPE_PAPI,
                                           OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_UINT64,
                                           OTF2_BASE_DECIMAL, 0, S_UNIT);
    const OTF2_MetricMemberRef members[] = {0};
    OTF2_GlobalDefWriter_WriteMetricClass(g, 2, 1, members, OTF2_METRIC_SYNCHRONOUS_STRICT,
                                          OTF2_RECORDER_KIND_CPU);
    OTF2_GlobalDefWriter_WriteCallingContext(g, 0, 3, OTF2_UNDEFINED_SOURCE_CODE_LOCATION,
                                             OTF2_UNDEFINED_CALLING_CONTEXT);
    OTF2_GlobalDefWriter_WriteAttribute(g, 5, S_MSGID, S_EMPTY, OTF2_TYPE_UINT64);
    OTF2_GlobalDefWriter_WriteParameter(g, 1, S_PARAM, OTF2_PARAMETER_TYPE_UINT64);
    OTF2_GlobalDefWriter_WriteIoParadigm(g, 0, S_POSIX, S_POSIX_NAME, OTF2_IO_PARADIGM_CLASS_SERIAL,
                                         OTF2_IO_PARADIGM_FLAG_OS, 0, NULL, NULL, NULL);
    OTF2_GlobalDefWriter_WriteIoRegularFile(g, 0, S_DATA, 1);
    OTF2_GlobalDefWriter_WriteIoHandle(g, 3, S_DATA, 0, 0, OTF2_IO_HANDLE_FLAG_NONE,
                                       OTF2_UNDEFINED_COMM, OTF2_UNDEFINED_IO_HANDLE);
}

/* an archive DIR/traces.otf2 with those definitions and one Enter in each location's events */
static int write_archive(const char *dir, uint32_t extra_string)
{
    OTF2_Archive *a =
        OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!a || OTF2_Archive_SetFlushCallbacks(a, &flush, NULL) != OTF2_SUCCESS ||
        OTF2_Archive_SetSerialCollectiveCallbacks(a) != OTF2_SUCCESS ||
        OTF2_Archive_OpenEvtFiles(a) != OTF2_SUCCESS)
        return -1;
    for (uint64_t l = 0; l < 3; l++) {
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, l);
        if (!w || OTF2_EvtWriter_Enter(w, NULL, 600 + l, 3) != OTF2_SUCCESS ||
            OTF2_Archive_CloseEvtWriter(a, w) != OTF2_SUCCESS)
            return -1;
    }
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
    if (OTF2_Archive_CloseEvtFiles(a) != OTF2_SUCCESS || !g)
        return -1;
    write_globals(g, extra_string);
    return OTF2_Archive_Close(a) == OTF2_SUCCESS ? 0 : -1;
}

static const char *s(const otf2_defs *d, uint32_t ref)
{
    const char *t = otf2_defs_string(d, ref);
    return t ? t : "(null)";
}

static void check_tables(const otf2_defs *d)
{
    CHECK(d->clock.resolution == 1000000000 && d->clock.global_offset == 500 &&
              d->clock.length == 9000 && d->clock.realtime == 42,
          "clock %llu %llu", (unsigned long long)d->clock.resolution,
          (unsigned long long)d->clock.global_offset);
    CHECK(d->n_strings >= N_STRINGS && strcmp(s(d, S_WORKER), "OMP thread 1") == 0, "string %u: %s",
          S_WORKER, s(d, S_WORKER));
    CHECK(otf2_defs_string(d, N_STRINGS + 100) == NULL, "an undefined string is NULL");
    CHECK(d->n_nodes >= 2 && d->nodes[1].defined && d->nodes[1].parent == 0 &&
              strcmp(s(d, d->nodes[1].cls), "node") == 0,
          "system tree node 1");
    CHECK(d->n_regions >= 4 && !d->regions[0].defined && !d->regions[2].defined,
          "regions 0-2 were not written");
    const otf2_defs_region *r = &d->regions[3];
    CHECK(r->defined && strcmp(s(d, r->name), "main") == 0 &&
              strcmp(s(d, r->file), "main.c") == 0 && r->begin_line == 10 && r->end_line == 20 &&
              r->role == OTF2_REGION_ROLE_FUNCTION && r->paradigm == OTF2_PARADIGM_USER,
          "region 3");
    CHECK(d->comm_locations[OTF2_PARADIGM_MPI] == 0 &&
              d->comm_locations[OTF2_PARADIGM_SHMEM] == OTF2_DEFS_NONE,
          "MPI's COMM_LOCATIONS group is 0, SHMEM has none (%u)",
          d->comm_locations[OTF2_PARADIGM_MPI]);
    CHECK(d->n_groups >= 5 && d->groups[4].defined && d->groups[4].n == 1 &&
              d->groups[4].members[0] == 1 && !d->groups[2].defined,
          "group 4 = {1}, group 2 undefined");
    CHECK(d->n_comms >= 3 && d->comms[0].defined && d->comms[0].group == 1 && !d->comms[0].inter &&
              d->comms[0].group_b == OTF2_DEFS_NONE,
          "communicator 0");
    CHECK(d->comms[2].defined && d->comms[2].inter && d->comms[2].group == 1 &&
              d->comms[2].group_b == 4 && !d->comms[1].defined,
          "intercommunicator 2: groups 1 and 4");
    CHECK(d->n_rma_wins >= 2 && d->rma_wins[1].defined && d->rma_wins[1].comm == 0 &&
              !d->rma_wins[0].defined,
          "RMA window 1 on communicator 0");
    CHECK(d->n_metric_classes >= 3 && d->metric_classes[2].n == 1 &&
              d->metric_classes[2].members[0] == 0 &&
              strcmp(s(d, d->metric_members[0].unit), "#") == 0,
          "metric class 2 of member 0");
    CHECK(d->n_calling_contexts >= 1 && d->calling_contexts[0].region == 3, "calling context");
    CHECK(d->n_attributes >= 6 && d->attributes[5].defined &&
              strcmp(s(d, d->attributes[5].name), "mpi_message_id") == 0,
          "attribute 5");
    CHECK(d->n_parameters >= 2 && d->parameters[1].type == OTF2_PARAMETER_TYPE_UINT64,
          "parameter 1");
    CHECK(d->n_io_handles >= 4 && d->io_handles[3].defined && d->io_handles[3].file == 0 &&
              strcmp(s(d, d->io_files[0].name), "data.bin") == 0 &&
              strcmp(s(d, d->io_paradigms[0].identification), "POSIX") == 0,
          "I/O handle 3 on data.bin, POSIX");
}

static void check_locations(const otf2_defs *d)
{
    CHECK(d->n_lgroups == 2 && d->lgroups[1].id == 1 &&
              strcmp(s(d, d->lgroups[1].name), "MPI Rank 1") == 0 && d->lgroups[1].parent == 1,
          "location groups in definition order");
    CHECK(otf2_defs_lgroup_index(d, 1) == 1 && otf2_defs_lgroup_index(d, 7) == OTF2_DEFS_NONE,
          "location group index");
    CHECK(d->n_locations == 3 && d->locations[2].id == 2 && d->locations[2].group == 0 &&
              d->locations[2].n_events == 1 &&
              strcmp(s(d, d->locations[2].name), "OMP thread 1") == 0,
          "locations in definition order (%zu)", d->n_locations);
}

/* the model of the archive in DIR, and rank 0's two locations opened */
static void check_archive(const char *dir)
{
    char anchor[1024], err[512] = "";
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
    otf2_read_guard_begin(anchor);
    OTF2_Reader *r;
    otf2_defs d;
    int rc = otf2_defs_load(anchor, &r, &d, err, sizeof err);
    CHECK(rc == 0, "the archive loads: %s", err);
    if (rc == 0) {
        check_tables(&d);
        check_locations(&d);
        const uint64_t mine[] = {0, 2};
        CHECK(otf2_defs_open_locations(r, anchor, mine, 2, err, sizeof err) == 0,
              "rank 0's locations open: %s", err);
        CHECK(OTF2_Reader_GetEvtReader(r, 2) != NULL, "location 2 has its event reader");
        CHECK(OTF2_Reader_CloseEvtFiles(r) == OTF2_SUCCESS, "event files closed");
        CHECK(OTF2_Reader_Close(r) == OTF2_SUCCESS, "reader closed");
        char **strs = otf2_defs_take_strings(&d, &(size_t){0});
        CHECK(d.strings == NULL && d.n_strings == 0 && strs, "the strings are handed over");
        for (size_t i = 0; strs && i < N_STRINGS; i++)
            free(strs[i]);
        free(strs);
        otf2_defs_free(&d);
    }
    otf2_read_guard_end();
}

/* loading must fail with a message holding WANT */
static void check_refused(const char *anchor, const char *want, const char *what)
{
    char err[512] = "";
    otf2_read_guard_begin(anchor);
    OTF2_Reader *r = (OTF2_Reader *)&err; /* must come back NULL */
    otf2_defs d;
    int rc = otf2_defs_load(anchor, &r, &d, err, sizeof err);
    otf2_read_guard_end();
    CHECK(rc == -1 && r == NULL && d.strings == NULL, "%s: refused", what);
    CHECK(strstr(err, want) != NULL, "%s: the message \"%s\" holds \"%s\"", what, err, want);
}

int main(void)
{
    char buf[256];
    unit_tmp_template(buf, sizeof buf, "test_otf2_defs_load");
    char *base = mkdtemp(buf);
    if (!base) {
        perror("mkdtemp");
        return 1;
    }
    char good[512], far[512], anchor[1024], file[1024];
    snprintf(good, sizeof good, "%s/good", base);
    snprintf(far, sizeof far, "%s/far", base);
    if (write_archive(good, 0) || write_archive(far, 1u << 30)) {
        fprintf(stderr, "FAIL: cannot write the test archives in %s\n", base);
        return 1;
    }
    check_archive(good);

    snprintf(anchor, sizeof anchor, "%s/traces.otf2", far);
    snprintf(file, sizeof file, "%s/traces.def", far);
    check_refused(anchor, "string reference 1073741824 is beyond", "a far reference");
    check_refused(anchor, file, "a far reference names the definition file");

    snprintf(anchor, sizeof anchor, "%s/traces.otf2", good);
    snprintf(file, sizeof file, "%s/traces.def", good);
    if (truncate(file, 100) != 0)
        perror(file);
    check_refused(anchor, "the global definitions are unreadable", "truncated definitions");
    check_refused(anchor, file, "truncated definitions name their file");

    snprintf(anchor, sizeof anchor, "%s/none/traces.otf2", base);
    check_refused(anchor, "is not an OTF2 archive", "a missing archive");
    check_refused(anchor, anchor, "a missing archive is named");

    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0)
        fprintf(stderr, "warning: %s left behind\n", base);
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures != 0;
}
