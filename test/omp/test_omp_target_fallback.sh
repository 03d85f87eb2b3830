#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_target_fallback.sh: target constructs run by host fallback (test/omp/
# target_fallback.c). clang's code calls the region's host version after libomptarget's entry
# point returns a failure, outside the adapter's wrapper: scorep-cc's LLVM plugin brackets that
# call so the "!$omp target" region spans the body, as gcc's host fallback does inside
# GOMP_target_ext. Derived from the program's design: every OpenMP team is forked inside a
# target construct's body, so on every location no ThreadFork lies outside a "!$omp target"
# region; the target region of the parallel construct holds exactly one fork (2 threads
# requested) and, in the profile, the parallel region's 2 visits (one per thread); each of the
# three constructs is visited once, each named after its pragma's line (clang's call of the
# second has the parallel construct's line: the name comes from clang's source location). Variants: scorep-cc clang -fopenmp-targets=x86_64-pc-
# linux-gnu run with OMP_TARGET_OFFLOAD=DISABLED, scorep-cc gcc (libgomp without an offload
# device); and the plain clang build under scorep-run, where no plugin brackets the host
# version: there the regions end at the entry point's return and every fork lies after them.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

OFFLOAD="-fopenmp -fopenmp-targets=x86_64-pc-linux-gnu"
SRC="$OMP_SRC/target_fallback.c"
[ -f "$top_builddir/.libs/libscorep-rt-omptarget.so" ] || fail "libscorep-rt-omptarget not built"
if ! clang -g $OFFLOAD -o tf_plain "$SRC" >probe.err 2>&1; then
    echo "SKIP: clang $OFFLOAD cannot build a program here: $(head -c 300 probe.err)"
    exit 77
fi
run_app probe env OMP_TARGET_OFFLOAD=DISABLED ./tf_plain
if [ "$status" != 0 ] || [ "$(cat probe.out)" != "a 2016 x 12" ]; then
    echo "SKIP: an offload program does not run here: $(head -c 300 probe.err)"
    exit 77
fi
scorep_cc clang -g $OFFLOAD -o tf_clang "$SRC"
scorep_cc gcc -g -O1 -fopenmp -o tf_gcc "$SRC" # -O1: the outlined body starts past the pragma
nm tf_clang >tf_clang.nm
expect_grep ' w scorep_rt_target_fallback_arm$' tf_clang.nm \
    "clang: the plugin brackets the host versions (a weak reference to the arm hook)"

TTDPF=$(line target_fallback TTDPF)
TPAR=$(line target_fallback TPAR)
NOWAIT=$(line target_fallback NOWAIT)
PAR=$(line target_fallback PAR)

# forks EXP: "outside in_TTDPF in_TPAR": ThreadForks of the main thread (location 0) outside
# any "!$omp target" region, and those inside the target regions of lines TTDPF and TPAR on
# any location (libomp's hidden helper team, which runs the nowait target task, forks on a
# location of its own, outside: not the program's)
forks()
{
    trace_events "$1" | awk -v a="target_fallback.c:$TTDPF\"" -v b="target_fallback.c:$TPAR\"" '
        $1 == "ENTER" && /Region: "!\$omp target @/ { d[$2]++; if (index($0, a)) ia[$2] = 1; if (index($0, b)) ib[$2] = 1 }
        $1 == "LEAVE" && /Region: "!\$omp target @/ { d[$2]--; ia[$2] = 0; ib[$2] = 0 }
        $1 == "THREAD_FORK" { if (!d[$2] && $2 == 0) out++; if (ia[$2]) na++; if (ib[$2]) nb++ }
        END { print out + 0, na + 0, nb + 0 }'
}

for v in clang gcc plain; do
    exp=exp_tf_$v
    if [ $v = plain ]; then
        set -- "$SCOREP_RUN" ./tf_plain
    else
        set -- ./tf_$v
    fi
    run_app tf_$v env OMP_TARGET_OFFLOAD=DISABLED OMP_NUM_THREADS=2 SCOREP_ENABLE_TRACING=true \
        SCOREP_EXPERIMENT_DIRECTORY=$exp "$@"
    expect_eq "$status" 0 "$v: exit status"
    expect_eq "$(cat tf_$v.out)" "a 2016 x 12" "$v: program output"
    expect_eq "$(cat tf_$v.err)" "" "$v: nothing on stderr"
    omp_consistent $exp "$v"
    for l in $TTDPF $TPAR $NOWAIT; do
        expect_eq "$(trace_events $exp | grep -c "^ENTER .*Region: \"!\$omp target @target_fallback.c:$l\"")" 1 \
            "$v: the target construct of line $l entered once"
    done
    set -- $(forks $exp)
    if [ $v = plain ]; then
        # no plugin: the host versions run after the regions' ends
        expect_eq "$2 $3" "0 0" "plain under scorep-run: no fork inside a target region (the body follows it)"
        continue
    fi
    expect_eq "$1" 0 "$v: every ThreadFork of the main thread inside a target region's body"
    [ "$2" -ge 1 ] || fail "$v: target teams distribute parallel for: its teams forked inside it ($2)"
    expect_eq "$3" 1 "$v: target region of the parallel construct: one fork inside it"
    expect_eq "$(visits $exp "main/!\$omp target @target_fallback.c:$TPAR/!\$omp parallel @target_fallback.c:$PAR")" 2 \
        "$v: profile: the parallel region under its target region, once per thread"
done
done_ok
