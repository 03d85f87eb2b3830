#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# shellcheck disable=SC2086,SC2046,SC2016 # scorep-cc's options are split on purpose; the
# launch commands' $0, $1, $2 are the inner shell's
# run_apps_bench.sh: real applications of `make bench` (#31): LULESH 2.0 (1 rank x 2
# threads, -s 20 -i 30, built without MPI) and CoMD (2 ranks, 20^3), each built plain, with
# scorep-cc --nocompiler (the runtime and its OpenMP/MPI adapters: libgomp's entry points
# for gcc's OpenMP, no function instrumented), with scorep-cc's plugin defaults (what the optimizer
# keeps, the threshold), with the plugin before inlining (--instrument-inlined, the behaviour
# before #31) and with -finstrument-functions; profile and trace side by side: time (median
# of BENCH_RUNS, default 3, interleaved), visits, instrumented functions, trace size; then the plugins'
# build notes. Asserts nothing about timings. OMP_WAIT_POLICY=passive: on a shared machine
# spinning OpenMP threads measure the other jobs (libgomp's plain LULESH took 45 s instead
# of 0.7 s at load 15).
#
# The applications are not part of scorep-rt: LULESH_SRC, COMD_SRC, HPCCG_SRC, MINIFE_SRC
# and XSBENCH_SRC name checkouts (github.com/LLNL/LULESH, github.com/ECP-copa/CoMD,
# github.com/Mantevo/HPCCG, github.com/Mantevo/miniFE, github.com/ANL-CESAR/XSBench); without
# one a line says so. HPCCG (2 ranks x 2 threads, 40^3), miniFE (ref, 2 ranks, -nx 30) and
# XSBench (openmp-threading, 2 threads, -s small -l 1000000) are built by their own Makefiles.
# APPS_VARIANTS (default "plain nocompiler default inlined functions"; also thresholdN for
# --instrument-threshold=N) selects variants, APPS_TRACE_MEMORY (default 64M) is
# SCOREP_TOTAL_MEMORY of the trace runs, BENCH_KEEP=1
# keeps the builds and experiments.
set -eu

# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
variants=${APPS_VARIANTS:-plain nocompiler default inlined functions}
# enough for every variant's trace without a flush; more costs time of its own (LULESH
# --nocompiler: 2.1 s with 64M, 4.4 s with 1G at load 17, plain 0.8 s: the pages are touched)
trace_memory=${APPS_TRACE_MEMORY:-64M}
runs=${BENCH_RUNS:-3}
cc=$builddir/scorep-cc
cube_dump=$builddir/scorep-cube-dump
if [ ! -x "$cc" ] || [ ! -x "$cube_dump" ]; then
    die "no $cc or $cube_dump: build first (make all)"
fi
# the plugins of this build tree (scorep-cc's defaults name the installed ones)
SCOREP_CC_GCC_PLUGIN=$builddir/.libs/scorep_filter_gcc.so
SCOREP_CC_LLVM_PLUGIN=$builddir/.libs/scorep_llvm_plugin.so
export SCOREP_CC_GCC_PLUGIN SCOREP_CC_LLVM_PLUGIN
# Open MPI: CoMD's 2 ranks also as root (containers) and on a 1-core machine
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# options of scorep-cc per variant ("plain": no scorep-cc at all)
variant_opts() {
    case $1 in
    nocompiler) echo "--nocompiler" ;;
    default) echo "--instrument=plugin" ;;
    inlined) echo "--instrument=plugin --instrument-inlined" ;;
    threshold*) echo "--instrument=plugin --instrument-threshold=${1#threshold}" ;;
    functions) echo "--instrument=functions" ;;
    esac
}

# compiler VARIANT DRIVER: the command that compiles for VARIANT
compiler() {
    if [ "$1" = plain ]; then echo "$2"; else echo "$cc $(variant_opts "$1") $2"; fi
}

# build WHAT COMMAND...: step, keeping the plugins' build notes (one line per file)
build() {
    step "$@"
    grep 'scorep: ' "$tmp/step.log" >>"$tmp/notes" || true
}

# instrumented BINARY: functions whose code calls an instrumentation entry point
instrumented() {
    objdump -d --no-show-raw-insn "$1" | awk '
        /^[0-9a-f]+ <[^>]+>:$/ { fn = $2 }
        /call.*<(scorep_plugin_enter|__cyg_profile_func_enter)(@plt)?>/ { f[fn] = 1 }
        END { n = 0; for (k in f) n++; print n }'
}

