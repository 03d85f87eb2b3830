#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# test/apps/cp2k.sh: manual validation of scorep-rt with CP2K (Debian 12's `cp2k`:
# /usr/bin/cp2k.psmp 2023.1, Fortran, Open MPI's Fortran bindings, OpenMP on gcc's libgomp,
# DBCSR, ScaLAPACK, ELPA, FFTW, libxc), run unchanged under `mpirun -np N scorep-run
# cp2k.psmp`. Not part of `make check` (it needs the package); about 2 minutes on 2 loaded
# cores with REPS=3. docs/mpi.md, "CP2K", has its results.
#
#   PREFIX=$PWD/_install [CUBE_DUMP=...] [NP=2] [NT=2] [REPS=3] test/apps/cp2k.sh
#
# Input: the energy and forces of one water molecule (Quickstep, GTH pseudopotentials,
# DZVP-GTH-PADE, Pade LDA, 200 Ry, the package's example H2O.inp as a single point), NP ranks
# x NT OpenMP threads. Runs: plain (REPS times: the run-to-run spread), profile, trace,
# profile+trace with I/O recording (--io=posix,isoc) and SCOREP_VERBOSE, a profile with
# unwinding; with strace installed, a plain run under strace for the I/O reference.
# Checks, each a line "ok:", "FAIL:" or "skip:", then a summary line:
#  * exit status 0; the total energy within 1e-12 Hartree of the plain run's (plain runs with
#    2 threads differ by up to 7e-15: OpenMP reductions), the forces (8 decimals) and the SCF
#    step count identical;
#  * no "[scorep-rt]" line but SCOREP_VERBOSE's in the verbose run;
#  * CubeLib's cube_dump (CUBE_DUMP=..., else cube_dump on PATH, else /work/ref/*/bin/
#    cube_dump; skipped without one) reads every profile.cubex and scout.cubex; the profile
#    has the MPI calls of CP2K's design (MPI_Allreduce of its global sums, MPI_Bcast of the
#    input read on rank 0, MPI_Alltoallv of the FFT's transposes, DBCSR's MPI_Isend/Irecv
#    with MPI_Waitall/MPI_Testany), OpenMP parallel regions on NP x NT threads, every OpenMP
#    region named after cp2k.psmp's code;
#  * I/O: the bytes each rank read from and wrote to each file CP2K opened by name
#    (io_summary.<rank>.tsv, all paradigms) equal what strace's read and write calls moved
#    in a plain run (skipped without strace);
#  * trace: apps_lib.sh's trace_checks with OpenMP (otf2-print, clock_condition.py, nesting,
#    forks and teams, visits = Enter events, scorep-analyze's wait states);
#  * scorep-score's max_buf against the trace buffer bytes the run used (within 1%), in a run
#    whose SCOREP_TOTAL_MEMORY holds the complete trace (4 x the profile run's estimate, at
#    least 128M);
#  * unwinding: MPI calls under CP2K's functions (cp2k.psmp is stripped: named by their start
#    from its unwind table, "[cp2k.psmp+0x...]"), none directly below the root;
#  * overhead: wall time of plain, profile and trace runs, medians of REPS runs, with the
#    experiments' sizes.
# Exit status 0 when every check passed, 1 otherwise, 77 when CP2K is not installed.
# KEEP=1 keeps the work directory (printed at the end).
set -eu -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
PREFIX=${PREFIX:-$top/_install}
CP2K=${CP2K:-cp2k.psmp}
NP=${NP:-2}
NT=${NT:-2}
REPS=${REPS:-3}

command -v "$CP2K" >/dev/null 2>&1 || {
    echo "SKIP: CP2K ($CP2K) is not installed (apt-get install cp2k)"
    exit 77
}
. "$here/apps_lib.sh"
apps_begin cp2k CP2K

cat >h2o.inp <<'EOT'
&GLOBAL
  PROJECT H2O
  RUN_TYPE ENERGY_FORCE
  PRINT_LEVEL LOW
