/* SPDX-License-Identifier: BSD-3-Clause */
/* varlib.h: test_libwrap.sh's library for Score-P's LIBWRAP_ELLIPSIS_MAPPING_SYMBOLS (a
 * printf-like vl_log wrapped through its va_list twin vl_vlog) and
 * LIBWRAP_VARIADIC_IS_VOID_SYMBOLS (vl_count, declared without a prototype). */
#ifndef VARLIB_H
#define VARLIB_H
#include <stdarg.h>
int vl_log(const char *fmt, ...);
int vl_vlog(const char *fmt, va_list ap);
int vl_count();
#endif
