/* SPDX-License-Identifier: BSD-3-Clause */
/* trace_otf2.h: OTF2 glue shared by the trace writer's files. */
#ifndef SCOREP_TRACE_OTF2_H
#define SCOREP_TRACE_OTF2_H

#include <otf2/otf2.h>

/* Installs OTF2's collective callbacks over the current ipc backend (serial ones for a
 * single process). 0 or -1. */
int scorep_trace_set_collectives(OTF2_Archive *a);

/* CUDA adapter: the window of RMA records that stand for memcpys between host and device.
 * Each process has one, "CUDA window", written after the MPI windows (global id: number of
 * unified windows + rank). Its remote rank 0 is the process's master thread. */
#define SCOREP_CUDA_WINDOW UINT32_C(0xFFFFFFFE)

#endif
