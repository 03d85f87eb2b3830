/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_omp.c: an OpenMP team of three threads, each spending about 0.2 s of its own CPU
 * time in hot(); for sampling of an unmodified OpenMP program under scorep-run. */
#include <time.h>

#define HOT_MS 200
#include "sampling_work.h"

int main(void)
{
#pragma omp parallel num_threads(3)
    hot();
    return 0;
}
