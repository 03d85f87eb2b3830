#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_license.sh: the project is BSD-3-Clause (LICENSE) and every source file says so in an
# SPDX line at its top (build-aux/spdx-add --check over the tree), the files generated at build
# time too (wrappers, the MPI smoke program, the report's assets); the check is shown to fail on
# a copy of a source file without the line.
set -eu
: "${top_srcdir:?run through make check}"
: "${top_builddir:?run through make check}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
spdx="python3 $top_srcdir/build-aux/spdx-add"
tag="SPDX-License-Identifier: BSD-3-Clause"
work=$(mktemp -d "${TMPDIR:-/tmp}/scorep-license.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*"
    exit 1
}

# 1. LICENSE: the BSD 3-Clause text (its title and its third clause)
grep -q '^BSD 3-Clause License$' "$top_srcdir/LICENSE" || fail "LICENSE is not the BSD 3-Clause text"
grep -q 'Neither the name of the copyright holder' "$top_srcdir/LICENSE" ||
    fail "LICENSE lacks the third clause"
echo "ok: LICENSE"

# 2. the tree (git's list of files where there is one, else every file of the source tree)
if git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$top_srcdir" && $spdx --check) || fail "source files without the SPDX line (above)"
else
    echo "SKIP-PART: $top_srcdir is not a git checkout; the tree's files are not listed"
fi
echo "ok: every source file of the tree"

# 3. generated files in the build tree
n=0
for f in src/adapters/mpi/mpi_wrappers.c src/adapters/shmem/shmem_wrappers.c \
    src/adapters/io/io_posix_wrappers.c src/adapters/io/io_isoc_wrappers.c \
    src/tools/report/report_assets.c src/tools/report/report_assets.h; do
    [ -f "$top_builddir/$f" ] || continue
    head -n 1 "$top_builddir/$f" | grep -qF "$tag" || fail "generated $f has no SPDX line first"
    n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no generated file found in $top_builddir: build first"
echo "ok: $n generated files"

# 4. the check fails where it must, and adds the line after a shebang
printf '#!/bin/sh\n# x.sh: a script\necho hi\n' >"$work/x.sh"
printf '/* y.c: a file */\nint y;\n' >"$work/y.c"
if $spdx --check "$work/x.sh" "$work/y.c" >"$work/check.out"; then
    fail "no failure for files without the SPDX line"
fi
[ "$(wc -l <"$work/check.out")" -eq 2 ] || fail "want both files said: $(cat "$work/check.out")"
$spdx "$work/x.sh" "$work/y.c"
[ "$(sed -n 2p "$work/x.sh")" = "# $tag" ] || fail "shebang script: line 2 is $(sed -n 2p "$work/x.sh")"
[ "$(sed -n 1p "$work/y.c")" = "/* $tag */" ] || fail "C file: line 1 is $(sed -n 1p "$work/y.c")"
$spdx --check "$work/x.sh" "$work/y.c" || fail "the check fails after spdx-add"
echo "ok: the check finds files without the line; spdx-add puts it after a shebang"
