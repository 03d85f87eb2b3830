# SPDX-License-Identifier: BSD-3-Clause
# test/apps/apps_lib.sh: what the manual application suites (lammps.sh, gromacs.sh, nwchem.sh)
# share: their tools, a clean environment, a work directory, the check counters and CubeLib's
# reading of a profile. Sourced after `set -eu -o pipefail` and the suite's own test that its
# application is installed.

# apps_begin NAME [VAR-PREFIX...]: stops (exit 2, or 77 without mpirun) unless PREFIX has
# scorep-run and otf2-print is there; sets PY (a python3 with python3-otf2's module, or
# empty) and CUBE_DUMP (CUBE_DUMP=..., else cube_dump on PATH, else /work/ref/*/bin/cube_dump,
# else empty); unsets the SCOREP_, OMP_, GOMP_, KMP_ (and VAR-PREFIX_) variables of the calling
# environment, which must not change the runs; makes the work directory, removed at exit
# unless KEEP is set, and enters it (as $work)
apps_begin() {
    local name=$1 prefixes='SCOREP\|OMP\|GOMP\|KMP' p c v
    shift
    for p in "$@"; do prefixes="$prefixes\\|$p"; done
    [ -x "$PREFIX/bin/scorep-run" ] || { echo "error: no $PREFIX/bin/scorep-run (set PREFIX)" >&2; exit 2; }
    command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
    command -v otf2-print >/dev/null 2>&1 || { echo "error: no otf2-print (otf2-tools)" >&2; exit 2; }
    PY=
    for p in python3 /usr/bin/python3; do
        if "$p" -c 'import otf2' 2>/dev/null; then PY=$p; break; fi
    done
    if [ -z "${CUBE_DUMP:-}" ]; then
        CUBE_DUMP=$(command -v cube_dump) || CUBE_DUMP=
        for c in /work/ref/*/bin/cube_dump; do
            [ -n "$CUBE_DUMP" ] || [ ! -x "$c" ] || CUBE_DUMP=$c
        done
    fi
    export PATH="$PREFIX/bin:$PATH"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    export LC_ALL=C
    for v in $(env | sed -n "s/^\\(\\($prefixes\\)_[A-Za-z0-9_]*\\)=.*/\\1/p"); do
        unset "$v"
    done
    work=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
    trap apps_cleanup EXIT
    cd "$work"
}

apps_cleanup() { if [ -z "${KEEP:-}" ]; then rm -rf "$work"; else echo "work directory: $work"; fi; }

passed=0 failed=0 skipped=0
ok() { passed=$((passed + 1)); echo "ok: $*"; }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
skip() { skipped=$((skipped + 1)); echo "skip: $*"; }
# expect ACTUAL EXPECTED WHAT
expect() {
    if [ "$1" = "$2" ]; then ok "$3 ($2)"; else bad "$3: expected '$2', got '$1'"; fi
}

# check_cube NAME FILE: CubeLib's cube_dump reads FILE without a word on stderr
check_cube() {
    if [ -z "$CUBE_DUMP" ]; then
        skip "$1: no CubeLib cube_dump (CUBE_DUMP=...) to read $(basename "$2")"
        return
    fi
    if "$CUBE_DUMP" -m visits -s csv2 "$2" >"$1.$(basename "$2").csv" 2>"$1.cube.err" &&
        [ -s "$1.$(basename "$2").csv" ] && [ ! -s "$1.cube.err" ]; then
        ok "$1: CubeLib's cube_dump reads $(basename "$2") ($(wc -l <"$1.$(basename "$2").csv") lines)"
    else
        bad "$1: cube_dump $2 failed: $(head -c 300 "$1.cube.err")"
    fi
}

# cube_visits FILE: "RANK<TAB>THREAD<TAB>REGION<TAB>VISITS" of FILE as CubeLib's cube_dump
# reads it (apps_cube_flat.py)
cube_visits() {
    "$CUBE_DUMP" -w "$1" >"$work/cube.w"
    "$CUBE_DUMP" -m visits -r -s csv2 "$1" >"$work/cube.flat"
    python3 "$(dirname "${BASH_SOURCE[0]}")/apps_cube_flat.py" "$work/cube.w" "$work/cube.flat"
}

# py_visits FILE: "RANK<TAB>THREAD<TAB>REGION<TAB>COUNT" of every region but the
# measurement's own, read by test/tools/cube_values.py (a Cube4 reader written from the
# format's description, not the runtime's code); threads, ranks and paradigms from anchor.xml
py_visits() {
    python3 "$(dirname "${BASH_SOURCE[0]}")/../tools/cube_values.py" "$1" visits >"$work/cv.txt"
    python3 - "$1" "$work/cv.txt" <<'PY'
import collections, gzip, sys, tarfile, xml.etree.ElementTree as ET
a = tarfile.open(sys.argv[1]).extractfile('anchor.xml').read()
root = ET.fromstring(gzip.decompress(a) if a[:2] == b'\x1f\x8b' else a)
thread = {l.get('Id'): (g.findtext('rank'), l.findtext('name')) for g in root.iter('locationgroup')
          for l in g.findall('location')}
own = {r.findtext('name') for r in root.iter('region') if r.findtext('paradigm') == 'measurement'}
n = collections.Counter()
for line in open(sys.argv[2]):
    path, loc, v = line.rstrip('\n').split('\t')
    region = path.split('/')[-1]
    if region not in own:
        n[thread[loc] + (region,)] += int(float(v))
for k, v in n.items():
    if v:
        print('\t'.join(k + (str(v),)))
PY
}

# compare_visits NAME WHO FILE: FILE (sorted "RANK THREAD REGION COUNT") against the trace's
compare_visits() {
    local name=$1 who=$2 f=$3 x=$1.exp
    if [ -s "$x.trace_visits" ] && cmp -s "$x.trace_visits" "$f"; then
        ok "$name: visits per thread and region, profile ($who) = trace: $(wc -l <"$f") (thread, region) pairs, $(awk -F'\t' '{ s += $4 } END { print s }' "$f") visits, $(awk -F'\t' '$3 ~ /^MPI_/ { s += $4 } END { print s + 0 }' "$f") of MPI"
    else
        bad "$name: visits per thread and region, profile ($who) != trace: $(diff "$x.trace_visits" "$f" | head -n 6)"
    fi
}
