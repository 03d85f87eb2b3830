#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# ompvv_suite.sh: the OpenMP Validation & Verification suite (SOLLVE V&V, a checkout named by
# OMPVV_SRC, not part of scorep-rt) against the installed runtime: its C and C++ tests
# without target offload, built plain and by scorep-cc with gcc/g++ (libgomp, the GOMP_*
# wrappers) and clang/clang++ (libomp, OMPT); its C and C++ tests with target constructs run
# by host fallback (gcc-target: libgomp without an offload device; clang-target: clang
# -fopenmp-targets=x86_64-pc-linux-gnu run with OMP_TARGET_OFFLOAD=DISABLED, libomptarget
# falls back to the host); and its Fortran tests (gfortran, libgomp, target ones by host
# fallback). Each run with profiling and tracing. A test passes measured when it passes
# plain (exit 0 and "Test passed"), the measured build exits with the same status and
# prints the same OMPVV_RESULT lines, otf2-print reads its trace without a word on stderr
# (with an OpenMP ThreadFork where the test has a parallel construct, a "!$omp target"
# region where it has a target construct; a target test that asks omp_get_num_devices() is
# spared both: without a device its loops over the devices, or the whole test, run no
# construct), and CubeLib's cube_dump (CUBE_DUMP, default
# cube_dump in PATH; the check is left out with a note when there is none) reads its
# profile. A manual validation (docs/openmp.md, "The OpenMP V&V suite"), not part of make
# check. Wall time on the 2-core development machine, shared (session 22, load 5-60):
# gfortran 17 min, gcc-target 22 min, clang-target ~45 min; gcc and clang ~15 min each.
#
#   OMPVV_SRC=/path/to/sollve_vv PREFIX=/path/to/_install test/omp/ompvv_suite.sh [WAY...]
#
# WAY: gcc, clang (default both; C++ tests use g++ and clang++), or gcc-run, clang-run: the
# plain build run under scorep-run (LD_PRELOAD, no scorep-cc); gcc-target, clang-target:
# the tests with a target construct (host fallback, above; TARGET_OFFLOAD sets
# OMP_TARGET_OFFLOAD for clang-target, default DISABLED); gfortran: the .F90 tests. In the
# first four ways tests with a target construct (or the suite's offloading probes) are left
# out; a test the compiler cannot build plain is counted "not built". OMP_NUM_THREADS is 2,
# or 4 where the test fails plain on 2
# (THREADS="2 4": the counts tried in turn, the first that passes plain is measured); every
# run has TIMEOUT seconds (default 60), every build BUILD_TIMEOUT (default 300); ONLY=REGEX takes the tests whose path matches. ANALYZE_EVERY=N (default 10) runs scorep-analyze on
# every Nth measured trace and wants its exit status 0. SCOREP_TOTAL_MEMORY is 256M unless
# set (some tests start 1000 threads). A test that fails measured on its exit status or
# verdict is run plain three more times: one that fails there too depends on timing and is
# not counted. Prints a line per test and a summary per compiler; exits 1 when a test passes plain and fails measured.
set -eu -o pipefail