# visits EXPDIR: all visits of the profile (throttled calls included: a function's visits
# count them; its child scorep_throttled_from_visit=N counts them again and is left out)
visits() {
    "$cube_dump" -m visits "$1/profile.cubex" | awk -F'\t' '
        $2 !~ /\/scorep_throttled_from_visit=[0-9]+$/ { split($4, kv, "="); s += kv[2] }
        END { printf "%.0f\n", s }'
}

# trace_mb EXPDIR: the trace's size in MB
trace_mb() {
    du -sk "$1" | awk '{ printf "%.1f\n", $1 / 1024 }'
}

# seconds COMMAND...: wall time of one run (the applications print their own, not all alike)
seconds() {
    _t0=$(date +%s.%N)
    "$@" >"$tmp/run.log" 2>&1 || { sed 's/^/  | /' "$tmp/run.log" >&2; die "failed: $*"; }
    _t1=$(date +%s.%N)
    echo "$_t0 $_t1" | awk '{ printf "%.3f\n", $2 - $1 }'
}

# run_once APP VARIANT MODE LAUNCH...: one timed run, appended to $tmp/times.APP.VARIANT.MODE;
# the experiment stays in $tmp/exp.APP.VARIANT.MODE
run_once() {
    _app=$1 _v=$2 _mode=$3
    shift 3
    _env="SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=false"
    [ "$_mode" = profile ] && _env="SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false"
    [ "$_mode" = trace ] && _env="SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=$trace_memory"
    _exp=$tmp/exp.$_app.$_v.$_mode
    rm -rf "$_exp"
    seconds env $_env SCOREP_EXPERIMENT_DIRECTORY="$_exp" "$@" "$tmp/$_app.$_v" \
        >>"$tmp/times.$_app.$_v.$_mode"
}

# rounds APP LAUNCH...: $runs rounds, each running every variant and mode once (interleaved,
# so that a change of the machine's load hits all alike), then one table row each: median
# time, its ratio to plain, visits, instrumented functions and trace size of the last run
rounds() {
    _app=$1
    shift
    _r=0
    while [ $_r -lt "$runs" ]; do
        for _v in $variants; do
            for _m in profile trace; do
                [ "$_v" = plain ] && [ $_m = trace ] && continue
                [ "$_v" = plain ] && _m=none
                run_once "$_app" "$_v" $_m "$@"
            done
        done
        _r=$((_r + 1))
    done
    header
    for _v in $variants; do
        for _m in profile trace; do
            [ "$_v" = plain ] && [ $_m = trace ] && continue
            [ "$_v" = plain ] && _m=none
            row "$_app" "$_v" $_m
        done
    done
}

row() {
    _app=$1 _v=$2 _mode=$3
    _t=$(median <"$tmp/times.$_app.$_v.$_mode")
    _vis=- _tr=- _fn=- _exp=$tmp/exp.$_app.$_v.$_mode
    if [ "$_v" != plain ]; then
        _fn=0
        [ "$_v" = nocompiler ] || _fn=$(instrumented "$tmp/$_app.$_v")
        [ "$_mode" = profile ] && _vis=$(visits "$_exp")
        [ "$_mode" = trace ] && _tr=$(trace_mb "$_exp/traces")
    fi
    _plain=$(median <"$tmp/times.$_app.plain.none" 2>/dev/null || echo "$_t")
    printf '%-7s %-10s %-8s %8s %7s %12s %6s %9s\n' "$_app" "$_v" "$_mode" "$_t" \
        "$(echo "$_t $_plain" | awk '{ printf "%.2fx", $1 / $2 }')" "$_vis" "$_fn" "$_tr"
}

header() {
    printf '%-7s %-10s %-8s %8s %7s %12s %6s %9s\n' app variant mode "time/s" ratio visits \
        funcs "trace/MB"
}

# app_src LABEL DIR FILE VAR CHECKOUT [mpi]: src=DIR when it holds FILE (and mpirun is here
# for "mpi"); else a line saying what to set, and false: the application is skipped
app_src() {
    src=$2
    if [ -z "$src" ] || [ ! -f "$src/$3" ]; then
        echo "$bench_name: $1 skipped: set $4 to $5 checkout"
        return 1
    fi
    if [ "${6:-}" = mpi ] && ! command -v mpirun >/dev/null 2>&1; then
        echo "$bench_name: $1 skipped: no mpirun"
        return 1
    fi
}

