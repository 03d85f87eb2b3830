/* mpi_types.c: byte counts of messages with the large-count interfaces (MPI_Type_size_x,
 * MPI_Get_elements_x), so sizes beyond 2 GiB are exact, and a lock-free cache of the sizes of
 * predefined datatypes, so most messages cost no PMPI call for their size. */
#include "adapters/mpi/mpi_adapter.h"

/* Predefined datatypes are never freed, so their handle always names the same size; derived
 * ones may be freed and their handle value reused for another type, so they are not cached
 * (their size is asked every time). A slot is claimed with a CAS on its key and published by
 * 'ready': readers never see a half-written slot and never wait. */
#define TYPE_CACHE_SLOTS 128
#define TYPE_CACHE_PROBES 8

typedef struct {
    uintptr_t key; /* the handle, 0 when free */
    int ready;     /* size is valid */
    int64_t size;  /* bytes of one element */
} type_slot;

static type_slot type_cache[TYPE_CACHE_SLOTS];

static unsigned slot_of(uintptr_t key, unsigned probe)
{
    uint64_t h = (uint64_t)key * UINT64_C(0x9e3779b97f4a7c15);
    return (unsigned)((h >> 40) + probe) % TYPE_CACHE_SLOTS;
}

static int cached_size(uintptr_t key, int64_t *size)
{
    for (unsigned p = 0; p < TYPE_CACHE_PROBES; p++) {
        type_slot *s = &type_cache[slot_of(key, p)];
        uintptr_t k = __atomic_load_n(&s->key, __ATOMIC_RELAXED);
        if (k == 0)
            return 0;
        if (k == key && __atomic_load_n(&s->ready, __ATOMIC_ACQUIRE)) {
            *size = s->size;
            return 1;
        }
    }
    return 0;
}

static void cache_size(uintptr_t key, int64_t size)
{
    for (unsigned p = 0; p < TYPE_CACHE_PROBES; p++) {
        type_slot *s = &type_cache[slot_of(key, p)];
        uintptr_t expected = 0;
        if (__atomic_compare_exchange_n(&s->key, &expected, key, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            s->size = size;
            __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
            return;
        }
        if (expected == key)
            return; /* another thread cached it */
    }
}

static int is_predefined(MPI_Datatype type)
{
    int ni, na, nd, combiner;
    return PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
           combiner == MPI_COMBINER_NAMED;
}

/* bytes of one element of type; 0 when the type is invalid */
static int64_t type_size(MPI_Datatype type)
{
    int64_t size;
    uintptr_t key = (uintptr_t)type;
    if (cached_size(key, &size))
        return size;
    MPI_Count n = 0;
    if (PMPI_Type_size_x(type, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0)
        return 0;
    if (is_predefined(type))
        cache_size(key, (int64_t)n);
    return (int64_t)n;
}

uint64_t scorep_mpi_type_bytes(int count, MPI_Datatype type)
{
    if (count <= 0 || type == MPI_DATATYPE_NULL)
        return 0;
    return (uint64_t)count * (uint64_t)type_size(type);
}

uint64_t scorep_mpi_status_bytes(const MPI_Status *st)
{
    MPI_Count n = 0;
    if (PMPI_Get_elements_x(st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0)
        return 0;
    return (uint64_t)n;
}
