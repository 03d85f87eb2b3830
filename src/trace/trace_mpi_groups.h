/* SPDX-License-Identifier: BSD-3-Clause */
/* trace_mpi_groups.h: the OTF2 ids of MPI's Group and Comm definitions. Groups are unified
 * by content: the groups of MPI_Group handles and those of communicators (an
 * intercommunicator's two) become one definition per distinct member list, so a program
 * that creates many communicators over the same processes writes their group once.
 * Communicators are numbered so that each comes after the one it derives from: readers
 * that resolve references while reading (python3-otf2) meet the parent first. */
#ifndef SCOREP_TRACE_MPI_GROUPS_H
#define SCOREP_TRACE_MPI_GROUPS_H

#include "defs/hash_index.h"
#include "defs/unify.h"

/* OTF2 group ids: 0 is the MPI location group (the ranks), 1..n the distinct groups. */
typedef struct {
    uint32_t n;
    uint32_t *size;           /* [id - 1]: members of distinct group id */
    const uint32_t **members; /* [id - 1]: world ranks, pointing into the unified tables */
    uint32_t *of_group;       /* unified group -> OTF2 group id */
    uint32_t *a, *b;          /* unified communicator -> OTF2 ids of its groups (b: inter) */
    uint32_t *comm_id;        /* unified communicator -> its OTF2 Comm id */
    uint32_t *comm_at;        /* OTF2 Comm id -> unified communicator */
    uint32_t cap;
    hash_index index;
} scorep_mpi_groups;

/* From the unified tables (every rank computes the same); 0, or -1 out of memory. */
int scorep_mpi_groups_build(scorep_mpi_groups *m, const scorep_unified *u);
void scorep_mpi_groups_free(scorep_mpi_groups *m);

#endif
