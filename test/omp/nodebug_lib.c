/* SPDX-License-Identifier: BSD-3-Clause */
/* nodebug_lib.c: the shared library of nodebug.c, built without debug information: one
 * parallel region of 2 threads, each thread adds 10 * (round + 1). */
#include <omp.h>

int lib_work(int round)
{
    int s = 0;
#pragma omp parallel num_threads(2) reduction(+ : s)
    s += 10 * (round + 1);
    return s;
}
