#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_cube_engine.sh: the distributed Cube engine (src/cube/cube_engine.c, issue #19) behind
# `mpirun -np N scorep-cube-dump` and `mpirun -np N scorep-score`: on every Score-P sample (whose one-process dump
# test_cube_samples and test_cube_tools.sh check against CubeLib's values) and on a
# synthetic binary-tree profile written by the parallel writer, the exclusive and
# inclusive dumps with 1 (--engine), 2 and 3 processes and each enumeration equal the
# one-process reader's byte for byte, with threads for local work too; bad input gives one message, exit 1, no hang.
. "$top_srcdir/test/integration/lib.sh"

command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
DUMP="$top_builddir/scorep-cube-dump"
SYNTH="$top_builddir/scorep-cube-synth"
samples="${SHARED_DIR:-$top_srcdir/../shared}/reference/cube-samples"
[ -d "$samples" ] || { echo "SKIP: cube samples not found (set SHARED_DIR)"; exit 77; }
grep -q CUBE_ENGINE_WITH_MPI "$top_builddir/Makefile" ||
    { echo "SKIP: scorep-cube-dump built without MPI"; exit 77; }
mpi() { timeout 120 mpirun --oversubscribe --allow-run-as-root "$@"; }

# same NAME FILE OPTIONS -- LAUNCH...: the engine's dump with OPTIONS equals the one-process
# reader's with OPTIONS less the engine's own (--engine, --threads N, --enumeration M)
same() {
    _name=$1 _file=$2 _opts=$3
    shift 4
    _ref=$(echo "$_opts" | sed 's/--engine//; s/--threads [0-9]*//; s/--enumeration [a-z-]*//')
    # shellcheck disable=SC2086 # the options are split on purpose
    "$DUMP" $_ref "$_file" >want.txt 2>&1 || fail "$_name: scorep-cube-dump $_ref (reader)"
    status=0
    # shellcheck disable=SC2086
    "$@" "$DUMP" $_opts "$_file" >got.txt 2>err.txt || status=$?
    expect_eq "$status" 0 "$_name: runs"
    expect_eq "$(cmp want.txt got.txt >/dev/null 2>&1 && echo same)" same \
        "$_name: $(wc -l <want.txt | tr -d ' ') lines as the one-process reader"
}

