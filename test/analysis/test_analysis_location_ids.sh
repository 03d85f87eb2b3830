#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_analysis_location_ids.sh: our trace readers on location ids of other numberings. OTF2
# allows any uint64 as a location id; our writer uses Score-P's LOCAL << 32 | RANK since
# session 25, LOCAL x RANKS + RANK before, other tools write others. A real trace is copied by
# OTF2's own reader and writer (test/tools/otf2_remap_ids.py, python3-otf2) with its locations
# renumbered: kept (the copy alone), "dense" (our old numbering), "rankmajor" (RANK x 65536 +
# LOCAL) and "scatter" (a bijection far above 2^53). The copy's definitions must carry exactly
# the ids this script computes, every location the same events; then scorep-analyze's
# scout.cubex (scorep-cube-dump; CubeLib's cube_dump with CUBELIB_DUMP), scorep-report's page
# and scorep-otf2-to-chrome's JSON must be byte for byte those of the original. Traces:
# omp_waits.c (MPI + OpenMP, 2 ranks x 3 threads) and pthread_locks.c (no MPI, 4 threads,
# analysed as one process).
. "$top_srcdir/test/integration/lib.sh"

. "$top_srcdir/test/analysis/lib_analysis.sh"
need_hybrid_tools
PY=$(python3_with_otf2)
if [ -z "$PY" ]; then
    [ "${CI:-}" != true ] || fail "python3-otf2 is not installed (with CI=true every part must run)"
    echo "SKIP: python3-otf2 (OTF2's Python bindings) is not installed"
    exit 77
fi
REMAP="$top_srcdir/test/tools/otf2_remap_ids.py"
CHROME="$top_builddir/scorep-otf2-to-chrome"
REPORT="$top_builddir/scorep-report"
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
export KMP_BLOCKTIME=0 OMP_NUM_THREADS=3

# new_id SCHEME ID RANKS: ID (LOCAL << 32 | RANK) in SCHEME, by the shell's 64-bit arithmetic
new_id()
{
    _l=$(($2 >> 32)) _r=$(($2 & 0xffffffff))
    case $1 in
    same) printf '%u\n' "$2" ;;
    dense) echo $((_l * $3 + _r)) ;;
    rankmajor) echo $((_r * 65536 + _l)) ;;
    scatter) printf '%u\n' $(($2 * 0x9E3779B97F4A7C15 + 1)) ;;
    esac
}

# locations EXPDIR: "ID NAME GROUP" of every location definition
locations()
{
    otf2-print -G "$1/traces.otf2" | awk '$1 == "LOCATION" { n = $0; sub(/.*Name: "/, "", n)
        sub(/".*/, "", n); g = $0; sub(/.*Group: "/, "", g); sub(/".*/, "", g)
        print $2 "\t" n "\t" g }'
}

# events EXPDIR: every event as "NAME@GROUP<TAB>the event without its location id", sorted; the
# peers otf2-print names by their location ("Master thread" <ID>) by NAME@GROUP too
events()
{
    locations "$1" >"$work/.locs"
    otf2-print "$1/traces.otf2" | awk -F'\t' -v OFS='\t' 'FNR == NR { who[$1] = $2 "@" $3; next }
        $0 ~ /^[A-Z_]+ +[0-9]+ +[0-9]+ / { split($0, f, " +"); if (!(f[2] in who)) { print "unknown location " f[2]; next }
            r = $0; sub(/^[A-Z_]+ +[0-9]+ +/, "", r); o = ""
            while (match(r, /<[0-9]+>\)/)) { id = substr(r, RSTART + 1, RLENGTH - 3)
                o = o substr(r, 1, RSTART - 1) "<" (id in who ? who[id] : "unknown location " id) ">)"
                r = substr(r, RSTART + RLENGTH) }
            print who[f[2]], f[1] " " o r }' \
        "$work/.locs" - | sort
}

