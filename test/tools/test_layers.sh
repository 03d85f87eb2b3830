#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_layers.sh: the layers of src/ point one way (docs/design.md, "Layers"); a file's layer
# is its folder's (test/tools/layers.py, FOLDERS), with no exception for single files: no
# file includes a header of a higher layer, no circle of includes passes through src/core/,
# no compiled object of src/ (libraries and programs) uses a symbol that only a higher layer
# defines, and docs/design.md shows the picture the tree has. The checker itself is shown to
# fail on a copy of src/ with an upward include, with a circle through core/, with a file in
# a folder of no layer, and on an object with an upward call.
set -eu
: "${top_srcdir:?run through make check}"
: "${top_builddir:?run through make check}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
layers="python3 $top_srcdir/test/tools/layers.py"
work=$(mktemp -d "${TMPDIR:-/tmp}/scorep-layers.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*"
    exit 1
}

# 1. the tree's includes
$layers check "$top_srcdir/src" || fail "an upward include or a circle through core/ (above)"

# 2. the compiled objects' symbols: every object of a file of src/, libraries (the build tree
# names them src/DIR/.libs/[LIB_la-]FILE.o) and programs (src/DIR/[PROG-]FILE.o)
objs=$(cd "$top_builddir" && find src -name '*.o' | sort)
[ -n "$objs" ] || fail "no objects under $top_builddir/src: build first"
# shellcheck disable=SC2086 # one word per object
(cd "$top_builddir" && $layers objects "$top_srcdir/src" $objs) ||
    fail "an upward call between compiled objects (above)"

# 3. the picture in docs/design.md
$layers doc "$top_srcdir/src" "$top_srcdir/docs/design.md" || fail "docs/design.md's picture"

# 4. the checker fails where it must
cp -R "$top_srcdir/src" "$work/up"
echo '#include "runtime/runtime.h"' >>"$work/up/base/log.c"
if $layers check "$work/up" >"$work/up.out"; then
    fail "no failure for base/log.c including runtime/runtime.h"
fi
grep -qx 'upward: base/log.c (base) includes runtime/runtime.h (runtime)' "$work/up.out" ||
    fail "the upward include is not named: $(cat "$work/up.out")"

cp -R "$top_srcdir/src" "$work/circle"
echo '#include "core/clock_sync.h"' >>"$work/circle/core/system_tree.c"
if $layers check "$work/circle" >"$work/circle.out"; then
    fail "no failure for the circle core/clock_sync.c -> core/system_tree.h, system_tree.c -> clock_sync.h"
fi
grep -qx 'circle through core/: core/clock_sync <-> core/system_tree' "$work/circle.out" ||
    fail "the circle is not named: $(cat "$work/circle.out")"

mkdir -p "$work/obj/src/base/.libs" "$work/obj/src/runtime/.libs"
cp "$top_builddir/src/runtime/.libs/libscorep_rt_la-runtime.o" "$work/obj/src/runtime/.libs/"
printf 'int scorep_runtime_init(void);\nint f(void) { return scorep_runtime_init(); }\n' \
    >"$work/up.c"
${CC:-cc} -c -o "$work/obj/src/base/.libs/libscorep_rt_la-log.o" "$work/up.c"
if (cd "$work/obj" && $layers objects "$top_srcdir/src" src/base/.libs/libscorep_rt_la-log.o \
    src/runtime/.libs/libscorep_rt_la-runtime.o >"$work/obj.out"); then
    fail "no failure for an object of base/log.c calling scorep_runtime_init"
fi
grep -qx 'upward call: base/log.c (base) uses scorep_runtime_init of runtime/runtime.c' \
    "$work/obj.out" || fail "the upward call is not named: $(cat "$work/obj.out")"

# a file in a folder that FOLDERS does not name has no layer: a failure, not a pass
cp -R "$top_srcdir/src" "$work/stray"
mkdir -p "$work/stray/misc"
printf '/* stray.c: a file of no layer */\n' >"$work/stray/misc/stray.c"
if $layers check "$work/stray" >"$work/stray.out"; then
    fail "no failure for misc/stray.c, a folder of no layer"
fi
grep -q '^unclassified: misc/stray.c ' "$work/stray.out" ||
    fail "the file of no layer is not named: $(cat "$work/stray.out")"

# the picture of a tree with one more arrow (base/ -> runtime/) is not the document's
if $layers doc "$work/up" "$top_srcdir/docs/design.md" >"$work/doc.out"; then
    fail "docs/design.md's picture passes for a tree with another arrow"
fi

echo "PASS: layers point one way, each folder one layer; the checks fail on an upward include,"
echo "a circle, a file of no layer, an upward call and a stale picture"