for f in "$samples"/*/*.cubex; do
    s=$(basename "$(dirname "$f")")
    same "$s, 1 process (--engine), inclusive" "$f" "-i --engine" --
    same "$s, 2 processes, exclusive" "$f" "" -- mpi -np 2
    same "$s, 2 processes, inclusive" "$f" "-i" -- mpi -np 2
done
f=$samples/kripke.p8.d2.g32.r1/profile.cubex
for how in deepest-chain plain round-robin shuffle; do
    same "kripke, 3 processes, $how, inclusive" "$f" "-i --enumeration $how" -- mpi -np 3
done
same "kripke, 3 processes, time and visits only" "$f" "-m time,visits" -- mpi -np 3
# threads for the wholly local subtrees (one process: all of them; two: most)
same "kripke, 1 process, 4 threads, inclusive" "$f" "-i --engine --threads 4" --
same "kripke, 2 processes, 3 threads, exclusive" "$f" "--threads 3" -- mpi -np 2

# the parallel writer's synthetic profile: 200 locations x 127 binary call paths
"$SYNTH" --locations 200 --cnodes 127 --shape binary --metrics 3 --writers 7 \
    -o "$work/synth.cubex" >/dev/null || fail "scorep-cube-synth"
same "synthetic 200 x 127, 3 processes, inclusive" "$work/synth.cubex" "-i" -- mpi -np 3
same "synthetic 200 x 127, 3 processes, shuffle" "$work/synth.cubex" "--enumeration shuffle" -- mpi -np 3
same "synthetic 200 x 127, 2 processes, 4 threads" "$work/synth.cubex" "-i --threads 4" -- mpi -np 2

# values along the metric tree: metric_2 and metric_3 below visits (scorep-cube-synth
# --metric-tree); by CubeLib's rule (Cube::get_sev_adv) visits exclusive along the metric tree
# (--metric-exclusive) = visits - metric_2 - metric_3 per line of the plain dump (which
# test_cube_synth.sh checks against the formulas), modulo 2^64 as CubeLib's unsigned values
# subtract; the others as they are
"$SYNTH" --locations 30 --cnodes 31 --shape binary --metrics 4 --metric-tree \
    -o "$work/mtree.cubex" >/dev/null || fail "scorep-cube-synth --metric-tree"
for np in 1 2; do
    "$DUMP" -i "$work/mtree.cubex" >plain.txt || fail "scorep-cube-dump -i mtree"
    mpi -np $np "$DUMP" -i --metric-exclusive "$work/mtree.cubex" >mx.txt ||
        fail "mpirun -np $np scorep-cube-dump --metric-exclusive"
    bad=$(python3 -c '
import sys
bad = 0
a, b = open(sys.argv[1]).read().splitlines(), open(sys.argv[2]).read().splitlines()
for line in (x + "\t" + y for x, y in zip(a, b)):
    f = line.split("\t")
    p = dict(x.split("=") for x in f[3:7])
    m = dict(x.split("=") for x in f[10:14])
    want = (int(p["visits"]) - int(p["metric_2"]) - int(p["metric_3"])) % 2**64
    if (len(f) != 14 or int(m["visits"]) != want or m["time"] != p["time"] or
            m["metric_2"] != p["metric_2"] or m["metric_3"] != p["metric_3"]):
        bad += 1
print(bad + abs(len(a) - len(b)))' plain.txt mx.txt) || fail "comparing --metric-exclusive with the plain dump"
    expect_eq "$bad" 0 "$np process(es): --metric-exclusive subtracts the metrics below visits"
    expect_eq "$(wc -l <mx.txt | tr -d ' ')" 930 "$np process(es): 31 x 30 lines"
done

# scorep-score on the engine: the same report as one process (which test_score_samples.sh
# checks against CubeLib's values)
SCORE="$top_builddir/scorep-score"
for s in blast.p64.r1 kripke.p8.d2.g32.r1 pthread_roots user_api; do
    f=$(ls "$samples/$s"/*.cubex)
    "$SCORE" -r -c 2 "$f" >want.txt 2>&1 || fail "$s: scorep-score (reader)"
    for run in "1 --engine" "2" "3 --enumeration shuffle" "2 --threads 3"; do
        np=${run%% *} extra=${run#"$np"}
        status=0
        # shellcheck disable=SC2086 # the options are split on purpose
        mpi -np "$np" "$SCORE" -r -c 2 $extra "$f" >got.txt 2>&1 || status=$?
        expect_eq "$status" 0 "$s: mpirun -np $np scorep-score$extra runs"
        expect_eq "$(cmp want.txt got.txt >/dev/null 2>&1 && echo same)" same \
            "$s: mpirun -np $np scorep-score$extra prints what one process prints"
    done
done

# bad input: one message (from rank 0), exit 1, nobody left waiting
bad() {
    _name=$1 _want=$2
    shift 2
    status=0
    "$@" >out.txt 2>err.txt || status=$?
    expect_eq "$status" 1 "$_name: exit status 1"
    expect_eq "$(grep -c "$_want" err.txt)" 1 "$_name: the message, once"
}
"$SYNTH" --locations 4 --cnodes 3 --shape flat --metrics 2 -o "$work/tiny.cubex" >/dev/null ||
    fail "scorep-cube-synth tiny"
bad "4 processes, 3 call paths" "4 processes but only 3 call paths: use at most 3" \
    mpi -np 4 "$DUMP" "$work/tiny.cubex"
bad "unknown metric" "no metric 'nosuch' in the profile" mpi -np 2 "$DUMP" -m time,nosuch \
    "$work/synth.cubex"
head -c 20000 "$work/synth.cubex" >"$work/cut.cubex"
bad "truncated file" "cut.cubex" mpi -np 2 "$DUMP" "$work/cut.cubex"
rm -f "$work/cut.cubex" # not a profile of the runtime: lib.sh's checks need not see it
echo "$checks checks passed"
