# lib.sh: shared helpers of the integration tests: build with the build tree's scorep-cc,
# run under measurement, and read results back (scorep-cube-dump, otf2-print).
set -eu
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
SCOREP_CC="$top_builddir/scorep-cc"
CUBE_DUMP="$top_builddir/scorep-cube-dump"
SCOREP_SCORE="$top_builddir/scorep-score"
PROGRAMS="$top_srcdir/test/programs"
export SCOREP_CC_LIBDIR="$top_builddir/.libs" SCOREP_CC_INCLUDEDIR="$top_srcdir/include"
work=$(mktemp -d "${TMPDIR:-/tmp}/scorep-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
checks=0

fail()
{
    echo "FAIL: $*" >&2
    exit 1
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq()
{
    checks=$((checks + 1))
    [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"
    echo "ok: $3 = $2"
}

# profile_sum EXPDIR CALLPATH METRIC [LOCATION]: metric summed over locations (exclusive)
profile_sum()
{
    "$CUBE_DUMP" -m "$3" "$1/profile.cubex" | awk -F'\t' -v p="$2" -v loc="${4:-}" '
        $2 == p && (loc == "" || $3 == loc) { split($4, kv, "="); s += kv[2] }
        END { printf "%.17g\n", s + 0 }'
}

# profile_paths EXPDIR: the distinct call paths of the profile
profile_paths()
{
    "$CUBE_DUMP" -m visits "$1/profile.cubex" | awk -F'\t' 'NR > 0 { print $2 }' | sort -u
}

# trace_events EXPDIR: otf2-print's event lines as "TYPE LOCATION rest"
trace_events()
{
    otf2-print "$1/traces.otf2" | awk '/^[A-Z_]+ +[0-9]+ +[0-9]+ / { print }'
}

# trace_count EXPDIR TYPE [LOCATION] [REGION]: number of events of TYPE
trace_count()
{
    trace_events "$1" | awk -v t="$2" -v loc="${3:-}" -v r="${4:-}" '
        $1 == t && (loc == "" || $2 == loc) && (r == "" || index($0, "Region: \"" r "\"") > 0) { n++ }
        END { print n + 0 }'
}

done_ok()
{
    echo "PASS: $checks checks"
}
