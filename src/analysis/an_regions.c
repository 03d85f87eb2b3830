/* SPDX-License-Identifier: BSD-3-Clause */
/* an_regions.c: classifies the trace's regions by name (MPI regions are named by the MPI
 * function they stand for; paradigm MPI). */
#include "analysis/an_regions.h"

#include <otf2/OTF2_Definitions.h>
#include <otf2/OTF2_GeneralDefinitions.h>
#include <regex.h>
#include <string.h>
#include <strings.h>

static int is(const char *n, const char *const *list)
{
    for (; *list; list++)
        if (strcasecmp(n, *list) == 0)
            return 1;
    return 0;
}

/* OpenMP regions by the names the OMPT adapter gives them (docs/openmp.md: "<construct>
 * @file:line"), as Scalasca's pattern specification matches them */
static int starts(const char *n, const char *prefix)
{
    return strncmp(n, prefix, strlen(prefix)) == 0;
}
static uint32_t classify_omp(const char *n)
{
    if (starts(n, "!$omp parallel"))
        return AN_RC_USER | AN_RF_OMP_PARALLEL;
    if (strstr(n, " sblock"))
        return AN_RC_USER; /* the body of a critical, single, ordered: the team's work */
    if (starts(n, "!$omp barrier"))
        return AN_RC_OMP_EBARRIER;
    if (starts(n, "!$omp implicit barrier"))
        return AN_RC_OMP_IBARRIER;
    if (starts(n, "!$omp critical"))
        return AN_RC_OMP_CRITICAL;
    if (starts(n, "omp_") && strstr(n, "lock"))
        return AN_RC_OMP_LOCK;
    if (starts(n, "!$omp ordered"))
        return AN_RC_OMP_ORDERED;
    if (starts(n, "!$omp taskwait") || starts(n, "!$omp taskgroup"))
        return AN_RC_OMP_TASKWAIT;
    if (starts(n, "!$omp flush"))
        return AN_RC_OMP_FLUSH;
    return AN_RC_USER;
}

/* pthread regions by Score-P's names, as Scalasca's is_pthread_* predicates match them */
static uint32_t classify_pthread(const char *n)
{
    if (starts(n, "pthread_mutex_"))
        return AN_RC_PTHREAD_MUTEX;
    if (starts(n, "pthread_cond_"))
        return AN_RC_PTHREAD_COND;
    return AN_RC_PTHREAD_MGMT;
}

/* name N matches the fixed extended regular expression RE */
static int match(const char *re, const char *n)
{
    regex_t r;
    if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB) != 0)
        return 0; /* cannot happen: the expressions are fixed */
    int hit = regexec(&r, n, 0, NULL, 0) == 0;
    regfree(&r);
    return hit;
}

/* the file-operation counts a file region of class CLS takes part in (scout.spec's masks:
 * management calls that delete, get or seek are individual, the others collective) */
static uint32_t file_flags(uint32_t cls, const char *n)
{
    uint32_t rw = strstr(n, "read") ? AN_RF_FILE_READ : AN_RF_FILE_WRITE;
    if (cls == AN_RC_MGMT_FILE)
        return match("(delete|get|seek)", n) ? AN_RF_FILE_IOP : AN_RF_FILE_COP;
    if (cls == AN_RC_IO_INDIV)
        return AN_RF_FILE_IOP | rw;
    if (cls == AN_RC_IO_COLL)
        return AN_RF_FILE_COP | rw;
    return 0;
}

/* the MPI regions of Scalasca 2.6's management, one-sided and file I/O parts of the time tree
 * (the function lists of square's specification, scout.spec, written as extended regular
 * expressions); AN_RC_MPI when none matches */
static uint32_t classify_mpi_more(const char *n, int role)
{
    static const struct {
        const char *re;
        uint32_t cls;
    } sets[] = {
        {"^MPI_(Cart_(coords|create|get|map|rank|shift|sub)|Cartdim_get|Comm_(accept|compare|"
         "connect|create(_group|_keyval)?|delete_attr|disconnect|dup(_with_info)?|free(_keyval)?|"
         "get_(attr|info|name|parent)|group|idup|join|rank|remote_(group|size)|set_(attr|info|"
         "name)|size|spawn(_multiple)?|split(_type)?|test_inter)|Dims_create|Dist_graph_(create("
         "_adjacent)?|neighbors(_count)?)|Graph_(create|get|map|neighbors(_count)?)|"
         "Graphdims_get|Intercomm_(create|merge)|Topo_test|(Close|Open)_port|(Lookup|Publish|"
         "Unpublish)_name)$",
         AN_RC_MGMT_COMM},
        {"^MPI_File_(close|delete|get_(amode|atomicity|byte_offset|group|info|position(_shared)?|"
         "size|type_extent|view)|open|preallocate|seek(_shared)?|set_(atomicity|info|size|view)|"
         "sync)$",
         AN_RC_MGMT_FILE},
        {"^MPI_Win_(allocate(_shared)?|attach|create(_dynamic|_keyval)?|delete_attr|detach|"
         "free(_keyval)?|get_(attr|group|info|name)|set_(attr|info|name)|shared_query)$",
         AN_RC_MGMT_WIN},
        {"^MPI_Win_(complete|fence|post|start|test|wait)$", AN_RC_RMA_ACTIVE},
        {"^MPI_Win_((flush(_local)?|lock|unlock)(_all)?|sync)$", AN_RC_RMA_PASSIVE},
        {"^MPI_File_i?(read|write)(_at|_shared)?$", AN_RC_IO_INDIV},
        {"^MPI_File_((iread|iwrite)_(all|at_all)|(read|write)_(all|at_all|ordered)(_begin|_end)?)$",
         AN_RC_IO_COLL},
    };
    /* Scalasca: role rma or atomic, which Score-P gives these (the in-situ loader does not
     * carry those roles over, so their names too) */
    if (role == OTF2_REGION_ROLE_RMA || role == OTF2_REGION_ROLE_ATOMIC ||
        match("^MPI_(R?(Put|Get|Accumulate|Get_accumulate)|Fetch_and_op|Compare_and_swap)$", n))
        return AN_RC_RMA_COMM | (match("^MPI_R?Put$", n)   ? AN_RF_RMA_PUT
                                 : match("^MPI_R?Get$", n) ? AN_RF_RMA_GET
                                                           : AN_RF_RMA_ATOMIC);
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        if (match(sets[i].re, n))
            return sets[i].cls | file_flags(sets[i].cls, n);
    return AN_RC_MPI;
}

