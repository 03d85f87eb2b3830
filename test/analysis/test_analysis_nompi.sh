#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_analysis_nompi.sh: the wait-state analysis of programs without MPI (docs/analysis.md,
# "Programs without MPI"): `scorep-analyze EXPDIR` with no mpirun and no MPI_Init (a shim
# preloaded into it fails the test if MPI_Init or MPI_Init_thread is called), and the in situ
# analysis at the program's end (SCOREP_ENABLE_ANALYSIS), which must give the same report.
#   (a) omp_waits.c built without MPI (3 OpenMP threads, D = 0.2 s): Wait at Barrier of the
#       threads that wait for the late one, idle threads in a serial section of 2D, limited
#       parallelism of the thread outside a team of 2, the critical path through the late
#       thread of each barrier: the design's values as the program ran them (its own clock
#       readings before each construct) within 10% + 15 ms, each more than D/2, and the
#       trace's (the patterns' definitions over otf2-print's view, trace_threads.py) within
#       0.1% + 0.2 ms;
#   (b) pthread_locks.c (main and 3 threads): each thread's mutex and condition lock contention
#       as the program's own readings give it (10% + 15 ms) and as the trace gives it;
#   (c) serial.c: the time tree and the critical path are the program's regions' times; and
#       the one-step form `scorep-analyze ./serial` (measured, analysed in situ).
# src/analysis calls MPI only in an_net_mpi.c/.h.
# Bad input: the trace of a program without MPI under mpirun -np 2, and a trace of two
# processes without MPI (written with OTF2's Python writer), get a clear message each.
# CubeLib's cube_dump (CUBELIB_DUMP, or on the PATH) reads the same barrier waits.
. "$top_srcdir/test/integration/lib.sh"

. "$top_srcdir/test/analysis/lib_analysis.sh"
# the analysis speaks MPI only through an_net_mpi.c (an_net.h): a PMPI call or <mpi.h> in any
# other file of src/analysis would run without MPI_Init in a program without MPI
run_to mpi_files.txt grep -l -E 'PMPI_[A-Z]|include <mpi.h>' "$top_srcdir"/src/analysis/*.[ch]
expect_eq "$(sed 's|.*/||' mpi_files.txt | tr '\n' ' ')" "an_net_mpi.c an_net_mpi.h " \
    "src/analysis: MPI only in an_net_mpi.c/.h"
