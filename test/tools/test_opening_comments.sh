#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_opening_comments.sh: every source file's opening comment names only files that the tree
# has and functions that occur elsewhere in it (test/tools/opening_comments.py); the checker
# is shown to fail on a copy of a file whose opening comment names a function and a file that
# do not exist.
set -eu
: "${top_srcdir:?run through make check}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
check="python3 $top_srcdir/test/tools/opening_comments.py"
work=$(mktemp -d "${TMPDIR:-/tmp}/scorep-opening.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*"
    exit 1
}

# 1. the tree
$check "$top_srcdir" || fail "an opening comment names what the tree does not have (above)"
echo "ok: the tree's opening comments"

# 2. the checker fails where it must: a small tree with one good and one stale file
mkdir -p "$work/t/src"
printf '/* good.c: good_fn() of good.h */\nint good_fn(void) { return 0; }\n' >"$work/t/src/good.c"
printf '/* good.h: declares good_fn() */\nint good_fn(void);\n' >"$work/t/src/good.h"
$check "$work/t" >"$work/good.out" || fail "a good tree is said stale: $(cat "$work/good.out")"
printf '/* stale.c: calls scorep_gone_helper and renamed_fn() from gone.c */\nint x;\n' \
    >"$work/t/src/stale.c"
if $check "$work/t" >"$work/stale.out"; then
    fail "no failure for a stale opening comment"
fi
for want in "names the file gone.c" "names renamed_fn" "names scorep_gone_helper"; do
    grep -q "stale.c: $want" "$work/stale.out" || fail "'$want' not said: $(cat "$work/stale.out")"
done
echo "ok: the checker finds a stale file name, a stale name() and a stale scorep_ name"
