#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_profile_check.sh: the profile consistency checker (test/tools/profile_check) passes every
# real Score-P sample and rejects each deliberately broken profile with its own message.
set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
check="$top_builddir/test/tools/profile_check"
cases="$top_builddir/test/unit/profile_check_cases"
samples="${SHARED_DIR:-$top_srcdir/../shared}/reference/cube-samples"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_profile_check.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
checks=0

# expect NAME WANT_STATUS ERE FILE: profile_check FILE exits WANT_STATUS and its output has
# exactly one line matching ERE
expect() {
    checks=$((checks + 1))
    st=0
    "$check" "$4" >"$tmp/out" 2>&1 || st=$?
    n=$(grep -E -c -e "$3" "$tmp/out")
    if [ "$st" = "$2" ] && [ "$n" = 1 ]; then
        echo "ok: $1"
    else
        echo "FAIL: $1: exit status $st (want $2), $n lines match /$3/ (want 1):"
        cat "$tmp/out"
        failed=1
    fi
}

if [ -d "$samples" ]; then
    for s in call_tree_test/call_tree_test.cubex time.p4.n2000.x1.r0/profile.cubex \
        blast.p64.r1/profile.cubex kripke.p8.d2.g32.r1/profile.cubex \
        fastest.p16.size131072.r1/profile.cubex pthread_roots/profile.cubex \
        user_api/profile.cubex; do
        expect "Score-P sample $s" 0 ': ok \(' "$samples/$s"
    done
    expect "pthread_roots: 4 locations" 0 ': ok \(10 metrics, 11 call paths, 4 locations\)$' \
        "$samples/pthread_roots/profile.cubex"
    expect "user_api: 13 call paths" 0 ': ok \(11 metrics, 13 call paths, 1 locations\)$' \
        "$samples/user_api/profile.cubex"
else
    echo "cube samples not found (set SHARED_DIR): only the broken profiles are checked"
fi

"$cases" "$tmp" || { echo "FAIL: profile_check_cases"; exit 1; }
expect "good profile" 0 ': ok \(4 metrics, 9 call paths, 3 locations\)$' "$tmp/good.cubex"
expect "negative exclusive time" 1 \
    'cnode 0 \(main\) location 0: time: inclusive value 8 below the children.s sum 9 ' \
    "$tmp/negative_exclusive.cubex"
expect "time without visits" 1 \
    'cnode 4 \(main/bar\) location 0: time: inclusive value 0.5 on a call path without visits$' \
    "$tmp/time_without_visits.cubex"
expect "min above max" 1 \
    'cnode 1 \(main/foo\) location 0: min_time: min_time 3.5, max_time 3 ' \
    "$tmp/min_above_max.cubex"
expect "thread root counted twice" 1 \
    'cnode 7 \(THREADS\) location 1: visits: thread root with 2 visits, its subtree 3 ' \
    "$tmp/thread_root_visits.cubex"
expect "parameter set more often than its region ran" 1 \
    'cnode 1 \(main/foo\) location 0: visits: parameter children set 3 times under a node visited 2 times$' \
    "$tmp/parameter_visits.cubex"
expect "parameter node without visits" 1 \
    'cnode 2 \(main/foo/n=1\) location 0: visits: parameter node with 0 visits, its subtree 2$' \
    "$tmp/parameter_no_visits.cubex"
# a pooled OpenMP thread's own visit of outer (5 s less the 4.5 s of inner below: 4 s in
# teams forked by other threads, under the same call path) longer than its max_time
expect "own visits' time above max_time beside forked teams' time" 1 \
    'cnode 5 \(main/!\$omp parallel @a.c:8\) location 2: max_time: mean time per visit 0.5 \(without parallel regions below\) above max_time 0.25$' \
    "$tmp/max_below_own_time.cubex"
expect "mean time per visit above max_time" 1 \
    'cnode 1 \(main/foo\) location 0: max_time: mean time per visit 3 \(without parallel regions below\) above max_time 2.5$' \
    "$tmp/max_below_time.cubex"
printf 'not a tar' >"$tmp/bad.cubex"
expect "unreadable file" 2 "^profile_check: $tmp/bad.cubex: " "$tmp/bad.cubex"

[ "$failed" = 0 ] && echo "PASS: $checks checks"
exit "$failed"
