#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_constructs.sh: test/omp/constructs.c (taskloops, copyprivate, doacross loops, detach,
# cancellation, host teams; teams of 2) on both runtimes: gcc's code on libgomp (scorep-cc's
# default and plain gcc under scorep-run: libscorep-rt-gomp's GOMP_* wrappers) and on LLVM's
# libomp (--openmp-runtime=libomp: OMPT), and clang's. Each run's table of OpenMP call paths
# (positions and user functions left out) with the visits summed over the threads is compared
# with the table the program's design and gcc's code give (written out below), and the two
# runtimes' tables with each other; OMP_CANCELLATION=true cancels a region and a taskgroup.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"
VARIANTS="$VARIANTS gccomp" # gcc on libomp too
[ "$GCC_OPENMP_RUNTIME" = libgomp ] || { echo "SKIP: the gcc builds run on libgomp here"; exit 77; }

omp_build constructs

# table EXP [loc]: "PATH<TAB>VISITS" for every call path ending in an OpenMP region, its
# other regions (the program's functions) and the positions (" @file:line") left out, visits
# summed over the threads and the call paths that become one; with loc per location
# ("PATH<TAB>LOCATION<TAB>VISITS"). The worksharing loop's name "!$omp for/do" (Score-P 8.4's:
# src/adapters/ompt/scorep_ompt_regions.inc.c:77, REGION_OMP_LOOP) holds a "/" that separates
# no call path components: kept whole.
table()
{
    profile_dump "$1" -m visits >"$1.visits"
    awk -F'\t' -v by="${2:-}" '{ p = $2; gsub(/!\$omp for\/do/, "!$omp for\001do", p)
        n = split(p, c, "/"); if (c[n] !~ /^!\$omp /) next; q = ""
        for (i = 1; i <= n; i++) if (c[i] ~ /^!\$omp /) {
            r = c[i]; sub(/ @.*/, "", r); sub(/\001/, "/", r); q = q "/" r }
        if (by != "") q = q "\t" $3
        split($4, kv, "="); s[q] += kv[2] } END { for (k in s) print k "\t" s[k] }' "$1.visits" |
        sort
}

# at_loc EXP PATH: the visits of PATH (as table gives it) per location, by location number
at_loc()
{
    table "$1" loc >"$1.byloc"
    awk -F'\t' -v p="$2" '$1 == p { print $2, $3 }' "$1.byloc" | sort -n | awk '{ print $2 }' |
        tr '\n' ' ' | sed 's/ $//'
}

# run_parts LABEL VARIANT [PARTS...]: runs PARTS of the program (all without) into exp_LABEL_VARIANT
run_parts()
{
    _l=$1
    _v=$2
    shift 2
    omp_run "$_v" constructs "$@"
    omp_consistent "$exp" "$_l $_v"
    rm -rf "exp_${_l}_$_v"
    mv "$exp" "exp_${_l}_$_v"
    exp="exp_${_l}_$_v"
    cp "constructs_$_v.out" "${_l}_$_v.out"
}

P='/!$omp parallel'
S="$P/!\$omp single/!\$omp single sblock"
# The parts both runtimes run gcc's code of alike: taskloop, doacross, cancel (5 regions of 2
# threads). gcc's code (test/omp/constructs.c compiled: -fdump-tree-ompexp) has no barrier
# after TL_SINGLE, CC_SINGLE and DOACROSS_ULL (each ends its region), GOMP_loop_end after
# DOACROSS and CC_FOR (a combined parallel loop), GOMP_barrier_cancel at CC_BARRIER. A single's
# block ends at the next construct (gcc calls nothing at its end): the nogroup taskloop and
# the taskwait after it are below the parallel region. Tasks hang below the parallel region.
cat >expected_common <<EOF
$P	10
$P/!\$omp barrier	2
$P/!\$omp for/do	6
$P/!\$omp implicit barrier	14
$P/!\$omp single	4
$S	2
$S/!\$omp taskgroup	2
$S/!\$omp taskgroup/!\$omp create task	2
$S/!\$omp taskgroup/!\$omp taskloop	1
$S/!\$omp taskgroup/!\$omp taskloop/!\$omp create task	4
$S/!\$omp taskgroup/!\$omp taskwait	1
$P/!\$omp task	8
$P/!\$omp taskloop	1
$P/!\$omp taskloop/!\$omp create task	2
$P/!\$omp taskwait	1
EOF
# 10: 5 regions x 2 threads; barrier: CC_BARRIER x 2; for: 2 doacross loops and CC_FOR x 2;
# implicit barrier: 5 closing x 2, DOACROSS's and CC_FOR's x 2; single: TL_SINGLE and
# CC_SINGLE x 2, their blocks once; taskgroup: the taskloop's and CC_GROUP; create task: 4
# tasks of grainsize(1), 2 of grainsize(2) over 4 iterations, CC_TASK1 and CC_TASK2.

