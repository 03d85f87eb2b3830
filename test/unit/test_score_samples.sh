#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_score_samples.sh: scorep-score's options on Score-P's sample profiles, every number
# checked against score_expect.py (CubeLib's CSVs, Python's tar/xml): -c, -f (flt column,
# filtered estimate), -g with Score-P's parameters (initial_scorep.filter), -m, -s; and one
# clear message with a non-zero exit for each kind of bad input.
set -u
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
samples="${SHARED_DIR:-$top_srcdir/../shared}/reference/cube-samples"
if [ ! -d "$samples" ]; then
    echo "cube samples not found (set SHARED_DIR); skipping"
    exit 77
fi
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is needed"; exit 1; }
samples=$(cd "$samples" && pwd)
score=$(cd "$top_builddir" && pwd)/scorep-score
expect_py="$(cd "$top_srcdir" && pwd)/test/unit/score_expect.py"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_score_samples.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failed=0

# check NAME MODE SAMPLE [ARGS]: out (scorep-score's output) against score_expect.py
check() {
    name=$1 mode=$2 sample=$3
    shift 3
    if python3 "$expect_py" "$mode" "$samples/$sample" "$@" <out >cmp; then
        echo "ok: $name ($(tail -n 1 cmp))"
    else
        echo "FAIL: $name"
        cat cmp
        failed=1
    fi
}

# expect_fail NAME STATUS MESSAGE-ERE: the last command's status and its stderr (err)
expect_fail() {
    if [ "$2" != 0 ] && grep -E -q -e "$3" err && [ "$(wc -l <err)" -le 2 ]; then
        echo "ok: $1 (exit $2: $(head -n 1 err))"
    else
        echo "FAIL: $1: exit $2, stderr:"
        cat err
        failed=1
    fi
}

