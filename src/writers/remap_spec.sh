#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# remap_spec.sh SPEC OUTPUT: writes SPEC's text as the C array scorep_remap_spec (remap_spec.h),
# one string literal a line, so the profile writer embeds exactly the installed file's bytes.
set -eu
spec=$1
out=$2
{
    printf '/* SPDX-License-Identifier: BSD-3-Clause */\n'
    printf '/* generated from share/scorep.spec by src/writers/remap_spec.sh: do not edit */\n'
    printf '#include "writers/remap_spec.h"\n\n'
    printf 'const char scorep_remap_spec[] =\n'
    # backslashes and quotes escaped; every line keeps its newline
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n"/' "$spec"
    printf '    ;\n'
    printf 'const size_t scorep_remap_spec_len = sizeof scorep_remap_spec - 1;\n'
} >"$out.tmp"
mv "$out.tmp" "$out"
