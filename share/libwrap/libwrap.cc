/* SPDX-License-Identifier: BSD-3-Clause */
/* libwrap.cc: the C++ translation unit whose declarations are wrapped (parsed with libclang);
 * do not change it. */
#include "libwrap.h"