tp=time.p4.n2000.x1.r0
for s in call_tree_test $tp blast.p64.r1; do
    f=$(ls "$samples/$s"/*.cubex)
    "$score" -c 2 "$f" >out
    check "-c 2 $s: estimate and groups with 2 metric values per event" table $s 2
    "$score" -r -s totaltime -t 4 "$f" >out
    check "-s totaltime -t 4 $s" regions $s time 4
done

f="$samples/$tp/profile.cubex"
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE bg::Vector* *F_1* MPI_Send\nSCOREP_REGION_NAMES_END\n' >flt
"$score" -f flt -r "$f" >out
check "-f -r $tp: filtered estimate, -/+ marks, TYPE-FLT and FLT rows (MPI_Send kept)" \
    filter $tp 'bg::Vector*,*F_1*,MPI_Send'
# the exact rows of the filter effect (numbers as derived by score_expect.py)
sed -n '/ALL-FLT/,/^$/p' out | grep -v '^$' | tr -s ' ' >rows
if diff - rows <<'END'; then echo "ok: -f rows of $tp"; else echo "FAIL: -f rows of $tp"; failed=1; fi
 * ALL 124,320 4,460 2.57 76.0 576.98 ALL-FLT
 + FLT 135,378,688 16,814,232 0.81 24.0 0.05 FLT
 - MPI 109,376 2,616 1.89 55.9 722.51 MPI-FLT
 * COM 14,528 1,808 0.68 20.2 377.81 COM-FLT
 * USR 288 32 0.00 0.0 0.26 USR-FLT
 - SCOREP 64 4 0.00 0.0 36.16 SCOREP-FLT
END

"$score" -g "$f" >out
check "-g $tp (defaults: bufferpercent=1, timepervisit=1, type=usr)" gen $tp '' initial_scorep.filter
grep -c '^    MANGLED ' initial_scorep.filter >n
echo "1" | diff - n >/dev/null && echo "ok: -g $tp lists 1 region" || { echo "FAIL: -g count"; failed=1; }
grep -q "^An initial filter file template has been generated: 'initial_scorep.filter'" out ||
    { echo "FAIL: -g message"; failed=1; }
g='bufferpercent=0, timepervisit=400,type=both'
"$score" -g "$g" "$f" >out
check "-g '$g' $tp" gen $tp "$g" initial_scorep.filter
[ "$(grep -c '^    MANGLED ' initial_scorep.filter)" = 17 ] && echo "ok: -g lists 17 regions" ||
    { echo "FAIL: -g '$g' count"; failed=1; }
moved=$(set -- initial_scorep_*.filter; [ -e "$1" ] && echo $#)
[ "$moved" = 1 ] && echo "ok: -g moved the earlier file aside" ||
    { echo "FAIL: earlier filter file not kept"; failed=1; }
g='visits=1000,bufferabsolute=1,type=com'
"$score" -g "$g" "$f" >out
check "-g '$g' $tp (no COM region is that cheap)" gen $tp "$g" initial_scorep.filter
"$score" -g 'timepervisit=100' "$samples/call_tree_test/call_tree_test.cubex" >out
check "-g timepervisit=100 call_tree_test" gen call_tree_test 'timepervisit=100' initial_scorep.filter

# -s name / timepervisit: region rows by name (ascending), by time per visit (ascending,
# the cheapest first, as Score-P); -g's entries follow -s too
"$score" -r -s name "$f" | sed -n '/^ *ALL .* ALL$/,$p' | awk 'NF == 0 { on = 1; next } on' >rows
awk '{ $1 = $2 = $3 = $4 = $5 = $6 = ""; sub(/^ +/, ""); print }' rows >names
LC_ALL=C sort -c names 2>/dev/null && [ "$(wc -l <names)" = 31 ] &&
    echo "ok: -s name: 31 region rows in name order" || { echo "FAIL: -s name"; cat names; failed=1; }
"$score" -r -s timepervisit "$f" | sed -n '/^ *ALL .* ALL$/,$p' | awk 'NF == 0 { on = 1; next } on { print $6 }' >tpv
sort -g -c tpv && [ "$(wc -l <tpv)" = 31 ] && echo "ok: -s timepervisit: ascending" ||
    { echo "FAIL: -s timepervisit"; cat tpv; failed=1; }
"$score" -s name -g 'bufferpercent=0,timepervisit=400,type=both' "$f" >out
sed -n 's/^    # name=.\(.*\).$/\1/p' initial_scorep.filter >gnames
LC_ALL=C sort -c gnames && [ "$(wc -l <gnames)" = 17 ] && echo "ok: -g -s name: entries in name order" ||
    { echo "FAIL: -g -s name"; cat gnames; failed=1; }
rm -f initial_scorep*.filter

# -m: mangled names in the region column
"$score" -r -m -t 1 "$f" | tail -n 1 | tr -s ' ' >out
echo " USR 135,376,832 16,814,000 0.74 21.7 0.04 _ZN2bg6VectorIdEclEi" | diff - out >/dev/null &&
    echo "ok: -m prints the mangled name" || { echo "FAIL: -m"; cat out; failed=1; }

# bad input: one clear message each, non-zero exit, nothing written
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE foo\nSCOREP_FILE_NAMES_BEGIN\n' >bad.flt
"$score" -f bad.flt "$f" >out 2>err
expect_fail "-f with a filter file that does not parse" $? '^scorep-score: filter file bad.flt:3: '
"$score" -f missing.flt "$f" >out 2>err
expect_fail "-f with a missing filter file" $? 'missing.flt: cannot open'
head -c 20000 "$f" >trunc.cubex
"$score" trunc.cubex >out 2>err
expect_fail "a truncated profile" $? '^scorep-score: .*trunc.cubex'
printf 'not a cube at all' >bad.cubex
"$score" bad.cubex >out 2>err
expect_fail "a file that is no Cube profile" $? '^scorep-score: .*bad.cubex'
mkdir empty
"$score" empty >out 2>err
expect_fail "an empty experiment directory" $? '^scorep-score: empty: a directory without profile.cubex'
"$score" nothing.cubex >out 2>err
expect_fail "a missing profile" $? 'cannot open nothing.cubex'
"$score" -s fastest "$f" >out 2>err
expect_fail "-s with an unknown order" $? "unknown order 'fastest'"
"$score" -c -1 "$f" >out 2>err
expect_fail "-c with a negative count" $? "'-1' is not a number of counters"
rm -f initial_scorep*.filter
"$score" -g 'bufferpercent=200' "$f" >out 2>err
expect_fail "-g with a percentage above 100" $? "invalid value '200' for bufferpercent"
"$score" -g 'speed=1' "$f" >out 2>err
expect_fail "-g with an unknown parameter" $? "unknown parameter 'speed'"
[ -z "$(ls initial_scorep*.filter 2>/dev/null)" ] && echo "ok: no filter file after bad -g" ||
    { echo "FAIL: bad -g left a file"; failed=1; }
"$score" "$f" -r >out 2>err
expect_fail "the profile not last" $? 'must be the last argument'
"$score" -h >out 2>err && grep -q '^  -g \[<list>\]' out && grep -q 'bufferpercent=<0-100>' out &&
    echo "ok: -h lists -g's parameters" || { echo "FAIL: -h"; failed=1; }
exit $failed