&END GLOBAL
&FORCE_EVAL
  METHOD Quickstep
  &DFT
    BASIS_SET_FILE_NAME BASIS_SET
    POTENTIAL_FILE_NAME POTENTIAL
    &MGRID
      CUTOFF 200
    &END MGRID
    &QS
      EPS_DEFAULT 1.0E-10
    &END QS
    &SCF
      EPS_SCF 1.0E-6
      SCF_GUESS ATOMIC
    &END SCF
    &XC
      &XC_FUNCTIONAL Pade
      &END XC_FUNCTIONAL
    &END XC
  &END DFT
  &SUBSYS
    &CELL
      ABC 5.0 5.0 5.0
    &END CELL
    &COORD
    O   0.000000    0.000000   -0.065587
    H   0.000000   -0.757136    0.520545
    H   0.000000    0.757136    0.520545
    &END COORD
    &KIND H
      BASIS_SET DZVP-GTH-PADE
      POTENTIAL GTH-PADE-q1
    &END KIND
    &KIND O
      BASIS_SET DZVP-GTH-PADE
      POTENTIAL GTH-PADE-q6
    &END KIND
  &END SUBSYS
  &PRINT
    &FORCES ON
    &END FORCES
  &END PRINT
&END FORCE_EVAL
EOT

# ------------------------------------------------------------------ runs
# run NAME MODE [ENV|--OPTION...]: one CP2K run in directory NAME.d, MODE plain, profile,
# trace, both or strace (plain, each rank under strace into NAME.d/st.RANK); stdout NAME.out,
# stderr NAME.err, experiment NAME.exp; wall seconds appended to NAME.time. Returns 1 when
# CP2K fails; a hang is stopped after 300 s.
run() {
    local name=$1 mode=$2
    shift 2
    local t0 t1 st=0 tracing=false profiling=true
    case $mode in trace) tracing=true; profiling=false ;; both) tracing=true ;; esac
    local cmd=("$CP2K" -i "$work/h2o.inp") opts=() envs=() e
    for e in "$@"; do
        case $e in --*) opts+=("$e") ;; *) envs+=("$e") ;; esac
    done
    set -- "${envs[@]}"
    rm -rf "$name.exp" "$name.d"
    mkdir "$name.d"
    case $mode in
    plain) ;;
    strace) cmd=(bash -c 'exec strace -f -o "st.$OMPI_COMM_WORLD_RANK" -e trace=openat,read,pread64,write,pwrite64,close "$@"' strace "${cmd[@]}") ;;
    *)
        cmd=(scorep-run "${opts[@]}" "${cmd[@]}")
        set -- "$@" SCOREP_EXPERIMENT_DIRECTORY="$work/$name.exp" \
            SCOREP_ENABLE_PROFILING=$profiling SCOREP_ENABLE_TRACING=$tracing
        ;;
    esac
    t0=$(date +%s.%N)
    (cd "$name.d" && env "$@" timeout -k 10 300 mpirun -np "$NP" -x OMP_NUM_THREADS="$NT" "${cmd[@]}" \
        >"$work/$name.out" 2>"$work/$name.err") || st=$?
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }' >>"$name.time"
    if [ $st -ne 0 ]; then
        bad "$name: CP2K exit status $st: $(tail -n 3 "$name.err")"
        return 1
    fi
    ok "$name: CP2K exit status 0"
}

energy() { awk '/ENERGY\| Total FORCE_EVAL/ { print $NF }' "$1"; }
# forces FILE: the ATOMIC FORCES block; scf FILE: the SCF's step count
forces() { awk '/ATOMIC FORCES in/ { on = 1 } on && /SUM OF ATOMIC FORCES/ { print; exit } on' "$1"; }
scf() { grep -E 'SCF run converged in' "$1" || true; }

# ------------------------------------------------------------------ checks of one run
verbose_ok='measurement started|experiment directory|OpenMP: recording GNU libgomp|trace buffer of rank|trace written in|measurement written to|unified|^\[scorep-rt\] (profile|trace)'

