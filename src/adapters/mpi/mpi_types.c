/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_types.c: byte counts of messages with the large-count interfaces (MPI_Type_size_x,
 * MPI_Get_elements_x), so sizes beyond 2 GiB are exact, and without an MPI call per message
 * where that is safe (see docs/mpi.md, "Message sizes"). */
#include "adapters/mpi/mpi_adapter.h"

/* Sizes of predefined datatypes, direct-mapped by handle (the lookup is inline in
 * mpi_adapter.h). Only predefined (named) types are cached: their handles are never freed,
 * so an entry never goes stale, while the handle of a derived type may stand for another
 * type after MPI_Type_free. A derived type's entry says so (named = 0) and stays valid too:
 * a handle once derived never becomes a predefined one. Used below MPI_THREAD_MULTIPLE only,
 * where the program's MPI calls (and so these entries' writes) do not overlap; under
 * MPI_THREAD_MULTIPLE every send asks MPI. */
scorep_mpi_type_entry scorep_mpi_type_cache[SCOREP_MPI_TYPE_SLOTS];
scorep_mpi_type_last_entry scorep_mpi_type_last;

static uint64_t type_size(MPI_Datatype type)
{
    MPI_Count size = 0;
    if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size == MPI_UNDEFINED || size < 0)
        return 0;
    return (uint64_t)size;
}

/* The cache miss: asks MPI, and remembers the answer for a predefined type. */
static uint64_t type_size_miss(MPI_Datatype type, scorep_mpi_type_entry *e)
{
    uint64_t size = type_size(type);
    int ni = 0, na = 0, nd = 0, combiner = 0;
    if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
        return size;
    e->type = MPI_DATATYPE_NULL; /* no half-written entry matches */
    e->named = combiner == MPI_COMBINER_NAMED;
    e->size = size;
    e->type = type;
    return size;
}

uint64_t scorep_mpi_type_bytes_slow(int count, MPI_Datatype type)
{
    if (count <= 0 || type == MPI_DATATYPE_NULL)
        return 0;
    if (scorep_mpi_thread_level == MPI_THREAD_MULTIPLE)
        return (uint64_t)count * type_size(type);
    scorep_mpi_type_entry *e = &scorep_mpi_type_cache[scorep_mpi_type_slot(type)];
    if (e->type == type) /* a derived type */
        return (uint64_t)count * type_size(type);
    return (uint64_t)count * type_size_miss(type, e);
}

/* Open MPI keeps the byte count of a status in the field _ucount, which MPI_Get_elements_x
 * with MPI_BYTE returns. Its name says it is internal, so it is read only after a check at
 * MPI_Init that MPI_Status_set_elements_x (standard MPI) writes the count there in the
 * library actually loaded; otherwise every receive asks MPI. */
int scorep_mpi_status_field_ok;

void scorep_mpi_types_init(void)
{
#if defined(OPEN_MPI) && OPEN_MPI
    MPI_Status st;
    MPI_Count n = 0;
    int ok = 1;
    static const MPI_Count probes[] = {0, 8, 123457, (MPI_Count)1 << 33};
    for (size_t i = 0; ok && i < sizeof probes / sizeof probes[0]; i++) {
        st._ucount = (size_t)-1;
        ok = PMPI_Status_set_elements_x(&st, MPI_BYTE, probes[i]) == MPI_SUCCESS &&
             st._ucount == (size_t)probes[i] &&
             PMPI_Get_elements_x(&st, MPI_BYTE, &n) == MPI_SUCCESS && n == probes[i];
    }
    scorep_mpi_status_field_ok = ok;
#endif
}

uint64_t scorep_mpi_status_bytes_slow(const MPI_Status *st)
{
    MPI_Count n = 0;
    if (PMPI_Get_elements_x(st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0)
        return 0;
    return (uint64_t)n;
}
