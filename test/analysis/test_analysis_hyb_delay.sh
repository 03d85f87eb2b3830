#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_analysis_hyb_delay.sh: the MPI delay costs of a hybrid program whose Late Sender was
# caused by a late OpenMP thread (hyb_delay.c, 2 ranks x 2 threads, D = 0.2 s): by Scalasca's
# definitions (docs/analysis.md, "MPI delay costs and OpenMP barriers") rank 0's master's
# waiting in the implicit barrier is no delay of its own; the Late Sender's cost that it
# carries goes to the late worker as delay_latesender_longterm, the master keeps only its
# work outside the wait as delay_latesender. Each value is checked against the bounds that the
# trace's own records give (trace_threads.py regions over otf2-print's view, no code shared
# with the analysis): W the Late Sender (rank 0's send enter - rank 1's receive enter), B the
# master's barrier wait (the worker's enter of the implicit barrier - the master's), I0 and I1
# the two ranks' synchronisation intervals (from their MPI_Barrier's leave to the send / the
# receive); scale = min(1, W / (delay + B)) with delay + B between I0 - I1 and I0. Post-mortem
# and in situ agree. Optional: Scalasca's scout.hyb on the same trace, per call path and
# location (SCOUT_HYB, CUBELIB_DUMP).
. "$top_srcdir/test/integration/lib.sh"

. "$top_srcdir/test/analysis/lib_analysis.sh"
need_hybrid_tools
export KMP_BLOCKTIME=0 OMP_NUM_THREADS=2
SRC="$top_srcdir/test/analysis/hyb_delay.c"
OMPI_CC=clang "$SCOREP_CC" --user --nocompiler mpicc -g -O1 -fopenmp -o hyb_delay "$SRC" ||
    fail "build: scorep-cc --user mpicc (clang) -fopenmp hyb_delay.c"
x=$work/hd
insitu_then_postmortem 2 "$x" hd.out an.out ./hyb_delay $D
$CV "$x/scout.cubex" same "$x/scout_insitu.cubex" 1e-6 >same.out ||
    fail "in situ and post-mortem differ: $(cat same.out)"
echo "ok: in situ and post-mortem agree"

trace_threads regions "$x" reg.txt
# reg LOC REGION FIELD: the first instance of REGION (a prefix of its name) on LOC, its enter
# (FIELD 3) or leave (4)
reg()
{
    _v=$(awk -F'\t' -v l="$1" -v r="$2" -v f="$3" \
        '$1 == l && index($2, r) == 1 { print $f; exit }' reg.txt)
    [ -n "$_v" ] || fail "the trace has no $2 on $1: $(cat reg.txt)"
    echo "$_v"
}
# the worker: the location that entered "late", in the trace and in the report alike
WL=$(awk -F'\t' '$2 == "late" { print $1 }' reg.txt)
expect_eq "$(echo "$WL" | wc -w)" 1 "one location of the trace entered late ($WL)"
expect_eq "$($CV "$x/scout.cubex" visitors late)" "$WL" "the report's location of late is the trace's"
M=0:0
B0L=$(reg $M MPI_Barrier 4) S0=$(reg $M MPI_Send 3)
B1L=$(reg 1:0 MPI_Barrier 4) R1=$(reg 1:0 MPI_Recv 3)
IBM=$(reg $M '!$omp implicit barrier' 3) IBML=$(reg $M '!$omp implicit barrier' 4)
IBW=$(reg "$WL" '!$omp implicit barrier' 3) PW=$(reg "$WL" '!$omp parallel' 3)
LE=$(reg "$WL" late 3) LL=$(reg "$WL" late 4)
calc() { awk -v W="$W" -v B="$B" -v I0="$I0" -v I1="$I1" "BEGIN { printf \"%.9f\n\", $1 }"; }
W=$(awk -v a="$S0" -v b="$R1" 'BEGIN { printf "%.9f\n", a - b }')
B=$(awk -v a="$IBW" -v b="$IBML" -v m="$IBM" 'BEGIN { printf "%.9f\n", (a < b ? a : b) - m }')
I0=$(awk -v a="$S0" -v b="$B0L" 'BEGIN { printf "%.9f\n", a - b }')
I1=$(awk -v a="$R1" -v b="$B1L" 'BEGIN { printf "%.9f\n", a - b }')
echo "the trace: Late Sender W = $W s, the master's barrier wait B = $B s, intervals I0 = $I0 s, I1 = $I1 s"
# the design: a Late Sender of about D, caused by the barrier wait (more than D/2 each)
expect_eq "$(calc "(W > 0.1 && B > 0.1 && B <= I0)" | cut -d. -f1)" 1 "the trace shows the design (W, B > 0.1 s)"

