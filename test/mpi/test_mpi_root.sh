#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_root.sh: the program root region (Score-P 6 and later) of an MPI program without
# instrumentation, run under scorep-run: root_time.c computes 1 s on rank 0 and 0.5 s on rank
# 1 between two barriers and does nothing else outside MPI calls. Expected from that design
# and the program's own clock (its work W and its window T from the start of main to the call
# of MPI_Finalize, printed):
# - the profile: on each rank the root (named after the executable) is visited once, its
#   exclusive time holds the computation: W <= exclusive <= W + (inclusive - T) + 50 ms (the
#   root's time outside the program's window is the start before main and the finalization;
#   50 ms for the few statements between the MPI calls and the two clocks);
# - the trace: ProgramBegin and ProgramEnd on each rank's location, and the program region
#   Scalasca looks for (pearl's ProgramBegin callback: artificial, paradigm measurement, the
#   executable's name without and with its directory);
# - the analysis (in situ and post-mortem): its summary's POP efficiencies are those of the
#   profile's times (computation = the root's exclusive time, the runtime = the longest
#   root), load balance (1 + 0.5) / 2 / 1 = 75% within the bounds above (71-80%), and MPI
#   less than 100% of the time.
. "$top_srcdir/test/integration/lib.sh"
require_mpi_programs root_time
command -v otf2-print >/dev/null 2>&1 || { echo "SKIP: no otf2-print"; exit 77; }

x=$work/exp
status=0
env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_ANALYSIS=true SCOREP_EXPERIMENT_DIRECTORY="$x" \
    SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
    timeout 300 mpirun --oversubscribe --allow-run-as-root -np 2 \
    "$top_builddir/scorep-run" "$T/root_time" >run.out 2>run.err || status=$?
check_profiles
expect_eq "$status" 0 "root_time runs under scorep-run"
expect_eq "$(grep -c '^R ' run.out)" 2 "both ranks report their times"

# --- profile ---
expect_eq "$(profile_root "$x")" root_time "the program root is named after the executable"
expect_eq "$(profile_paths "$x" | grep -v -c '^MPI_')" 0 "no call path but MPI calls below the root"
# rank of each location (scorep-cube-dump --system: location, node, group, name, rank)
profile_dump "$x" --system | awk -F'\t' '{ print $1, $5 }' >locs
expect_eq "$(awk '{ print $2 }' locs | tr '\n' ' ')" "0 1 " "one location per rank"
for r in 0 1; do
    loc=$(awk -v r=$r '$2 == r { print $1 }' locs)
    w=$(awk -v r=$r '$1 == "R" && $2 == r { print $4 }' run.out)
    t=$(awk -v r=$r '$1 == "R" && $2 == r { print $6 }' run.out)
    excl=$(profile_sum "$x" . time "$loc")
    incl=$(profile_isum "$x" . time "$loc")
    expect_eq "$(profile_sum "$x" . visits "$loc")" 1 "rank $r: the root visited once"
    _check
    awk -v w="$w" -v t="$t" -v e="$excl" -v i="$incl" \
        'BEGIN { exit !(e >= w && e <= w + (i - t) + 0.05) }' ||
        fail "rank $r: the root's exclusive time $excl s, expected the work $w s to $w + ($incl - $t) + 0.05 s"
    echo "ok: rank $r: the root's exclusive time $excl s holds the work $w s (inclusive $incl s, window $t s)"
    echo "$r $excl $incl" >>roots
done

# --- trace ---
expect_eq "$(trace_other "$x" | awk '$1 == "PROGRAM_BEGIN" || $1 == "PROGRAM_END" { print $1, $2 }' | sort | tr '\n' ' ')" \
    "PROGRAM_BEGIN 0 PROGRAM_BEGIN 1 PROGRAM_END 0 PROGRAM_END 1 " "ProgramBegin and ProgramEnd on each rank"
