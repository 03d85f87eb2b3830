/* SPDX-License-Identifier: BSD-3-Clause */
/* remap_spec.h: scorep-rt's remapping specification (share/scorep.spec) compiled in, so that
 * every profile.cubex embeds it (the misc-data member Cube's remapper reads) without reading
 * an installed file; the definition is generated at build time (src/writers/remap_spec.sh). */
#ifndef SCOREP_REMAP_SPEC_H
#define SCOREP_REMAP_SPEC_H

#include <stddef.h>

extern const char scorep_remap_spec[];
extern const size_t scorep_remap_spec_len; /* bytes, without the terminating NUL */

#endif
