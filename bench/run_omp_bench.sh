#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_omp_bench.sh: OpenMP part of `make bench`: the cost of an empty parallel region and of
# an explicit task, uninstrumented and with the runtime's OMPT tool (preloaded: profile, and
# profile + trace). Prints one table; asserts nothing (never part of `make check`).
#
# With 1 thread every callback runs on the measured thread and nothing waits for the OS
# scheduler: that row is the adapter's cost per team member; with 4 threads on fewer cores
# the numbers mostly show thread scheduling. Tasks with 2 depend items each (trace: one
# record per item, docs/openmp.md "Task dependences") beside tasks without; then the creating
# thread's time in the task construct alone (0, 2, 64 items: the tool's create and
# dependences callbacks, without the tasks' scheduling), and from it the trace's cost per item. The minimum of the runs is shown (the machine
# may be shared). Environment: abs_top_builddir, abs_top_srcdir (as run_bench.sh),
# BENCH_RUNS (runs per variant, default 5), BENCH_REGIONS (default 100000), BENCH_TASKS
# (default 200000), BENCH_OMP_ONLY.
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

runs=${BENCH_RUNS:-5}
regions=${BENCH_REGIONS:-100000}
ntasks=${BENCH_TASKS:-200000}
rt=$builddir/.libs/libscorep-rt.so

# BENCH_PROGRAMS / BENCH_SAVE_PROGRAMS (bench_lib.sh: bench_programs) with BENCH_OMP_ONLY=gcc:
# the gcc part's programs built here, run on a machine without clang or libomp's headers
# (test/device/pack.sh); the libraries they load must be on LD_LIBRARY_PATH there
if [ -n "${BENCH_PROGRAMS:-}${BENCH_SAVE_PROGRAMS:-}" ] && [ "${BENCH_OMP_ONLY:-}" != gcc ]; then
    die "BENCH_PROGRAMS and BENCH_SAVE_PROGRAMS need BENCH_OMP_ONLY=gcc"
fi
if [ -z "${BENCH_PROGRAMS:-}" ] && { ! command -v clang >/dev/null 2>&1 ||
    ! nm -D "$rt" 2>/dev/null | grep -q ' T ompt_start_tool$'; }; then
    echo "run_omp_bench.sh: skipped (needs clang and a runtime built with its OMPT tool)" >&2
    exit 0
fi
# BENCH_OMP_ONLY=gcc: only the part about gcc programs (below)
if [ "${BENCH_OMP_ONLY:-}" != gcc ]; then
clang -O2 -fopenmp -o "$tmp/omp_bench" "$srcdir/bench/omp_bench.c"

# best KIND THREADS VARIANT N: the least ns per operation of $runs runs
best()
{
    for _r in $(seq "$runs"); do
        case $3 in
        plain) "$tmp/omp_bench" "$1" "$2" "$4" ;;
        profile) env SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" \
            SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=true LD_PRELOAD="$rt" \
            "$tmp/omp_bench" "$1" "$2" "$4" ;;
        trace) env SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" \
            SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=true SCOREP_ENABLE_TRACING=true \
            SCOREP_TOTAL_MEMORY=2G LD_PRELOAD="$rt" "$tmp/omp_bench" "$1" "$2" "$4" ;;
        esac
    done | sort -n | head -n 1
}

printf '\nOpenMP through OMPT (clang, libomp; %s CPUs; ns per operation, best of %s runs)\n' \
    "$(nproc)" "$runs"
printf '%-30s %14s %10s %14s %16s\n' operation uninstrumented profile profile+trace \
    "added (trace)"
for row in "parallel 1" "parallel 4" "tasks 2" "tasks 4" "deptasks 2" "create0 2" "create2 2" \
    "create64 2"; do
    set -- $row
    n=$regions
    label="empty parallel region, $2 thr"
    if [ "$1" = tasks ]; then
        n=$ntasks
        label="explicit task, $2 thr"
    elif [ "$1" = deptasks ]; then
        n=$ntasks
        label="task, 2 depend items, $2 thr"
    elif [ "$1" = create64 ]; then
        n=$((ntasks / 20))
        label="creation, 64 items, $2 thr"
    elif [ "${1#create}" != "$1" ]; then
        n=$ntasks
        label="creation, ${1#create} items, $2 thr"
    fi
    p=$(best "$1" "$2" plain $n)
    a=$(best "$1" "$2" profile $n)
    b=$(best "$1" "$2" trace $n)
    printf '%-30s %14s %10s %14s %16s\n' "$label" "$p" "$a" "$b" \
        "$(awk -v p="$p" -v b="$b" 'BEGIN { printf "%.1f (%.2fx)", b - p, b / p }')"
    eval "added_$1_$2=\$(awk -v p=\"\$p\" -v b=\"\$b\" 'BEGIN { print b - p }')"
done
# shellcheck disable=SC2154 # set by the eval above
awk -v c0="$added_create0_2" -v c2="$added_create2_2" -v c64="$added_create64_2" 'BEGIN {
    printf "depend items recorded (trace, creating thread): %.1f ns per task with 2 items, %.1f with 64, beyond a task without: %.1f ns per item\n", c2 - c0, c64 - c0, (c64 - c0) / 64 }'
fi

