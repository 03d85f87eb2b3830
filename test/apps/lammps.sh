#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# test/apps/lammps.sh: manual validation of scorep-rt with LAMMPS, a real MPI + OpenMP
# application (Debian 12's `lammps` package: /usr/bin/lmp, Open MPI, gcc's libgomp), run
# unchanged under `mpirun -np N scorep-run lmp ...`. Not part of `make check` (it needs
# the lammps and lammps-examples packages and takes a few minutes); docs/openmp.md, "LAMMPS",
# has its results.
#
#   PREFIX=$PWD/_install test/apps/lammps.sh     # or: apt-get install lammps lammps-examples
#
# Inputs: the LJ melt (in.lj below: 4000 atoms, 200 steps; no OpenMP in Debian's build,
# which has no OPENMP package, so `-sf omp -pk omp N` does not exist there), and the
# solvated peptide of lammps-examples (in.peptide, 2004 atoms, PPPM, 100 steps): its
# OpenMP is FFTW's threaded FFTs (libfftw3_omp) and KSpace::qsum_qsq, threaded when
# OMP_NUM_THREADS is set. Runs: LJ 2 ranks x 1 thread, peptide 1 x 2 and 2 x 2 (on
# libgomp through the GOMP_* wrappers, and on libomp through OMPT), peptide 2 x 4 with a
# small SCOREP_TOTAL_MEMORY (buffers flushed); each plain, profiled and traced.
# Checks, each a line "ok:", "FAIL:" or "skip:", then a summary line:
#  * LAMMPS's thermo output (every thermo step's energies) is the same plain and measured
#    (same binary, input and decomposition; the CPU column taken out);
#  * nothing on stderr from the measurement (no "[scorep-rt]" line) but the memory warnings
#    of the small-memory run;
#  * otf2-print reads each trace with nothing on stderr; test/mpi/clock_condition.py
#    (python3-otf2, OTF2's own reader) pairs every message and finds no clock violation;
#  * OpenMP: per location a ThreadJoin per ThreadFork and a ThreadTeamEnd per
#    ThreadTeamBegin; per rank as many team begins as the forks requested threads; every
#    OpenMP region named the same on every rank (no absolute address: the session 20 fix);
#  * the visits of every region (but the program's root) on every thread in the profile
#    equal the number of its Enter events on that thread in the trace, the profile read by
#    test/tools/cube_values.py and by CubeLib's cube_dump (CUBE_DUMP=..., else cube_dump
#    on PATH, else /work/ref/*/bin/cube_dump; skipped without one), which must also read
#    every profile.cubex and scout.cubex;
#  * mpirun -np N scorep-analyze EXPDIR exits 0 and writes scout.cubex;
#  * overhead: wall time of plain, profile and trace runs and LAMMPS's "Loop time", medians
#    of REPS runs (default 3), printed as a table (REPS=0 leaves it out).
# Exit status 0 when every check passed, 1 otherwise, 77 when LAMMPS is not installed.
# KEEP=1 keeps the work directory (printed at the end).
set -eu -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
PREFIX=${PREFIX:-$top/_install}
LMP=${LMP:-lmp}
REPS=${REPS:-3}
EXAMPLES=${EXAMPLES:-/usr/share/lammps/examples}

command -v "$LMP" >/dev/null 2>&1 || {
    echo "SKIP: LAMMPS ($LMP) is not installed (apt-get install lammps lammps-examples)"
    exit 77
}
. "$here/apps_lib.sh"
apps_begin lammps

# ------------------------------------------------------------------ inputs
cat >in.lj <<'EOF'
# LJ melt as LAMMPS's bench/in.lj, smaller: 4000 atoms, 200 steps
units		lj
atom_style	atomic
lattice		fcc 0.8442
region		box block 0 10 0 10 0 10
create_box	1 box
create_atoms	1 box
mass		1 1.0
velocity	all create 1.44 87287 loop geom
pair_style	lj/cut 2.5
pair_coeff	1 1 1.0 1.0 2.5
neighbor	0.3 bin
neigh_modify	delay 0 every 20 check no
fix		1 all nve
thermo		50
run		200
EOF
have_peptide=1
if [ -f "$EXAMPLES/peptide/in.peptide" ] && [ -f "$EXAMPLES/peptide/data.peptide" ]; then
    sed 's/^run.*/run 100/' "$EXAMPLES/peptide/in.peptide" >in.peptide
    cp "$EXAMPLES/peptide/data.peptide" .