CUBE=$x/scout.cubex
value() { $CV "$CUBE" value "$@"; }
NEAR_ABS=0.00001
# the late worker: the master's barrier wait's share of the Late Sender, scale x B
LO=$(calc "B * (W < I0 ? W / I0 : 1)") HI=$(calc "B * (I0 - I1 > 0 && W < I0 - I1 ? W / (I0 - I1) : 1)")
within delay_latesender_longterm '*' "$WL" "$LO" "$HI"
# ... on its call paths by its delay against the master: "late" holds at least its share of
# the worker's interval (from the master's fork of the team, F, to the worker's barrier: the
# fork's span before the worker's enter is the region's, as in Scalasca's time maps)
trace_threads forks "$x" forks.txt
F=$(awk -F'\t' -v l=$M '$1 == l && index($2, "!$omp parallel") == 1 && $3 == 1 { print $4; exit }' forks.txt)
case "$F" in '' | -) fail "the trace has no fork of the team on $M: $(cat forks.txt)" ;; esac
LT=$(value delay_latesender_longterm '*' "$WL")
within delay_latesender_longterm late "$WL" \
    "$(awk -v t="$LT" -v a="$LE" -v b="$LL" -v p="$PW" -v f="$F" -v i="$IBW" \
        'BEGIN { if (f < p) p = f; printf "%.9f\n", t * (b - a) / (i - p) }')" "$LT"
within delay_latesender '*' "$WL" 0 0
# the master: the rest, min(W, delay + B) - scale x B in all; at its implicit barrier at most
# the barrier's time after the wait (before session 24 about B more: its barrier wait counted
# as its own delay)
IBNAME=$(awk -F'\t' -v l=$M 'index($2, "!$omp implicit barrier") == 1 && $1 == l { print $2; exit }' reg.txt)
within delay_latesender "$IBNAME" $M 0 "$(awk -v a="$IBML" -v m="$IBM" -v b="$B" 'BEGIN { printf "%.9f\n", a - m - b }')"
ALL=$(awk -v a="$(value delay_latesender '*' $M)" -v b="$LT" 'BEGIN { printf "%.9f\n", a + b }')
awk -v v="$ALL" -v a="$(calc "(W < I0 - I1 ? W : I0 - I1)")" -v b="$(calc "(W < I0 ? W : I0)")" \
    -v t="$NEAR_ABS" 'BEGIN { exit !(v >= a - t && v <= b + t) }' ||
    fail "rank 0's delay costs of the Late Sender, short- and long-term: $ALL s, expected min(W, I0 - I1) to min(W, I0)"
echo "ok: rank 0's delay costs of the Late Sender: $ALL s (W = $W s)"
within delay_latesender_longterm '*' $M 0 0
within delay_latesender '*' 1 0 0
within delay_latesender_longterm '*' 1 0 0

part "Scalasca's scout.hyb"
SCOUT_HYB=${SCOUT_HYB:-$(command -v scout.hyb || true)}
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
if [ -z "$SCOUT_HYB" ] || [ -z "$CUBELIB_DUMP" ]; then
    skip_part_here "Scalasca's scout.hyb on hyb_delay.c" \
        "Scalasca and CubeLib are not packaged for this system (set SCOUT_HYB and CUBELIB_DUMP)"
else
    hs=$(scout_hyb_run "$x" scout_hyb.out) || fail "scout.hyb refuses the trace: $(tail -c 600 scout_hyb.out)"
    expect_no_grep '[Ww]arning|WARNING|[Ee]rror|ERROR|Fatal' scout_hyb.out "scout.hyb: no message"
    SC="python3 $top_srcdir/test/analysis/scout_cmp.py $CUBELIB_DUMP $hs $x/scout.cubex"
    # per call path and location within 0.1 ms + 0.01%: both put a team's fork (the master's
    # ThreadFork to its enter of the region; on the worker the span to its enter) and join in
    # the parallel region, in the time maps of the MPI delay costs and in every thread's first
    # barrier interval (since session 25; before, 0.46 ms of the master's short-term costs
    # were at "work" here, 0.06 ms of the worker's at "late"; before session 24 about D
    # (0.2 s) of the worker's long-term costs were the master's)
    $SC -a 1e-4 -r 1e-4 -m mpi_latesender,omp_ibarrier_wait,delay_latesender,\
delay_latesender_longterm,delay_ompbarrier >hyb_cmp.out 2>&1 ||
        fail "scout.hyb and ours differ per call path and location: $(cat hyb_cmp.out)"
    echo "ok: per call path and location (0.1 ms), Scalasca's scout.hyb = ours:"
    sed 's/^/    /' hyb_cmp.out
    # the totals of the MPI delay costs, which the fork's place does not change, within 10 us
    $SC -t -a 1e-5 -r 1e-5 -m delay_latesender,delay_latesender_longterm >hyb_tot.out 2>&1 ||
        fail "scout.hyb and ours differ in total: $(cat hyb_tot.out)"
    echo "ok: totals, Scalasca's scout.hyb = ours:"
    sed 's/^/    /' hyb_tot.out
    # square's critical_path_imbalance (scout.spec's formula) from scout.hyb's report, per call
    # path and location (SQUARE names Scalasca's square); rank 0 has 2 threads (its team),
    # rank 1 only its master
    SQUARE=${SQUARE:-$(command -v square || true)}
    if [ -z "$SQUARE" ]; then
        skip_part_here "square's critical_path_imbalance" "Scalasca is not packaged (set SQUARE)"
    else
        square_hybrid "$hs" "$x/scout.cubex" sq_hyb.out "2 1" -a 1e-4 -r 1e-4
    fi
fi
done_ok