# ---- gcc programs: GNU libgomp or LLVM's libomp (issue #31) ----
# omp_patterns.c built by gcc on libgomp and on libomp (what scorep-cc --openmp-runtime=
# chooses between), uninstrumented: ms per run, best of $runs, 2 threads. Then fib(30) with
# tasks (cut-off n > 12): plain, scorep-cc gcc on libgomp (the GOMP_* wrappers) and on libomp
# (OMPT), clang on libomp plain, with an OMPT tool of empty callbacks (the floor of any OMPT
# tool) and with scorep-rt's tool; Score-P 4.0 (OPARI2 on libgomp) when SCOREP4_BIN names its
# bin directory. Environment: BENCH_FIB (default 30).
fib=${BENCH_FIB:-30}
pat=$srcdir/bench/omp_patterns.c
build_gcc_programs() {
    libomp_dir=$(sed -n 's/^#define SCOREP_LIBOMP_DIR "\(.*\)"$/\1/p' "$builddir/config.h")
    [ -n "$libomp_dir" ] || { echo "run_omp_bench.sh: gcc part skipped (no libomp found)" >&2; exit 0; }
    gcc -O2 -fopenmp -o "$tmp/pat_gomp" "$pat"
    gcc -O2 -fopenmp -o "$tmp/pat_omp" "$pat" -L"$libomp_dir" -Wl,-rpath,"$libomp_dir"
    clang -O2 -fopenmp -o "$tmp/pat_clang" "$pat"
    clang -O2 -shared -fPIC -o "$tmp/empty_tool.so" "$srcdir/bench/ompt_empty_tool.c"
    "$builddir/scorep-cc" --nocompiler gcc -O2 -fopenmp -o "$tmp/pat_rt_gomp" "$pat" >/dev/null
    "$builddir/scorep-cc" --nocompiler --openmp-runtime=libomp gcc -O2 -fopenmp -o "$tmp/pat_rt_omp" \
        "$pat" >/dev/null
    "$builddir/scorep-cc" --nocompiler clang -O2 -fopenmp -o "$tmp/pat_rt_clang" "$pat" >/dev/null
}
bench_programs "pat_gomp pat_omp pat_clang empty_tool.so pat_rt_gomp pat_rt_omp pat_rt_clang" omp_ \
    build_gcc_programs
if [ -n "${SCOREP4_BIN:-}" ] && [ -x "$SCOREP4_BIN/scorep" ]; then
    (cd "$tmp" && "$SCOREP4_BIN/scorep" --nocompiler gcc -O2 -fopenmp -no-pie -o pat_scorep4 "$pat") \
        >/dev/null 2>&1 || SCOREP4_BIN=
fi

# bestms PROGRAM ARGS...: the least ms of $runs runs (the program prints its ms)
bestms()
{
    for _r in $(seq "$runs"); do
        env SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=true \
            SCOREP_TOTAL_MEMORY=1G "$@" 2>/dev/null
    done | sort -n | head -n 1
}

printf '\nOpenMP runtimes for gcc programs (omp_patterns.c, 2 threads, ms, best of %s; load %s)\n' \
    "$runs" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-44s %10s %10s %8s\n' pattern libgomp libomp libomp/libgomp
for row in "for 1000 static loop of 1000, x1000 regions" "dynamic 1000 dynamic loop (chunk 10), x1000" \
    "reduction 1000 reduction loop, x1000" "barrier 5000 explicit barrier, x5000" \
    "tasks 50000 empty tasks, 50000" "fib $fib fib($fib), tasks, cut-off n>12" \
    "fibnocut 22 fib(22), a task per call"; do
    set -- $row
    p=$1 n=$2
    shift 2
    g=$(bestms "$tmp/pat_gomp" "$p" 2 "$n")
    o=$(bestms "$tmp/pat_omp" "$p" 2 "$n")
    printf '%-44s %10s %10s %8s\n' "$*" "$g" "$o" "$(awk -v g="$g" -v o="$o" 'BEGIN { printf "%.2f", o / g }')"
done

printf '\nfib(%s) with tasks (cut-off n>12), 2 threads: ms, best of %s\n' "$fib" "$runs"
base=$(bestms "$tmp/pat_gomp" fib 2 "$fib")
row() { printf '%-52s %10s %8s\n' "$1" "$2" "$(awk -v a="$2" -v b="$base" 'BEGIN { printf "%.2fx", a / b }')"; }
row "gcc, libgomp, plain" "$base"
row "gcc, libomp, plain" "$(bestms "$tmp/pat_omp" fib 2 "$fib")"
row "scorep-cc gcc (libgomp, GOMP_* wrappers), profile" "$(bestms "$tmp/pat_rt_gomp" fib 2 "$fib")"
row "scorep-cc gcc (libgomp), trace" "$(bestms env SCOREP_ENABLE_TRACING=true "$tmp/pat_rt_gomp" fib 2 "$fib")"
row "scorep-cc --openmp-runtime=libomp gcc, profile" "$(bestms "$tmp/pat_rt_omp" fib 2 "$fib")"
row "clang, libomp, plain" "$(bestms "$tmp/pat_clang" fib 2 "$fib")"
row "clang, libomp, empty OMPT tool (the floor)" \
    "$(bestms env LD_PRELOAD="$tmp/empty_tool.so" "$tmp/pat_clang" fib 2 "$fib")"
row "scorep-cc clang (OMPT), profile" "$(bestms "$tmp/pat_rt_clang" fib 2 "$fib")"
if [ -n "${SCOREP4_BIN:-}" ]; then
    row "Score-P 4.0 (OPARI2, libgomp), profile" "$(bestms "$tmp/pat_scorep4" fib 2 "$fib")"
    row "Score-P 4.0, trace" "$(bestms env SCOREP_ENABLE_TRACING=true "$tmp/pat_scorep4" fib 2 "$fib")"
fi
