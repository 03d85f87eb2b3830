/* SPDX-License-Identifier: BSD-3-Clause */
/* excluded_sources.h: the source files whose functions scorep-cc never instruments (NVTX's
 * header implementation; for nvcc the CUDA toolkit's headers and nvcc's generated stub). */
#ifndef SCOREP_INSTRUMENTER_EXCLUDED_SOURCES_H
#define SCOREP_INSTRUMENTER_EXCLUDED_SOURCES_H

#include "tools/instrumenter/command.h"

/* Path substrings, as GCC's -finstrument-functions-exclude-file-list and the GCC plugin's
 * exclude-file= match them against a function's declaration file. */
struct excluded_sources {
    char **paths;
    int n;
};

/* Fills the list for the job's compiler; instr_excluded_sources_free releases it. */
void instr_excluded_sources(const struct job *job, struct excluded_sources *out);
void instr_excluded_sources_free(struct excluded_sources *list);

#endif
