#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# test/apps/gromacs.sh: manual validation of scorep-rt with GROMACS (Debian 12's `gromacs`
# package: /usr/bin/gmx_mpi, GROMACS 2022.5, C++, Open MPI, OpenMP on gcc's libgomp, FFTW),
# run unchanged under `mpirun -np N scorep-run gmx_mpi mdrun ...`. Not part of `make check`
# (it needs the gromacs package); about 5 minutes on 2 loaded cores with REPS=3 (2 with
# REPS=1). docs/mpi.md, "GROMACS", has its results.
#
#   PREFIX=$PWD/_install [CUBE_DUMP=...] [NP=2] [NT=2] [NSTEPS=200] [REPS=3] test/apps/gromacs.sh
#
# System: a box of 510 SPC/E waters (2.5 nm, gmx solvate from spc216.gro, OPLS-AA), energy
# minimised (gmx_mpi mdrun, steep), then NSTEPS steps of MD (PME, v-rescale, h-bond
# constraints, energies every 20 steps, compressed coordinates every 50). mdrun runs with
# `-reprod -notunepme -dlb no -pin off` on NP ranks x NT OpenMP threads, so that its results
# do not depend on timing: two plain runs write the same ener.edr, confout.gro and
# traj_comp.xtc, byte for byte (checked). Runs: plain, profile, trace, profile+trace with
# I/O recording (--io=posix,isoc) and SCOREP_VERBOSE, a profile with unwinding and sampling.
# Checks, each a line "ok:", "FAIL:" or "skip:", then a summary line:
#  * exit status 0; ener.edr, confout.gro, traj_comp.xtc and md.log's energy averages
#    identical to the plain run's;
#  * no "[scorep-rt]" line on stdout or stderr but the expected (none);
#  * CubeLib's cube_dump (CUBE_DUMP=..., else cube_dump on PATH, else /work/ref/*/bin/
#    cube_dump; skipped without one) reads every profile.cubex and scout.cubex; the profile
#    holds the MPI calls of mdrun's design (MPI_Sendrecv of the halo exchange, MPI_Allreduce
#    of the global sums, MPI_Comm_split of the domain decomposition) and OpenMP parallel
#    regions on NT threads per rank; with unwinding the MPI calls sit under GROMACS's own
#    functions (names from libgromacs_mpi.so; checked since session 25);
#  * I/O: the bytes written to ener.edr, confout.gro, traj_comp.xtc, md.log and state.cpt
#    (io_summary.<rank>.tsv, all paradigms) equal the files' sizes;
#  * trace: otf2-print and otf2-print -G read it with nothing on stderr; clock_condition.py
#    (python3-otf2) pairs every message and finds no violation; Enter/Leave nest; OpenMP
#    forks/joins and team begins/ends balance; the profile's visits per thread and region =
#    the trace's Enter events (read by test/tools/cube_values.py and by cube_dump);
#  * mpirun -np NP scorep-analyze: exit 0, scout.cubex; every wait-state metric >= 0 and
#    the MPI ones sum to at most the MPI time, that at most the time;
#  * scorep-score's max_buf estimate against the trace buffer bytes the run used
#    (SCOREP_VERBOSE's "trace buffer of rank R location L: N bytes used"): within 1% or
#    above them by the unmodelled records only (reported);
#  * overhead: wall time of plain, profile and trace runs and mdrun's own wall time ("Time:"
#    line of md.log), medians of REPS runs, printed as a table with the sizes.
# Exit status 0 when every check passed, 1 otherwise, 77 when GROMACS is not installed.
# KEEP=1 keeps the work directory (printed at the end).
set -eu -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
PREFIX=${PREFIX:-$top/_install}
GMX=${GMX:-gmx_mpi}
NP=${NP:-2}
NT=${NT:-2}
NSTEPS=${NSTEPS:-200}
REPS=${REPS:-3}

command -v "$GMX" >/dev/null 2>&1 || {
    echo "SKIP: GROMACS ($GMX) is not installed (apt-get install gromacs)"
    exit 77
}
. "$here/apps_lib.sh"
apps_begin gromacs GMX

