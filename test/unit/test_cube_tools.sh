#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_cube_tools.sh: checks scorep-cube-dump output line by line on the call_tree_test sample
# and on the cube written by test_cube_roundtrip (parameters, C++ names), and scorep-score's
# numbers on three Score-P samples against score_expect.py (derived from CubeLib's CSVs).
set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
samples="${SHARED_DIR:-$top_srcdir/../shared}/reference/cube-samples"
if [ ! -d "$samples" ]; then
    echo "cube samples not found (set SHARED_DIR); skipping"
    exit 77
fi
cube="$samples/call_tree_test/call_tree_test.cubex"
dump="$top_builddir/scorep-cube-dump"
score="$top_builddir/scorep-score"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_cube_tools.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0

# expect NAME: compares $tmp/out with the expected text on stdin ('|' stands for a tab).
expect() {
    tr '|' '\t' >"$tmp/want"
    if diff -u "$tmp/want" "$tmp/out" >"$tmp/diff"; then
        echo "ok: $1"
    else
        echo "FAIL: $1"
        cat "$tmp/diff"
        failed=1
    fi
}

# expect_status NAME WANT GOT: checks an exit status.
expect_status() {
    if [ "$2" = "$3" ]; then
        echo "ok: $1"
    else
        echo "FAIL: $1: exit status $3, expected $2"
        failed=1
    fi
}

"$dump" -m visits,time,min_time,max_time "$cube" >"$tmp/out"
expect "exclusive dump of call_tree_test" <<'END'
0|test.x|0|visits=1|time=0.000558565266|min_time=74.0505353|max_time=74.0505353
1|test.x/main|0|visits=1|time=0.000127525357|min_time=74.0499767|max_time=74.0499767
2|test.x/main/signed char|0|visits=1|time=0.000194192266|min_time=60.0009541|max_time=60.0009541
3|test.x/main/signed char/a1|0|visits=1|time=10.0001394|min_time=10.0001394|max_time=10.0001394
4|test.x/main/signed char/a2|0|visits=2|time=20.0002416|min_time=10.0001045|max_time=10.0001371
5|test.x/main/signed char/a3|0|visits=3|time=30.0003789|min_time=10.0001134|max_time=10.0001384
6|test.x/main/bool|0|visits=2|time=0.000160763043|min_time=6.00094794|max_time=6.00108474
7|test.x/main/bool/b1|0|visits=2|time=2.00031971|min_time=1.00015621|max_time=1.0001635
8|test.x/main/bool/b2|0|visits=4|time=4.00062787|min_time=1.00012785|max_time=1.00016801
9|test.x/main/bool/b3|0|visits=6|time=6.00092433|min_time=1.0001429|max_time=1.00016395
10|test.x/main/char|0|visits=3|time=0.000177303808|min_time=0.600940409|max_time=0.601018648
11|test.x/main/char/c1|0|visits=3|time=0.300432991|min_time=0.100127972|max_time=0.100161262
12|test.x/main/char/c2|0|visits=6|time=0.600936343|min_time=0.100131406|max_time=0.100167799
13|test.x/main/char/c3|0|visits=9|time=0.901365015|min_time=0.100126306|max_time=0.100162826
14|test.x/main/double|0|visits=4|time=0.00023528995|min_time=0.0609520901|max_time=0.0610248701
15|test.x/main/double/d1|0|visits=4|time=0.0406183144|min_time=0.0101448578|max_time=0.0101584578
16|test.x/main/double/d2|0|visits=8|time=0.0812641404|min_time=0.0101263817|max_time=0.010168724
17|test.x/main/double/d3|0|visits=12|time=0.121832999|min_time=0.0101264748|max_time=0.0101625386
END

