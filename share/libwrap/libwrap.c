/* SPDX-License-Identifier: BSD-3-Clause */
/* libwrap.c: the translation unit whose declarations are wrapped; do not change it. */
#include "libwrap.h"
