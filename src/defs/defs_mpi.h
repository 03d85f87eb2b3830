/* SPDX-License-Identifier: BSD-3-Clause */
/* defs_mpi.h: definitions of communicators, process groups and RMA windows. Each carries a
 * globally unique key that every member process computes identically, so that unification
 * can merge the per-process definitions without further communication. */
#ifndef SCOREP_DEFS_MPI_H
#define SCOREP_DEFS_MPI_H

#include <stdint.h>

/* Keys: MPI_COMM_WORLD is SCOREP_COMM_KEY_WORLD; MPI_COMM_SELF of world rank r is
 * SCOREP_COMM_KEY_SELF(r); any other communicator: (world rank of its rank 0) << 32 | a
 * counter of communicators created by that process (the creator broadcasts it). An
 * intercommunicator takes the smaller of its two groups' keys, so both sides agree.
 * SCOREP_COMM_KEY_NONE: no communicator (a definition without parent). */
#define SCOREP_COMM_KEY_WORLD 0ull
#define SCOREP_COMM_KEY_SELF(r) (((uint64_t)(r) << 32) | 0xffffffffull)
#define SCOREP_COMM_KEY_NONE UINT64_MAX

/* An intercommunicator is defined once for both sides: group A is the group whose first
 * member has the lower world rank, group B the other, whichever side the process is on. */
typedef struct {
    uint64_t key;
    const char *name;
    uint32_t size;             /* processes of the communicator, or of group A */
    const uint32_t *members;   /* world ranks, in communicator rank order; copied */
    uint32_t size_b;           /* group B of an intercommunicator; 0 otherwise */
    const uint32_t *members_b; /* world ranks; copied */
    uint64_t parent_key;       /* the communicator it was derived from, or KEY_NONE */
    uint32_t parent;           /* unified tables only: global id of parent_key, or invalid */
    int is_inter;
} scorep_comm_def;

typedef struct {
    uint32_t size;
    const uint32_t *members; /* world ranks */
} scorep_group_def;

typedef struct {
    uint64_t key; /* like a communicator key */
    const char *name;
    uint32_t comm; /* defs id of the window's communicator */
} scorep_win_def;

/* Return the defs id (existing one for an equal key / member list), or SCOREP_INVALID_ID.
 * scorep_defs_comm copies d (name and members included); d->parent is ignored. */
uint32_t scorep_defs_comm(const scorep_comm_def *d);
uint32_t scorep_defs_group(uint32_t size, const uint32_t *members);
uint32_t scorep_defs_win(uint64_t key, const char *name, uint32_t comm);
/* MPI_Comm_set_name / MPI_Win_set_name: the definition takes the new name (copied);
 * 0, or -1 for an unknown id or without memory (the old name stays). */
int scorep_defs_comm_set_name(uint32_t id, const char *name);
int scorep_defs_win_set_name(uint32_t id, const char *name);

/* Hooks called with the id of each communicator, group and window defined from now on, in
 * the defining thread (substrate plugins' new_definition_handle); NULL: none. */
void scorep_defs_on_new_mpi(void (*on_comm)(uint32_t id), void (*on_group)(uint32_t id),
                            void (*on_win)(uint32_t id));

const scorep_comm_def *scorep_defs_comm_get(uint32_t id);
const scorep_group_def *scorep_defs_group_get(uint32_t id);
const scorep_win_def *scorep_defs_win_get(uint32_t id);
uint32_t scorep_defs_comm_count(void);
uint32_t scorep_defs_group_count(void);
uint32_t scorep_defs_win_count(void);

#endif