else
    have_peptide=0
fi

# ------------------------------------------------------------------ runs
# run NAME INPUT NP NT MODE [RUNTIME [ENV|--OPTION...]]: one run of lmp on NP ranks x NT
# threads, MODE plain, profile or trace, measured under scorep-run --openmp-runtime=RUNTIME
# (default libgomp) and the --OPTIONs, with the ENV settings (VAR=VALUE); output NAME.out,
# NAME.err, experiment NAME.exp; wall seconds appended to NAME.time. Fails (returns 1) when
# lmp does; a hang is stopped after 300 s.
run() {
    local name=$1 input=$2 np=$3 nt=$4 mode=$5 rt=${6:-libgomp}
    shift 6 || shift $#
    local t0 t1 st=0 tracing=false
    [ "$mode" != trace ] || tracing=true
    local cmd=("$LMP" -in "$input" -log none -echo none)
    local opts=() envs=() e
    for e in "$@"; do
        case $e in --*) opts+=("$e") ;; *) envs+=("$e") ;; esac
    done
    set -- "${envs[@]}"
    rm -rf "$name.exp"
    if [ "$mode" != plain ]; then
        cmd=(scorep-run --openmp-runtime="$rt" "${opts[@]}" "${cmd[@]}")
        set -- "$@" SCOREP_EXPERIMENT_DIRECTORY="$name.exp" SCOREP_ENABLE_PROFILING=true \
            SCOREP_ENABLE_TRACING=$tracing
    fi
    t0=$(date +%s.%N)
    env "$@" timeout -k 10 300 mpirun -np "$np" -x OMP_NUM_THREADS="$nt" "${cmd[@]}" \
        >"$name.out" 2>"$name.err" || st=$?
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }' >>"$name.time"
    awk '/^Loop time of/ { t += $4 } END { printf "%.3f\n", t }' "$name.out" >>"$name.loop"
    if [ $st -ne 0 ]; then
        bad "$name: lmp exit status $st: $(tail -n 3 "$name.err")"
        return 1
    fi
}

# thermo FILE: LAMMPS's thermo output (from the first "Step" header to "Loop time"), the
# CPU time of thermo_style multi taken out
thermo() {
    awk '/Step/ { on = 1 } /^Loop time/ { on = 0 } on' "$1" | sed 's/CPU = *[0-9.e+-]* (sec)//'
}

# ------------------------------------------------------------------ checks of one run
# check_run NAME REF NP NT MODE [ALLOWED]: the checks of measured run NAME against plain run
# REF; ALLOWED: an ERE of scorep-rt warnings the run may print
check_run() {
    local name=$1 ref=$2 np=$3 nt=$4 mode=$5 allowed=${6:-}
    local x=$name.exp
    if [ -n "$(thermo "$ref.out")" ] && [ "$(thermo "$name.out")" = "$(thermo "$ref.out")" ]; then
        ok "$name: thermo output as plain ($(thermo "$ref.out" | wc -l) lines)"
    else
        bad "$name: thermo output differs from plain: $(diff <(thermo "$ref.out") <(thermo "$name.out") | head -n 4)"
    fi
    grep -a '\[scorep-rt\]' "$name.err" | { if [ -n "$allowed" ]; then grep -Ev "$allowed"; else cat; fi; } \
        >"$name.warn" || true
    if [ -s "$name.warn" ]; then bad "$name: measurement warnings: $(head -n 3 "$name.warn")"; else ok "$name: no measurement warning"; fi
    if [ -f "$x/profile.cubex" ]; then ok "$name: profile.cubex written"; else bad "$name: no $x/profile.cubex"; return; fi
    check_cube "$name" "$x/profile.cubex"
    check_omp_names "$name" "$x"
    [ "$mode" = trace ] || return 0
    check_trace "$name" "$np" "$nt"
}