command -v clang >/dev/null 2>&1 || { echo "SKIP: no clang"; exit 77; }
command -v otf2-print >/dev/null 2>&1 || { echo "SKIP: no otf2-print"; exit 77; }
nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$' ||
    { echo "SKIP: the runtime was built without its OMPT tool"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export KMP_BLOCKTIME=0 OMP_NUM_THREADS=3
# one clock for all CPUs: the threads' events in their true order
export SCOREP_TIMER=clock_gettime
T=$top_srcdir/test/analysis

# a shim that fails any MPI initialisation of the process it is preloaded into
cat >noinit.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
static void no(const char *f) { fprintf(stderr, "noinit: %s called\n", f); exit(99); }
int MPI_Init(int *c, char ***v) { (void)c, (void)v; no("MPI_Init"); return 1; }
int MPI_Init_thread(int *c, char ***v, int r, int *p) { (void)c, (void)v, (void)r, (void)p; no("MPI_Init_thread"); return 1; }
EOF
${CC:-cc} -shared -fPIC -o noinit.so noinit.c || fail "build the MPI_Init shim"

# nompi_run DIR OUT AN PROGRAM [ARGS...]: PROGRAM with tracing and the in situ analysis into
# DIR (its output in OUT, the report kept as DIR/scout_insitu.cubex), then scorep-analyze DIR
# without mpirun and without MPI_Init (output in AN, report DIR/scout.cubex); both the same
nompi_run()
{
    _dir=$1 _out=$2 _an=$3
    shift 3
    env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_ANALYSIS=true SCOREP_EXPERIMENT_DIRECTORY="$_dir" \
        "$@" >"$_out" 2>&1 || fail "$*: $(cat "$_out")"
    expect_file "$_dir/scout.cubex" "$1: the in-situ analysis without MPI wrote scout.cubex"
    expect_grep '^\[scorep-rt\] in-situ analysis: .* wrote ' "$_out" "$1: the in situ analysis ran"
    mv "$_dir/scout.cubex" "$_dir/scout_insitu.cubex"
    LD_PRELOAD="$work/noinit.so" "$ANALYZE" "$_dir" >"$_an" 2>&1 ||
        fail "scorep-analyze $_dir (no mpirun): $(cat "$_an")"
    expect_no_grep noinit "$_an" "scorep-analyze $_dir: no MPI_Init"
    expect_file "$_dir/scout.cubex" "$1: scorep-analyze without mpirun wrote scout.cubex"
    $CV "$_dir/scout.cubex" same "$_dir/scout_insitu.cubex" 1e-6 >"$_an.same" ||
        fail "$1: in situ and post-mortem differ: $(cat "$_an.same")"
    echo "ok: $1: in situ and post-mortem give the same report"
}
# design V E WHAT: V within 10% x E + 15 ms of E (the design's tolerance: a loaded machine
# deschedules a thread between its clock reading and its construct)
design()
{
    awk -v v="$1" -v e="$2" 'BEGIN { t = 0.1 * e + 0.015; exit !(v >= e - t && v <= e + t) }' ||
        fail "$3: expected $2 s (10% + 15 ms), got $1 s"
    echo "ok: $3 = $1 (design $2)"
}

# ---------------------------------------------------------------- (a) OpenMP, no MPI
part "OpenMP without MPI"
SRC=$T/omp_waits.c
"$SCOREP_CC" --user --nocompiler clang -DNO_MPI -g -O1 -fopenmp -o omp_waits "$SRC" ||
    fail "build: scorep-cc --user clang -DNO_MPI -fopenmp omp_waits.c"
x=$work/ow
nompi_run "$x" ow.out an.out ./omp_waits $D
expect_grep "Wait at Barrier .* of time" an.out "the summary lists the barrier waits"
CUBE=$x/scout.cubex
value() { $CV "$CUBE" value "$@"; }
$CV "$CUBE" locations >locs.txt || fail "cube_values.py locations"
expect_eq "$(wc -l <locs.txt | tr -d ' ')" 3 "scout.cubex has 3 locations (1 process x 3 threads)"
for k in 0 1 2; do
    l=$($CV "$CUBE" visitors "thread$k") || fail "cube_values.py visitors thread$k"
    expect_eq "$(echo "$l" | wc -w | tr -d ' ')" 1 "exactly one location entered thread$k ($l)"
    eval "L$k=\$l"
done
expect_eq "$L0" "0:0" "OpenMP thread 0 is the master thread's location"
loc() { eval "echo \$L$1"; }
line() { grep -n "/\* $1 \*/" "$SRC" | cut -d: -f1; }
PE="!\$omp parallel @omp_waits.c:$(line PAR_E)"
PI="!\$omp parallel @omp_waits.c:$(line PAR_I)"
PL="!\$omp parallel @omp_waits.c:$(line PAR_L)"
# the design: thread 1 late by D at the explicit barrier (threads 0 and 2 wait D), thread 2 by
# D at the implicit one (threads 0 and 1 wait D), the workers idle during the master's 2D
# serial section, one thread outside the team of 2 for D; the critical path runs through the
# late thread of each barrier (Scalasca's: back to the master at the fork), so thread 1 holds
# ebarrier's D, thread 2 ibarrier's, the master the serial 2D, the team's worker limited's D.
# Expected as the program ran: its marks (its own clock just before each construct, "T
# scenario thread what seconds"; a loaded machine deschedules a thread between them, seen:
# thread 0 late by 48 ms into the implicit barrier), within 10% + 15 ms; and the design's
# shape: each value more than D/2 (which the program forces: the waits below; the critical
# path through each late thread runs from the fork to its barrier, which it enters D/2 after
# the master's reading at least, and the master reads after its fork)
mk() { awk -v s="$1" -v t="$2" -v w="$3" '$1 == "T" && $2 == s && $3 == t && $4 == w { print $5 }' ow.out; }
diff_of() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a - b }'; }
max3() { printf '%s\n' "$@" | sort -g | tail -1; }
half() { expect_eq "$(awk -v v="$1" -v d="$D" 'BEGIN { print (v > d / 2) }')" 1 "$2: more than D/2 ($1 s)"; }
ebar=$(max3 "$(mk ebarrier 0 bar)" "$(mk ebarrier 1 bar)" "$(mk ebarrier 2 bar)")
ibar=$(max3 "$(mk ibarrier 0 end)" "$(mk ibarrier 1 end)" "$(mk ibarrier 2 end)")
trace_threads regions "$x" reg.txt
# the design's wait, by its construction: a thread that is not late reads the clock ("A
# scenario thread seconds", the node's clock, which the trace's ticks are under
# SCOREP_TIMER=clock_gettime) and counts itself just before its barrier; the late thread
# enters the barrier D/2 after the last of those readings at least (omp_waits.c, late_until).
# So a waiting thread's Wait at Barrier and its own time from its reading to its barrier
# enter (the trace's; a loaded machine may deschedule it there) are more than D/2 together
# (seen before: a Wait of 0.072 s when a thread came late and the late thread did not wait on)
# half_wait V SCENARIO THREAD BARRIER WHAT: V + THREAD's time from its reading to its enter of
# BARRIER > D/2
half_wait() {
    _a=$(awk -v s="$2" -v t="$3" '$1 == "A" && $2 == s && $3 == t { print $4 }' ow.out)
    _e=$(awk -F'\t' -v l="$(loc "$3")" -v b="$4" '$1 == l && $2 == b { print $3 }' reg.txt)
    [ -n "$_a" ] && [ -n "$_e" ] || fail "no reading of thread $3 in $2 ($_a) or enter of $4 ($_e)"
    expect_eq "$(awk -v a="$_a" -v e="$_e" 'BEGIN { print (e >= a) }')" 1 \
        "$2: thread $3's reading ($_a s) is before its barrier enter ($_e s), one clock"
    expect_eq "$(awk -v v="$1" -v a="$_a" -v e="$_e" -v d="$D" 'BEGIN { print (v + e - a > d / 2) }')" 1 \
        "$5: with its time from its reading to the barrier ($(diff_of "$_e" "$_a") s), more than D/2 ($1 s)"
}
for k in 0 2; do
    v=$(value omp_ebarrier_wait 'ebarrier/**' "$(loc $k)")
    design "$v" "$(diff_of "$ebar" "$(mk ebarrier $k bar)")" "Wait at explicit Barrier, thread $k"
    half_wait "$v" ebarrier $k "!\$omp barrier @omp_waits.c:$(line BAR_E)" "Wait at explicit Barrier, thread $k"