# ------------------------------------------------------------------ the system
# (gmx's own tools; the topology from its OPLS-AA force field files)
gmx_q() { "$GMX" "$@" >>prep.log 2>&1 || { echo "error: $GMX $1 failed: $(tail -n 5 prep.log)" >&2; exit 1; }; }
gmx_q solvate -cs spc216.gro -box 2.5 2.5 2.5 -o box.gro
nsol=$(awk '$1 ~ /SOL$/ { n++ } END { print n / 3 }' box.gro)
cat >topol.top <<EOT
#include "oplsaa.ff/forcefield.itp"
#include "oplsaa.ff/spce.itp"
[ system ]
water
[ molecules ]
SOL $nsol
EOT
cat >em.mdp <<'EOT'
integrator    = steep
nsteps        = 200
emtol         = 1000
cutoff-scheme = Verlet
coulombtype   = PME
rcoulomb      = 1.0
rvdw          = 1.0
EOT
cat >md.mdp <<EOT
integrator    = md
dt            = 0.002
nsteps        = $NSTEPS
nstenergy     = 20
nstlog        = 20
nstcalcenergy = 20
nstxout-compressed = 50
cutoff-scheme = Verlet
rcoulomb      = 1.0
rvdw          = 1.0
coulombtype   = PME
tcoupl        = v-rescale
tc-grps       = System
tau-t         = 0.1
ref-t         = 300
gen-vel       = yes
gen-temp      = 300
gen-seed      = 1
ld-seed       = 1
constraints   = h-bonds
EOT
gmx_q grompp -f em.mdp -c box.gro -p topol.top -o em.tpr
gmx_q mdrun -s em.tpr -ntomp 1 -c em.gro -deffnm em
gmx_q grompp -f md.mdp -c em.gro -p topol.top -o md.tpr
echo "system: $nsol waters, $NSTEPS MD steps, $NP ranks x $NT threads"

# ------------------------------------------------------------------ runs
# run NAME MODE [ENV|--OPTION...]: one mdrun in directory NAME.d, MODE plain, profile, trace
# or both, measured under scorep-run with the --OPTIONs and the ENV settings (VAR=VALUE);
# stdout NAME.out, stderr NAME.err, experiment NAME.exp; wall seconds appended to NAME.time,
# mdrun's own wall time to NAME.loop. Returns 1 when mdrun fails; a hang is stopped after 300 s.
run() {
    local name=$1 mode=$2
    shift 2
    local t0 t1 st=0 tracing=false profiling=true
    case $mode in trace) tracing=true; profiling=false ;; both) tracing=true ;; esac
    local cmd=("$GMX" mdrun -s "$work/md.tpr" -ntomp "$NT" -reprod -notunepme -dlb no -pin off)
    local opts=() envs=() e
    for e in "$@"; do
        case $e in --*) opts+=("$e") ;; *) envs+=("$e") ;; esac
    done
    set -- "${envs[@]}"
    rm -rf "$name.exp" "$name.d"
    mkdir "$name.d"
    if [ "$mode" != plain ]; then
        cmd=(scorep-run "${opts[@]}" "${cmd[@]}")
        set -- "$@" SCOREP_EXPERIMENT_DIRECTORY="$work/$name.exp" \
            SCOREP_ENABLE_PROFILING=$profiling SCOREP_ENABLE_TRACING=$tracing
    fi
    # a hang: the threads' stacks (gdb) into NAME.stacks after 240 s, the run stopped at 300 s
    (sleep 240 && for p in $(pgrep -x "$(basename "$GMX")"); do
        echo "=== process $p"; gdb -p "$p" -batch -ex 'thread apply all bt 40' 2>&1 | grep -E '^(#|Thread)'
    done >"$name.stacks" 2>&1) &
    local watchdog=$!
    t0=$(date +%s.%N)
    (cd "$name.d" && env "$@" timeout -k 10 300 mpirun -np "$NP" -x OMP_NUM_THREADS="$NT" "${cmd[@]}" \
        >"$work/$name.out" 2>"$work/$name.err") || st=$?
    t1=$(date +%s.%N)
    kill "$watchdog" 2>/dev/null || true
    wait "$watchdog" 2>/dev/null || true
    echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }' >>"$name.time"
    awk '$1 == "Time:" { print $3 }' "$name.d/md.log" >>"$name.loop" 2>/dev/null || true
    if [ $st -ne 0 ]; then
        bad "$name: mdrun exit status $st: $(tail -n 3 "$name.err")"
        [ ! -s "$name.stacks" ] || { echo "stacks of the hanging processes:"; cat "$name.stacks"; }
        return 1
    fi
    ok "$name: mdrun exit status 0"
}

