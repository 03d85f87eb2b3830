#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_cube_synth.sh: scorep-cube-synth (issue #19) and the writer it uses (cube_plan: rows
# written by many simulated processes at computed offsets, streamed system tree, anchor
# last): every value read back with scorep-cube-dump equals cube_synth_expect.py's, which
# derives them from the documented formulas and its own model of each tree shape; the
# one-process writer (cube_writer_write, compressed or not) reads back the same; the
# archive is a valid tar for Python's tarfile; bad arguments exit 2.
set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
synth="$top_builddir/scorep-cube-synth"
dump="$top_builddir/scorep-cube-dump"
expect_py="$top_srcdir/test/unit/cube_synth_expect.py"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_cube_synth.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0

ok() { echo "ok: $1"; }
fail() {
    echo "FAIL: $1"
    failed=1
}

# check NAME SHAPE CNODES LOCATIONS METRICS FILE: values of FILE against the formulas
check() {
    if "$dump" "$6" >"$tmp/excl" && "$dump" -i "$6" >"$tmp/incl" &&
        python3 "$expect_py" "$2" "$3" "$4" "$5" "$tmp/excl" "$tmp/incl" >"$tmp/py"; then
        ok "$1"
    else
        fail "$1"
        cat "$tmp/py"
    fi
}

for shape in binary linear flat; do
    # 7 writers over 18 processes of 2 threads: uneven blocks, a node boundary inside one
    if "$synth" --locations 36 --threads 2 --ranks-per-node 5 --cnodes 31 --shape $shape \
        --metrics 4 --writers 7 -o "$tmp/$shape.cubex" >"$tmp/json"; then
        check "planned writer, $shape tree" $shape 31 36 4 "$tmp/$shape.cubex"
    else
        fail "scorep-cube-synth $shape"
    fi
done
if "$synth" --locations 36 --threads 2 --ranks-per-node 5 --cnodes 31 --shape binary \
    --metrics 4 --writers 5 --metric-tree -o "$tmp/mtree.cubex" >/dev/null; then
    check "planned writer, metrics nested below visits" binary 31 36 4 "$tmp/mtree.cubex"
else
    fail "scorep-cube-synth --metric-tree"
fi
if "$synth" --locations 36 --threads 2 --ranks-per-node 5 --cnodes 31 --shape binary \
    --metrics 4 --writer gather --compress -o "$tmp/gather.cubex" >/dev/null; then
    check "one-process writer (zlib rows), binary tree" binary 31 36 4 "$tmp/gather.cubex"
else
    fail "scorep-cube-synth --writer gather"
fi

# real-like: no independent model of its tree; both writers must give the same file content
if "$synth" --locations 40 --cnodes 200 --shape real-like --metrics 3 --writers 6 \
    -o "$tmp/real.cubex" >/dev/null &&
    "$synth" --locations 40 --cnodes 200 --shape real-like --metrics 3 --writer gather \
        -o "$tmp/real_g.cubex" >/dev/null &&
    "$dump" -i "$tmp/real.cubex" >"$tmp/a" && "$dump" -i "$tmp/real_g.cubex" >"$tmp/b" &&
    [ "$(wc -l <"$tmp/a")" -eq 8000 ] && cmp -s "$tmp/a" "$tmp/b" &&
    "$dump" --system "$tmp/real.cubex" >"$tmp/a" && "$dump" --system "$tmp/real_g.cubex" >"$tmp/b" &&
    cmp -s "$tmp/a" "$tmp/b"; then
    ok "real-like tree: planned and one-process writers read back the same"
else
    fail "real-like tree: planned and one-process writers differ"
fi

# the archive: members in order, sizes as planned, anchor.xml last and complete
if python3 - "$tmp/binary.cubex" >"$tmp/py" 2>&1 <<'PYEOF'; then
import sys, tarfile
t = tarfile.open(sys.argv[1])
names = [n for n in t.getnames() if not n.endswith(".pad")]  # empty: see cube_tar.c
want = [f"{k}.{x}" for k in range(4) for x in ("index", "data")] + ["anchor.xml"]
assert names == want, names
assert all(t.getmember(f"{k}.data").size == 10 + 31 * 36 * 8 for k in range(4))
anchor = t.extractfile("anchor.xml").read().decode()
assert anchor.rstrip().endswith("</cube>") and anchor.count("<location Id=") == 36, anchor[-200:]
PYEOF
    ok "tar members, sizes, anchor.xml last"
else
    fail "tar structure"
    cat "$tmp/py"
fi

# bad arguments: a clear message and exit status 2, no file
for args in "--cnodes 0" "--writers 100" "--threads 7" "--shape tree"; do
    # shellcheck disable=SC2086 # the arguments are split on purpose
    set -- --locations 36 --cnodes 31 --shape binary --metrics 2 -o "$tmp/bad.cubex" $args
    "$synth" "$@" >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q "bad or missing arguments" "$tmp/err" && [ ! -e "$tmp/bad.cubex" ]; then
        ok "bad arguments ($args): exit 2"
    else
        fail "bad arguments ($args): exit $rc"
    fi
done
exit $failed