"$dump" -i -m time,visits,min_time "$cube" >"$tmp/out"
expect "inclusive dump of call_tree_test" <<'END'
0|test.x|0|time=74.0505353|visits=72|min_time=0.0101263817
1|test.x/main|0|time=74.0499767|visits=71|min_time=0.0101263817
2|test.x/main/signed char|0|time=60.0009541|visits=7|min_time=10.0001045
3|test.x/main/signed char/a1|0|time=10.0001394|visits=1|min_time=10.0001394
4|test.x/main/signed char/a2|0|time=20.0002416|visits=2|min_time=10.0001045
5|test.x/main/signed char/a3|0|time=30.0003789|visits=3|min_time=10.0001134
6|test.x/main/bool|0|time=12.0020327|visits=14|min_time=1.00012785
7|test.x/main/bool/b1|0|time=2.00031971|visits=2|min_time=1.00015621
8|test.x/main/bool/b2|0|time=4.00062787|visits=4|min_time=1.00012785
9|test.x/main/bool/b3|0|time=6.00092433|visits=6|min_time=1.0001429
10|test.x/main/char|0|time=1.80291165|visits=21|min_time=0.100126306
11|test.x/main/char/c1|0|time=0.300432991|visits=3|min_time=0.100127972
12|test.x/main/char/c2|0|time=0.600936343|visits=6|min_time=0.100131406
13|test.x/main/char/c3|0|time=0.901365015|visits=9|min_time=0.100126306
14|test.x/main/double|0|time=0.243950744|visits=28|min_time=0.0101263817
15|test.x/main/double/d1|0|time=0.0406183144|visits=4|min_time=0.0101448578
16|test.x/main/double/d2|0|time=0.0812641404|visits=8|min_time=0.0101263817
17|test.x/main/double/d3|0|time=0.121832999|visits=12|min_time=0.0101264748
END

# all metrics by default: the four zero I/O and RMA metrics are printed too
"$dump" "$cube" | head -n 1 >"$tmp/out"
expect "default metric list" <<'END'
0|test.x|0|visits=1|time=0.000558565266|min_time=74.0505353|max_time=74.0505353|bytes_put=0|bytes_get=0|io_bytes_read=0|io_bytes_written=0
END

# a metric that is zero everywhere prints no line at all
"$dump" -m bytes_put,io_bytes_read "$cube" >"$tmp/out"
expect "all-zero metrics print nothing" </dev/null

"$dump" --system "$cube" >"$tmp/out"
expect "system tree of call_tree_test" <<'END'
0|machine Linux/node gpu1|Process|Master thread|0
END

"$dump" -m no_such_metric "$cube" >"$tmp/out" 2>"$tmp/err"
expect_status "unknown metric fails" 1 $?
grep -q "no metric 'no_such_metric'" "$tmp/err" || { echo "FAIL: unknown metric message"; failed=1; }
"$dump" "$tmp/missing.cubex" >"$tmp/out" 2>"$tmp/err"
expect_status "dump of a missing file fails" 1 $?
grep -q "cannot open $tmp/missing.cubex" "$tmp/err" || { echo "FAIL: missing-file message"; failed=1; }

