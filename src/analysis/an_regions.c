/* an_regions.c: classifies the trace's regions by name (MPI regions are named by the MPI
 * function they stand for; paradigm MPI). */
#include "analysis/an_regions.h"

#include <otf2/OTF2_Definitions.h>
#include <otf2/OTF2_GeneralDefinitions.h>
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
    if (starts(n, "!$omp taskwait") || starts(n, "!$omp taskgroup") || starts(n, "!$omp ordered"))
        return AN_RC_OMP_SYNC;
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
        return AN_RC_MPI;
    }
}

void an_classify_regions(an_trace *t)
{
    for (size_t i = 0; i < t->n_regions; i++)
        t->regions[i].cls = classify(&t->regions[i]);
}
