/* SPDX-License-Identifier: BSD-3-Clause */
/* log.h: the runtime's messages on stderr ("[scorep-rt] warning: ..."): warnings, a warning
 * said once, progress messages (SCOREP_VERBOSE) and the fatal error of a bad start-up. Any
 * layer may call them; they depend on nothing but the settings (base/settings.h). */
#ifndef SCOREP_BASE_LOG_H
#define SCOREP_BASE_LOG_H

void scorep_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The first call of the process prints msg; later calls print nothing. */
void scorep_warn_once(const char *msg);
/* Printed only with SCOREP_VERBOSE=true. */
void scorep_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the message and exits with status 1 (bad configuration at start-up). */
void scorep_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
