/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_insitu.h: the in-situ analysis's registration (mpi_insitu.c), called by the MPI adapter
 * once MPI is initialised. */
#ifndef SCOREP_AN_INSITU_H
#define SCOREP_AN_INSITU_H

void scorep_analysis_insitu_setup(void);

#endif
