/* SPDX-License-Identifier: BSD-3-Clause */
/* libwrap.h: scorep-cc/scorep --libwrap=[linktime:|runtime:]NAME[,NAME...]|PATH: finds the
 * installed user library wrappers (scorep-libwrap-init; docs/libwrap.md) and adds them to
 * a link. */
#ifndef SCOREP_INSTRUMENTER_LIBWRAP_H
#define SCOREP_INSTRUMENTER_LIBWRAP_H

#include "tools/instrumenter/argv.h"

#include <limits.h>
#include <stdbool.h>

#define INSTR_MAX_LIBWRAPS 16

struct instr_libwrap {
    bool runtime;
    char anchor[PATH_MAX]; /* PREFIX/share/scorep/NAME.libwrap */
};

struct instr_libwraps {
    int n;
    struct instr_libwrap w[INSTR_MAX_LIBWRAPS];
};

/* Parses the value of --libwrap= and adds its wrappers; an unknown wrapper is an error
 * (message and exit 1). */
void instr_libwrap_option(const char *value, struct instr_libwraps *lw);
/* Run-time wrappers: their libraries, ahead of the program's (first in the link, so that
 * their definitions come before the wrapped library's). */
void instr_push_libwrap_front(struct argv_buf *cmd, const struct instr_libwraps *lw);
/* Link-time wrappers: -Wl,--wrap=f per function, the wrapper archive, then the wrapped
 * libraries again (their functions are now referenced by the archive only). */
void instr_push_libwrap_back(struct argv_buf *cmd, const struct instr_libwraps *lw);

#endif
