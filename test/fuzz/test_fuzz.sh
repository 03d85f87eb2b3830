#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_fuzz.sh: the libFuzzer targets of test/fuzz (the Cube reader, the OTF2-reading paths of
# the trace model and the analysis, the filter-file, selective-config and SCOREP_ variable
# parsers), each started from its seed corpus (test/fuzz/corpus/TARGET, which also keeps the
# reproducers of what they found) and run for FUZZ_SECONDS (default 4) under AddressSanitizer
# and UndefinedBehaviorSanitizer: a crash, a sanitizer report, a leak, an input slower than
# 10 s or a memory use above 2 GiB fails the test. First every corpus file is run once, so
# that a fixed bug stays fixed. SKIP when clang has no libFuzzer. A longer run: `make fuzz`.
. "$top_srcdir/test/integration/lib.sh"
FUZZ_OUT="$top_builddir/test/fuzz/bin"
TARGETS="cube otf2 filter selective config"
rc=0
# the targets are built once and rebuilt when a source is newer (build.sh compiles with clang)
sh "$top_srcdir/test/fuzz/build.sh" "$top_srcdir" "$top_builddir" "$FUZZ_OUT" $TARGETS \
    >build.out 2>&1 || rc=$?
if [ "$rc" = 77 ]; then
    echo "SKIP: $(tail -n 1 build.out)"
    exit 77
fi
[ "$rc" = 0 ] || fail "build.sh: $(tail -n 20 build.out)"
for t in $TARGETS; do
    seeds="$top_srcdir/test/fuzz/corpus/$t"
    expect_ge "$(entries "$seeds")" 2 "$t: a seed corpus"
    # the corpus (seeds and kept reproducers) once each
    "$FUZZ_OUT/fuzz_$t" -rss_limit_mb=2048 -timeout=10 "$seeds"/* >"$t.replay" 2>&1 ||
        fail "fuzz_$t on its corpus: $(grep -v '^INFO' "$t.replay" | tail -n 25)"
    _check
    echo "ok: $t: the corpus runs clean"
    # then new inputs, written to a scratch corpus (the repository's stays as it is)
    mkdir "corpus_$t"
    "$FUZZ_OUT/fuzz_$t" -max_total_time="${FUZZ_SECONDS:-4}" -rss_limit_mb=2048 -timeout=10 \
        -max_len=65536 -artifact_prefix="$FUZZ_OUT/$t-" "corpus_$t" "$seeds" >"$t.fuzz" 2>&1 ||
        fail "fuzz_$t found a failure (kept in $FUZZ_OUT/$t-*): $(grep -v '^INFO\|^#' "$t.fuzz" | tail -n 25)"
    _check
    echo "ok: $t: $(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$t.fuzz") runs clean"
done
done_ok