check_run() {
    local name=$1 mode=$2 x=$1.exp
    if awk -v a="$(energy "$name.out")" -v b="$(energy plain.out)" 'BEGIN { d = a - b; exit !(a != "" && d < 1e-12 && d > -1e-12) }'; then
        ok "$name: total energy $(energy "$name.out") within 1e-12 of plain's $(energy plain.out)"
    else
        bad "$name: total energy $(energy "$name.out"), plain $(energy plain.out)"
    fi
    if [ -n "$(forces plain.out)" ] && [ "$(forces "$name.out")" = "$(forces plain.out)" ] && [ "$(scf "$name.out")" = "$(scf plain.out)" ]; then
        ok "$name: forces and SCF steps as plain's ($(scf plain.out | tr -s ' '))"
    else
        bad "$name: forces or SCF steps differ: $(diff <(forces plain.out; scf plain.out) <(forces "$name.out"; scf "$name.out") | head -n 4)"
    fi
    # expected: SCOREP_TOTAL_MEMORY's warnings when a traced run outgrows it. DBCSR polls
    # with MPI_Testany while it waits for the other rank; on a loaded machine it polls far
    # more (the run's MPI_Testany visits are printed), so the trace may need more than the
    # default 16000k; the runtime then flushes and reduces the trace and says so
    # (docs/mpi.md, "Polling programs and a full trace buffer feed each other")
    cat "$name.out" "$name.err" | grep -a '\[scorep-rt\]' | grep -Ev "$verbose_ok" >"$name.all" || true
    grep -v 'warning: SCOREP_TOTAL_MEMORY ran short' "$name.all" >"$name.warn" || true
    if [ -s "$name.warn" ]; then bad "$name: measurement messages: $(head -n 3 "$name.warn")"; else ok "$name: no measurement message (SCOREP_TOTAL_MEMORY's warnings aside: $(awk 'END { print NR }' "$name.all"))"; fi
    if [ "$mode" != trace ]; then
        if [ -f "$x/profile.cubex" ]; then ok "$name: profile.cubex written"; else bad "$name: no $x/profile.cubex"; return; fi
        check_cube "$name" "$x/profile.cubex"
        check_profile "$name" "$x/profile.cubex"
    fi
    [ "$mode" = trace ] || [ "$mode" = both ] || return 0
    trace_checks "$name" "$mode" omp || true
}

check_profile() {
    local name=$1 f=$2 r n
    scorep-cube-dump -m visits "$f" >"$name.visits"
    for r in MPI_Init_thread MPI_Allreduce MPI_Bcast MPI_Alltoallv MPI_Isend MPI_Irecv MPI_Waitall MPI_Finalize; do
        n=$(awk -F'\t' -v r="$r" '{ k = $2; sub(/.*\//, "", k); v = $4; sub(/.*=/, "", v) } k == r { s += v } END { print s + 0 }' "$name.visits")
        if [ "$n" -gt 0 ]; then ok "$name: $r in the profile ($n visits)"; else bad "$name: no $r in the profile"; fi
    done
    echo "$name: MPI_Testany visits: $(awk -F'\t' '{ k = $2; sub(/.*\//, "", k); v = $4; sub(/.*=/, "", v) } k == "MPI_Testany" { s += v } END { print s + 0 }' "$name.visits")"
    n=$(awk -F'\t' '$2 ~ /!\$omp parallel/ { print $3 }' "$name.visits" | sort -u | wc -l)
    expect "$n" "$((NP * NT))" "$name: threads with an OpenMP parallel region"
    n=$(awk -F'\t' '{ k = $2; sub(/.*\//, "", k) } k ~ /^!\$omp/ && k !~ /@cp2k\.psmp\+0x/ { print k }' "$name.visits" | sort -u | head -n 3 | tr '\n' ' ')
    expect "$n" "" "$name: OpenMP regions not named after cp2k.psmp's code"
}

