/* mpi_adapter.h: state shared by the generated PMPI wrappers (mpi_wrappers.c) and the
 * hand-written event logic of the MPI adapter: the enabled groups, the per-call frame, the
 * region table, the life cycle. */
#ifndef SCOREP_MPI_ADAPTER_H
#define SCOREP_MPI_ADAPTER_H

#include "core/events.h"
#include "defs/defs.h"

#include <mpi.h>
#include <stdint.h>

#define SCOREP_MPI_WRAPPER __attribute__((visibility("default")))
#define SCOREP_MPI_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Bits of scorep_mpi_enabled. The pure groups are the entries of SCOREP_MPI_ENABLE_GROUPS;
 * a derived group a+b is set when both a and b are; REQUEST when any of cg coll ext io p2p
 * rma is (Score-P's rules). ACTIVE is set from MPI_Init to MPI_Finalize while the
 * measurement runs; every group bit implies it. */
enum {
    SCOREP_MPI_G_CG = 1u << 0,
    SCOREP_MPI_G_COLL = 1u << 1,
    SCOREP_MPI_G_ENV = 1u << 2,
    SCOREP_MPI_G_ERR = 1u << 3,
    SCOREP_MPI_G_EXT = 1u << 4,
    SCOREP_MPI_G_IO = 1u << 5,
    SCOREP_MPI_G_MISC = 1u << 6,
    SCOREP_MPI_G_P2P = 1u << 7,
    SCOREP_MPI_G_RMA = 1u << 8,
    SCOREP_MPI_G_SPAWN = 1u << 9,
    SCOREP_MPI_G_TOPO = 1u << 10,
    SCOREP_MPI_G_TYPE = 1u << 11,
    SCOREP_MPI_G_PERF = 1u << 12,
    SCOREP_MPI_G_XNONBLOCK = 1u << 13,
    SCOREP_MPI_G_XREQTEST = 1u << 14,
    SCOREP_MPI_G_CG_ERR = 1u << 15,
    SCOREP_MPI_G_CG_EXT = 1u << 16,
    SCOREP_MPI_G_CG_MISC = 1u << 17,
    SCOREP_MPI_G_IO_ERR = 1u << 18,
    SCOREP_MPI_G_IO_MISC = 1u << 19,
    SCOREP_MPI_G_RMA_ERR = 1u << 20,
    SCOREP_MPI_G_RMA_EXT = 1u << 21,
    SCOREP_MPI_G_RMA_MISC = 1u << 22,
    SCOREP_MPI_G_TYPE_EXT = 1u << 23,
    SCOREP_MPI_G_TYPE_MISC = 1u << 24,
    SCOREP_MPI_G_REQUEST = 1u << 25,
    SCOREP_MPI_ACTIVE = 1u << 30
};

/* Score-P 9: 'all' is every pure group but xnonblock; 'default' = cg coll env io p2p rma topo.
 * xnonblock is accepted and has no effect (non-blocking calls always give the extended
 * events MpiIsend/MpiIsendComplete, MpiIrecvRequest/MpiIrecv). */
#define SCOREP_MPI_GROUPS_ALL                                                                  \
    (SCOREP_MPI_G_CG | SCOREP_MPI_G_COLL | SCOREP_MPI_G_ENV | SCOREP_MPI_G_ERR |               \
     SCOREP_MPI_G_EXT | SCOREP_MPI_G_IO | SCOREP_MPI_G_MISC | SCOREP_MPI_G_P2P |               \
     SCOREP_MPI_G_RMA | SCOREP_MPI_G_SPAWN | SCOREP_MPI_G_TOPO | SCOREP_MPI_G_TYPE |           \
     SCOREP_MPI_G_PERF | SCOREP_MPI_G_XREQTEST)
#define SCOREP_MPI_GROUPS_DEFAULT                                                              \
    (SCOREP_MPI_G_CG | SCOREP_MPI_G_COLL | SCOREP_MPI_G_ENV | SCOREP_MPI_G_IO |                \
     SCOREP_MPI_G_P2P | SCOREP_MPI_G_RMA | SCOREP_MPI_G_TOPO)

/* The group bits in effect (0 before MPI_Init and after MPI_Finalize). */
extern uint64_t scorep_mpi_enabled;
/* The thread level MPI_Init/MPI_Init_thread provided. */
extern int scorep_mpi_thread_level;
/* Non-zero while this thread is inside a wrapper: MPI calls made from there (by the MPI
 * library or by the adapter itself) go straight to PMPI. */
extern __thread int scorep_mpi_nesting __attribute__((tls_model("initial-exec")));

/* One entry per wrapped function (generated from mpi_functions.spec). */
typedef struct {
    const char *name;
    uint64_t group;
    scorep_role role;
} scorep_mpi_fn_info;
extern const scorep_mpi_fn_info scorep_mpi_fn_table[];
extern const uint32_t scorep_mpi_fn_count;
/* region id + 1 of each function, 0 until its first recorded call */
extern uint32_t scorep_mpi_region_ids[];

uint32_t scorep_mpi_region_define(uint32_t fn);

static inline uint32_t scorep_mpi_region(uint32_t fn)
{
    uint32_t r = __atomic_load_n(&scorep_mpi_region_ids[fn], __ATOMIC_RELAXED);
    if (__builtin_expect(r != 0, 1))
        return r - 1;
    return scorep_mpi_region_define(fn);
}

/* The state of one wrapped call. record: Enter/Leave and events are recorded (the group is
 * enabled); otherwise only the bookkeeping of 'track' functions runs. */
typedef struct {
    scorep_location *l;
    uint32_t region;
    int record;
} scorep_mpi_frame;

/* Starts a wrapped call; 0 means: call PMPI only (nested call, no location). */
static inline int scorep_mpi_begin(scorep_mpi_frame *f, uint32_t fn, int record)
{
    if (SCOREP_MPI_UNLIKELY(scorep_mpi_nesting))
        return 0;
    scorep_location *l = scorep_location_get();
    if (SCOREP_MPI_UNLIKELY(l == NULL))
        return 0;
    scorep_mpi_nesting = 1;
    f->l = l;
    f->record = record;
    if (record) {
        f->region = scorep_mpi_region(fn);
        if (SCOREP_MPI_UNLIKELY(f->region == SCOREP_INVALID_ID))
            f->record = 0;
        else
            scorep_event_enter(l, f->region);
    }
    return 1;
}

static inline void scorep_mpi_end(scorep_mpi_frame *f)
{
    if (f->record)
        scorep_event_leave(f->l, f->region);
    scorep_mpi_nesting = 0;
}

static inline int scorep_mpi_group_on(uint64_t bits)
{
    return (__atomic_load_n(&scorep_mpi_enabled, __ATOMIC_RELAXED) & bits) != 0;
}

/* Life cycle (generated MPI_Init, MPI_Init_thread, MPI_Finalize). */
int scorep_mpi_init_begin(scorep_mpi_frame *f, uint32_t fn);
void scorep_mpi_init_end(scorep_mpi_frame *f, int active, int ret, int provided);
void scorep_mpi_finalize_begin(void);

/* Parses a SCOREP_MPI_ENABLE_GROUPS value into group bits with the derived groups added.
 * Returns 0, or -1 with the accepted forms in err. */
int scorep_mpi_parse_groups(const char *value, uint64_t *bits, char *err, size_t errlen);

/* Per-process counters, atomic, never 0: request ids, Mprobe message handles. */
uint64_t scorep_mpi_next_request_id(void);
uint64_t scorep_mpi_next_message_handle(void);

/* Byte count of a status (PMPI_Get_count with MPI_BYTE; 0 when undefined). */
uint64_t scorep_mpi_status_bytes(const MPI_Status *st);
/* count elements of datatype, in bytes */
uint64_t scorep_mpi_type_bytes(int count, MPI_Datatype type);

#endif
