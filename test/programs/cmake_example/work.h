/* SPDX-License-Identifier: BSD-3-Clause */
/* work.h: the library of the CMake example: work_step calls leaf three times. */
#ifndef WORK_H
#define WORK_H
#ifdef __cplusplus
extern "C" {
#endif
int leaf(int x);
int work_step(int i);
#ifdef __cplusplus
}
#endif
#endif