# averages FILE: md.log's energy averages (from "A V E R A G E S" to the end)
# (energies, virial, pressure; up to the flop accounting, without the load-imbalance lines,
# which are timing)
averages() { awk '/A V E R A G E S/ { on = 1 } /M E G A - F L O P S/ { on = 0 } on' "$1"; }

# ------------------------------------------------------------------ checks of one run
# the lines SCOREP_VERBOSE=true prints (run "both"), expected
verbose_ok='measurement started|experiment directory|OpenMP: recording GNU libgomp|trace buffer of rank|trace written in|measurement written to|unified|^\[scorep-rt\] (profile|trace)'

# check_run NAME MODE: the checks of measured run NAME against the plain run
check_run() {
    local name=$1 mode=$2 x=$1.exp f
    for f in ener.edr confout.gro traj_comp.xtc; do
        if [ -s "plain.d/$f" ] && cmp -s "plain.d/$f" "$name.d/$f"; then
            ok "$name: $f identical to plain ($(wc -c <"$name.d/$f") bytes)"
        else
            bad "$name: $f differs from plain"
        fi
    done
    if [ -n "$(averages plain.d/md.log)" ] && [ "$(averages "$name.d/md.log")" = "$(averages plain.d/md.log)" ]; then
        ok "$name: md.log's energy averages as plain ($(averages plain.d/md.log | wc -l) lines)"
    else
        bad "$name: md.log's averages differ: $(diff <(averages plain.d/md.log) <(averages "$name.d/md.log") | head -n 4)"
    fi
    cat "$name.out" "$name.err" | grep -a '\[scorep-rt\]' |
        grep -Ev "$verbose_ok" >"$name.warn" || true
    if [ -s "$name.warn" ]; then bad "$name: measurement messages: $(head -n 3 "$name.warn")"; else ok "$name: no measurement message"; fi
    if [ "$mode" != trace ]; then
        if [ -f "$x/profile.cubex" ]; then ok "$name: profile.cubex written"; else bad "$name: no $x/profile.cubex"; return; fi
        check_cube "$name" "$x/profile.cubex"
        check_profile "$name" "$x/profile.cubex"
    fi
    [ "$mode" = trace ] || [ "$mode" = both ] || return 0
    check_trace "$name" "$mode"
}

# check_profile NAME FILE: the regions of mdrun's design, their threads
check_profile() {
    local name=$1 f=$2 r n
    scorep-cube-dump -m visits "$f" >"$name.visits"
    # (scorep-cube-dump: "CNODE<TAB>PATH<TAB>LOCATION<TAB>visits=N")
    for r in MPI_Init_thread MPI_Sendrecv MPI_Allreduce MPI_Bcast MPI_Comm_split MPI_Finalize; do
        n=$(awk -F'\t' -v r="$r" '{ k = $2; sub(/.*\//, "", k); v = $4; sub(/.*=/, "", v) } k == r { s += v } END { print s + 0 }' "$name.visits")
        if [ "$n" -gt 0 ]; then ok "$name: $r in the profile ($n visits)"; else bad "$name: no $r in the profile"; fi
    done
    # OpenMP parallel regions on NT threads of every rank, named without an absolute address
    n=$(awk -F'\t' '$2 ~ /!\$omp parallel/ { print $3 }' "$name.visits" | sort -u | wc -l)
    expect "$n" "$((NP * NT))" "$name: threads with an OpenMP parallel region"
    n=$(awk -F'\t' '$2 ~ /!\$omp[^\/]*@0x/ { n++ } END { print n + 0 }' "$name.visits")
    expect "$n" 0 "$name: OpenMP regions named by an absolute address"
    # every OpenMP region is named after GROMACS's code, none after the runtime's own (a
    # tail-called barrier was "@gomp_wrap.c:114" before session 22)
    n=$(awk -F'\t' '{ k = $2; sub(/.*\//, "", k) } k ~ /^!\$omp/ && k !~ /@libgromacs/ { print k }' "$name.visits" | sort -u | tr '\n' ' ')
    expect "$n" "" "$name: OpenMP regions not in libgromacs_mpi.so"
}

