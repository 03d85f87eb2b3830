#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_unwind_omp.sh: SCOREP_ENABLE_UNWINDING at OpenMP constructs, as Score-P: an unmodified
# gcc -fopenmp program (test/programs/unwind_omp.c: main -> compute -> parallel of 3 threads
# { work -> critical; barrier }, twice) under scorep-run shows main/compute/!$omp parallel
# on every thread, the workers' trees grafted below the master's frames, with work unwound
# below the region and no frame of the OpenMP runtime, the outlined body or the runtime: in
# the profile (exact visits per thread) and in the trace (calling contexts: the master's
# from main, the workers' from their parallel region, as Score-P's unwinding stops at the
# fork), on libgomp (GOMP_* wrappers) and on LLVM's libomp (OMPT, also clang's code); and
# a loop, single, task, taskwait and locks (unwind_omp_tasks.c) on both runtimes. Nested
# parallel regions: test_unwind_omp_nested.sh.
. "$top_srcdir/test/integration/lib.sh"
command -v gcc >/dev/null 2>&1 || { echo "SKIP: no gcc"; exit 77; }
export SCOREP_RUN_LIBDIR="$top_builddir/.libs"
python3=$(python3_with_otf2)
gcc -g -O0 -fopenmp -o uw_omp "$PROGRAMS/unwind_omp.c" || fail "gcc -fopenmp"
# the source lines of the constructs, as the regions name them
src="$PROGRAMS/unwind_omp.c"
L_PAR=$(grep -n '#pragma omp parallel' "$src" | cut -d: -f1)
L_CRIT=$(grep -n '#pragma omp critical' "$src" | cut -d: -f1)
L_BAR=$(grep -n '#pragma omp barrier' "$src" | cut -d: -f1)
PAR="!\$omp parallel @unwind_omp.c:$L_PAR"
CRIT="!\$omp critical @unwind_omp.c:$L_CRIT"
SBLOCK="!\$omp critical sblock @unwind_omp.c:$L_CRIT"
BAR="!\$omp barrier @unwind_omp.c:$L_BAR"
IBAR="!\$omp implicit barrier @unwind_omp.c:$L_PAR"

# run1 NAME [scorep-run options]: the program with unwinding, profile and trace into NAME
run1()
{
    _n=$1
    shift
    rc=0
    SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS= SCOREP_ENABLE_TRACING=true \
        SCOREP_EXPERIMENT_DIRECTORY=$_n \
        timeout 60 "$top_builddir/scorep-run" "$@" ./uw_omp >"$_n.out" 2>"$_n.err" || rc=$?
    [ "$rc" = 0 ] || tail -n 30 "$_n.err"
    expect_eq "$rc" 0 "$_n: the program runs"
    expect_eq "$(cat "$_n.out")" "sum 12" "$_n: program output"
    expect_eq "$(grep -c . "$_n.err" || :)" 0 "$_n: no message ($(head -c 300 "$_n.err"))"
}

# table EXPDIR: "path=visits of threads 0,1,2" per call path, sorted
table()
{
    profile_dump "$1" -m visits | awk -F'\t' '$2 != "." {
            split($4, kv, "="); v[$2, $3] += kv[2]; p[$2] = 1 }
        END { for (k in p) printf "%s=%d,%d,%d\n", k, v[k, 0], v[k, 1], v[k, 2] }' |
        LC_ALL=C sort
}

# merged: a table without source lines, the barriers' kinds merged (libomp 14 reports the
# explicit barrier as an implicit one and dates the parallel region at its body's brace)
merged()
{
    sed 's/ @unwind_omp\.c:[0-9]*//g; s/!\$omp implicit barrier/!$omp barrier/' |
        awk -F= '{ split($2, v, ","); for (i = 1; i <= 3; i++) s[$1, i] += v[i]; p[$1] = 1 }
            END { for (k in p) printf "%s=%d,%d,%d\n", k, s[k, 1], s[k, 2], s[k, 3] }' |
        LC_ALL=C sort
}

# trace_paths EXPDIR: "path=count" of the trace's CallingContextEnter events, all threads
trace_paths()
{
    "$python3" "$top_srcdir/test/integration/sampling_paths.py" --enter "$1/traces.otf2" |
        tr '\t' '=' | LC_ALL=C sort || fail "sampling_paths.py --enter $1"
}

