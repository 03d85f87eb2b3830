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
#    functions (names from libgromacs_mpi.so);
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

# loc_enters EXPDIR: "RANK<TAB>THREAD<TAB>REGION<TAB>COUNT" of the trace's Enter events
loc_enters() {
    awk 'FNR == NR { if ($1 == "LOCATION") { g = $0; sub(/.*Group: "MPI Rank /, "", g); sub(/".*/, "", g)
            t = $0; sub(/^[^"]*"/, "", t); sub(/".*/, "", t); loc[$2] = g "\t" t } next }
        $1 == "ENTER" { r = $0; sub(/^[^"]*"/, "", r); sub(/" <[0-9]+>$/, "", r); n[loc[$2] "\t" r]++ }
        END { for (k in n) print k "\t" n[k] }' "$1.defs" "$1.events"
}



# check_trace NAME MODE
check_trace() {
    local name=$1 mode=$2 x=$1.exp
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
    local omp forks teams unbalanced
    omp=$(awk 'FNR == NR { if ($1 == "LOCATION") { g = $0; sub(/.*Group: "MPI Rank /, "", g); sub(/".*/, "", g); rank[$2] = g } next }
        $1 == "THREAD_FORK" { f[$2]++; t = $0; sub(/.*Requested Threads: /, "", t); req[rank[$2]] += t + 0; forks++ }
        $1 == "THREAD_JOIN" { f[$2]-- }
        $1 == "THREAD_TEAM_BEGIN" { b[$2]++; tb[rank[$2]]++; teams++ }
        $1 == "THREAD_TEAM_END" { b[$2]-- }
        END { for (l in f) if (f[l]) bad++; for (l in b) if (b[l]) bad++
              for (r in req) if (req[r] != tb[r]) bad++; for (r in tb) if (req[r] != tb[r]) bad++
              print forks + 0, teams + 0, bad + 0 }' "$x.defs" "$x.events")
    read -r forks teams unbalanced <<<"$omp"
    if [ "$forks" -gt 0 ] && [ "$unbalanced" = 0 ]; then
        ok "$name: OpenMP: $forks forks, $teams team members, every fork joined, every team begin ended"
    else
        bad "$name: OpenMP: forks $forks, team begins $teams, unbalanced $unbalanced"
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
        check_waits "$name" "$x/scout.cubex"
    else
        bad "$name: scorep-analyze: $(tail -n 3 "$x.an.out")"
    fi
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

# check_score NAME: scorep-score's max_buf (bytes, from -r's ALL row) against the bytes the
# trace buffers used (SCOREP_VERBOSE lines, summed per rank, the largest rank)
check_score() {
    local name=$1 x=$1.exp est used
    if ! scorep-score "$x/profile.cubex" >"$name.score" 2>"$name.score.err"; then
        bad "$name: scorep-score: $(head -c 300 "$name.score.err")"
        return
    fi
    est=$(awk '/max_buf\)/ { v = $NF; u = v; sub(/[0-9.]+/, "", u); sub(/[kMGT]?B$/, "", v)
        m = u == "kB" ? 1024 : u == "MB" ? 1048576 : u == "GB" ? 1073741824 : 1; printf "%.0f", v * m }' "$name.score")
    used=$(cat "$name.out" "$name.err" | sed -n 's/.*trace buffer of rank \([0-9]*\) location [0-9]*: \([0-9]*\) bytes used.*/\1 \2/p' |
        awk '{ s[$1] += $2 } END { for (r in s) if (s[r] > m) m = s[r]; print m + 0 }')
    echo "$name: scorep-score max_buf $est bytes, largest rank's buffers used $used bytes" >"$name.score.cmp"
    if [ "$used" -gt 0 ] && awk -v e="$est" -v u="$used" 'BEGIN { exit !(e >= u * 0.99 && e <= u * 1.01 + 2048) }'; then
        ok "$(cat "$name.score.cmp") (within 1%)"
    else
        bad "$(cat "$name.score.cmp")"
    fi
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
    # the MPI calls themselves stay where the instrumented regions put them (below the root or
    # an OpenMP region): without compiler instrumentation the unwound stack is taken at
    # samples only, not at instrumented events as Score-P does (docs/sampling.md, limits)
    n=$(awk '/MPI_/ && /gmx::[^\/]*\/.*MPI_/ { n++ } END { print n + 0 }' unwind.paths)
    skip "unwind: MPI calls under GROMACS's functions: $n call paths (no unwinding at instrumented events yet)"
fi

# ------------------------------------------------------------------ overhead and sizes
if [ "$REPS" -gt 0 ]; then
    for ((i = 2; i < REPS; i++)); do run plain plain || true; done # (+ plain2)
    for mode in profile trace; do
        for ((i = 1; i < REPS; i++)); do run $mode $mode || true; done
    done
    med() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
    sz() { du -sb "$1" 2>/dev/null | cut -f1; }
    echo
    echo "| run | wall s | x plain | mdrun wall s | x plain | experiment bytes |"
    echo "| --- | --- | --- | --- | --- | --- |"
    cat plain2.time >>plain.time # the determinism run is a plain run too
    cat plain2.loop >>plain.loop
    p=$(med plain.time) lp=$(med plain.loop)
    for mode in plain profile trace; do
        t=$(med $mode.time) l=$(med $mode.loop)
        awk -v n="$mode" -v t="$t" -v p="$p" -v l="$l" -v lp="$lp" -v s="$(sz $mode.exp)" \
            'BEGIN { printf "| %s | %.2f | %.2f | %.2f | %.2f | %s |\n", n, t, t / p, l, l / lp, s == "" ? "-" : s }'
    done
    echo "(medians of $REPS runs, $NP ranks x $NT threads, $NSTEPS steps; each run's seconds: plain $(tr '\n' ' ' <plain.time)profile $(tr '\n' ' ' <profile.time)trace $(tr '\n' ' ' <trace.time);"
    echo " load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
fi

echo
echo "gromacs.sh: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