# All parts (gcc's code on libgomp): the common parts, then copyprivate (CP_PAR: the
# single's copy barrier and gcc's GOMP_barrier after the copies, both implicit, per thread),
# detach (DT_PAR: the detachable task as any other; DT_SINGLE's barrier implicit on both
# threads, the task's creation and wait between it and the single's start) and host teams
# (a league of 2 teams, each a region of one thread on the encountering thread, named as the
# parallel regions without their position: 7 regions x 2 + 2 teams).
cat >expected_all <<EOF
$P	16
$P/!\$omp barrier	2
$P/!\$omp for/do	6
$P/!\$omp implicit barrier	24
$P/!\$omp single	8
$S	4
$S/!\$omp create task	1
$S/!\$omp taskgroup	2
$S/!\$omp taskgroup/!\$omp create task	2
$S/!\$omp taskgroup/!\$omp taskloop	1
$S/!\$omp taskgroup/!\$omp taskloop/!\$omp create task	4
$S/!\$omp taskgroup/!\$omp taskwait	1
$S/!\$omp taskwait	1
$P/!\$omp task	9
$P/!\$omp taskloop	1
$P/!\$omp taskloop/!\$omp create task	2
$P/!\$omp taskwait	1
EOF
# With OMP_CANCELLATION=true, the cancel part: CC_FOR runs (nothing cancelled), CC_PAR2's
# thread 0 cancels the region (no barrier), thread 1 leaves its barrier; CC_TASK2 is not
# created (its taskgroup was cancelled).
cat >expected_cancel <<EOF
$P	6
$P/!\$omp barrier	1
$P/!\$omp for/do	2
$P/!\$omp implicit barrier	8
$P/!\$omp single	2
$S	1
$S/!\$omp taskgroup	1
$S/!\$omp taskgroup/!\$omp create task	1
$S/!\$omp taskgroup/!\$omp taskwait	1
$P/!\$omp task	1
EOF

for v in gcc plain; do
    run_parts all $v
    expect_eq "$(cat all_$v.out)" "sum 2141244 a 8 b 8" "$v: program output (every iteration and task ran once)"
    expect_eq "$(table $exp)" "$(sort expected_all)" "$v: all parts: the design's OpenMP call paths and visits"
    # per thread where the design fixes it
    expect_eq "$(at_loc $exp "$P/!\$omp single")" "4 4" "$v: 4 singles per thread"
    expect_eq "$(at_loc $exp "$P/!\$omp for/do")" "3 3" "$v: 3 loops per thread"
    expect_eq "$(at_loc $exp "$P/!\$omp barrier")" "1 1" "$v: CC_BARRIER per thread"
    expect_eq "$(at_loc $exp "$P/!\$omp implicit barrier")" "12 12" "$v: 12 implicit barriers per thread"
    # the league: fork of 2, then per team a fork of one, all on the encountering thread
    expect_eq "$(trace_other $exp | awk '$1 == "THREAD_FORK" { print $2, $NF }' | tail -n 3 | tr '\n' ,)" \
        "0 2,0 1,0 1," "$v: host teams: a league of 2, 2 teams of one thread"
    expect_eq "$(at_loc $exp "$P")" "9 7" "$v: 7 regions per thread, the 2 teams on the encountering one"
    expect_eq "$(events $exp THREAD_TASK_CREATE)" 9 "$v: THREAD_TASK_CREATE: 6 taskloop, detach, 2 cancel"
    # a taskloop's region spans the creation of its tasks, not the wait for them (the
    # taskgroup's): no task runs inside it, on any thread
    trace_events $exp >$exp.events
    expect_eq "$(awk '$1 == "ENTER" && /Region: "!\$omp taskloop"/ { open[$2]++ }
        $1 == "LEAVE" && /Region: "!\$omp taskloop"/ { open[$2]-- }
        $1 == "ENTER" && /Region: "!\$omp task"/ && open[$2] > 0 { n++ }
        END { print n + 0 }' $exp.events)" 0 "$v: no task runs inside a taskloop region"
    expect_eq "$(grep -c 'ENTER .*Region: "!\$omp task" ' $exp.events)" 6 "$v: the taskloops' 6 tasks ran"

    run_parts cancel $v cancel
    expect_eq "$(cat cancel_$v.out)" "sum 140000 a 0 b 0" "$v: without OMP_CANCELLATION nothing is cancelled"
    export OMP_CANCELLATION=true
    run_parts cancelled $v cancel
    unset OMP_CANCELLATION
    expect_eq "$(cat cancelled_$v.out)" "sum 40000 a 0 b 0" "$v: cancelled: CC_TASK2 did not run"
    expect_eq "$(table $exp)" "$(sort expected_cancel)" "$v: cancelled: the design's call paths and visits"
    expect_eq "$(table $exp loc | awk -F'\t' -v p="$P/!\$omp barrier" '$1 == p { print $2 }')" 1 \
        "$v: cancelled: CC_BARRIER on thread 1 only"
    expect_eq "$(events $exp THREAD_TASK_CREATE)" 1 "$v: cancelled: CC_TASK2 not created"