# scorep-score's numbers are checked against values derived without it and without our Cube
# library: score_expect.py reads each sample's anchor.xml with Python's tarfile/xml and
# CubeLib's excl.csv/incl.csv (times within their 6 digits), and computes every row: group
# and region visits, times, percentages, time per visit, per-process trace bytes, --top rows.
# score_check NAME SAMPLE MODE [ARGS]: scorep-score's output in $tmp/out against score_expect.py
score_check() {
    if python3 "$top_srcdir/test/unit/score_expect.py" "$3" "$samples/$2" ${4:+"$4"} ${5:+"$5"} \
        <"$tmp/out" >"$tmp/cmp"; then
        echo "ok: $1 ($(tail -n 1 "$tmp/cmp"))"
    else
        echo "FAIL: $1"
        cat "$tmp/cmp"
        failed=1
    fi
}
if command -v python3 >/dev/null 2>&1; then
    for s in call_tree_test time.p4.n2000.x1.r0 blast.p64.r1; do
        f=$(ls "$samples/$s"/*.cubex)
        "$score" "$f" >"$tmp/out"
        score_check "scorep-score $s: size estimate and group rows" $s table
        "$score" -r -t 3 -s visits "$f" >"$tmp/out"
        score_check "scorep-score -r -t 3 -s visits $s: region rows" $s regions visits 3
        "$score" -r -t 3 -s time "$f" >"$tmp/out"
        score_check "scorep-score -r -t 3 -s time $s: region rows" $s regions time 3
        "$score" --top 3 "$f" >"$tmp/out"
        score_check "scorep-score --top 3 $s" $s top 3
    done
else
    echo "FAIL: python3 is needed to check scorep-score's numbers"
    failed=1
fi
# The layout (not the numbers): header lines of the table and of --top.
"$score" "$cube" | grep -E '^(flt|rank) ' | tr -s ' ' >"$tmp/out"
"$score" --top 1 "$cube" | grep -E '^(flt|rank) ' | tr -s ' ' >>"$tmp/out"
expect "scorep-score header lines" <<'END'
flt type max_buf[B] visits time[s] time[%] time/visit[us] region
rank region excl_time[s] incl_time[s] visits min_excl[s] max_excl[s]
END

"$score" "$tmp/missing.cubex" >"$tmp/out" 2>"$tmp/err"
expect_status "scorep-score of a missing file fails" 1 $?
grep -q "cannot open $tmp/missing.cubex" "$tmp/err" || { echo "FAIL: score missing-file message"; failed=1; }
printf 'not a cube at all' >"$tmp/bad.cubex"
"$score" "$tmp/bad.cubex" >"$tmp/out" 2>"$tmp/err"
expect_status "scorep-score of a corrupt file fails" 1 $?

# our own writer's output: parameter cnodes, C++ names, zero rows left out, three locations
if "$top_builddir/test_cube_roundtrip" --write "$tmp/rt.cubex"; then
    tab=$(printf '\t')
    "$dump" -m visits,delta "$tmp/rt.cubex" | grep -v "^[0-2]$tab" >"$tmp/out"
    expect "dump of a written cube with parameters" <<'END'
4|main/b<'q'> "quoted"|0|visits=41|delta=-5000
4|main/b<'q'> "quoted"|1|visits=42|delta=0
4|main/b<'q'> "quoted"|2|visits=43|delta=5000
5|main/b<'q'> "quoted"/iterations=42|0|visits=51|delta=-6000
5|main/b<'q'> "quoted"/iterations=42|1|visits=52|delta=0
5|main/b<'q'> "quoted"/iterations=42|2|visits=53|delta=6000
6|main/b<'q'> "quoted"/mode=<fast & safe>|0|visits=61|delta=-7000
6|main/b<'q'> "quoted"/mode=<fast & safe>|1|visits=62|delta=0
6|main/b<'q'> "quoted"/mode=<fast & safe>|2|visits=63|delta=7000
7|main/c|1|visits=72|delta=0
END
    "$dump" -m visits "$tmp/rt.cubex" | grep "^1$tab" >"$tmp/out"
    expect "uint64 beyond 2^53 printed exactly" <<'END'
1|main/std::vector<int, std::allocator<int> >::push_back(int const&)|0|visits=11
1|main/std::vector<int, std::allocator<int> >::push_back(int const&)|1|visits=12
1|main/std::vector<int, std::allocator<int> >::push_back(int const&)|2|visits=9223372036854775813
END
    "$dump" -i -m mpi_time "$tmp/rt.cubex" >"$tmp/out"
    expect "inclusive child metric" <<'END'
0|main|0|mpi_time=0.25
0|main|1|mpi_time=0.5
0|main|2|mpi_time=0.75
4|main/b<'q'> "quoted"|0|mpi_time=0.25
4|main/b<'q'> "quoted"|1|mpi_time=0.5
4|main/b<'q'> "quoted"|2|mpi_time=0.75
6|main/b<'q'> "quoted"/mode=<fast & safe>|0|mpi_time=0.25
6|main/b<'q'> "quoted"/mode=<fast & safe>|1|mpi_time=0.5
6|main/b<'q'> "quoted"/mode=<fast & safe>|2|mpi_time=0.75
END
    "$dump" --system "$tmp/rt.cubex" >"$tmp/out"
    expect "system tree of a written cube" <<'END'
0|machine Linux/node alpha|MPI Rank 0|Master thread|0
1|machine Linux/node alpha|MPI Rank 0|OMP thread 1|0
2|machine Linux/node beta|MPI Rank 1|Master thread|1
END
else
    echo "FAIL: test_cube_roundtrip --write"
    failed=1
fi

exit $failed