done
for k in 0 1; do
    v=$(value omp_ibarrier_wait 'ibarrier/**' "$(loc $k)")
    design "$v" "$(diff_of "$ibar" "$(mk ibarrier $k end)")" "Wait at implicit Barrier, thread $k"
    half_wait "$v" ibarrier $k "!\$omp implicit barrier @omp_waits.c:$(line PAR_I)" "Wait at implicit Barrier, thread $k"
done
expect_eq "$(value omp_ebarrier_wait 'ebarrier/**' "$L1")" 0 "the late thread 1 does not wait"
serial=$(diff_of "$(mk serial 0 end)" "$(mk serial 0 begin)")
for k in 1 2; do
    design "$(value omp_idle_threads serial "$(loc $k)")" "$serial" "Idle threads in the serial section, thread $k"
done
half "$serial" "the serial section"
$CV "$CUBE" visitors "limited/$PL" >team.txt || fail "cube_values.py visitors limited/$PL"
out=$(printf '%s\n' "$L1" "$L2" | grep -vxF -f team.txt) || fail "no location outside the team of 2"
mem=$(printf '%s\n' "$L1" "$L2" | grep -xF -f team.txt) || fail "no worker in the team of 2"
lim=$(diff_of "$(mk limited 0 join)" "$(mk limited 0 fork)")
design "$(value omp_limited_parallelism 'limited/**' "$out")" "$lim" "Limited parallelism of the thread outside the team"
half "$lim" "the team of 2"
# the critical path of each scenario per thread, from the trace (docs/analysis.md, "The
# critical path through threads"): for each barrier instance whose last thread L is a worker,
# L's interval (from the master's fork of the team, or L's leave of its previous barrier of
# the team, not before the previous interval's end, to L's leave of this barrier) is L's, the
# rest of the master's time in the scenario the master's; within 0.1% + 0.2 ms. Not the
# design's "the master holds little (< D/4)": a loaded machine that creates the first team
# late, or deschedules the master so that it comes last into a barrier, puts that time on the
# master (seen: 0.069-0.35 s at load 15-17); nor the late thread's time from its own start in
# the team: a first team's thread started late holds the time from the fork too (seen:
# 0.2054 s for 0.1500 s at load 12)
trace_threads forks "$x" forks.txt
# path_of LOC SCENARIO PARALLEL BARRIER...: LOC's expected share of SCENARIO's path
path_of() {
    _l=$1 _s=$2 _p=$3
    shift 3
    _f=$(awk -F'\t' -v p="$_p" '$1 == "0:0" && $2 == p { print $4 }' forks.txt)
    [ -n "$_f" ] && [ "$_f" != - ] || fail "the trace: no fork of $_p on the master"
    printf '%s\n' "$@" >bars.txt
    awk -F'\t' -v who="$_l" -v s="$_s" -v p="$_p" -v fork="$_f" '
        FILENAME == "bars.txt" { nb++; b[$0] = nb; next }
        $1 == "0:0" && $2 == s { ts = $4 - $3 }
        $2 == p { pen[$1] = $3 }
        $2 in b { k = b[$2]; en[k, $1] = $3; lv[k, $1] = $4; locs[$1] = 1 }
        END {
            if (ts == "") exit 1
            done = 0; moved = 0; mine = 0
            for (k = 1; k <= nb; k++) {
                last = ""
                for (l in locs)
                    if ((k, l) in en && (last == "" || en[k, l] > en[k, last])) last = l
                if (last == "") exit 1
                a = (k == 1) ? (fork < pen[last] ? fork : pen[last]) : lv[k - 1, last]
                if (a < done) a = done
                e = lv[k, last]
                if (last != "0:0" && e > a) { moved += e - a; if (last == who) mine += e - a }
                if (e > done) done = e
            }
            printf "%.9f", who == "0:0" ? ts - moved : mine
        }' bars.txt reg.txt || fail "the trace: no $_s on the master or no barrier $* in it"
}
BE="!\$omp barrier @omp_waits.c:$(line BAR_E)"
IE="!\$omp implicit barrier @omp_waits.c:$(line PAR_E)"
II="!\$omp implicit barrier @omp_waits.c:$(line PAR_I)"
IL="!\$omp implicit barrier @omp_waits.c:$(line PAR_L)"
cp1=$(value critical_path 'ebarrier/**' "$L1")
cp2=$(value critical_path 'ibarrier/**' "$L2")
cpl=$(value critical_path 'limited/**' "$mem")
NEAR_REL=0.001 NEAR_ABS=0.0002
for k in 0 1 2; do
    e=$(path_of "$(loc $k)" ebarrier "$PE" "$BE" "$IE") || exit 1
    near critical_path 'ebarrier/**' "$(loc $k)" "$e"
    e=$(path_of "$(loc $k)" ibarrier "$PI" "$II") || exit 1
    near critical_path 'ibarrier/**' "$(loc $k)" "$e"
    e=$(path_of "$(loc $k)" limited "$PL" "$IL") || exit 1
    near critical_path 'limited/**' "$(loc $k)" "$e"