# results NAME EXPDIR NP: the tools on EXPDIR's trace (NP ranks; 0: no mpirun), their outputs
# in NAME.*; run in EXPDIR, so that the paths the outputs name are the same for all
results()
{
    (cd "$2" && "$CHROME" -o "$work/$1.json" traces.otf2) >"$1.chrome.out" 2>&1 ||
        fail "$1: scorep-otf2-to-chrome: $(cat "$1.chrome.out")"
    if [ "$3" = 0 ]; then
        (cd "$2" && "$ANALYZE" .) >"$1.an" 2>&1 || fail "$1: scorep-analyze: $(cat "$1.an")"
    else
        (cd "$2" && $MPIRUN -np "$3" "$ANALYZE" .) >"$1.an" 2>&1 ||
            fail "$1: scorep-analyze: $(cat "$1.an")"
    fi
    "$CUBE_DUMP" "$2/scout.cubex" >"$1.dump" || fail "$1: scorep-cube-dump scout.cubex"
    if [ -n "$CUBELIB_DUMP" ]; then
        "$CUBELIB_DUMP" -w "$2/scout.cubex" >"$1.cubelib" 2>&1 || fail "$1: CubeLib's cube_dump -w"
        "$CUBELIB_DUMP" -m time,visits,omp_ibarrier_wait,mpi_latesender -x excl -s csv2 \
            "$2/scout.cubex" >>"$1.cubelib" 2>&1 || fail "$1: CubeLib's cube_dump -m ..."
    fi
    (cd "$2" && "$REPORT" . -o "$work/$1.html") >"$1.report.out" 2>&1 ||
        fail "$1: scorep-report: $(cat "$1.report.out")"
}

# check_schemes TRACE NP RANKS LOCATIONS: TRACE (an experiment directory) with LOCATIONS
# locations, copied in each scheme, the copies' ids and events checked, the tools' results
# compared with the original's
check_schemes()
{
    _t=$1 _np=$2 _ranks=$3
    results "$_t" "$_t" "$_np"
    locations "$_t" >"$_t.locs"
    events "$_t" >"$_t.events"
    expect_eq "$(wc -l <"$_t.locs" | tr -d ' ')" "$4" "$_t: $4 locations"
    for s in same dense rankmajor scatter; do
        c=$_t.$s
        "$PY" "$REMAP" "$_t/traces.otf2" "$c" $s >"$c.map" 2>"$c.err" ||
            fail "$c: otf2_remap_ids.py: $(tail -n 5 "$c.err")"
        cp "$_t/profile.cubex" "$_t/scorep.cfg" "$_t/MANIFEST.md" "$c/"
        while IFS="$(printf '\t')" read -r id name group; do
            printf '%s\t%s\t%s\n' "$(new_id $s "$id" "$_ranks")" "$name" "$group"
        done <"$_t.locs" | sort >"$c.want"
        locations "$c" | sort >"$c.locs"
        expect_eq "$(cat "$c.locs")" "$(cat "$c.want")" "$c: the copy's location ids are the scheme's"
        expect_eq "$(events "$c" | cksum)" "$(cksum <"$_t.events")" \
            "$c: every location has the original's events ($(wc -l <"$_t.events") events)"
        results "$c" "$c" "$_np"
        for k in dump json html ${CUBELIB_DUMP:+cubelib}; do
            expect_eq "$(cmp "$_t.$k" "$c.$k" 2>&1 || diff "$_t.$k" "$c.$k" | head -n 6 | cut -c 1-240)" "" \
                "$c: $k the same as the original's ($(wc -c <"$c.$k") bytes)"
        done
    done
}

# --- MPI + OpenMP: omp_waits.c, 2 ranks x 3 threads ---
OMPI_CC=clang "$SCOREP_CC" --user --nocompiler mpicc -g -O1 -fopenmp -o omp_waits \
    "$top_srcdir/test/analysis/omp_waits.c" || fail "build: scorep-cc --user mpicc (clang) -fopenmp omp_waits.c"
env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=hyb $MPIRUN -np 2 ./omp_waits 0.05 \
    >hyb.out 2>&1 || fail "omp_waits on 2 ranks: $(tail -n 5 hyb.out)"
check_schemes hyb 2 2 6
expect_grep "Master thread	MPI Rank 1" hyb.locs "hyb: rank 1's master"

# --- no MPI: pthread_locks.c, main and 3 threads, one process ---
"$SCOREP_CC" --nocompiler gcc -O1 -o pthread_locks "$top_srcdir/test/analysis/pthread_locks.c" -lpthread ||
    fail "build: scorep-cc gcc pthread_locks.c"
env SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime SCOREP_EXPERIMENT_DIRECTORY=thr \
    ./pthread_locks 0.05 >thr.out 2>&1 || fail "pthread_locks: $(tail -n 5 thr.out)"
check_schemes thr 0 1 4
[ -n "$CUBELIB_DUMP" ] || skip_part_here cubelib "CubeLib's cube_dump is not packaged here (set CUBELIB_DUMP)"
done_ok