static uint32_t classify(const an_region *r)
{
    static const char *const inits[] = {"MPI_Init", "MPI_Init_thread", 0};
    static const char *const block_send[] = {"MPI_Send", "MPI_Ssend", "MPI_Rsend", 0};
    static const char *const wait_multi[] = {"MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", 0};
    static const char *const tests[] = {"MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome",
                                        0};
    static const char *const nb_probes[] = {"MPI_Iprobe", "MPI_Improbe", 0};
    static const char *const probes[] = {"MPI_Probe", "MPI_Mprobe", 0};
    static const char *const p2p_more[] = {"MPI_Wait",         "MPI_Start",  "MPI_Startall",
                                           "MPI_Request_free", "MPI_Cancel", 0};
    const char *n = r->name ? r->name : "";
    if (r->paradigm == OTF2_PARADIGM_OPENMP)
        return classify_omp(n);
    if (r->paradigm == OTF2_PARADIGM_PTHREAD)
        return classify_pthread(n);
    if (r->paradigm != OTF2_PARADIGM_MPI && strncasecmp(n, "MPI_", 4) != 0)
        return AN_RC_USER;
    if (is(n, inits))
        return AN_RC_INIT_EXIT | AN_RF_INIT;
    if (strcasecmp(n, "MPI_Finalize") == 0)
        return AN_RC_INIT_EXIT | AN_RF_FINALIZE;
    if (strcasecmp(n, "MPI_Barrier") == 0)
        return AN_RC_BARRIER;
    if (is(n, block_send))
        return AN_RC_P2P | AN_RF_BLOCK_SEND;
    if (strcasecmp(n, "MPI_Wait") == 0)
        return AN_RC_P2P | AN_RF_WAIT_SINGLE;
    if (is(n, wait_multi))
        return AN_RC_P2P | AN_RF_WAIT_MULTI;
    if (is(n, tests))
        return AN_RC_P2P | AN_RF_TEST;
    if (is(n, nb_probes))
        return AN_RC_P2P | AN_RF_TEST | AN_RF_NB_PROBE;
    if (is(n, probes))
        return AN_RC_P2P | AN_RF_PROBE;
    static const char *const colls[] = {"MPI_Bcast",
                                        "MPI_Reduce",
                                        "MPI_Allreduce",
                                        "MPI_Gather",
                                        "MPI_Gatherv",
                                        "MPI_Allgather",
                                        "MPI_Allgatherv",
                                        "MPI_Scatter",
                                        "MPI_Scatterv",
                                        "MPI_Alltoall",
                                        "MPI_Alltoallv",
                                        "MPI_Alltoallw",
                                        "MPI_Scan",
                                        "MPI_Exscan",
                                        "MPI_Reduce_scatter",
                                        "MPI_Reduce_scatter_block",
                                        0};
    if (is(n, p2p_more) || r->role == OTF2_REGION_ROLE_POINT2POINT)
        return AN_RC_P2P;
    if (is(n, colls))
        return AN_RC_COLL;
    switch (r->role) {
    case OTF2_REGION_ROLE_BARRIER:
    case OTF2_REGION_ROLE_IMPLICIT_BARRIER:
        return AN_RC_BARRIER;
    case OTF2_REGION_ROLE_COLL_ONE2ALL:
    case OTF2_REGION_ROLE_COLL_ALL2ONE:
    case OTF2_REGION_ROLE_COLL_ALL2ALL:
    case OTF2_REGION_ROLE_COLL_OTHER:
        return AN_RC_COLL;
    default:
        return classify_mpi_more(n, r->role);
    }
}

void an_classify_regions(an_trace *t)
{
    for (size_t i = 0; i < t->n_regions; i++)
        t->regions[i].cls = classify(&t->regions[i]);
}
