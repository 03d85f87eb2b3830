#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# test/apps/nwchem.sh: manual validation of scorep-rt with NWChem (Debian 12's
# `nwchem-openmpi`: /usr/bin/nwchem.openmpi, Fortran, Open MPI's Fortran bindings, Global
# Arrays over ARMCI-MPI, whose one-sided traffic is MPI-3 passive-target RMA: lock_all,
# MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op, flushes), run unchanged under
# `mpirun -np N scorep-run nwchem.openmpi`. Not part of `make check` (it needs the package);
# about a minute on 2 loaded cores. docs/mpi.md, "NWChem", has its results.
#
#   PREFIX=$PWD/_install [CUBE_DUMP=...] [NP=2] test/apps/nwchem.sh
#
# Input: an SCF energy of water (6-31G*). Runs: plain, traced (with profiling). Checks, each
# a line "ok:", "FAIL:" or "skip:", then a summary line:
#  * exit status 0; the "Total SCF energy" the same as plain's within 1e-9 Hartree (plain
#    runs differ in the 12th decimal: the order of MPI accumulates);
#  * no "[scorep-rt]" line on stdout or stderr;
#  * otf2-print and otf2-print -G read the trace with nothing on stderr; clock_condition.py
#    (python3-otf2) pairs every message, no violation;
#  * the one-sided records follow the calls: RmaAtomic events = the profile's visits of
#    MPI_Accumulate + MPI_Get_accumulate + MPI_Fetch_and_op + MPI_Compare_and_swap, the
#    matching id of each operation completed (RmaOpCompleteNonBlocking, as Score-P); window creations = destructions = MPI_Win_allocate
#    + MPI_Win_create visits; lock requests = releases = MPI_Win_lock(_all) visits;
#  * CubeLib's cube_dump (CUBE_DUMP=..., else cube_dump on PATH, else /work/ref/*/bin/
#    cube_dump) reads profile.cubex and scout.cubex; mpirun -np N scorep-analyze exits 0, its
#    MPI wait states sum to at most the MPI time.
# Exit status 0 when every check passed, 1 otherwise, 77 when NWChem is not installed.
set -eu -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
PREFIX=${PREFIX:-$top/_install}
NWCHEM=${NWCHEM:-nwchem.openmpi}
NP=${NP:-2}

command -v "$NWCHEM" >/dev/null 2>&1 || {
    echo "SKIP: NWChem ($NWCHEM) is not installed (apt-get install nwchem-openmpi)"
    exit 77
}
. "$here/apps_lib.sh"
apps_begin nwchem

cat >h2o.nw <<'EOT'
start h2o
title "water SCF"
geometry units angstrom
  O  0.000  0.000  0.117
  H  0.000  0.757 -0.467
  H  0.000 -0.757 -0.467
end
basis
  * library 6-31g*
end
scf
  print low
end
task scf energy
EOT

# run NAME [ENV...]: NWChem in directory NAME.d (its scratch files there), plain without ENV
run() {
    local name=$1 st=0 t0 t1
    shift
    local cmd=("$NWCHEM" "$work/h2o.nw")
    [ $# = 0 ] || cmd=(scorep-run "${cmd[@]}")
    rm -rf "$name.d" && mkdir "$name.d"
    t0=$(date +%s.%N)
    (cd "$name.d" && env "$@" timeout -k 10 300 mpirun -np "$NP" "${cmd[@]}" >"$work/$name.out" 2>"$work/$name.err") || st=$?
    t1=$(date +%s.%N)
    echo "$name: $(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }') s wall"
    if [ $st -ne 0 ]; then bad "$name: exit status $st: $(tail -n 3 "$name.err")"; return 1; fi
    ok "$name: exit status 0"
}

run plain || { echo "nwchem.sh: the plain run failed"; exit 1; }
# the "Total SCF energy" value of an output, empty without one
energy() { awk '/Total SCF energy/ { print $NF }' "$1"; }
[ -n "$(energy plain.out)" ] || { echo "nwchem.sh: no SCF energy in the plain run"; exit 1; }
# NWChem's global arrays sum through MPI accumulates whose order depends on timing: plain runs
# differ in the 12th decimal under load (-76.010577877994 and ...995 seen), so the measured
# energy must equal plain's within 1e-9 Hartree, far below the SCF's convergence (1e-6)
same_energy() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (a != "" && b != "" && d < 1e-9 && d > -1e-9) print "same"; else print a " vs " b }'; }
x=$work/trace.exp
run trace SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$x" || { echo "nwchem.sh: $passed passed, $failed failed"; exit 1; }
expect "$(same_energy "$(energy trace.out)" "$(energy plain.out)")" same "trace: SCF energy as plain (within 1e-9 Hartree)"
cat trace.out trace.err | grep -a '\[scorep-rt\]' >trace.warn || true
if [ -s trace.warn ]; then bad "trace: measurement messages: $(head -n 3 trace.warn)"; else ok "trace: no measurement message"; fi

if otf2-print "$x/traces.otf2" >ev.txt 2>ev.err && [ ! -s ev.err ]; then
    ok "trace: otf2-print reads the trace, nothing on stderr ($(wc -l <ev.txt) lines)"
