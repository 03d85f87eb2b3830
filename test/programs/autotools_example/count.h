/* SPDX-License-Identifier: BSD-3-Clause */
/* count.h: the library of the autotools example. */
#ifndef COUNT_H
#define COUNT_H
int bump(int x);
int count_up(int n);
#endif