part "libgomp (the default: libscorep-rt-gomp's GOMP_* wrappers)"
run1 gomp
# main and compute: frames unwound at the fork, visited on the master only (twice: the
# region's 2 calls); on the workers the fork's call path, without visits (as Score-P's).
# work: a frame below the region on every thread, its visits the critical's.
LC_ALL=C sort >gomp.exp <<EOF
main=2,0,0
main/compute=2,0,0
main/compute/$PAR=2,2,2
main/compute/$PAR/$BAR=2,2,2
main/compute/$PAR/$IBAR=2,2,2
main/compute/$PAR/work=2,2,2
main/compute/$PAR/work/$CRIT=2,2,2
main/compute/$PAR/work/$CRIT/$SBLOCK=2,2,2
EOF
expect_eq "$(table gomp)" "$(cat gomp.exp)" "gomp: the call paths and their visits per thread"
expect_eq "$(profile_paths gomp | grep -E -c -i 'omp_fn|gomp|kmp|scorep|omp_outlined' || :)" 0 \
    "gomp: no frame of the OpenMP runtime, the outlined body or the runtime"
# frames have no time of their own: compute's inclusive time on the master is the region's
expect_eq "$(profile_isum gomp main/compute time 0)" \
    "$(profile_isum gomp "main/compute/$PAR" time 0)" \
    "gomp: main/compute's time on the master is its parallel region's"
if [ -n "$python3" ]; then
    # the master's contexts from main (2 of each), the 2 workers' from their region (4)
    expect_eq "$(trace_paths gomp)" "$(for c in "$PAR" "$PAR/$BAR" "$PAR/$IBAR" \
        "$PAR/work/$CRIT" "$PAR/work/$CRIT/$SBLOCK"; do
        echo "$c=4"
        echo "main/compute/$c=2"
    done | LC_ALL=C sort)" "gomp: the trace's calling contexts"
else
    skip_part_here "the trace's calling contexts" "python3 with the otf2 module (python3-otf2)"
fi
expect_eq "$(count_lines '^(ENTER|LEAVE) ' "$(trace_file gomp)")" 0 "gomp: no Enter/Leave records"

part "LLVM's libomp (OMPT)"
if ! nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$'; then
    skip_part_here "libomp" "the runtime was built without its OMPT tool"
elif ! ldconfig -p 2>/dev/null | grep -q 'libomp\.so'; then
    skip_part_here "libomp" "LLVM's libomp is not installed"
else
    run1 llvm --openmp-runtime=libomp
    expect_eq "$(table llvm | merged)" "$(merged <gomp.exp)" \
        "llvm: the call paths and their visits per thread, as on libgomp"
    expect_eq "$(profile_paths llvm | grep -E -c -i 'omp_fn|gomp|kmp|scorep|omp_outlined' || :)" \
        0 "llvm: no frame of the OpenMP runtime, the outlined body or the runtime"
    if [ -n "$python3" ]; then
        # the same list as gomp's, source lines included (libomp 14 gives the explicit barrier
        # the kind of an implicit one, at its own line, and dates the parallel construct and its
        # closing barrier a line early, L_PAR - 1: only these are mapped). Until session
        # 27 a count of the master's contexts, 6 for 5 once: the master's explicit barrier
        # without a line, its code pointer taken by a worker's critical release in libomp
        # (test/omp/test_omp_barrier_codeptr.sh)
        expect_eq "$(trace_paths llvm |
            sed "s#/!\\\$omp implicit barrier @unwind_omp\\.c:$L_BAR=#/!\$omp barrier @unwind_omp.c:$L_BAR=#
                s#@unwind_omp\\.c:$((L_PAR - 1))\\([/=]\\)#@unwind_omp.c:$L_PAR\\1#g" | LC_ALL=C sort)" \
            "$(trace_paths gomp)" "llvm: the trace's calling contexts, as on libgomp"
    fi
    # clang's code on libomp: its outlined bodies (.omp_outlined., .omp_outlined._debug__)
    # are left out as GCC's: the same table as gcc's on libgomp, source lines included
    if command -v clang >/dev/null 2>&1; then
        clang -g -O0 -fopenmp -o uw_clang "$PROGRAMS/unwind_omp.c" || fail "clang -fopenmp"
        rc=0
        SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS= SCOREP_EXPERIMENT_DIRECTORY=clang \
            timeout 60 "$top_builddir/scorep-run" --openmp-runtime=libomp ./uw_clang \
            >clang.out 2>clang.err || rc=$?
        expect_eq "$rc $(cat clang.out) $(grep -c . clang.err || :)" "0 sum 12 0" \
            "clang: the program runs, its output, no message"
        expect_eq "$(table clang)" "$(cat gomp.exp)" \
            "clang: the call paths and their visits per thread, as gcc's on libgomp"
    else
        skip_part_here "clang's code on libomp" "clang is not installed"
    fi
