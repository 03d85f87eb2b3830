/* SPDX-License-Identifier: BSD-3-Clause */
/* mylib.h: the small library test_libwrap.sh wraps with scorep-libwrap-init: a struct
 * return, a function-pointer argument (plain and through a typedef), an array and a
 * pointer-to-const-pointer argument, a void function, a variadic one (skipped) and one the
 * wrapper's filter excludes. */
#ifndef MYLIB_H
#define MYLIB_H
typedef struct ml_pair {
    int a, b;
} ml_pair;
typedef int (*ml_fn)(int);
int ml_add(int a, int b);
ml_pair ml_make_pair(int a, int b);
int ml_apply(int (*f)(int), int x);
int ml_apply_t(ml_fn f, int x); /* calls ml_add inside the library */
int ml_sum(int n, ...);
void ml_noop(const char *const *names, double v[3]);
int ml_skip(int x);
#ifdef ML_WITH_MISSING
int ml_missing(int x); /* declared, never defined: make check reports it */
#endif
#endif
