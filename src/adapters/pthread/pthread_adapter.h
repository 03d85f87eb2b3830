/* SPDX-License-Identifier: BSD-3-Clause */
/* pthread_adapter.h: what the pthread adapter's files share: Score-P's pthread regions
 * (paradigm pthread, file "PTHREAD"), created on first use. */
#ifndef SCOREP_PTHREAD_ADAPTER_H
#define SCOREP_PTHREAD_ADAPTER_H

#include "defs/defs.h"

/* The region NAME with ROLE, its id cached in *CACHE (SCOREP_INVALID_ID until created). */
uint32_t scorep_pthread_region(uint32_t *cache, const char *name, scorep_role role);

#endif
