/* mpi_types.c: byte counts of messages with the large-count interfaces (MPI_Type_size_x,
 * MPI_Get_elements_x), so sizes beyond 2 GiB are exact, and a lock-free cache of the sizes of
 * predefined datatypes, so most messages cost no PMPI call for their size. */
#include "adapters/mpi/mpi_adapter.h"

/* Predefined datatypes are never freed, so their handle always names the same size; derived
 * ones may be freed and their handle value reused for another derived type, so for them the
 * cache only remembers "derived: ask MPI" (one PMPI call, as without the cache; no handle
 * value of a derived type ever becomes a predefined one). A slot is claimed with a CAS on its
 * key and published by 'ready': readers never see a half-written slot and never wait. When
 * the slots a handle may use are taken, it is simply not cached. */
#define TYPE_CACHE_SLOTS 256
#define TYPE_CACHE_PROBES 8
#define DERIVED (-1)

typedef struct {
    uintptr_t key; /* the handle, 0 when free */
    int ready;     /* size is valid */
    int64_t size;  /* bytes of one element, or DERIVED */
} type_slot;

static type_slot type_cache[TYPE_CACHE_SLOTS];

static unsigned slot_of(uintptr_t key, unsigned probe)
{
    uint64_t h = (uint64_t)key * UINT64_C(0x9e3779b97f4a7c15);
    return (unsigned)((h >> 40) + probe) % TYPE_CACHE_SLOTS;
}

/* 1 and the cached value, or 0 when the handle is not (yet) cached */
static int cached(uintptr_t key, int64_t *size)
{
    for (unsigned p = 0; p < TYPE_CACHE_PROBES; p++) {
        type_slot *s = &type_cache[slot_of(key, p)];
        uintptr_t k = __atomic_load_n(&s->key, __ATOMIC_RELAXED);
        if (k == 0)
            return 0;
        if (k == key) {
            if (!__atomic_load_n(&s->ready, __ATOMIC_ACQUIRE))
                return 0;
            *size = s->size;
            return 1;
        }
    }
    return 0;
}

/* a free slot now owned by the caller, or NULL (cached by another thread, or no room) */
static type_slot *claim(uintptr_t key)
{
    for (unsigned p = 0; p < TYPE_CACHE_PROBES; p++) {
        type_slot *s = &type_cache[slot_of(key, p)];
        uintptr_t expected = 0;
        if (__atomic_compare_exchange_n(&s->key, &expected, key, 0, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED))
            return s;
        if (expected == key)
            return NULL;
    }
    return NULL;
}

static int is_predefined(MPI_Datatype type)
{
    int ni, na, nd, combiner;
    return PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
           combiner == MPI_COMBINER_NAMED;
}

/* bytes of one element of type from MPI; 0 when the type is invalid */
static int64_t asked_size(MPI_Datatype type)
{
    MPI_Count n = 0;
    if (PMPI_Type_size_x(type, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0)
        return 0;
    return (int64_t)n;
}

static int64_t type_size(MPI_Datatype type)
{
    int64_t size;
    uintptr_t key = (uintptr_t)type;
    if (cached(key, &size))
        return size != DERIVED ? size : asked_size(type);
    size = asked_size(type);
    type_slot *s = claim(key);
    if (s) {
        s->size = is_predefined(type) ? size : DERIVED;
        __atomic_store_n(&s->ready, 1, __ATOMIC_RELEASE);
    }
    return size;
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