done

# gcc's code on both runtimes: the common parts give the design's table on each (libomp 14's
# GOMP_barrier_cancel reports an implicit barrier: CC_BARRIER counted with them there)
for v in gcc gccomp; do
    run_parts common $v taskloop doacross cancel
    expect_eq "$(cat common_$v.out)" "sum 140044 a 8 b 8" "$v: common parts: program output"
    table $exp >common_$v.table
done
expect_eq "$(cat common_gcc.table)" "$(sort expected_common)" "gcc on libgomp: the design's table"
sed 's/!\$omp barrier/!$omp implicit barrier/' expected_common |
    awk -F'\t' '{ s[$1] += $2 } END { for (k in s) print k "\t" s[k] }' | sort >expected_common.merged
for v in gcc gccomp; do
    sed 's/!\$omp barrier/!$omp implicit barrier/' common_$v.table |
        awk -F'\t' '{ s[$1] += $2 } END { for (k in s) print k "\t" s[k] }' | sort >common_$v.merged
    expect_eq "$(cat common_$v.merged)" "$(cat expected_common.merged)" "$v: the design's table, barriers as one kind"
done
expect_eq "$(cat common_gcc.merged)" "$(cat common_gccomp.merged)" "gcc's code: libgomp and libomp give the same table"

# clang's code on libomp (OMPT) and gcc's on libgomp: copyprivate (CP_PAR as above) and
# detach (DT_PAR), the same table
cat >expected_cpdt <<EOF
$P	4
$P/!\$omp implicit barrier	10
$P/!\$omp single	4
$S	2
$S/!\$omp create task	1
$S/!\$omp taskwait	1
$P/!\$omp task	1
EOF
for v in gcc clang; do
    run_parts cpdt $v copyprivate detach
    expect_eq "$(cat cpdt_$v.out)" "sum 1200 a 0 b 0" "$v: copyprivate and detach: program output"
done
expect_eq "$(table exp_cpdt_gcc)" "$(sort expected_cpdt)" "gcc on libgomp: copyprivate and detach: the design's table"
expect_eq "$(table exp_cpdt_clang)" "$(sort expected_cpdt)" \
    "clang on libomp: copyprivate and detach: the design's table"
expect_eq "$(at_loc exp_cpdt_gcc "$P/!\$omp implicit barrier")" "5 5" \
    "gcc: implicit barriers per thread: 3 (copyprivate), 2 (detach)"
expect_eq "$(at_loc exp_cpdt_clang "$P/!\$omp implicit barrier")" "5 5" \
    "clang: implicit barriers per thread: 3 (copyprivate), 2 (detach)"

