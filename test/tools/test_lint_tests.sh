#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_lint_tests.sh: the shell scripts of the test suite (and the quickstart) hold none of the
# patterns that let a test pass when it should fail (test/tools/lint_tests.py: `|| echo 0`
# defaults, whole-test reruns, counts at the end of a pipe from a command that can fail);
# and the linter itself finds each pattern in a script made to hold them.
. "$top_srcdir/test/integration/lib.sh"

LINT="python3 $top_srcdir/test/tools/lint_tests.py --lib=$top_srcdir/test/integration/lib.sh
    --lib=$top_srcdir/test/omp/lib_omp.sh --lib=$top_srcdir/test/integration/perf_metrics.sh"

# the linter finds what it is for (one line per pattern, none for the allowed forms: the last
# three lines count what cat prints: a ';' in quotes, '&&' and '||' end the command before)
cat >bad.sh <<'BAD'
n=$(grep -c x file 2>/dev/null || echo 0)
METRIC_TEST_ATTEMPT=1 sh "$0" "$@" && exit 0
expect_eq "$(otf2-print exp/traces.otf2 | grep -c ENTER)" 0 "no enter"
expect_eq "$(objdump -d prog |
    grep -c call)" 0 "no call"
expect_eq "$(profile_paths exp | grep -c leaf)" 0 "a lib.sh function fails the test itself"
expect_eq "$(count_lines ENTER exp.txt)" 0 "counted from a file"
n=$(ls dir | wc -l) # lint: ok (the directory is checked above)
n=$(cat "x; otf2-print y" | wc -l)
n=$(otf2-print exp >f && cat f | wc -l)
n=$(otf2-print exp >f || cat f | wc -l)
BAD
status=0
$LINT bad.sh >bad.out || status=$?
expect_eq "$status" 1 "the linter fails on a script with the patterns"
expect_eq "$(sed 's/^bad\.sh:\([0-9]*\): \([a-z-]*\):.*/\1 \2/' bad.out | tr '\n' ,)" \
    "1 echo-default,2 rerun,3 count-pipe,4 count-pipe," "the linter names each pattern and its line"

# the suite: every test script (but this one, whose example above holds the patterns on
# purpose) and the quickstart
find "$top_srcdir/test" -name '*.sh' ! -name test_lint_tests.sh | sort >scripts
expect_ge "$(wc -l <scripts)" 50 "the test scripts found ($(wc -l <scripts))"
status=0
# shellcheck disable=SC2046
$LINT $(cat scripts) "$top_srcdir/build-aux/quickstart" >suite.out || status=$?
expect_eq "$(cat suite.out)" "" "no test script holds a forbidden pattern"
expect_eq "$status" 0 "the linter passes on the suite"

# every OpenMP parallel construct of the test programs (sources and programs written by test
# scripts) fixes its team's size with num_threads on its first line: one that leaves it to
# OMP_NUM_THREADS gets a thread per core, and the counts its test expects differ on a
# many-core machine (CI's) from this one's. The check finds a construct made to lack it
# (`cancel parallel` and `cancellation point parallel` name a region: no construct).
unsized_parallel()
{
    grep -n -i -E '^[[:space:]]*(#[[:space:]]*pragma[[:space:]]+omp|!\$omp)[[:space:]]+([a-z_]+[[:space:]]+)*parallel([^a-z_]|$)' "$@" |
        grep -v -i -E 'num_threads[[:space:]]*\(|!\$omp[[:space:]]+end[[:space:]]|(omp|!\$omp)[[:space:]]+(cancel|cancellation[[:space:]]+point)[[:space:]]' ||
        true
}
cat >unsized.c <<'BAD'
#pragma omp parallel for reduction(+ : s)
#pragma omp parallel num_threads(2)
  #pragma omp target teams distribute parallel for
#pragma omp cancel parallel if (x)
#pragma omp cancellation point parallel
BAD
cat >unsized.f90 <<'BAD'
  !$omp parallel do schedule(static)
  !$OMP PARALLEL NUM_THREADS(2)
  !$omp end parallel do
  !$omp cancel parallel
BAD
expect_eq "$(unsized_parallel unsized.c unsized.f90 | cut -d: -f1,2 | tr '\n' ' ')" \
    "unsized.c:1 unsized.c:3 unsized.f90:1 " "the check finds parallel constructs without num_threads"
# (this script's constructs above lack it on purpose)
find "$top_srcdir/test" "$top_srcdir/share" -type f \( -name '*.c' -o -name '*.cc' -o -name '*.h' \
    -o -name '*.cu' -o -name '*.[fF]' -o -name '*.[fF]90' -o -name '*.sh' \) ! -name test_lint_tests.sh |
    sort >sources
expect_ge "$(wc -l <sources)" 100 "the test programs and scripts found ($(wc -l <sources))"
# shellcheck disable=SC2046
expect_eq "$(unsized_parallel $(cat sources) | sed "s|^$top_srcdir/||")" "" \
    "every OpenMP parallel construct of the test programs has num_threads"
done_ok
