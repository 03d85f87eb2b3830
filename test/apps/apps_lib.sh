# SPDX-License-Identifier: BSD-3-Clause
# test/apps/apps_lib.sh: what the manual application suites (lammps.sh, gromacs.sh, nwchem.sh,
# qe.sh, cp2k.sh) share: their tools, a clean environment, a work directory, the check counters,
# CubeLib's reading of a profile, the trace checks and the overhead table. Sourced after
# `set -eu -o pipefail` and the suite's own test that its application is installed.

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

# loc_enters EXPDIR: "RANK<TAB>THREAD<TAB>REGION<TAB>COUNT" of the trace's Enter events
loc_enters() {
    awk 'FNR == NR { if ($1 == "LOCATION") { g = $0; sub(/.*Group: "MPI Rank /, "", g); sub(/".*/, "", g)
            t = $0; sub(/^[^"]*"/, "", t); sub(/".*/, "", t); loc[$2] = g "\t" t } next }
        $1 == "ENTER" { r = $0; sub(/^[^"]*"/, "", r); sub(/" <[0-9]+>$/, "", r); n[loc[$2] "\t" r]++ }
        END { for (k in n) print k "\t" n[k] }' "$1.defs" "$1.events"
}

# check_waits NAME SCOUT: every wait-state metric of the whole run >= 0; the MPI ones
# (Late Sender with its Wrong Order part, Late Receiver, Early Reduce/Scan, Late Broadcast,
# Wait at N x N, Wait at Barrier, N x N and Barrier Completion) sum to at most the MPI time,
# that at most the time; the OpenMP barrier waits at most the OpenMP time. Values of CubeLib's
# cube_dump: metric and call tree inclusive, the roots, summed over the system tree.
check_waits() {
    local name=$1 f=$2 m have=() line
    "$CUBE_DUMP" -w "$f" >"$name.scout.w" 2>/dev/null || { bad "$name: cube_dump -w $f"; return; }
    for m in time mpi omp_time mpi_latesender mpi_latereceiver mpi_earlyreduce mpi_earlyscan \
        mpi_latebroadcast mpi_wait_nxn mpi_barrier_wait mpi_nxn_completion mpi_barrier_completion \
        omp_ebarrier_wait omp_ibarrier_wait; do
        if grep -q "^[[:space:]]*[^(]*($m," "$name.scout.w" 2>/dev/null ||
            "$CUBE_DUMP" -m "$m" -c roots -z incl -x incl -t aggr -s csv2 "$f" >/dev/null 2>&1; then
            have+=("$m")
        fi
    done
    : >"$name.waits"
    for m in "${have[@]}"; do
        line=$("$CUBE_DUMP" -m "$m" -c roots -z incl -x incl -t aggr -s csv2 "$f" 2>/dev/null |
            awk -F, 'NR > 1 && NF > 1 { s += $NF } END { printf "%.9f", s }')
        echo "$m $line" >>"$name.waits"
    done
    if awk '{ v[$1] = $2; if ($2 < 0) neg++ }
        END { w = v["mpi_latesender"] + v["mpi_latereceiver"] + v["mpi_earlyreduce"] + v["mpi_earlyscan"]
              w += v["mpi_latebroadcast"] + v["mpi_wait_nxn"] + v["mpi_barrier_wait"] + v["mpi_nxn_completion"]
              w += v["mpi_barrier_completion"]
              o = v["omp_ebarrier_wait"] + v["omp_ibarrier_wait"]
              printf "time %.3f s, MPI %.3f s (wait states %.3f s: late sender %.3f, wait at NxN %.3f), OpenMP %.3f s (barrier waits %.3f s)\n",
                  v["time"], v["mpi"], w, v["mpi_latesender"], v["mpi_wait_nxn"], v["omp_time"], o > "/dev/stderr"
              good = neg == 0 && v["time"] > 0 && v["mpi"] > 0 && w <= v["mpi"] * (1 + 1e-9)
              good = good && v["mpi"] <= v["time"] && o <= v["omp_time"] * (1 + 1e-9)
              exit !good }' "$name.waits" 2>"$name.waits.txt"; then
        ok "$name: wait states consistent: $(cat "$name.waits.txt")"
    else
        bad "$name: wait states: $(cat "$name.waits.txt") [$(tr '\n' ' ' <"$name.waits")]"
    fi
}

# check_score NAME: scorep-score's max_buf (bytes, the ALL row's) against the bytes the
# trace buffers used (SCOREP_VERBOSE lines, summed per rank, the largest rank). max_buf is,
# as in Score-P, the buffer the complete trace needs ("to avoid intermediate flushes"); a
# buffer that was flushed holds at the end only what came after its last flush (CP2K in
# session 26: 3,454,648 bytes left of a 17.6 MB trace under the default 16000k), so a run
# whose buffers were flushed is not compared: reported as a failure of the run's
# SCOREP_TOTAL_MEMORY, with the flush count (test/mpi/test_score_poll.sh compares a flushed
# trace's complete records with the estimate).
check_score() {
    local name=$1 x=$1.exp est used nr nf
    if ! scorep-score "$x/profile.cubex" >"$name.score" 2>"$name.score.err"; then
        bad "$name: scorep-score: $(head -c 300 "$name.score.err")"
        return
    fi
    # the ALL row's max_buf column, exact (the "max_buf" line above it is rounded up to whole
    # units: "7MB" for 6.6 MB, which read as bytes is 11% off)
    est=$(awk '$1 == "ALL" && $NF == "ALL" { gsub(",", "", $2); print $2; exit }' "$name.score")
    # (the ranks whose buffer messages were found are counted: a rank missing reads as a low
    # sum; the flushes of all locations are summed)
    read -r used nr nf < <(cat "$name.out" "$name.err" | sed -n 's/.*trace buffer of rank \([0-9]*\) location [0-9]*: \([0-9]*\) bytes used in [0-9]* pages, \([0-9]*\) flushes.*/\1 \2 \3/p' |
        awk '{ s[$1] += $2; f += $3 } END { for (r in s) { if (s[r] > m) m = s[r]; n++ } print m + 0, n + 0, f + 0 }')
    echo "$name: scorep-score max_buf $est bytes, largest rank's buffers used $used bytes ($nr of $NP ranks' buffer messages found, $nf flushes)" >"$name.score.cmp"
    if [ "$nf" -gt 0 ]; then
        bad "$(cat "$name.score.cmp"): the buffers were flushed, their last fill is not the trace's size (SCOREP_TOTAL_MEMORY below the trace's needs)"
    elif [ "$used" -gt 0 ] && awk -v e="$est" -v u="$used" 'BEGIN { exit !(e >= u * 0.99 && e <= u * 1.01 + 2048) }'; then
        ok "$(cat "$name.score.cmp") (within 1%)"
    else
        bad "$(cat "$name.score.cmp")"
    fi
}

# score_memory NAME: a SCOREP_TOTAL_MEMORY for a traced run that its buffers should not
# outgrow: 4 x what scorep-score estimates from run NAME's profile, at least 128M. Polling
# programs call MPI_Test* as often as the load makes them wait: CP2K's profile run of
# session 26 had no MPI_Testany visit, its traced runs 251,240 and 307,160 (12.5 MB), the
# run that failed the check 17.6 MB. The pool is populated at start (MAP_POPULATE): 128M
# per process. 128M when NAME's profile cannot be scored.
score_memory() {
    local kb
    kb=$(scorep-score "$1.exp/profile.cubex" 2>/dev/null | awk -F: '/SCOREP_TOTAL_MEMORY\)/ { v = $2; gsub(/ /, "", v)
        u = v; sub(/^[0-9.]+/, "", u); n = v + 0
        m = u == "kB" ? 1 : u == "MB" ? 1024 : u == "GB" ? 1048576 : u == "bytes" ? 1 / 1024 : 0
        print int(n * m * 4) + 1; exit }') || kb=
    if [ -z "$kb" ] || [ "$kb" -lt 131072 ]; then kb=131072; fi
    echo "${kb}k"
}

# trace_checks NAME MODE [omp]: the trace of run NAME (experiment NAME.exp): otf2-print and
# otf2-print -G read it silently (NAME.exp.events, NAME.exp.defs); clock_condition.py pairs
# every message, no violation; Enter/Leave nest per location; with "omp": every ThreadFork
# joined, every team begin ended, per rank as many team members as the forks requested (1
# for a nested fork); with
# MODE both the profile's visits per (rank, thread, region) = the trace's Enter events
# (cube_values.py, CubeLib's cube_dump); scorep-analyze's scout.cubex read by cube_dump and
# its wait states consistent (check_waits). Returns 1 when otf2-print fails.
trace_checks() {
    local name=$1 mode=$2 omp=${3:-} x=$1.exp
    if otf2-print "$x/traces.otf2" >"$x.events" 2>"$x.print.err" && [ ! -s "$x.print.err" ]; then
        ok "$name: otf2-print reads the trace, nothing on stderr ($(wc -l <"$x.events") lines)"
    else
        bad "$name: otf2-print: $(head -c 300 "$x.print.err")"
        return 1
    fi
    if otf2-print -G "$x/traces.otf2" >"$x.defs" 2>"$x.defs.err" && [ ! -s "$x.defs.err" ]; then
        ok "$name: otf2-print -G reads the definitions silently"
    else
        bad "$name: otf2-print -G: $(head -c 300 "$x.defs.err")"
        return 1
    fi
    if [ -z "$PY" ]; then
        skip "$name: no python3 with the otf2 module (python3-otf2) for clock_condition.py"
    elif "$PY" "$top/test/mpi/clock_condition.py" "$x/traces.otf2" >"$x.cc" 2>"$x.cc.err"; then
        read -r s r m u _ v k w < <(sed 's/[a-z_]*=//g' "$x.cc")
        if [ "$s" = "$r" ] && [ "$s" = "$m" ] && [ "$u$v$w" = 000 ] && [ "$s" -gt 0 ]; then
            ok "$name: clock_condition.py: $s messages all paired, $k collectives, no violation"
        else
            bad "$name: clock_condition.py: $(cat "$x.cc") $(head -c 300 "$x.cc.err")"
        fi
    else
        bad "$name: clock_condition.py failed: $(head -c 300 "$x.cc.err")"
    fi
    local nest enters unnested
    nest=$(awk '$1 == "ENTER" { s[$2, ++d[$2]] = $NF; n++ }
        $1 == "LEAVE" { if (d[$2] < 1 || s[$2, d[$2]] != $NF) bad++; else d[$2]-- }
        END { for (l in d) if (d[l]) bad++; print n + 0, bad + 0 }' "$x.events")
    read -r enters unnested <<<"$nest"
    if [ "$enters" -gt 0 ] && [ "$unnested" = 0 ]; then
        ok "$name: $enters Enter events, every Leave matches its location's innermost Enter"
    else
        bad "$name: Enter/Leave: $enters enters, $unnested not nested"
    fi
    if [ "$omp" = omp ]; then
        local forks teams unbalanced nested
        # a fork inside a team (a nested parallel region) gets a team of 1 (libgomp's default
        # max-active-levels 1), though it asked for OMP_NUM_THREADS as the forks outside do
        read -r forks teams unbalanced nested < <(awk 'FNR == NR { if ($1 == "LOCATION") { g = $0; sub(/.*Group: "MPI Rank /, "", g); sub(/".*/, "", g); rank[$2] = g } next }
            $1 == "THREAD_FORK" { f[$2]++; t = $0; sub(/.*Requested Threads: /, "", t); forks++
                if (b[$2] > 0) { req[rank[$2]]++; nested++ } else req[rank[$2]] += t + 0 }
            $1 == "THREAD_JOIN" { f[$2]-- }
            $1 == "THREAD_TEAM_BEGIN" { b[$2]++; tb[rank[$2]]++; teams++ }
            $1 == "THREAD_TEAM_END" { b[$2]-- }
            END { for (l in f) if (f[l]) bad++; for (l in b) if (b[l]) bad++
                  for (r in req) if (req[r] != tb[r]) bad++; for (r in tb) if (req[r] != tb[r]) bad++
                  print forks + 0, teams + 0, bad + 0, nested + 0 }' "$x.defs" "$x.events")
        if [ "$forks" -gt 0 ] && [ "$unbalanced" = 0 ]; then
            ok "$name: OpenMP: $forks forks ($nested nested, teams of 1), $teams team members, every fork joined, every team begin ended"
        else
            bad "$name: OpenMP: forks $forks, team begins $teams, unbalanced $unbalanced"
        fi
    fi
    if [ "$mode" = both ]; then
        loc_enters "$x" | sort >"$x.trace_visits"
        py_visits "$x/profile.cubex" | sort >"$x.py_visits"
        compare_visits "$name" cube_values.py "$x.py_visits"
        if [ -z "$CUBE_DUMP" ]; then
            skip "$name: visits per thread by CubeLib (no cube_dump)"
        else
            cube_visits "$x/profile.cubex" | sort >"$x.cube_visits"
            compare_visits "$name" "CubeLib's cube_dump" "$x.cube_visits"
        fi
    fi
    if timeout -k 10 300 mpirun -np "$NP" scorep-analyze "$x" >"$x.an.out" 2>&1 && [ -s "$x/scout.cubex" ]; then
        ok "$name: scorep-analyze on $NP ranks: scout.cubex written"
        check_cube "$name" "$x/scout.cubex"
        if [ -n "$CUBE_DUMP" ]; then check_waits "$name" "$x/scout.cubex"; else skip "$name: wait states (no cube_dump)"; fi
    else
        bad "$name: scorep-analyze: $(tail -n 3 "$x.an.out")"
    fi
}

# overhead_runs FIRST [DETERMINISM]: the further plain runs (from the FIRST-th on: the suites'
# determinism run may be a plain one already: its name DETERMINISM, whose times join plain's)
# and profile and trace runs up to REPS of each, with the suite's run function; a failed run
# is counted by run's checks
overhead_runs() {
    local i mode
    for ((i = $1; i < REPS; i++)); do run plain plain || true; done
    if [ -n "${2:-}" ]; then
        cat "$2.time" >>plain.time
        if [ -e "$2.loop" ]; then cat "$2.loop" >>plain.loop; fi
    fi
    for mode in profile trace; do
        for ((i = 1; i < REPS; i++)); do run $mode $mode || true; done
    done
}

# overhead_table LOOP SETUP: the table of the plain, profile and trace runs: medians of the wall
# seconds in NAME.time and, when LOOP names the program's own timer, of its seconds in
# NAME.loop ("" for none), against plain's; the experiments' bytes; SETUP says what ran
overhead_table() {
    local loop=$1 setup=$2 p lp t l mode
    med() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
    sz() { du -sb "$1" 2>/dev/null | cut -f1; }
    echo
    if [ -n "$loop" ]; then
        echo "| run | wall s | x plain | $loop wall s | x plain | experiment bytes |"
        echo "| --- | --- | --- | --- | --- | --- |"
        lp=$(med plain.loop)
    else
        echo "| run | wall s | x plain | experiment bytes |"
        echo "| --- | --- | --- | --- |"
    fi
    p=$(med plain.time)
    for mode in plain profile trace; do
        t=$(med $mode.time)
        if [ -n "$loop" ]; then
            l=$(med $mode.loop)
            awk -v n="$mode" -v t="$t" -v p="$p" -v l="$l" -v lp="$lp" -v s="$(sz $mode.exp)" \
                'BEGIN { printf "| %s | %.2f | %.2f | %.2f | %.2f | %s |\n", n, t, t / p, l, l / lp, s == "" ? "-" : s }'
        else
            awk -v n="$mode" -v t="$t" -v p="$p" -v s="$(sz $mode.exp)" \
                'BEGIN { printf "| %s | %.2f | %.2f | %s |\n", n, t, t / p, s == "" ? "-" : s }'
        fi
    done
    echo "(medians of $REPS runs, $setup; each run's seconds: plain $(tr '\n' ' ' <plain.time)profile $(tr '\n' ' ' <profile.time)trace $(tr '\n' ' ' <trace.time);"
    echo " load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
}

# apps_end SUITE: the suite's closing line; its status is the suite's (0 when nothing failed)
apps_end() {
    echo
    echo "$1: $passed passed, $failed failed, $skipped skipped"
    [ "$failed" = 0 ]
}
