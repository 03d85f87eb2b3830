#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# test/apps/qe.sh: manual validation of scorep-rt with Quantum ESPRESSO (Debian 12's
# `quantum-espresso`: /usr/bin/pw.x 6.7, Fortran, Open MPI's Fortran bindings, FFTW,
# ScaLAPACK; an MPI-only build, stripped), run unchanged under `mpirun -np N scorep-run pw.x`.
# Not part of `make check` (it needs the package); about 2 minutes on 2 loaded cores with
# REPS=3. docs/mpi.md, "Quantum ESPRESSO", has its results.
#
#   PREFIX=$PWD/_install [CUBE_DUMP=...] [NP=2] [REPS=3] test/apps/qe.sh
#
# Input: an SCF of bulk silicon (2 atoms, the second displaced so that there are forces; LDA,
# the package's Si.pz-vbc.UPF; 12 Ry cutoff; 2 special k-points, 10 after the displacement
# lowers the symmetry; forces and stress). pw.x's default plane-wave (R & G) distribution over
# NP ranks: its 3D FFTs exchange the sticks with MPI_Alltoall. Runs: plain (twice: pw.x's
# output is deterministic), profile, trace, profile+trace with I/O recording (--io=posix,isoc)
# and SCOREP_VERBOSE, k-point pools (-nk NP) with profile+trace, a profile with unwinding.
# Checks, each a line "ok:", "FAIL:" or "skip:", then a summary line:
#  * exit status 0; pw.x's output the same as plain's but its times and dates (every SCF
#    iteration's energy and accuracy, the total energy, forces, stress); the files it writes
#    (charge density, wave functions) identical, data-file-schema.xml but its times too;
#  * no "[scorep-rt]" line but SCOREP_VERBOSE's in the verbose run;
#  * CubeLib's cube_dump (CUBE_DUMP=..., else cube_dump on PATH, else /work/ref/*/bin/
#    cube_dump; skipped without one) reads every profile.cubex and scout.cubex; the MPI calls
#    of pw.x's design: per rank as many MPI_Alltoall as pw.x's own clock counts
#    fft_scatt_yz calls (its "Parallel routines" report; one all-to-all per scatter),
#    MPI_Allreduce (mp_sum), MPI_Bcast (the input, from rank 0), MPI_Comm_split (its groups);
#  * I/O: the bytes written to each file pw.x leaves in outdir (io_summary.<rank>.tsv) equal
#    its size; rank 0 reads the input file and the pseudopotential;
#  * trace: otf2-print and otf2-print -G read it with nothing on stderr; clock_condition.py
#    pairs every message, no violation; Enter/Leave nest; the profile's visits per (rank,
#    region) = the trace's Enter events (cube_values.py and CubeLib's cube_dump);
#  * mpirun -np NP scorep-analyze: scout.cubex; wait states >= 0, the MPI ones at most the
#    MPI time, that at most the time;
#  * scorep-score's max_buf against the trace buffer bytes the run used (within 1%);
#  * overhead: wall time of plain, profile and trace runs and pw.x's own PWSCF wall time,
#    medians of REPS runs, with the experiments' sizes.
# Exit status 0 when every check passed, 1 otherwise, 77 when pw.x is not installed.
# KEEP=1 keeps the work directory (printed at the end).
set -eu -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
PREFIX=${PREFIX:-$top/_install}
PWX=${PWX:-pw.x}
NP=${NP:-2}
REPS=${REPS:-3}
PSEUDO=${PSEUDO:-/usr/share/espresso/pseudo}

command -v "$PWX" >/dev/null 2>&1 || {
    echo "SKIP: Quantum ESPRESSO ($PWX) is not installed (apt-get install quantum-espresso)"
    exit 77
}
[ -f "$PSEUDO/Si.pz-vbc.UPF" ] || {
    echo "SKIP: no $PSEUDO/Si.pz-vbc.UPF (quantum-espresso-data)"
    exit 77
}
. "$here/apps_lib.sh"
apps_begin qe ESPRESSO

cat >si.in <<EOT
 &control
    calculation = 'scf'
    prefix = 'si'
    outdir = './out'
    pseudo_dir = '$PSEUDO'
    tprnfor = .true.
    tstress = .true.
 /
 &system
    ibrav = 2, celldm(1) = 10.20, nat = 2, ntyp = 1,
    ecutwfc = 12.0
 /
 &electrons
    conv_thr = 1.0d-10
 /