# target constructs of gcc's code on libgomp without an offload device (host fallback):
# test/omp/target.c's constructs on the host thread, as test_omp_target.sh expects them of
# clang's code through libomptarget (there with the device's kernels and transfers), in order
scorep_cc gcc -fopenmp -o target_gcc "$OMP_SRC/target.c"
gcc -g -fopenmp -o target_plain "$OMP_SRC/target.c" || fail "build: gcc -fopenmp target.c"
T=$(line target TARGET)
D=$(line target DATA)
I=$(line target INNER)
{
    for k in 1 2; do
        echo "ENTER !\$omp target @target.c:$T"
        echo "LEAVE !\$omp target @target.c:$T"
    done
    for r in "enter data @target.c:$D" "@target.c:$I" "exit data @target.c:$D"; do
        echo "ENTER !\$omp target $r"
        echo "LEAVE !\$omp target $r"
    done
} >want_target.seq
for v in gcc plain; do
    omp_run $v target
    expect_eq "$(cat target_$v.out)" "b 999000 c 1000" "target $v: program output"
    trace_events $exp >$exp.events
    expect_eq "$(awk '($1 == "ENTER" || $1 == "LEAVE") && /Region: "!\$omp target/ {
        r = $0; sub(/.*Region: "/, "", r); sub(/" <.*/, "", r); print $1, r }' $exp.events)" \
        "$(cat want_target.seq)" "target $v: the constructs in order, each with its position"
    n=5 # the 5 constructs; the gcc build's functions too: main, scale twice
    if [ $v = gcc ]; then n=8; fi
    expect_eq "$(grep -c '^ENTER' $exp.events)" $n "target $v: no other region"
    trace_defs $exp >$exp.defs
    expect_eq "$(grep -c 'Type: ACCELERATOR_STREAM' $exp.defs)" 0 "target $v: host fallback: no device location"
done

# test/omp/target_mixed.c the same way: enter data, a target teams region (GOMP_teams4 in the
# target's body: a league of 2 teams, each a region of one thread, each forking its parallel
# loop of 2 threads), update, exit data, target nowait (the region: the target task's
# creation), then a target region per thread of a parallel region; the master's records
scorep_cc gcc -fopenmp -o target_mixed_gcc "$OMP_SRC/target_mixed.c"
gcc -g -fopenmp -o target_mixed_plain "$OMP_SRC/target_mixed.c" || fail "build: gcc -fopenmp target_mixed.c"
at() { echo "@target_mixed.c:$(line target_mixed "$1")"; }
{
    echo "ENTER !\$omp target enter data $(at ENTER)"
    echo "LEAVE !\$omp target enter data $(at ENTER)"
    echo "ENTER !\$omp target $(at TEAMS)"
    echo "THREAD_FORK 2"
    for k in 1 2; do
        printf 'THREAD_FORK 1\nENTER !$omp parallel\nTHREAD_FORK 2\nLEAVE !$omp parallel\n'
    done
    echo "LEAVE !\$omp target $(at TEAMS)"
    for r in "update $(at UPDATE)" "exit data $(at EXIT)" "$(at NOWAIT)"; do
        echo "ENTER !\$omp target $r"
        echo "LEAVE !\$omp target $r"
    done
    echo "THREAD_FORK 2"
    echo "ENTER !\$omp target $(at DEVICE)"
    echo "LEAVE !\$omp target $(at DEVICE)"
} >want_mixed.seq
for v in gcc plain; do
    omp_run $v target_mixed
    expect_eq "$(cat target_mixed_$v.out)" "y 4097 z 32 devices 1" "target_mixed $v: program output"
    omp_consistent $exp "target_mixed $v"
    trace_events $exp >$exp.events
    expect_eq "$(awk '$2 == 0 && ($1 == "ENTER" || $1 == "LEAVE") && /Region: "!\$omp (target|parallel")/ {
            r = $0; sub(/.*Region: "/, "", r); sub(/" <.*/, "", r); print $1, r }
        $2 == 0 && $1 == "THREAD_FORK" { print $1, $NF }' $exp.events)" "$(cat want_mixed.seq)" \
        "target_mixed $v: the master's target constructs and teams in order"
    expect_eq "$(grep -c "ENTER .*Region: \"!\\\$omp target $(at DEVICE)\"" $exp.events)" 2 \
        "target_mixed $v: a target region per thread"
    expect_eq "$(events $exp THREAD_TEAM_BEGIN)" 8 \
        "target_mixed $v: team begins: 2 teams of one, 2 x 2 of their loops, 2 of the last region"
done
done_ok
