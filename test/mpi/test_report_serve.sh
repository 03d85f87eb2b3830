#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_report_serve.sh: `mpirun -np 2 scorep-report --serve 0 PROFILE` (issue #19) explored
# in headless Chromium: the call tree page, expanded one call path after the other by
# following the page's own links, shows every visible call path's inclusive and exclusive
# time equal to CubeLib's (the sample's incl.csv / excl.csv summed over the locations,
# serve_dom.py); the per-location page of an expanded call path likewise; bad queries get
# a 400, /quit ends every process.
. "$top_srcdir/test/integration/lib.sh"

command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
command -v chromium >/dev/null 2>&1 || { skip_part chromium; echo "SKIP: no chromium"; exit 77; }
command -v curl >/dev/null 2>&1 || { echo "SKIP: no curl"; exit 77; }
grep -q CUBE_ENGINE_WITH_MPI "$top_builddir/Makefile" ||
    { echo "SKIP: scorep-report built without MPI"; exit 77; }
sample="${SHARED_DIR:-$top_srcdir/../shared}/reference/cube-samples/time.p4.n2000.x1.r0"
[ -d "$sample" ] || { echo "SKIP: cube samples not found (set SHARED_DIR)"; exit 77; }
DOMPY="$top_srcdir/test/mpi/serve_dom.py"

# the file exists before the poll below reads it: the background job opens it when it runs,
# and a sed of a missing file ends this test (set -e; it failed so once under load)
: >serve.out
timeout 300 mpirun --oversubscribe --allow-run-as-root -np 2 "$top_builddir/scorep-report" \
    --serve 0 "$sample/profile.cubex" >serve.out 2>serve.err &
server=$!
port=
for _ in $(seq 1 120); do
    port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' serve.out)
    [ -n "$port" ] && break
    sleep 1
done
[ -n "$port" ] || { kill "$server" 2>/dev/null; fail "scorep-report --serve did not start: $(cat serve.err)"; }
url="http://127.0.0.1:$port"

# dom NAME URL: Chromium's DOM of URL in NAME.dom
dom() {
    chromium_headless "$1.err" --dump-dom "$2" >"$1.dom"
}

# expand the tree along the first closed call path with children, following the page's link
href=/
for step in 1 2 3 4; do
    dom "tree$step" "$url$href"
    status=0
    python3 "$DOMPY" tree "tree$step.dom" "$sample/incl.csv" "$sample/excl.csv" time \
        >"tree$step.txt" || status=$?
    [ "$status" = 0 ] || cat "tree$step.txt"
    expect_eq "$status" 0 "step $step: every shown call path's time equals CubeLib's"
    shown=$(sed -n 's/^shown //p' "tree$step.txt")
    echo "step $step: $href shows $shown call paths"
    next=$(sed -n 's/^open \([0-9]*\) .*/\1/p' "tree$step.txt")
    [ -n "$next" ] || break
    href=$(sed -n 's/^open [0-9]* //p' "tree$step.txt")
    opened=${opened:+$opened,}$next
    # the link opens exactly that call path in addition to the open ones
    expect_eq "${href#*open=}" "$opened" "step $step: the link of call path $next opens $opened"
done
expect_ge "$shown" 10 "the expanded tree shows several levels"

c=$(echo "$opened" | cut -d, -f2)
dom locations "$url/locations?metric=1&cnode=$c"
status=0
python3 "$DOMPY" locations locations.dom "$sample/incl.csv" "$sample/excl.csv" time "$c" \
    >locations.txt || status=$?
expect_eq "$status" 0 "per-location time of call path $c equals CubeLib's"
expect_eq "$(sed -n 's/^locations //p' locations.txt)" 4 "4 locations shown"

expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "$url/?open=99999")" 400 "a call path that does not exist: 400"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' "$url/nosuch")" 404 "an unknown page: 404"
expect_eq "$(curl -s "$url/quit")" bye "/quit answers"
status=0
wait "$server" || status=$?
expect_eq "$status" 0 "every process of scorep-report --serve ended"
echo "$checks checks passed"