fi

part "worksharing loop, single, task, taskwait and the lock API (both runtimes)"
# test/programs/unwind_omp_tasks.c, 2 threads: which thread runs the single and the task is
# the runtime's choice, so the visits are summed over the threads; without source lines
# and with the barrier kinds merged (libgomp reports the loop's barrier as an explicit one).
# Per thread: 3 iterations, each leaf -> omp_set_lock + omp_unset_lock (leaf: 6 visits, the
# calls through it), the loop's barrier, the single and its closing barrier (loop: 6 + 3);
# the task runs below the parallel region where Score-P puts it, its leaf below it. main
# initialises and destroys the lock around compute: omp_init_lock and omp_destroy_lock below
# main, whose frame, unwound, gets a visit per recorded call below it (3: docs/sampling.md).
gcc -g -O0 -fopenmp -o uw_tasks "$PROGRAMS/unwind_omp_tasks.c" || fail "gcc -fopenmp tasks"
P='main/compute/!$omp parallel'
LC_ALL=C sort >tasks.exp <<EOF
main=3
main/omp_init_lock=1
main/omp_destroy_lock=1
main/compute=1
$P=2
$P/!\$omp barrier=2
$P/loop=18
$P/loop/!\$omp barrier=4
$P/loop/leaf=12
$P/loop/leaf/omp_set_lock=6
$P/loop/leaf/omp_unset_lock=6
$P/loop/!\$omp single=2
$P/loop/!\$omp single/!\$omp single sblock=1
$P/loop/!\$omp single/!\$omp single sblock/!\$omp create task=1
$P/loop/!\$omp single/!\$omp single sblock/!\$omp taskwait=1
$P/!\$omp task=1
$P/!\$omp task/leaf=2
$P/!\$omp task/leaf/omp_set_lock=1
$P/!\$omp task/leaf/omp_unset_lock=1
EOF
for rt in libgomp libomp; do
    if [ $rt = libomp ] && ! ldconfig -p 2>/dev/null | grep -q 'libomp\.so'; then
        skip_part_here "tasks on libomp" "LLVM's libomp is not installed"
        continue
    fi
    rc=0
    SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS= SCOREP_EXPERIMENT_DIRECTORY=t_$rt \
        SCOREP_ENABLE_TRACING=true \
        timeout 60 "$top_builddir/scorep-run" --openmp-runtime=$rt ./uw_tasks >t_$rt.out \
        2>t_$rt.err || rc=$?
    expect_eq "$rc" 0 "tasks on $rt: the program runs"
    expect_eq "$(cat t_$rt.out)" "sum 115" "tasks on $rt: program output"
    expect_eq "$(grep -c . t_$rt.err || :)" 0 "tasks on $rt: no message"
    expect_eq "$(profile_dump t_$rt -m visits | awk -F'\t' '$2 != "." {
            p = $2; gsub(/ @unwind_omp_tasks\.c:[0-9]+/, "", p)
            gsub(/!\$omp implicit barrier/, "!$omp barrier", p)
            split($4, kv, "="); v[p] += kv[2] }
        END { for (k in v) print k "=" v[k] }' | LC_ALL=C sort)" "$(cat tasks.exp)" \
        "tasks on $rt: the call paths and their visits over both threads"
    # the trace: the task's contexts are where it runs, as Score-P's (its unwinding state is
    # the thread's, not the task's): below the construct of the thread that ran it (the
    # creator's taskwait, or a barrier: the runtime's choice), not below its creation
    # (create task); its leaf and lock calls below it. (The master's contexts start at main,
    # a worker's at its parallel region.)
    if [ -n "$python3" ]; then
        expect_eq "$(trace_paths t_$rt | sed 's/ @unwind_omp_tasks\.c:[0-9]*//g' |
            grep '!\$omp task[/=]' | sed -E 's#^main/compute/##; s#^!\$omp parallel/(loop/!\$omp single/!\$omp single sblock/!\$omp taskwait|loop/!\$omp (implicit )?barrier|!\$omp (implicit )?barrier)/#RUNS-IN/#')" \
            "$(printf '%s\n' 'RUNS-IN/!$omp task/leaf/omp_set_lock=1' \
                'RUNS-IN/!$omp task/leaf/omp_unset_lock=1' 'RUNS-IN/!$omp task=1')" \
            "tasks on $rt: the task's calling contexts below the construct it ran in"
    else
        skip_part_here "the trace's task contexts" "python3 with the otf2 module (python3-otf2)"
    fi
done

done_ok
