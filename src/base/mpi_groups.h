/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_groups.h: the function groups of SCOREP_MPI_ENABLE_GROUPS. The settings own the
 * variable (it is listed in scorep.cfg and by scorep-info); the MPI adapter uses the bits. */
#ifndef SCOREP_MPI_GROUPS_H
#define SCOREP_MPI_GROUPS_H

#include "config/config.h"

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
#define SCOREP_MPI_GROUPS_ALL                                                                      \
    (SCOREP_MPI_G_CG | SCOREP_MPI_G_COLL | SCOREP_MPI_G_ENV | SCOREP_MPI_G_ERR |                   \
     SCOREP_MPI_G_EXT | SCOREP_MPI_G_IO | SCOREP_MPI_G_MISC | SCOREP_MPI_G_P2P |                   \
     SCOREP_MPI_G_RMA | SCOREP_MPI_G_SPAWN | SCOREP_MPI_G_TOPO | SCOREP_MPI_G_TYPE |               \
     SCOREP_MPI_G_PERF | SCOREP_MPI_G_XREQTEST)
#define SCOREP_MPI_GROUPS_DEFAULT                                                                  \
    (SCOREP_MPI_G_CG | SCOREP_MPI_G_COLL | SCOREP_MPI_G_ENV | SCOREP_MPI_G_IO | SCOREP_MPI_G_P2P | \
     SCOREP_MPI_G_RMA | SCOREP_MPI_G_TOPO)

/* The entries of SCOREP_MPI_ENABLE_GROUPS (defined in runtime_config.c). */
extern const scorep_cfg_choice scorep_mpi_group_choices[];

#endif