ATOMIC_SPECIES
 Si  28.086  Si.pz-vbc.UPF
ATOMIC_POSITIONS alat
 Si 0.00 0.00 0.00
 Si 0.26 0.24 0.25
K_POINTS
 2
 0.250000  0.250000  0.250000   1.00
 0.250000  0.250000  0.750000   3.00
EOT

# ------------------------------------------------------------------ runs
# run NAME MODE [ENV|--OPTION|-nk N...]: one pw.x in directory NAME.d, MODE plain, profile,
# trace or both, measured under scorep-run with the --OPTIONs and ENV settings (VAR=VALUE),
# "-nk N" passed to pw.x; stdout NAME.out, stderr NAME.err, experiment NAME.exp; wall seconds
# appended to NAME.time, pw.x's own wall time to NAME.loop. Returns 1 when pw.x fails; a hang
# is stopped after 300 s.
run() {
    local name=$1 mode=$2
    shift 2
    local t0 t1 st=0 tracing=false profiling=true
    case $mode in trace) tracing=true; profiling=false ;; both) tracing=true ;; esac
    local cmd=("$PWX") opts=() envs=() e
    while [ $# -gt 0 ]; do
        case $1 in
        -nk) cmd+=(-nk "$2"); shift ;;
        --*) opts+=("$1") ;;
        *) envs+=("$1") ;;
        esac
        shift
    done
    cmd+=(-in "$work/si.in")
    set -- "${envs[@]}"
    rm -rf "$name.exp" "$name.d"
    mkdir "$name.d"
    if [ "$mode" != plain ]; then
        cmd=(scorep-run "${opts[@]}" "${cmd[@]}")
        set -- "$@" SCOREP_EXPERIMENT_DIRECTORY="$work/$name.exp" \
            SCOREP_ENABLE_PROFILING=$profiling SCOREP_ENABLE_TRACING=$tracing
    fi
    t0=$(date +%s.%N)
    (cd "$name.d" && env "$@" timeout -k 10 300 mpirun -np "$NP" "${cmd[@]}" \
        >"$work/$name.out" 2>"$work/$name.err") || st=$?
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }' >>"$name.time"
    awk '$1 == "PWSCF" && $2 == ":" { w = $5; sub(/s$/, "", w); print w }' "$name.out" >>"$name.loop"
    if [ $st -ne 0 ]; then
        bad "$name: pw.x exit status $st: $(tail -n 3 "$name.err")"
        return 1
    fi
    ok "$name: pw.x exit status 0"
}

# results FILE: pw.x's output without its times and dates (each SCF step's "total cpu time
# spent", the clock report, the start and end lines)
results() {
    grep -v -E 'starts on|time spent up to now|s CPU .* s WALL|s CPU .*s WALL|terminated on' "$1"
}
# xml_results FILE: data-file-schema.xml without its dates and timings
xml_results() { grep -v -E '<created |<closed |<cpu>|<wall>' "$1"; }

# ------------------------------------------------------------------ checks of one run
verbose_ok='measurement started|experiment directory|trace buffer of rank|trace written in|measurement written to|unified|^\[scorep-rt\] (profile|trace)'