else
    bad "trace: otf2-print: $(head -c 300 ev.err)"
fi
if otf2-print -G "$x/traces.otf2" >defs.txt 2>defs.err && [ ! -s defs.err ]; then
    ok "trace: otf2-print -G reads the definitions silently"
else
    bad "trace: otf2-print -G: $(head -c 300 defs.err)"
fi
if [ -z "$PY" ]; then
    skip "trace: no python3 with the otf2 module for clock_condition.py"
elif "$PY" "$top/test/mpi/clock_condition.py" "$x/traces.otf2" >cc.txt 2>cc.err; then
    read -r s r m u _ v k w < <(sed 's/[a-z_]*=//g' cc.txt)
    if [ "$s" = "$r" ] && [ "$s" = "$m" ] && [ "$u$v$w" = 000 ] && [ "$s" -gt 0 ]; then
        ok "trace: clock_condition.py: $s messages all paired, $k collectives, no violation"
    else
        bad "trace: clock_condition.py: $(cat cc.txt)"
    fi
else
    bad "trace: clock_condition.py failed: $(head -c 300 cc.err)"
fi

# the profile's visits per MPI function, summed over the ranks
scorep-cube-dump -m visits "$x/profile.cubex" |
    awk -F'\t' '{ k = $2; sub(/.*\//, "", k); v = $4; sub(/.*=/, "", v); n[k] += v } END { for (k in n) print k, n[k] }' >visits.txt
# a function the profile does not hold was called 0 times
vis() { awk -v k="$1" '$1 == k { v = $2 } END { print v + 0 }' visits.txt; }
ev() { awk -v t="$1" '$1 == t { n++ } END { print n + 0 }' ev.txt; }
atomics=$(($(vis MPI_Accumulate) + $(vis MPI_Get_accumulate) + $(vis MPI_Fetch_and_op) + $(vis MPI_Compare_and_swap)))
[ "$atomics" -gt 0 ] || bad "trace: no atomic RMA call in the profile"
expect "$(ev RMA_ATOMIC)" "$atomics" "trace: RmaAtomic events = MPI_Accumulate + MPI_Get_accumulate + MPI_Fetch_and_op + MPI_Compare_and_swap visits"
# (Score-P's implicit requests: operations without a request to one target share a matching
# id until a synchronisation completes them, RmaOpCompleteNonBlocking; no blocking completion)
unmatched=$(awk '$1 ~ /^RMA_(PUT|GET|ATOMIC)$/ || $1 == "RMA_OP_COMPLETE_NON_BLOCKING" {
        m = $0; sub(/.*Matching: /, "", m); sub(/[^0-9].*/, "", m); k = $2 " " m
        if ($1 == "RMA_OP_COMPLETE_NON_BLOCKING") done[k] = 1; else op[k] = 1 }
    END { n = 0; for (k in op) if (!(k in done)) n++; print n }' ev.txt)
expect "$(ev RMA_OP_COMPLETE_BLOCKING) $unmatched" "0 0" "trace: every RMA operation's matching id completed locally (RmaOpCompleteNonBlocking on its location), none blocking"
wins=$(($(vis MPI_Win_allocate) + $(vis MPI_Win_create)))
expect "$(ev RMA_WIN_CREATE) $(ev RMA_WIN_DESTROY)" "$wins $wins" "trace: window creations and destructions = MPI_Win_allocate + MPI_Win_create visits"
locks=$(($(vis MPI_Win_lock_all) + $(vis MPI_Win_lock)))
expect "$(ev RMA_REQUEST_LOCK) $(ev RMA_RELEASE_LOCK)" "$locks $locks" "trace: lock requests and releases = MPI_Win_lock(_all) visits"

check_cube trace "$x/profile.cubex"
if timeout -k 10 300 mpirun -np "$NP" scorep-analyze "$x" >an.out 2>&1 && [ -s "$x/scout.cubex" ]; then
    ok "trace: scorep-analyze on $NP ranks: scout.cubex written"
    if [ -n "$CUBE_DUMP" ]; then
        "$CUBE_DUMP" -m visits -s csv2 "$x/scout.cubex" >/dev/null 2>scout.err && [ ! -s scout.err ] &&
            ok "trace: CubeLib's cube_dump reads scout.cubex" || bad "trace: cube_dump scout.cubex: $(head -c 300 scout.err)"
    fi
    # "MPI m s (p%)" and the wait-state lines "  <name>  t s  p% of time" of its summary
    if awk '/scorep-analyze: time / { for (i = 1; i <= NF; i++) if ($i == "MPI") mpi = $(i + 1) }
        /% of time$/ { for (i = 1; i <= NF; i++) if ($i == "s" && $(i + 1) ~ /%$/) w += $(i - 1) }
        END { printf "MPI %.3f s, wait states %.3f s\n", mpi, w; exit !(mpi > 0 && w <= mpi) }' an.out >waits.txt; then
        ok "trace: wait states within the MPI time: $(cat waits.txt)"
    else
        bad "trace: wait states: $(cat waits.txt)"
    fi
else
    bad "trace: scorep-analyze: $(tail -n 3 an.out)"
fi

apps_end nwchem.sh