# check_io NAME: per rank and file CP2K opened by name (not /proc, /sys, libraries, sockets),
# the bytes read and written (io_summary) = strace's in the strace run
check_io() {
    local name=$1 x=$1.exp r
    if [ ! -s strace.d/st.0 ]; then skip "$name: I/O against strace (no strace run)"; return; fi
    for ((r = 0; r < NP; r++)); do
        python3 - "strace.d/st.$r" "$work/strace.d" >"$name.io.want.$r" <<'PY'
import collections, os, re, sys
fd, rd, wr = {}, collections.Counter(), collections.Counter()
for line in open(sys.argv[1]):
    m = re.search(r'openat\(AT_FDCWD, "([^"]+)".*= (\d+)$', line)
    if m:
        fd[m.group(2)] = os.path.normpath(os.path.join(sys.argv[2], m.group(1)))
        rd[fd[m.group(2)]] += 0
        continue
    m = re.search(r'\b(read|pread64|write|pwrite64)\((\d+),.*= (\d+)$', line)
    if m and m.group(2) in fd:
        (wr if 'write' in m.group(1) else rd)[fd[m.group(2)]] += int(m.group(3))
    m = re.search(r'close\((\d+)\)', line)
    if m:
        fd.pop(m.group(1), None)
for f in sorted(rd):
    if not re.match(r'/(proc|sys|dev|usr/lib|lib|etc)/', f) and (rd[f] or wr[f]):
        print(f.replace(sys.argv[2], 'RUN'), rd[f], wr[f])
PY
        sort -o "$name.io.want.$r" "$name.io.want.$r"
        awk -F'\t' -v d="$work/$name.d" '$1 !~ /^#/ && $NF !~ /^\/(proc|sys|dev|usr\/lib|lib|etc)\// && $NF ~ /^\// {
                f = $NF; if (index(f, d) == 1) f = "RUN" substr(f, length(d) + 1); r[f] += $2; w[f] += $3 }
            END { for (f in r) if (r[f] || w[f]) print f, r[f], w[f] }' "$x/io_summary.$r.tsv" | sort >"$name.io.got.$r"
        if [ -s "$name.io.want.0" ] && cmp -s "$name.io.want.$r" "$name.io.got.$r"; then
            ok "$name: rank $r's bytes read and written per file = strace's: $(awk '{ n = $1; sub(/.*\//, "", n); printf "%s %s read, %s written; ", n, $2, $3 } END { if (!NR) printf "none" }' "$name.io.got.$r")"
        else
            bad "$name: rank $r's I/O per file differs from strace's: $(diff "$name.io.want.$r" "$name.io.got.$r" | head -n 6)"
        fi
    done
}

# ------------------------------------------------------------------ the runs
run plain plain || { echo "cp2k.sh: the plain run failed"; exit 1; }
[ -n "$(energy plain.out)" ] || { echo "cp2k.sh: no energy in the plain run"; exit 1; }
run profile profile && check_run profile profile
run trace trace && check_run trace trace
if command -v strace >/dev/null 2>&1; then run strace strace || true; fi
# the run scorep-score is checked with: its buffers must hold the complete trace (max_buf is
# what avoids flushes), so SCOREP_TOTAL_MEMORY as Score-P's hint says, from the profile run's
# estimate (4x, at least 128M: DBCSR's MPI_Testany polls vary with the load; apps_lib.sh's
# score_memory)
mem=$(score_memory profile)
echo "both: SCOREP_TOTAL_MEMORY=$mem (4 x the profile run's estimate, at least 128M)"
if run both both --io=posix,isoc SCOREP_VERBOSE=true SCOREP_TOTAL_MEMORY="$mem"; then
    check_run both both
    check_io both
    check_score both
fi
if run unwind profile SCOREP_ENABLE_UNWINDING=true; then
    check_run unwind profile
    scorep-cube-dump -m visits unwind.exp/profile.cubex | awk -F'\t' '{ print $2 }' | sort -u >unwind.paths
    # cp2k.psmp is stripped: its functions are named by their start, "[cp2k.psmp+0x2193340]"
    # (docs/sampling.md); none by the object alone
    n=$(awk '/\[cp2k\.psmp\+0x[0-9a-f]+\]\/MPI_[A-Za-z_]+$/ { n++ } END { print n + 0 }' unwind.paths)
    if [ "$n" -gt 0 ]; then ok "unwind: $n call paths of MPI calls under cp2k.psmp's functions"; else bad "unwind: no MPI call under a cp2k.psmp function"; fi
    n=$(grep -o -E '\[cp2k\.psmp\+0x[0-9a-f]+\]' unwind.paths | sort -u | wc -l)
    if [ "$n" -gt 1 ]; then ok "unwind: $n functions of cp2k.psmp in the call tree"; else bad "unwind: $n functions of cp2k.psmp"; fi
    expect "$(awk 'index($0, "[cp2k.psmp]") { n++ } END { print n + 0 }' unwind.paths)" 0 "unwind: frames named by the object alone"
    n=$(awk '/^[^\/]+\/MPI_/ { n++ } END { print n + 0 }' unwind.paths)
    expect "$n" 0 "unwind: MPI calls directly below the root"
fi

# ------------------------------------------------------------------ overhead and sizes
if [ "$REPS" -gt 0 ]; then
    overhead_runs 1
    overhead_table "" "$NP ranks x $NT threads"
fi

apps_end cp2k.sh