lulesh() {
    if saved_programs lulesh; then :; else
    app_src LULESH "${LULESH_SRC:-}" lulesh.cc LULESH_SRC "a LULESH 2.0" || return 0
    for v in $variants; do
        echo "building LULESH ($v) ..." >&2
        objs=
        for f in lulesh lulesh-comm lulesh-viz lulesh-util lulesh-init; do
            build "LULESH $f.cc ($v)" $(compiler $v g++) -g -O3 -fopenmp -DUSE_MPI=0 \
                -I"$src" -c "$src/$f.cc" -o "$tmp/$f.$v.o"
            objs="$objs $tmp/$f.$v.o"
        done
        step "LULESH link ($v)" $(compiler $v g++) -g -O3 -fopenmp $objs -o "$tmp/lulesh.$v"
    done
    save_programs lulesh || return 0
    fi
    rounds lulesh env OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive sh -c '"$0" -s 20 -i 30'
}

comd() {
    if saved_programs comd; then
        src=$BENCH_PROGRAMS/apps_comd_src
    else
    app_src CoMD "${COMD_SRC:-}" src-mpi/CoMD.c COMD_SRC "a CoMD" mpi || return 0
    printf '#define CoMD_VARIANT "bench"\n#define CoMD_HOSTNAME "bench"\n#define CoMD_KERNEL_NAME "Linux"\n#define CoMD_KERNEL_RELEASE ""\n#define CoMD_PROCESSOR ""\n#define CoMD_COMPILER "mpicc"\n#define CoMD_COMPILER_VERSION ""\n#define CoMD_CFLAGS ""\n#define CoMD_LDFLAGS ""\n' \
        >"$tmp/CoMD_info.h"
    for v in $variants; do
        echo "building CoMD ($v) ..." >&2
        objs=
        for f in "$src"/src-mpi/*.c; do
            o=$tmp/$(basename "$f" .c).$v.o
            build "CoMD $(basename "$f") ($v)" $(compiler $v mpicc) -std=c99 -O3 -g -DDOUBLE \
                -DDO_MPI -I"$tmp" -I"$src/src-mpi" -c "$f" -o "$o"
            objs="$objs $o"
        done
        step "CoMD link ($v)" $(compiler $v mpicc) -O3 -g $objs -lm -o "$tmp/comd.$v"
    done
    if [ -n "${BENCH_SAVE_PROGRAMS:-}" ]; then
        mkdir -p "$BENCH_SAVE_PROGRAMS/apps_comd_src"
        cp -r "$src/pots" "$BENCH_SAVE_PROGRAMS/apps_comd_src/"
    fi
    save_programs comd || return 0
    fi
    # 2 ranks, 20^3 unit cells (2 x 1 x 1 ranks), the potentials of the checkout
    rounds comd sh -c 'cd "$0" && mpirun -np 2 "$2" -i 2 -j 1 -k 1 -x 20 -y 20 -z 20 -d "$1/pots"' \
        "$tmp" "$src"
}

# saved_programs APP: with BENCH_PROGRAMS=DIR (built elsewhere by BENCH_SAVE_PROGRAMS, see
# bench_lib.sh: test/device/pack.sh), APP's variants from DIR (apps_APP.VARIANT) into $tmp
# and true; else false (build them here). Only LULESH and CoMD can travel so far.
saved_programs() {
    [ -n "${BENCH_PROGRAMS:-}" ] || return 1
    for _v in $variants; do
        [ -x "$BENCH_PROGRAMS/apps_$1.$_v" ] ||
            die "no apps_$1.$_v in BENCH_PROGRAMS=$BENCH_PROGRAMS: build it with BENCH_SAVE_PROGRAMS first"
        cp "$BENCH_PROGRAMS/apps_$1.$_v" "$tmp/$1.$_v"
    done
    [ ! -e "$BENCH_PROGRAMS/apps_notes" ] || cp "$BENCH_PROGRAMS/apps_notes" "$tmp/notes"
}

# save_programs APP: with BENCH_SAVE_PROGRAMS=DIR, APP's variants built here are copied there
# (apps_APP.VARIANT, with the plugins' build notes) and false: the caller runs nothing
save_programs() {
    [ -n "${BENCH_SAVE_PROGRAMS:-}" ] || return 0
    mkdir -p "$BENCH_SAVE_PROGRAMS"
    for _v in $variants; do
        cp "$tmp/$1.$_v" "$BENCH_SAVE_PROGRAMS/apps_$1.$_v"
    done
    cp "$tmp/notes" "$BENCH_SAVE_PROGRAMS/apps_notes"
    echo "$1 saved in $BENCH_SAVE_PROGRAMS (BENCH_PROGRAMS=$BENCH_SAVE_PROGRAMS runs it)" >&2
    return 1
}

# driver VARIANT COMPILER: a one-word compiler command for the applications' own Makefiles
# (miniFE's generate_info_header runs `which $CXX`), as Score-P's scorep-<compiler> wrappers
driver() {
    _d=$tmp/$2.$1
    if [ "$1" = plain ]; then
        printf '#!/bin/sh\nexec %s "$@"\n' "$2" >"$_d"
    else
        printf '#!/bin/sh\nexec %s %s %s "$@"\n' "$cc" "$(variant_opts "$1")" "$2" >"$_d"
    fi
    chmod +x "$_d"
    echo "$_d"
}

# make_variants LABEL KEY DIR BIN MAKE: the Makefile builds of HPCCG, miniFE and XSBench: per
# variant V a fresh copy of DIR at $tmp/KEY-src.V, built by the function MAKE V COPY, and its
# BIN (a path in the copy) at $tmp/KEY.V
make_variants() {
    for v in $variants; do
        echo "building $1 ($v) ..." >&2
        rm -rf "${tmp:?}/$2-src.$v"
        cp -r "$3" "$tmp/$2-src.$v"
        "$5" "$v" "$tmp/$2-src.$v"
        cp "$tmp/$2-src.$v/$4" "$tmp/$2.$v"
    done
}

hpccg_make() { # hpccg_make VARIANT DIR
    _x=$(driver "$1" mpicxx)
    build "HPCCG ($1)" make -C "$2" CXX="$_x" LINKER="$_x" USE_MPI=-DUSING_MPI \
        USE_OMP=-DUSING_OMP OMP_FLAGS=-fopenmp CPP_OPT_FLAGS="-O3 -g"
}

hpccg() {
    app_src HPCCG "${HPCCG_SRC:-}" HPCCG.cpp HPCCG_SRC "an HPCCG" mpi || return 0
    make_variants HPCCG hpccg "$src" test_HPCCG hpccg_make
    # 2 ranks x 2 threads, 40^3 rows per rank; the result file lands in $tmp
    rounds hpccg sh -c 'cd "$0" && OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive mpirun -np 2 "$1" 40 40 40' "$tmp"
}

minife_make() { # minife_make VARIANT DIR
    build "miniFE ($1)" make -C "$2/src" CXX="$(driver "$1" mpicxx)" CC="$(driver "$1" mpicc)"
}

minife() {
    app_src miniFE "${MINIFE_SRC:-}" ref/src/main.cpp MINIFE_SRC "a miniFE" mpi || return 0
    make_variants miniFE minife "$src/ref" src/miniFE.x minife_make
    # the ref variant (MPI only), 2 ranks, 30^3 elements
    rounds minife sh -c 'cd "$0" && mpirun -np 2 "$1" -nx 30' "$tmp"
}

xsbench_make() { # xsbench_make VARIANT DIR: its Makefile adds -flto and -fopenmp when CC's name holds gcc
    build "XSBench ($1)" make -C "$2" CC="$(driver "$1" gcc)"
}

xsbench() {
    app_src XSBench "${XSBENCH_SRC:-}" openmp-threading/Main.c XSBENCH_SRC "an XSBench" || return 0
    make_variants XSBench xsbench "$src/openmp-threading" XSBench xsbench_make
    # event mode, 2 threads, the small problem with 1e6 lookups (not the default 1.7e7: its
    # checksum is then not the one XSBench knows, and it exits with 1): fails unless it
    # prints its checksum
    rounds xsbench env OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive sh -c \
        '"$0" -s small -m event -l 1000000 | grep "^Verification checksum"'
}

echo "apps (#31), $(uptime | sed 's/.*load/load/'), $runs runs per row (median):"
: >"$tmp/notes"
lulesh
comd
# BENCH_PROGRAMS / BENCH_SAVE_PROGRAMS: only LULESH and CoMD travel (saved_programs)
if [ -z "${BENCH_PROGRAMS:-}${BENCH_SAVE_PROGRAMS:-}" ]; then
    hpccg
    minife
    xsbench
fi
echo "build notes of the plugins (what they left out, per file and variant):"
sed 's/^/  /' "$tmp/notes"