done
NEAR_REL=0.1 NEAR_ABS=0.015
# and the design's shape (which the program forces: the late thread's interval runs from the
# fork to its barrier, which it enters D/2 after the master's reading at least, and the master
# reads after its fork)
half "$cp1" "critical path through late thread 1 (ebarrier)"
half "$cp2" "critical path through late thread 2 (ibarrier)"
design "$(value critical_path serial "$L0")" "$serial" "critical path of the serial section (master)"
half "$cpl" "critical path through the team's late worker"
# the path is the run: its total is the master's time from its first event to the program's end
cp=$(value critical_path '*' '*')
tm=$(value time '*' "$L0")
expect_eq "$(awk -v c="$cp" -v t="$tm" 'BEGIN { d = c - t; print (d * d < 1e-12) }')" 1 \
    "the critical path ($cp s) is the master's, the program's, time ($tm s)"
# POP at thread level (docs/analysis.md): each thread's useful time is its Execution without
# its MPI, OpenMP and pthread time, i.e. Scalasca's Computation (`comp`), the runtime the master's time, the serial
# share the master's time outside the three parallel regions. The attributes (4 decimals)
# must be what these values give; and the design as the program ran it: each thread's useful
# time as it measured it around its constructs (omp_waits.c's "U who seconds": the design's
# 2D + 4 x 50 ms on the master, the serial section and the 50 ms before each scenario, D on
# each worker for the barrier it is late for and D more on the worker in the team of 2), the
# program's time R and the master's time in parallel regions P ("R seconds P seconds"):
# load balance avg(U) / max(U) (the design's 0.67 for D = 0.2), computation efficiency
# max(U) / R (0.5), serial share (R - P) / R (0.5), each within 10% (the time the program's
# readings do not see: the measurement's start and end, a thread descheduled between its
# reading and its construct). Not the design's constants: a loaded machine that starts a
# worker after its deadline shortens its spin, and one that delays the others makes the late
# thread spin D/2 more (seen: load balance 0.59 at load 11-13)
u0=$(value comp '*' "$L0") u1=$(value comp '*' "$L1") u2=$(value comp '*' "$L2")
rt=$(value time '*' "$L0")
par=0
for p in "ebarrier/$PE" "ibarrier/$PI" "limited/$PL"; do
    par=$(awk -v a="$par" -v b="$(value time "$p/**" "$L0")" 'BEGIN { printf "%.9f", a + b }')
done
pop() { $CV "$CUBE" attr "POP $1"; }
exp_pop=$(awk -v a="$u0" -v b="$u1" -v c="$u2" -v t="$rt" -v p="$par" 'BEGIN {
    m = a; if (b > m) m = b; if (c > m) m = c
    printf "%.4f %.4f %.4f %.4f", (a + b + c) / 3 / m, m / t, (a + b + c) / 3 / t, (t - p) / t }')
set -- $exp_pop
for q in "thread load balance|$1" "thread computation efficiency|$2" \
    "thread parallel efficiency|$3" "serial region share|$4"; do
    got=$(pop "${q%|*}") || fail "cube_values.py attr POP ${q%|*}"
    expect_eq "$(awk -v g="$got" -v e="${q#*|}" 'BEGIN { d = g - e; print (d * d <= 2.6e-8) }')" 1 \
        "POP ${q%|*}: $got (from the report's times: ${q#*|})"
done
# (the master's time before main's first reading and after its last, the dynamic loader's
# and the measurement's start, is its own too: 70 ms at load 3; so the program's R is
# taken to the trace's PROGRAM_BEGIN .. PROGRAM_END on the master, that difference added to
# the master's useful time)
otf2-print "$x/traces.otf2" >ow.events 2>ow.perr || fail "otf2-print $x: $(tail -3 ow.perr)"
otf2-print -G "$x/traces.otf2" >ow.defs 2>ow.perr || fail "otf2-print -G $x: $(tail -3 ow.perr)"
tps=$(sed -n 's/^CLOCK_PROPERTIES.*Ticks per Seconds: \([0-9]*\),.*/\1/p' ow.defs)
span=$(awk -v tps="$tps" '$2 == 0 && $1 == "PROGRAM_BEGIN" { b = $3 } $2 == 0 && $1 == "PROGRAM_END" { e = $3 }
    END { if (b == "" || e == "" || tps <= 0) exit 1; printf "%.9f", (e - b) / tps }' ow.events) ||
    fail "the trace has no PROGRAM_BEGIN and PROGRAM_END on location 0 ($tps ticks per second)"
# each thread's Computation again from the trace (otf2-print's view, no code shared with
# src/analysis): its time while the innermost open region is no OpenMP construct but a
# parallel region (its implicit task), on the master from its PROGRAM_BEGIN to PROGRAM_END
# but for its forks and joins outside the parallel region (THREAD_FORK to the region's enter,
# its leave to THREAD_JOIN: OpenMP management), on a worker inside its teams (ticks per
# trace location id; "0:i" in the report for the i-th by id)
run_to comp.txt awk '$1 == "PROGRAM_BEGIN" { m[$2] = 1; last[$2] = $3; next }
    $1 ~ /^(ENTER|LEAVE|PROGRAM_END|THREAD_FORK|THREAD_JOIN)$/ {
        l = $2; ids[l] = 1
        if (l in last && !end[l]) {
            n = d[l] > 0 ? st[l, d[l]] : ""
            if ((pd[l] > 0 || (m[l] && !fk[l])) && (n !~ /^!\$omp / || n ~ /^!\$omp parallel /))
                c[l] += $3 - last[l]
        }
        last[l] = $3
        if ($1 == "THREAD_FORK" || $1 == "THREAD_JOIN")
            fk[l] = $1 == "THREAD_FORK"
        else if ($1 == "ENTER") {
            match($0, /Region: "[^"]*"/)
            st[l, ++d[l]] = substr($0, RSTART + 9, RLENGTH - 10)
            pd[l] += st[l, d[l]] ~ /^!\$omp parallel /
        } else if ($1 == "LEAVE")
            pd[l] -= st[l, d[l]--] ~ /^!\$omp parallel /
        else
            end[l] = 1
    }
    END { for (l in ids) printf "%s %.0f\n", l, c[l] }' ow.events
# the report's Computation per thread is the trace's to 1 ns, and so are the POP values it
# gives (load balance avg / max, computation efficiency max / the master's span, 4 decimals)
i=0 tc=""
for id in $(awk '{ print $1 }' comp.txt | sort -n); do
    c=$(awk -v id="$id" -v tps="$tps" '$1 == id { printf "%.9f", $2 / tps }' comp.txt)
    NEAR_REL=0 NEAR_ABS=0.000000002 near comp '*' "0:$i" "$c"
    tc="$tc $c" i=$((i + 1))
done
expect_eq "$i" 3 "the trace has 3 locations"
set -- $(awk -v span="$span" -v c="$tc" 'BEGIN { n = split(c, v, " "); m = 0; s = 0
    for (k = 1; k <= n; k++) { s += v[k]; if (v[k] > m) m = v[k] }
    printf "%.4f %.4f", s / n / m, m / span }')
for q in "thread load balance|$1" "thread computation efficiency|$2"; do
    got=$(pop "${q%|*}")
    expect_eq "$(awk -v g="$got" -v e="${q#*|}" 'BEGIN { d = g - e; print (d * d <= 2.6e-8) }')" 1 \
        "POP ${q%|*}: $got (the trace's Computation: ${q#*|})"
done
# and the program's own readings of its useful time ("U who seconds", omp_waits.c) lie inside
# each thread's Computation by construction (taken after a construct's leave or a team's
# begin, before the next construct's enter or its fork), the master's from PROGRAM_BEGIN to
# PROGRAM_END: each thread's Computation is at least its reading (1 us: the printed digits),
# and so the serial share at least the program's (its parallel time P runs from before the
# fork to after the join). Not more by a bound: a loaded machine deschedules a thread
# between its reading and its construct (seen: computation efficiency 0.6119 for the readings'
# 0.5547, session 26), which the trace's values above see.
run_to design.txt awk -v span="$span" '$1 == "U" { u[$2] = $3; n++ } $1 == "R" { r = $2; p = $4 }
    END {
        if (n != 3 || r <= 0 || span < r) exit 1
        printf "%.6f %.6f %.6f %.9f\n", u[0] + span - r, u[1], u[2], (span - p) / span }' ow.out
read -r d_u0 d_u1 d_u2 d_ss <design.txt
for k in 0 1 2; do
    u=$(eval "echo \$d_u$k")
    got=$(value comp '*' "$(loc $k)")
    expect_eq "$(awk -v g="$got" -v u="$u" 'BEGIN { print (g >= u - 0.000001) }')" 1 \
        "thread $k: Computation $got s >= its own reading $u s"
done
got=$(pop "serial region share")
expect_eq "$(awk -v g="$got" -v e="$d_ss" 'BEGIN { print (g >= e - 0.00005) }')" 1 \
    "POP serial region share: $got >= the program's readings' $d_ss"
expect_grep "POP at thread level: parallel .* load balance .* computation .* serial regions" an.out \
    "the summary gives POP at thread level"
# the trace's values (the patterns' definitions over otf2-print's view)
NEAR_REL=0.001 NEAR_ABS=0.0002
trace_threads barriers "$x" bar.txt
trace_threads idle "$x" idle.txt
for k in 0 1 2; do
    near omp_ebarrier_wait 'ebarrier/**' "$(loc $k)" "$(trace_sum bar.txt "$(loc $k)" omp_ebarrier_wait "$PE")"
    near omp_ibarrier_wait 'ibarrier/**' "$(loc $k)" "$(trace_sum bar.txt "$(loc $k)" omp_ibarrier_wait "$PI")"
    near omp_idle_threads serial "$(loc $k)" "$(trace_sum idle.txt "$(loc $k)" omp_idle_threads serial)"
    near omp_limited_parallelism 'limited/**' "$(loc $k)" \
        "$(trace_sum idle.txt "$(loc $k)" omp_limited_parallelism 'limited/**')"
done
NEAR_REL=0.1 NEAR_ABS=0.015
# CubeLib's own reading: the explicit barrier waits over all call paths and threads
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
if [ -n "$CUBELIB_DUMP" ]; then
    run_to dump.csv "$CUBELIB_DUMP" -m omp_ebarrier_wait -x incl -z incl -s csv2 "$CUBE"
    cl=$(awk -F, 'NR > 1 && $1 == 0 { s += $3 } END { printf "%.9f", s }' dump.csv)
    mine=$(value omp_ebarrier_wait '*' '*')
    expect_eq "$(awk -v a="$cl" -v b="$mine" 'BEGIN { d = a - b; print (b > 0 && d * d < 1e-10 * b * b + 1e-12) }')" 1 \
        "CubeLib's omp_ebarrier_wait at the root, all threads ($cl) = cube_values.py's ($mine, 1e-5)"
else
    skip_part_here "CubeLib's own reading (cube_dump)" \
        "CubeLib is not packaged for this system (set CUBELIB_DUMP to a built cube_dump)"
fi

# bad input: a trace without MPI ranks under mpirun -np 2
$MPIRUN -np 2 "$ANALYZE" "$x" >np2.out 2>&1 && fail "scorep-analyze on 2 processes accepted a trace without MPI"
expect_grep "no MPI ranks .* without mpirun" np2.out "mpirun -np 2 on a trace without MPI: a clear message"

# bad input: threads of two processes and no MPI ranks (what fork would leave), written by
# libotf2's own Python writer
py=$(python3_with_otf2)
if [ -n "$py" ]; then
    cat >fork2.py <<'PY'
import sys, otf2
with otf2.writer.open(sys.argv[1], timer_resolution=1000000000) as trace:
    node = trace.definitions.system_tree_node("node")
    work = trace.definitions.region("work")
    for p in range(2):
        g = trace.definitions.location_group("Process %d" % p, system_tree_parent=node)
        w = trace.event_writer("Master thread", group=g)
        w.enter(1000 + p, work)
        w.leave(2000 + p, work)
PY
    "$py" fork2.py "$work/fork" >fork2.out 2>&1 || fail "fork2.py: $(cat fork2.out)"
    "$ANALYZE" "$work/fork" >fork.out 2>&1 && fail "scorep-analyze accepted two processes without MPI"
    expect_grep "threads of several processes but no MPI ranks .*fork" fork.out \
        "two processes without MPI: a clear message"
    expect_no_file "$work/fork/scout.cubex" "no report for two processes without MPI"
else
    skip_part "OTF2's Python writer (python3-otf2)"
fi

# ---------------------------------------------------------------- (b) pthread, no MPI
part "pthread without MPI"
"$SCOREP_CC" --nocompiler gcc -O1 -o pthread_locks "$T/pthread_locks.c" -lpthread ||
    fail "build: scorep-cc --nocompiler gcc pthread_locks.c"
y=$work/pl
nompi_run "$y" pl.out an2.out ./pthread_locks $D
CUBE=$y/scout.cubex
# program thread k is the location whose ThreadBegin has sequence count k + 1, main 0:0
# (Cube location R:L: the trace's location L << 32 | R, Score-P's id)
trace_other "$y" | awk '$1 == "THREAD_BEGIN" { s = $0; sub(/.*Sequence Count: /, "", s)
    r = $2 % 4294967296; print s - 1, r ":" ($2 - r) / 4294967296 }' >map.txt
echo "main 0:0" >>map.txt
expect_eq "$(wc -l <map.txt | tr -d ' ')" 4 "four threads: $(tr '\n' ' ' <map.txt)"
ploc() { awk -v k="$1" '$1 == k { print $2 }' map.txt; }
lock_contention pl.out >contention.txt
trace_threads locks "$y" trace_locks.txt
tot_m=0
for who in main 0 1 2; do
    m=$(contention_of contention.txt "$who" lock trylock)
    cw=$(contention_of contention.txt "$who" wait timedwait)
    design "$(value pthread_lock_contention_mutex_lock '*' "$(ploc "$who")")" "$m" \
        "mutex lock contention of thread $who (its own readings)"
    design "$(value pthread_lock_contention_conditional '*' "$(ploc "$who")")" "$cw" \
        "condition lock contention of thread $who (its own readings)"
    NEAR_REL=0.001 NEAR_ABS=0.0002 near pthread_lock_contention_mutex_lock '*' "$(ploc "$who")" \
        "$(trace_sum trace_locks.txt "$(ploc "$who")" pthread_lock_contention_mutex_lock)"
    tot_m=$(awk -v a="$tot_m" -v b="$m" 'BEGIN { print a + b }')
done
# the design: threads 1 and 2 wait for mutex A about 3D - 3S together (pthread_locks.c)
expect_eq "$(awk -v v="$tot_m" -v d="$D" 'BEGIN { print (v > d) }')" 1 \
    "the program's readings show mutex contention of more than D ($tot_m s)"

# ---------------------------------------------------------------- (c) serial, no MPI
part "serial without MPI"
"$SCOREP_CC" --user --nocompiler gcc -O1 -o serial "$T/serial.c" || fail "build: scorep-cc serial.c"
z=$work/se
nompi_run "$z" se.out an3.out ./serial 0.1
CUBE=$z/scout.cubex
run_to locs3.txt $CV "$CUBE" locations
expect_eq "$(wc -l <locs3.txt | tr -d ' ')" 1 "one location: $(cat locs3.txt)"
# spanned V OUT REGION WHAT: V between REGION's spin and the readings around its begin and
# end (serial.c's "S region inner outer", OUT), 0.1% + 0.2 ms either side (the runtime's
# timer against the node's clock); not the design's 3D and 2D: a loaded machine overruns a
# spin (seen: 86 ms at load 16)
spanned()
{
    _r=$(awk -v r="$3" '$1 == "S" && $2 == r { print $3, $4 }' "$2")
    [ -n "$_r" ] || fail "serial printed no readings of $3: $(cat "$2")"
    expect_eq "$(awk -v v="$1" -v a="${_r% *}" -v b="${_r#* }" 'BEGIN {
        print (v >= a - 0.001 * a - 0.0002 && v <= b + 0.001 * b + 0.0002) }')" 1 \
        "$4: $1 s, between the spin's ${_r% *} s and the readings' ${_r#* } s around the region"
}
spanned "$(value time work 0:0)" se.out work "time of work (3D)"
spanned "$(value time more 0:0)" se.out more "time of more (2D)"
spanned "$(value critical_path work 0:0)" se.out work "critical path of work"
spanned "$(value critical_path more 0:0)" se.out more "critical path of more"
cp=$(value critical_path '*' '*')
tm=$(value time '*' '*')
expect_eq "$(awk -v c="$cp" -v t="$tm" 'BEGIN { d = c - t; print (d * d < 1e-12) }')" 1 \
    "the critical path ($cp s) is the program's time ($tm s), to its end (as scout.ser's)"
# POP at thread level of one thread: balanced, all of it serial
expect_eq "$($CV "$CUBE" attr "POP thread load balance")" 1.0000 "serial: thread load balance 1"
expect_eq "$($CV "$CUBE" attr "POP serial region share")" 1.0000 "serial: all of it serial"
for m in omp_ebarrier_wait omp_idle_threads pthread_lock_contention_mutex_lock mpi; do
    expect_eq "$(value "$m" '*' '*')" 0 "no $m in a serial program"
done
# one step, as `scalasca -analyze ./app`: measured with tracing and the in situ analysis
SCOREP_EXPERIMENT_DIRECTORY="$work/onestep" "$ANALYZE" ./serial 0.1 >onestep.out 2>&1 ||
    fail "scorep-analyze ./serial: $(cat onestep.out)"
expect_grep "measuring ./serial \(no MPI launcher\) into $work/onestep" onestep.out \
    "scorep-analyze ./serial: measured without a launcher"
expect_file "$work/onestep/scout.cubex" "scorep-analyze ./serial: the report"
CUBE=$work/onestep/scout.cubex
spanned "$(value critical_path work 0:0)" onestep.out work "one step: critical path of work"
echo "PASS: the analysis without MPI: OpenMP, pthread and serial programs, post-mortem without"
echo "MPI_Init and in situ alike"