# check_trace NAME MODE: apps_lib.sh's trace_checks with OpenMP (its failures are counted)
check_trace() { trace_checks "$1" "$2" omp || true; }


# check_io NAME: bytes written per file (io_summary.<rank>.tsv: paradigm, read, written, ...,
# file) = the sizes of mdrun's output files
check_io() {
    local name=$1 x=$1.exp f want got
    if ! ls "$x"/io_summary.*.tsv >/dev/null 2>&1; then bad "$name: no io_summary.<rank>.tsv"; return; fi
    # (mdrun writes its checkpoint as state_step<N>.cpt and renames it state.cpt)
    for f in ener.edr confout.gro traj_comp.xtc md.log state.cpt; do
        want=$(wc -c <"$name.d/$f")
        w=$f
        [ "$f" != state.cpt ] || w=state_step$NSTEPS.cpt
        got=$(cat "$x"/io_summary.*.tsv | awk -F'\t' -v f="$w" '$1 !~ /^#/ { n = $NF; sub(/.*\//, "", n) } n == f { s += $3 } END { print s + 0 }')
        expect "$got" "$want" "$name: bytes written to $w (io_summary) = the size of $f"
    done
    # mdrun reads its input once (md.tpr, every rank: gmx reads it on rank 0 only)
    got=$(awk -F'\t' '$1 !~ /^#/ && $NF ~ /\/md\.tpr$/ { s += $2 } END { print s + 0 }' "$x"/io_summary.0.tsv)
    expect "$got" "$(wc -c <md.tpr)" "$name: bytes read from md.tpr on rank 0 = its size"
}


# ------------------------------------------------------------------ the runs
run plain plain || { echo "gromacs.sh: the plain run failed"; exit 1; }
run plain2 plain || true
for f in ener.edr confout.gro traj_comp.xtc; do
    if cmp -s plain.d/$f plain2.d/$f; then ok "plain runs deterministic: $f identical"; else bad "plain runs differ: $f"; fi
done
run profile profile && check_run profile profile
run trace trace && check_run trace trace
if run both both --io=posix,isoc SCOREP_VERBOSE=true; then
    check_run both both
    check_io both
    check_score both
fi
if run unwind profile SCOREP_ENABLE_UNWINDING=true; then
    check_run unwind profile
    # sampling: the unwound stacks reach GROMACS's own functions (C++ names from
    # libgromacs_mpi.so's symbols), below the program root and inside the OpenMP regions
    scorep-cube-dump -m visits unwind.exp/profile.cubex | awk -F'\t' '{ print $2 }' | sort -u >unwind.paths
    n=$(grep -c 'gmx::' unwind.paths || true)
    if [ "$n" -gt 0 ]; then ok "unwind: $n sampled call paths through GROMACS's functions (gmx::...)"; else bad "unwind: no sampled call path through a GROMACS function"; fi
    # the MPI calls under GROMACS's functions: the stack is unwound at instrumented events
    # too since session 23 (a skip until then; session 25: 285-322 call paths)
    n=$(awk '/MPI_/ && /gmx::[^\/]*\/.*MPI_/ { n++ } END { print n + 0 }' unwind.paths)
    if [ "$n" -gt 0 ]; then ok "unwind: MPI calls under GROMACS's functions: $n call paths"; else bad "unwind: no MPI call under a GROMACS function"; fi
fi

# ------------------------------------------------------------------ overhead and sizes
if [ "$REPS" -gt 0 ]; then
    overhead_runs 2 plain2
    overhead_table mdrun "$NP ranks x $NT threads, $NSTEPS steps"
fi

apps_end gromacs.sh