# check_run NAME MODE [PLAIN]: the checks of measured run NAME against plain run PLAIN
check_run() {
    local name=$1 mode=$2 p=${3:-plain} x=$1.exp f n
    if [ -n "$(results "$p.out" | grep '^!')" ] && [ "$(results "$name.out")" = "$(results "$p.out")" ]; then
        ok "$name: pw.x's output as $p's but times ($(results "$p.out" | wc -l) lines; $(grep '^!' "$name.out" | tr -s ' '))"
    else
        bad "$name: pw.x's output differs from $p's: $(diff <(results "$p.out") <(results "$name.out") | head -n 6)"
    fi
    n=0 m=0
    for f in "$p.d"/out/si.save/*; do
        m=$((m + 1))
        case $f in *.xml) continue ;; esac
        cmp -s "$f" "$name.d/out/si.save/$(basename "$f")" || { n=$((n + 1)); echo "differs: $f" >&2; }
    done
    expect "$n" 0 "$name: files of out/si.save as $p's ($m files)"
    if [ "$(xml_results "$name.d/out/si.save/data-file-schema.xml")" = "$(xml_results "$p.d/out/si.save/data-file-schema.xml")" ]; then
        ok "$name: data-file-schema.xml as $p's but its times"
    else
        bad "$name: data-file-schema.xml differs"
    fi
    cat "$name.out" "$name.err" | grep -a '\[scorep-rt\]' | grep -Ev "$verbose_ok" >"$name.warn" || true
    if [ -s "$name.warn" ]; then bad "$name: measurement messages: $(head -n 3 "$name.warn")"; else ok "$name: no measurement message"; fi
    if [ "$mode" != trace ]; then
        if [ -f "$x/profile.cubex" ]; then ok "$name: profile.cubex written"; else bad "$name: no $x/profile.cubex"; return; fi
        check_cube "$name" "$x/profile.cubex"
        check_profile "$name" "$x/profile.cubex" "$p"
    fi
    [ "$mode" = trace ] || [ "$mode" = both ] || return 0
    check_trace "$name" "$mode" "$p"
}

# check_profile NAME FILE PLAIN: the MPI calls of pw.x's design
check_profile() {
    local name=$1 f=$2 p=$3 r n want
    scorep-cube-dump -m visits "$f" >"$name.visits"
    # (scorep-cube-dump: "CNODE<TAB>PATH<TAB>LOCATION<TAB>visits=N")
    for r in MPI_Init MPI_Allreduce MPI_Bcast MPI_Comm_split MPI_Finalize; do
        n=$(awk -F'\t' -v r="$r" '{ k = $2; sub(/.*\//, "", k); v = $4; sub(/.*=/, "", v) } k == r { s += v } END { print s + 0 }' "$name.visits")
        if [ "$n" -gt 0 ]; then ok "$name: $r in the profile ($n visits)"; else bad "$name: no $r in the profile"; fi
    done
    # pw.x's own clock: "fft_scatt_yz : ... ( N calls)", each one MPI_Alltoall on every rank
    # of the FFT group, and one more all-to-all of one integer per rank at set-up (the trace
    # shows it: 4 bytes per rank, on another communicator); with pools of one rank each the
    # FFTs are local, pw.x prints no fft_scatt_yz line and only that one remains
    want=$(($(awk '$1 == "fft_scatt_yz" { c = $(NF - 1) } END { print c + 0 }' "$p.out") + 1))
    awk -F'\t' '{ k = $2; sub(/.*\//, "", k); v = $4; sub(/.*=/, "", v) } k == "MPI_Alltoall" { n[$3] += v }
        END { for (l in n) print l, n[l] }' "$name.visits" | sort >"$name.a2a"
    n=$(awk -v w="$want" '$2 != w { bad++ } END { print NR, bad + 0 }' "$name.a2a")
    expect "$n" "$NP 0" "$name: MPI_Alltoall visits per rank = pw.x's fft_scatt_yz calls + 1 ($want)"
}

# check_trace NAME MODE PLAIN: trace_checks, and the FFT's all-to-alls in the trace:
# MPI_Alltoall's collective records of rank 0 with more than one integer per rank = pw.x's
# fft_scatt_yz calls
check_trace() {
    local name=$1 mode=$2 x=$1.exp want got
    trace_checks "$name" "$mode" || return 0
    want=$(awk '$1 == "fft_scatt_yz" { c = $(NF - 1) } END { print c + 0 }' "$3.out")
    got=$(awk -v np="$NP" '$1 == "MPI_COLLECTIVE_END" && $2 == 0 && /Operation: ALLTOALL,/ {
            s = $0; sub(/.*Sent: /, "", s); if (s + 0 > 4 * np) n++ } END { print n + 0 }' "$x.events")
    expect "$got" "$want" "$name: the trace's FFT all-to-alls on rank 0 = pw.x's fft_scatt_yz calls"
}

# check_io NAME: bytes written per file (io_summary.<rank>.tsv: paradigm, read, written, ...,
# file) = the sizes of the files pw.x leaves in out/; rank 0 reads the input and the
# pseudopotential whole (at least their sizes)
check_io() {
    local name=$1 x=$1.exp f want got rel
    if ! ls "$x"/io_summary.*.tsv >/dev/null 2>&1; then bad "$name: no io_summary.<rank>.tsv"; return; fi
    cat "$x"/io_summary.*.tsv >"$name.io"
    for f in $(cd "$name.d" && find out -type f | sort); do
        want=$(wc -c <"$name.d/$f")
        # pw.x writes the charge density twice: when the SCF has converged and again when it
        # saves its data at the end (strace of a plain run: two opens with O_CREAT, 2 x 40,968
        # bytes written)
        [ "$f" != out/si.save/charge-density.dat ] || want=$((2 * want))
        got=$(awk -F'\t' -v f="/$f" '$1 !~ /^#/ && substr($NF, length($NF) - length(f) + 1) == f { s += $3 } END { print s + 0 }' "$name.io")
        expect "$got" "$want" "$name: bytes written to $f (io_summary, all ranks) = its size"
    done
    # what strace shows of plain runs: rank 0 reads the input file 3 times, the
    # pseudopotential 5 times (3 in Fortran, 2 by C's fread: for its checksum, which every
    # rank computes, and to copy it into out/si.save), rank 1 the pseudopotential once (the
    # checksum); strace's reads have 826 bytes more on each rank: the checksum's
    # fseek(SEEK_END), where glibc fills its buffer with the file's last partial block
    local r k
    for k in "0 $work/si.in 3" "0 $PSEUDO/Si.pz-vbc.UPF 5" "1 $PSEUDO/Si.pz-vbc.UPF 1"; do
        read -r r f n <<<"$k"
        [ "$r" -lt "$NP" ] || continue
        want=$((n * $(wc -c <"$f")))
        got=$(awk -F'\t' -v f="$f" '$1 !~ /^#/ && $NF == f { s += $2 } END { print s + 0 }' "$x/io_summary.$r.tsv")
        expect "$got" "$want" "$name: bytes rank $r reads from $(basename "$f") = $n x its size"
    done
}

# ------------------------------------------------------------------ the runs
run plain plain || { echo "qe.sh: the plain run failed"; exit 1; }
run plain2 plain || true
expect "$(diff <(results plain.out) <(results plain2.out) | wc -l)" 0 "plain runs deterministic: pw.x's output but times"
n=0
for f in plain.d/out/si.save/*.dat; do cmp -s "$f" "plain2.d/${f#plain.d/}" || n=$((n + 1)); done
expect "$n" 0 "plain runs deterministic: charge density and wave functions identical"
run profile profile && check_run profile profile
run trace trace && check_run trace trace
if run both both --io=posix,isoc SCOREP_VERBOSE=true; then
    check_run both both
    check_io both
    check_score both
fi
# k-point pools: each rank its own k-points, the sums over pools by MPI_Allreduce
if run pools_plain plain -nk "$NP"; then
    run pools both -nk "$NP" && check_run pools both pools_plain
fi
if run unwind profile SCOREP_ENABLE_UNWINDING=true; then
    check_run unwind profile
    # pw.x is stripped: its functions are named by their start from its unwind table,
    # "[pw.x+0x4a26f0]" (docs/sampling.md), none by the object alone. The MPI calls sit under
    # pw.x's functions (the stack unwound at the call); every FFT all-to-all is called by one
    # function of pw.x (fft_scatter_yz, whatever its path), the set-up's by one more
    scorep-cube-dump -m visits unwind.exp/profile.cubex | awk -F'\t' '{ print $2 }' | sort -u >unwind.paths
    n=$(grep -o -E '\[pw\.x\+0x[0-9a-f]+\]' unwind.paths | sort -u | wc -l)
    if [ "$n" -gt 1 ]; then ok "unwind: $n functions of pw.x in the call tree"; else bad "unwind: $n functions of pw.x"; fi
    expect "$(awk 'index($0, "[pw.x]") { n++ } END { print n + 0 }' unwind.paths)" 0 "unwind: frames named by the object alone"
    n=$(awk -F/ '$NF == "MPI_Alltoall" && $(NF - 1) ~ /^\[pw\.x\+0x/ { p++; c[$(NF - 1)]++ } END { print p + 0, length(c) }' unwind.paths)
    if [ "${n% *}" -gt 0 ] && [ "${n#* }" -le 2 ]; then
        ok "unwind: MPI_Alltoall under pw.x's functions: ${n% *} call paths, called by ${n#* } function(s) of pw.x"
    else
        bad "unwind: MPI_Alltoall's call paths and calling functions of pw.x: $n"
    fi
    n=$(awk '/^pw\.x\/MPI_/ { n++ } END { print n + 0 }' unwind.paths)
    expect "$n" 0 "unwind: MPI calls directly below the root (not under pw.x's frames)"
fi

# ------------------------------------------------------------------ overhead and sizes
if [ "$REPS" -gt 0 ]; then
    overhead_runs 2 plain2
    overhead_table PWSCF "$NP ranks"
fi

apps_end qe.sh