# check_omp_names NAME EXPDIR: no OpenMP region named by an absolute address
check_omp_names() {
    local n
    scorep-cube-dump -m visits "$2/profile.cubex" >"$1.visits"
    n=$(awk -F'\t' '$2 ~ /!\$omp[^\/]*@0x/ { n++ } END { print n + 0 }' "$1.visits")
    expect "$n" 0 "$1: no OpenMP region named by an absolute address (profile rows)"
}

# loc_enters EXPDIR: "RANK<TAB>THREAD<TAB>REGION<TAB>COUNT" of the trace's Enter events
loc_enters() {
    awk 'FNR == NR { if ($1 == "LOCATION") { g = $0; sub(/.*Group: "MPI Rank /, "", g); sub(/".*/, "", g)
            t = $0; sub(/^[^"]*"/, "", t); sub(/".*/, "", t); loc[$2] = g "\t" t } next }
        $1 == "ENTER" { r = $0; sub(/^[^"]*"/, "", r); sub(/" <[0-9]+>$/, "", r); n[loc[$2] "\t" r]++ }
        END { for (k in n) print k "\t" n[k] }' "$1.defs" "$1.events"
}

# check_trace NAME NP NT
check_trace() {
    local name=$1 np=$2 nt=$3 x=$1.exp
    if otf2-print "$x/traces.otf2" >"$x.events" 2>"$x.print.err" && [ ! -s "$x.print.err" ]; then
        ok "$name: otf2-print reads the trace, nothing on stderr ($(wc -l <"$x.events") lines)"
    else
        bad "$name: otf2-print: $(head -c 300 "$x.print.err")"
        return
    fi
    if otf2-print -G "$x/traces.otf2" >"$x.defs" 2>"$x.defs.err" && [ ! -s "$x.defs.err" ]; then
        ok "$name: otf2-print -G reads the definitions silently"
    else
        bad "$name: otf2-print -G: $(head -c 300 "$x.defs.err")"
        return
    fi
    if [ -z "$PY" ]; then
        skip "$name: no python3 with the otf2 module (python3-otf2) for clock_condition.py"
    elif "$PY" "$top/test/mpi/clock_condition.py" "$x/traces.otf2" >"$x.cc" 2>"$x.cc.err"; then
        # sends=S receives=R matched=M unmatched=U cancelled=C violations=V collectives=K coll_violations=W
        read -r s r m u _ v k w < <(sed 's/[a-z_]*=//g' "$x.cc")
        if [ "$s" = "$r" ] && [ "$s" = "$m" ] && [ "$u$v$w" = 000 ] && { [ "$np" = 1 ] || [ "$s" -gt 0 ]; }; then
            ok "$name: clock_condition.py: $s messages all paired, $k collectives, no violation"
        else
            bad "$name: clock_condition.py: $(cat "$x.cc") $(head -c 300 "$x.cc.err")"
        fi
    else
        bad "$name: clock_condition.py failed: $(head -c 300 "$x.cc.err")"
    fi
    # every Leave closes the innermost open Enter of its location, and none stays open
    local nest
    nest=$(awk '$1 == "ENTER" { s[$2, ++d[$2]] = $NF; n++ }
        $1 == "LEAVE" { if (d[$2] < 1 || s[$2, d[$2]] != $NF) bad++; else d[$2]-- }
        END { for (l in d) if (d[l]) bad++; print n + 0, bad + 0 }' "$x.events")
    read -r enters unnested <<<"$nest"
    if [ "$enters" -gt 0 ] && [ "$unnested" = 0 ]; then
        ok "$name: $enters Enter events, every Leave matches its location's innermost Enter"
    else
        bad "$name: Enter/Leave: $enters enters, $unnested not nested"
    fi
    # OpenMP: joins per forks and team ends per team begins on every location; team begins
    # per rank = the threads the forks of that rank requested
    local omp
    omp=$(awk 'FNR == NR { if ($1 == "LOCATION") { g = $0; sub(/.*Group: "MPI Rank /, "", g); sub(/".*/, "", g); rank[$2] = g } next }
        $1 == "THREAD_FORK" { f[$2]++; t = $0; sub(/.*Requested Threads: /, "", t); req[rank[$2]] += t + 0; forks++ }
        $1 == "THREAD_JOIN" { f[$2]-- }
        $1 == "THREAD_TEAM_BEGIN" { b[$2]++; tb[rank[$2]]++; teams++ }
        $1 == "THREAD_TEAM_END" { b[$2]-- }
        END { for (l in f) if (f[l]) bad++; for (l in b) if (b[l]) bad++
              for (r in req) if (req[r] != tb[r]) bad++; for (r in tb) if (req[r] != tb[r]) bad++
              print forks + 0, teams + 0, bad + 0 }' "$x.defs" "$x.events")
    read -r forks teams unbalanced <<<"$omp"
    if [ "$nt" -gt 1 ]; then
        if [ "$forks" -gt 0 ] && [ "$unbalanced" = 0 ]; then
            ok "$name: OpenMP: $forks forks, $teams team members, every fork joined, every team begin ended, members = requested threads per rank"
        else
            bad "$name: OpenMP: forks $forks, team begins $teams, unbalanced $unbalanced"
        fi
    else
        expect "$forks $teams $unbalanced" "0 0 0" "$name: no OpenMP team with 1 thread"
    fi
    # the profile's visits of every region per thread = the trace's Enter events
    loc_enters "$x" >"$x.enters"
    sort "$x.enters" >"$x.trace_visits"
    py_visits "$x/profile.cubex" >"$x.pyv"
    sort "$x.pyv" >"$x.py_visits"
    compare_visits "$name" cube_values.py "$x.py_visits"
    if [ -z "$CUBE_DUMP" ]; then
        skip "$name: visits per thread by CubeLib (no cube_dump)"
    else
        cube_visits "$x/profile.cubex" >"$x.cv"
        sort "$x.cv" >"$x.cube_visits"
        compare_visits "$name" "CubeLib's cube_dump" "$x.cube_visits"
    fi
    if timeout -k 10 300 mpirun -np "$np" scorep-analyze "$x" >"$x.an.out" 2>&1 && [ -s "$x/scout.cubex" ]; then
        ok "$name: scorep-analyze on $np ranks: $(grep -c '' "$x.an.out") lines, scout.cubex written"
        [ -z "$CUBE_DUMP" ] || check_cube "$name" "$x/scout.cubex"
    else
        bad "$name: scorep-analyze: $(tail -n 3 "$x.an.out")"
    fi
}



# ------------------------------------------------------------------ the runs
configs=("lj 2 1 libgomp")
if [ $have_peptide = 1 ]; then
    configs+=("peptide 1 2 libgomp" "peptide 2 2 libgomp" "peptide 2 2 libomp")
else
    skip "peptide runs: no $EXAMPLES/peptide (apt-get install lammps-examples)"
fi
for c in "${configs[@]}"; do
    read -r in np nt rt <<<"$c"
    base=$in-${np}x$nt
    [ -f "$base.plain.out" ] || run "$base.plain" "in.$in" "$np" "$nt" plain || continue
    for mode in profile trace; do
        name=$base-$rt.$mode
        if run "$name" "in.$in" "$np" "$nt" "$mode" "$rt"; then
            check_run "$name" "$base.plain" "$np" "$nt" "$mode"
        fi
    done
done
# buffers that fill: 2 ranks x 4 threads in 1 MB per process: flushes (and reduction)
if [ $have_peptide = 1 ]; then
    if run peptide-2x4.plain in.peptide 2 4 plain &&
        run peptide-2x4-small.trace in.peptide 2 4 trace libgomp SCOREP_TOTAL_MEMORY=1M; then
        check_run peptide-2x4-small.trace peptide-2x4.plain 2 4 trace \
            'SCOREP_TOTAL_MEMORY ran short'
    fi
    if grep -q 'SCOREP_TOTAL_MEMORY ran short' peptide-2x4-small.trace.err 2>/dev/null; then
        ok "peptide-2x4-small.trace: the buffers filled (SCOREP_TOTAL_MEMORY warning)"
    else
        bad "peptide-2x4-small.trace: 1 MB did not fill the buffers: no warning"
    fi
fi

# MPI-IO and threads: the LJ melt writing `dump atom/mpiio` every 50 steps (LAMMPS converts
# the atoms to text in an OpenMP loop: DumpAtomMPIIO::convert_*_omp), 2 x 2, traced with
# I/O recording (--io=mpiio,posix); the dump files must be the plain run's, byte for byte
sed 's|^thermo.*|dump 1 all atom/mpiio 50 dump.*.mpiio\nthermo 50|' in.lj >in.ljio
mkdir -p ljio.plain.d ljio.trace.d
# (each run in a directory of its own, its files named ../NAME.* in the work directory)
runs_ok=1
cd ljio.plain.d
run ../ljio-2x2.plain ../in.ljio 2 2 plain || runs_ok=0
cd ../ljio.trace.d
run ../ljio-2x2-io.trace ../in.ljio 2 2 trace libgomp --io=mpiio,posix || runs_ok=0
cd "$work"
if [ $runs_ok = 1 ]; then
    check_run ljio-2x2-io.trace ljio-2x2.plain 2 2 trace
    (cd ljio.plain.d && md5sum dump.*.mpiio) >ljio.plain.md5
    if [ "$(wc -l <ljio.plain.md5)" -ge 5 ] && (cd ljio.trace.d && md5sum -c --quiet ../ljio.plain.md5); then
        ok "ljio-2x2-io.trace: the $(wc -l <ljio.plain.md5) MPI-IO dump files are the plain run's"
    else
        bad "ljio-2x2-io.trace: dump files differ from the plain run's"
    fi
    n=$(awk '$1 == "IO_OPERATION_BEGIN" { b++ } $1 == "IO_OPERATION_COMPLETE" { c++ }
        END { print b + 0, c + 0 }' ljio-2x2-io.trace.exp.events)
    read -r b c <<<"$n"
    if [ "$b" -gt 0 ] && [ "$b" = "$c" ]; then ok "ljio-2x2-io.trace: $b I/O operations, each completed"; else bad "ljio-2x2-io.trace: I/O operations begun $b, completed $c"; fi
fi

# ------------------------------------------------------------------ overhead
if [ "$REPS" -gt 0 ]; then
    echo
    echo "| run | plain s | profile s | trace s | profile x | trace x | loop: plain s | profile x | trace x |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    for c in "${configs[@]}"; do
        read -r in np nt rt <<<"$c"
        base=$in-${np}x$nt
        [ "$rt" = libgomp ] || continue
        for ((i = $(wc -l <"$base.plain.time"); i < REPS; i++)); do
            run "$base.plain" "in.$in" "$np" "$nt" plain || true
        done
        for mode in profile trace; do
            for ((i = 1; i < REPS; i++)); do
                run "$base-$rt.$mode" "in.$in" "$np" "$nt" "$mode" "$rt" || true
            done
        done
        med() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
        p=$(med "$base.plain.time") f=$(med "$base-$rt.profile.time") t=$(med "$base-$rt.trace.time")
        lp=$(med "$base.plain.loop") lf=$(med "$base-$rt.profile.loop") lt=$(med "$base-$rt.trace.loop")
        awk -v n="$in ${np}x$nt" -v p="$p" -v f="$f" -v t="$t" -v lp="$lp" -v lf="$lf" -v lt="$lt" \
            'BEGIN { printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                n, p, f, t, f / p, t / p, lp, lf / lp, lt / lp }'
    done
    echo "(medians of $REPS runs, seconds: wall time of mpirun, and LAMMPS's own \"Loop time\""
    echo " of its run commands; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
fi

apps_end lammps.sh