trace_defs "$x" >defs
exe=$(cd "$T" && pwd -P)/root_time # the runtime names it by /proc/self/exe
# (otf2-print -G: Name: "name" <id> (Aka. "canonical name" <id>), ..., Role: ..., Paradigm: ...)
expect_eq "$(awk '$1 == "REGION" && /Name: "root_time" </ && /Role: ARTIFICIAL,/ &&
    /Paradigm: MEASUREMENT_SYSTEM,/' defs | grep -c -F "(Aka. \"$exe\" <")" 1 \
    "the program region as Scalasca finds it (name, canonical name, role, paradigm)"
name=$(trace_other "$x" | awk '$1 == "PROGRAM_BEGIN" { sub(/.*Name: "/, ""); sub(/".*/, ""); print; exit }')
expect_eq "$name" "$exe" "ProgramBegin names the executable the region's canonical name gives"
expect_eq "$(trace_other "$x" | grep -c '^PROGRAM_BEGIN .* 0 Arguments')" 2 \
    "ProgramBegin without arguments, as the canonical name has none"

# --- analysis: the POP efficiencies from the profile's times ---
awk '{ c[$1] = $2; if ($2 > m) m = $2; if ($3 > rt) rt = $3; s += $2; n++ }
    END { lb = s / n / m; ce = m / rt; printf "%.1f %.1f %.1f %.4f\n", 100 * lb * ce, 100 * lb, 100 * ce, lb }' \
    roots >pop.expected
read -r par lb ce lbf <pop.expected
# the design's load balance (1 + 0.5) / 2 / 1 = 0.75, with each rank's root time in the
# bounds checked above (rank r: W_r to U_r = W_r + (inclusive - T) + 0.05): at least
# (1 + W_1 / U_0) / 2, at most (1 + U_1 / W_0) / 2 (0.65 to 0.93 seen at load 15, where the
# finalization's clock synchronisation, outside the program's window, took 0.65 s)
for r in 0 1; do
    awk -v r=$r '$1 == "R" && $2 == r { w = $4; t = $6 } END { print w, t }' run.out
done >wt
bounds=$(awk 'NR == FNR { w[NR - 1] = $1; t[NR - 1] = $2; next } { u[$1] = w[$1] + ($3 - t[$1]) + 0.05 }
    END { lo = (1 + w[1] / u[0]) / 2; hi = (1 + u[1] / w[0]) / 2; if (hi > 1) hi = 1; printf "%.4f %.4f", lo, hi }' wt roots)
_check
awk -v v="$lbf" -v b="$bounds" 'BEGIN { split(b, x, " "); exit !(v >= x[1] && v <= x[2]) }' ||
    fail "the profile's load balance $lbf, expected (1 + 0.5) / 2 / 1 = 0.75 within $bounds (the root's bounds)"
echo "ok: the profile's load balance $lbf (design: 0.75, within $bounds from the root's bounds)"
grep -h -a '^\[scorep-rt\] analysis: ' run.out run.err >insitu.pop || true # the in-situ summary
timeout 300 mpirun --oversubscribe --allow-run-as-root -np 2 "$top_builddir/scorep-analyze" "$x" >an.out 2>&1 || fail "scorep-analyze: $(cat an.out)"
for f in insitu.pop an.out; do
    line=$(grep -a 'POP efficiencies' $f | head -n 1)
    expect_eq "$(echo "$line" | grep -c 'parallel')" 1 "$f: the summary has the POP efficiencies"
    got=$(echo "$line" | sed 's/.*parallel \([0-9.]*\)% = load balance \([0-9.]*\)% x communication \([0-9.]*\)%.*/\1 \2 \3/')
    _check
    echo "$got $par $lb $ce" | awk '{ for (i = 1; i <= 3; i++) if ($i - $(i + 3) > 0.2 || $(i + 3) - $i > 0.2) exit 1 }' ||
        fail "$f: POP parallel, load balance, communication: got $got, expected $par $lb $ce (the profile's, 0.2 points)"
    echo "ok: $f: POP parallel, load balance, communication $got (the profile's: $par $lb $ce)"
    mpi=$(grep -a 'MPI .* s (' $f | head -n 1 | sed 's/.*(\([0-9.]*\)%).*/\1/')
    _check
    awk -v m="$mpi" 'BEGIN { exit !(m != "" && m < 100) }' || fail "$f: MPI is $mpi% of the time"
    echo "ok: $f: MPI $mpi% of the time"
done
done_ok
