# SPDX-License-Identifier: BSD-3-Clause
# remap_same.sh: sourced (after test/integration/lib.sh) by the tests of the remapping
# specification a profile embeds cut to its run's paradigms (test_remap_spec.sh,
# test_remap_spec_cut.sh; docs/analysis.md "Its size"): square -s must give the same summary
# with the cut specification as with the whole share/scorep.spec.
# Needs SPEC (share/scorep.spec), SQUARE and CubeLib's cube_dump and cube_remap2 on PATH.

# sq_same NAME: square -s on $work/NAME (unless it has a summary.cubex already) and on a copy
# whose profile embeds the whole $SPEC give the same summary: every metric of the metric tree
# (cube_dump -w) and every value, per call path and location (exact text)
sq_same() {
    if [ ! -f "$work/$1/summary.cubex" ]; then
        PATH="$top_builddir:$PATH" "$SQUARE" -v -s "$work/$1" >"$1.square" 2>&1 ||
            fail "$1: square -s: $(tail -c 800 "$1.square")"
        # the profile's own member, not a file square finds elsewhere (CubeLib's example)
        expect_grep "^INFO: Using spec: embedded$" "$1.square" "$1: square used the embedded specification"
    fi
    # the members rewritten in their order, remapping.spec replaced by the file (ustar:
    # CubeLib reads no other tar format)
    rm -rf "$work/$1.full" "$1.members" && mkdir "$work/$1.full" "$1.members" ||
        fail "$1: directories"
    tar xf "$work/$1/profile.cubex" -C "$1.members" && cp "$SPEC" "$1.members/remapping.spec" &&
        (cd "$1.members" && tar --format=ustar -cf "$work/$1.full/profile.cubex" $(tar tf "$work/$1/profile.cubex")) ||
        fail "$1: the whole spec embedded"
    expect_eq "$(cmp "$1.members/remapping.spec" "$SPEC" >/dev/null && echo whole)" whole \
        "$1: the copy embeds the whole specification"
    PATH="$top_builddir:$PATH" "$SQUARE" -v -s "$work/$1.full" >"$1.full.square" 2>&1 ||
        fail "$1: square -s with the whole spec: $(tail -c 800 "$1.full.square")"
    expect_grep "^INFO: Using spec: embedded$" "$1.full.square" \
        "$1: square used the embedded whole specification"
    for _x in "$1" "$1.full"; do
        cube_dump -w "$work/$_x/summary.cubex" | sed -n '/METRIC DIMENSION/,/CALLTREE DIMENSION/p' \
            >"$_x.sqw" || fail "cube_dump -w $_x"
        cube_dump -m all -c all -x excl -z excl "$work/$_x/summary.cubex" >"$_x.sqv" ||
            fail "cube_dump -m all $_x"
    done
    expect_ge "$(grep -c '( id=[0-9]*, ' "$1.sqw")" 10 "$1: the summary's metric tree"
    # values to compare (the serial program's summary: 87 lines)
    expect_ge "$(wc -l <"$1.sqv")" 50 "$1: the summary's values"
    expect_eq "$(cmp "$1.sqw" "$1.full.sqw" >/dev/null && echo same)" same \
        "$1: the same metric tree with the cut and the whole specification"
    expect_eq "$(cmp "$1.sqv" "$1.full.sqv" >/dev/null && echo same)" same \
        "$1: the same values with the cut and the whole specification"
}