: "${OMPVV_SRC:?OMPVV_SRC names a SOLLVE V&V checkout (github.com/SOLLVE/sollve_vv)}"
: "${PREFIX:?PREFIX names the scorep-rt installation (its bin/scorep-cc)}"
[ -f "$OMPVV_SRC/ompvv/ompvv.h" ] || { echo "no $OMPVV_SRC/ompvv/ompvv.h: not a SOLLVE V&V checkout" >&2; exit 2; }
[ -x "$PREFIX/bin/scorep-cc" ] || { echo "no $PREFIX/bin/scorep-cc" >&2; exit 2; }
limit=${TIMEOUT:-60}
build_limit=${BUILD_TIMEOUT:-300}
every=${ANALYZE_EVERY:-10}
[ $# -gt 0 ] || set -- gcc clang
work=$(mktemp -d "${TMPDIR:-/tmp}/ompvv-suite.XXXXXX")
trap 'rm -rf "$work"' EXIT

cube_dump=${CUBE_DUMP:-$(command -v cube_dump || true)}
[ -n "$cube_dump" ] || echo "note: no cube_dump (CUBE_DUMP): the profiles are not read" >&2

# the tests without offload: no target construct, no offloading probe of ompvv.h, no
# omp_target_* routine (a line continued after "#pragma omp" counts too; // comments do not);
# the others are the target tests
find "$OMPVV_SRC/tests" \( -name '*.c' -o -name '*.cpp' \) | sort |
    while read -r f; do
        # (grep -q stops reading early: a pipe from sed would fail under pipefail)
        if ! grep -q -E '\btarget\b|OMPVV_TEST_(AND_SET_)?OFFLOADING|OMPVV_TEST_(AND_SET_)?SHARED_ENVIRONMENT|omp_target_' \
            <(sed 's|//.*||' "$f"); then
            echo "$f" >&3
        else
            echo "$f" >&4
        fi
    done 3>"$work/list.host" 4>"$work/list.target"
find "$OMPVV_SRC/tests" -name '*.F90' | sort >"$work/list.fortran"

# verdict OUT: the test's OMPVV_RESULT lines (the suite's own verdict)
verdict() { grep -a '^\[OMPVV_RESULT' "$1" || true; }

fail_all=0
for cc in "$@"; do
    way=$cc
    # compilers, the tests, the flags of the suite's own Makefile (ompvv.h's directory, -lm)
    flags=(-fopenmp -O1 -w -I"$OMPVV_SRC/ompvv")
    list=host
    offload=()
    case $way in
    gcc | gcc-run) cc=gcc cxx=g++ ;;
    clang | clang-run) cc=clang cxx=clang++ ;;
    gcc-target) cc=gcc cxx=g++ list=target ;;
    clang-target)
        cc=clang cxx=clang++ list=target
        flags+=(-fopenmp-targets=x86_64-pc-linux-gnu)
        offload=(OMP_TARGET_OFFLOAD="${TARGET_OFFLOAD:-DISABLED}")
        ;;
    gfortran) cc=gfortran cxx=gfortran list=fortran flags+=(-ffree-line-length-none -J"$work/mod") ;;
    *) echo "unknown way $way (gcc, clang, gcc-run, clang-run, gcc-target, clang-target, gfortran)" >&2; exit 2 ;;
    esac
    mkdir -p "$work/mod"
    # ONLY=REGEX: the tests whose path matches (e.g. ONLY=taskloop)
    if ! grep -E "${ONLY:-.}" "$work/list.$list" >"$work/list"; then
        echo "$way: no test matches ONLY=$ONLY" >&2
        continue
    fi
    run=()
    case $way in *-run) run=("$PREFIX/bin/scorep-run") ;; esac
    built=0 plain_ok=0 pass=0 fail=0 flaky=0 n=0
    while read -r src; do
        name=${src#"$OMPVV_SRC/tests/"}
        c=$cc
        case $src in *.cpp) c=$cxx ;; esac
        b=$work/$cc.bin
        rm -f "$b.plain" "$b.measured"
        # (a build has BUILD_TIMEOUT seconds: clang 14 loops on 5.0 test_metadirective_arch_is_nvidia.c)
        if ! timeout "$build_limit" $c "${flags[@]}" -o "$b.plain" "$src" -lm >"$work/build.log" 2>&1; then
            continue
        fi
        built=$((built + 1))
        # 2 threads, or 4 for a test that wants more (the measured run takes the same count)
        for nt in ${THREADS:-2 4}; do
            rm -rf "$work/run" && mkdir "$work/run"
            prc=0
            (cd "$work/run" && env "${offload[@]}" OMP_NUM_THREADS=$nt timeout "$limit" "$b.plain") >"$work/plain.out" 2>&1 </dev/null || prc=$?
            if [ $prc -eq 0 ] && grep -q '^\[OMPVV_RESULT.*Test passed' "$work/plain.out"; then break; fi
        done
        if [ "$prc" -ne 0 ] || ! grep -q '^\[OMPVV_RESULT.*Test passed' "$work/plain.out"; then
            echo "$way $name: plain rc=$prc (not counted)"
            continue
        fi
        plain_ok=$((plain_ok + 1))
        why=""
        [ ${#run[@]} -eq 0 ] || cp "$b.plain" "$b.measured" # scorep-run: the plain binary
        if [ ${#run[@]} -eq 0 ] && ! timeout "$build_limit" "$PREFIX/bin/scorep-cc" "$c" "${flags[@]}" -o "$b.measured" "$src" -lm \
            >"$work/build.log" 2>&1; then
            why="scorep-cc: $(head -c 300 "$work/build.log" | tr '\n' ' ')"
        else
            rm -rf "$work/run" "$work/exp" && mkdir "$work/run"
            mrc=0
            (cd "$work/run" && env "${offload[@]}" OMP_NUM_THREADS=$nt SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=true \
                SCOREP_TOTAL_MEMORY=${SCOREP_TOTAL_MEMORY:-256M} SCOREP_EXPERIMENT_DIRECTORY="$work/exp" timeout "$limit" "${run[@]}" "$b.measured") \
                >"$work/measured.out" 2>&1 </dev/null || mrc=$?
            if [ "$mrc" -ne "$prc" ]; then
                why="measured rc=$mrc"
            elif [ "$(verdict "$work/plain.out")" != "$(verdict "$work/measured.out")" ]; then
                why="verdict: $(verdict "$work/measured.out" | tr '\n' ' ')"
            elif grep -a -q -i 'scorep.*\(warn\|error\)' "$work/measured.out"; then
                why="runtime: $(grep -a -i -m2 'scorep.*\(warn\|error\)' "$work/measured.out" | tr '\n' ' ')"
            elif [ ! -f "$work/exp/traces.otf2" ] || [ ! -f "$work/exp/profile.cubex" ]; then
                why="no trace or profile"
            elif ! otf2-print "$work/exp/traces.otf2" >"$work/print.out" 2>"$work/print.err" || [ -s "$work/print.err" ]; then
                why="otf2-print: $(head -c 200 "$work/print.err" | tr '\n' ' ')"
            elif { [ "$list" = host ] || ! grep -q -i 'omp_get_num_devices' "$src"; } &&
                grep -q -i -E '^\s*(#\s*pragma\s+omp|!\$omp)\s+parallel' "$src" &&
                ! grep -q -E '^THREAD_FORK .*Model: OPENMP' "$work/print.out"; then
                # the adapter recorded nothing (not linked, not found): the test passes unmeasured
                why="no OpenMP ThreadFork in the trace of a test with a parallel construct"
            elif [ "$list" != host ] && ! grep -q -i 'omp_get_num_devices' "$src" &&
                grep -q -i -E '^\s*(#\s*pragma\s+omp|!\$omp)\s+target(\s+(teams|parallel|simd)|\s*$|\s+[a-z_]+\()' "$src" &&
                ! grep -q -E '^ENTER .*Region: "!\$omp target( @|")' "$work/print.out"; then
                why="no !\$omp target region in the trace of a test with a target construct"
            elif [ -n "$cube_dump" ] && ! "$cube_dump" "$work/exp/profile.cubex" >"$work/cube.out" 2>"$work/cube.err"; then
                why="cube_dump: $(head -c 200 "$work/cube.err" | tr '\n' ' ')"
            else
                n=$((n + 1))
                if [ $((n % every)) -eq 0 ]; then
                    arc=0
                    "$PREFIX/bin/scorep-analyze" "$work/exp" >"$work/analyze.out" 2>&1 || arc=$?
                    if [ $arc -ne 0 ] || [ ! -f "$work/exp/scout.cubex" ]; then
                        why="scorep-analyze rc=$arc: $(tail -c 200 "$work/analyze.out" | tr '\n' ' ')"
                    else
                        name="$name (analyzed)"
                    fi
                fi
            fi
        fi
        # a test whose verdict depends on timing (which thread runs a task, who arrives
        # first) may fail plain too: three more plain runs tell
        case $why in "measured rc"* | verdict*) recheck=yes ;; *) recheck=no ;; esac
        if [ $recheck = yes ]; then
            for _ in 1 2 3; do
                rm -rf "$work/run" && mkdir "$work/run"
                rc2=0
                (cd "$work/run" && env "${offload[@]}" OMP_NUM_THREADS=$nt timeout "$limit" "$b.plain") >"$work/plain2.out" 2>&1 </dev/null || rc2=$?
                if [ $rc2 -ne 0 ] || ! grep -q '^\[OMPVV_RESULT.*Test passed' "$work/plain2.out"; then
                    why=flaky
                    break
                fi
            done
        fi
        if [ "$why" = flaky ]; then
            flaky=$((flaky + 1))
            echo "$way $name: fails plain too, now and then (not counted)"
        elif [ -z "$why" ]; then
            pass=$((pass + 1))
            echo "$way $name: ok"
        else
            fail=$((fail + 1))
            echo "$way $name: FAIL $why"
            [ ! -f "$work/measured.out" ] || sed 's/^/    | /' "$work/measured.out" | head -n 10
        fi
        rm -f "$work/measured.out"
    done <"$work/list"
    echo "ompvv_suite $way: $(wc -l <"$work/list") selected, $built built, $plain_ok passed plain, $pass passed measured, $fail failed measured, $flaky failing plain now and then (not counted)"
    [ $fail -eq 0 ] || fail_all=1
done
[ $fail_all -eq 0 ]
