#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_nvtx.sh: NVTX ranges and marks through NVTX's injection interface (libscorep-rt-nvtx):
# a C program (nvtx_prog.c: push/pop, start/end, marks, wide strings, a named domain with
# registered strings) and a C++ program (nvtx_prog.cc: nvtx3.hpp scoped ranges and a custom
# domain), each linked with the library (NVTX finds InitializeInjectionNvtx2Preinject) and
# unmodified under scorep-run (NVTX_INJECTION64_PATH), and built by scorep-cc with every
# compiler and run plainly (the static injection point). Exact visits and call paths from the
# programs' design, in the profile and the trace. Needs no GPU: NVTX is header-only.
. "$top_srcdir/test/integration/lib.sh"

lib="$top_builddir/.libs/libscorep-rt-nvtx.so"
if [ ! -e "$lib" ]; then
    echo "SKIP: the NVTX adapter is not built (configure found no CUDA toolkit with nvtx3)"
    echo "SKIP-NOT-A-PACKAGE: CUDA's NVTX headers are not a Debian package the quickstart installs"
    exit 77
fi
inc=$(sed -n 's/^CUDA_CPPFLAGS = //p' "$top_builddir/Makefile")
L="-L$top_builddir/.libs -Wl,-rpath,$top_builddir/.libs"
cc ${CFLAGS_NVTX:-} $inc -O1 -o plain_c "$top_srcdir/test/cuda/nvtx_prog.c" -ldl ||
    fail "build nvtx_prog.c"
c++ $inc -O1 -o plain_cc "$top_srcdir/test/cuda/nvtx_prog.cc" -ldl || fail "build nvtx_prog.cc"
cc $inc -O1 -o linked_c "$top_srcdir/test/cuda/nvtx_prog.c" $L -Wl,--no-as-needed \
    -lscorep-rt-nvtx -lscorep-rt -ldl || fail "build nvtx_prog.c linked"
c++ $inc -O1 -o linked_cc "$top_srcdir/test/cuda/nvtx_prog.cc" $L -Wl,--no-as-needed \
    -lscorep-rt-nvtx -lscorep-rt -ldl || fail "build nvtx_prog.cc linked"

C_PATHS="ex wide=1;outer=1;outer/inner=3;outer/inner/tick=3;solver: iteration=4;solver: registered step=1;started=2;wide π=1;"
CC_PATHS="app: all steps=1;app: all steps/step=5;app: all steps/step/even=3;"

# paths EXPDIR: "callpath=visits;" sorted, of the master thread, below the program root
# (visited once: test_calls.sh, profile_check)
paths()
{
    profile_dump "$1" -m visits | awk -F'\t' '$3 == 0 && $2 != "." { split($4, kv, "="); print $2 "=" kv[2] }' |
        LC_ALL=C sort | tr '\n' ';'
}

for v in c cc; do
    want=$C_PATHS
    [ $v = cc ] && want=$CC_PATHS
    # --- linked: no variable, NVTX finds the library in the process ---
    run_app linked_$v env -u NVTX_INJECTION64_PATH SCOREP_ENABLE_TRACING=true \
        SCOREP_EXPERIMENT_DIRECTORY=exp_linked_$v ./linked_$v
    expect_eq "$status" 0 "$v linked: exit status"
    expect_eq "$(cat linked_$v.out)" "nvtx done" "$v linked: output"
    expect_eq "$(cat linked_$v.err)" "" "$v linked: no message"
    expect_eq "$(paths exp_linked_$v)" "$(printf '%s' "$want" | tr ';' '\n' | LC_ALL=C sort | tr '\n' ';')" \
        "$v linked: NVTX call paths and visits"
    expect_eq "$(trace_check_nesting exp_linked_$v)" 0 "$v linked: regions nest in the trace"
    # --- unmodified under scorep-run (NVTX_INJECTION64_PATH set by scorep-run) ---
    run_app run_$v env -u NVTX_INJECTION64_PATH SCOREP_EXPERIMENT_DIRECTORY=exp_run_$v \
        SCOREP_RUN_LIBDIR="$top_builddir/.libs" "$top_builddir/scorep-run" ./plain_$v
    expect_eq "$status" 0 "$v scorep-run: exit status"
    expect_eq "$(paths exp_run_$v)" "$(printf '%s' "$want" | tr ';' '\n' | LC_ALL=C sort | tr '\n' ';')" \
        "$v scorep-run: NVTX call paths and visits"
done
# trace of the C program: ENTER counts per region on the master thread
for r in "outer 1" "inner 3" "tick 3" "started 2" "solver: iteration 4" "wide π 1"; do
    expect_eq "$(trace_count exp_linked_c ENTER 0 "${r% *}")" "${r##* }" "trace: ENTER ${r% *}"
done
trace_defs exp_linked_c >defs.txt
expect_grep '^REGION .*Name: "outer" .*Role: FUNCTION, Paradigm: USER,' defs.txt \
    "NVTX regions: paradigm USER, role FUNCTION"
# scorep-info names both libraries as built
"$SCOREP_INFO" build >build.txt || fail "scorep-info build"
expect_grep '^  cuda        yes ' build.txt "scorep-info: CUDA adapter built"
expect_grep '^  nvtx        yes ' build.txt "scorep-info: NVTX adapter built"
# scorep-cc nvcc links the NVTX adapter, and leaves NVTX's inline functions (nvtx3/)
# uninstrumented: the ranges nest under the instrumented functions that open them
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -x "$NVCC" ]; then
    cp "$top_srcdir/test/cuda/nvtx_prog.cc" nvtx_prog.cu
    PATH="$(dirname "$NVCC"):$PATH" scorep_cc nvcc -O1 -o nvcc_cc nvtx_prog.cu
    run_app nvcc_cc env -u NVTX_INJECTION64_PATH SCOREP_EXPERIMENT_DIRECTORY=exp_nvcc ./nvcc_cc
    expect_eq "$status $(cat nvcc_cc.out)" "0 nvtx done" "scorep-cc nvcc: exit status and output"
    expect_eq "$(paths exp_nvcc | tr ';' '\n' | grep '^main' | tr '\n' ';')" \
        "main/app: all steps/step(int)/step/even=3;main/app: all steps/step(int)/step=5;main/app: all steps/step(int)=5;main/app: all steps=1;main=1;" \
        "scorep-cc nvcc: NVTX ranges under the instrumented functions"
    expect_eq "$(paths exp_nvcc | tr ';' '\n' | grep -c 'nvtx' || true)" 0 \
        "scorep-cc nvcc: no NVTX function instrumented"
else
    echo "SKIP-PART-NOT-A-PACKAGE: scorep-cc nvcc with NVTX: nvcc not found"
fi
# --- built by scorep-cc, run without scorep-run: NVTX's static injection point
# (libscorep-rt-nvtx-inject, linked whole) loads the adapter at the first NVTX call ---
# --nocompiler: the NVTX regions alone, the same call paths as above; every compiler scorep-cc
# drives (gcc, g++, clang, clang++; mpicc below)
for b in "gcc c" "g++ cc" "clang c" "clang++ cc"; do
    comp=${b% *} v=${b#* }
    if ! command -v "$comp" >/dev/null 2>&1; then
        skip_part "scorep-cc $comp with NVTX" "$comp not found"
        continue
    fi
    src="$top_srcdir/test/cuda/nvtx_prog.c"
    want=$C_PATHS
    [ $v = cc ] && { src="$top_srcdir/test/cuda/nvtx_prog.cc"; want=$CC_PATHS; }
    exe=sc_$(echo "$comp" | tr '+' 'x')
    scorep_cc --nocompiler "$comp" $inc -O1 -o $exe "$src" -ldl
    run_app $exe env -u NVTX_INJECTION64_PATH SCOREP_ENABLE_TRACING=true \
        SCOREP_EXPERIMENT_DIRECTORY=exp_$exe ./$exe
    expect_eq "$status $(cat $exe.out)" "0 nvtx done" "scorep-cc $comp: exit status and output"
    expect_eq "$(cat $exe.err)" "" "scorep-cc $comp: no message"
    expect_eq "$(paths exp_$exe)" "$(printf '%s' "$want" | tr ';' '\n' | LC_ALL=C sort | tr '\n' ';')" \
        "scorep-cc $comp: NVTX call paths and visits without scorep-run"
done
# the default instrumentation (the GCC plugin): the ranges under the functions that open them
scorep_cc gcc $inc -O1 -o sc_default "$top_srcdir/test/cuda/nvtx_prog.c" -ldl
run_app sc_default env -u NVTX_INJECTION64_PATH SCOREP_EXPERIMENT_DIRECTORY=exp_sc_default \
    ./sc_default
expect_eq "$status $(cat sc_default.out)" "0 nvtx done" "scorep-cc gcc (plugin): exit status and output"
expect_eq "$(paths exp_sc_default)" \
    "main/domain_ranges/solver: iteration=4;main/domain_ranges/solver: registered step=1;main/domain_ranges=1;main/ex wide=1;main/outer/inner/tick=3;main/outer/inner=3;main/outer=1;main/started=2;main/wide π=1;main=1;" \
    "scorep-cc gcc (plugin): NVTX ranges under main and domain_ranges"
# the children of a program do not inherit NVTX_INJECTION64_PATH from the injection point
cat >child_env.c <<'EOF2'
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    nvtxRangePushA("env");
    nvtxRangePop();
    printf("variable %s\n", getenv("NVTX_INJECTION64_PATH") ? "set" : "unset");
    return 0;
}
EOF2
scorep_cc --nocompiler gcc $inc -o child_env child_env.c -ldl
run_app child_env env -u NVTX_INJECTION64_PATH SCOREP_EXPERIMENT_DIRECTORY=exp_child_env ./child_env
expect_eq "$status $(cat child_env.out)" "0 variable unset" "injection point: the environment left as it was"
expect_eq "$(paths exp_child_env)" "env=1;" "injection point: the range recorded"
# no cost for programs without NVTX: the adapter is never loaded (the loader's own list)
cat >no_nvtx.c <<'EOF2'
#include <stdio.h>
int main(void)
{
    puts("no nvtx");
    return 0;
}
EOF2
scorep_cc --nocompiler gcc -o no_nvtx no_nvtx.c
run_app no_nvtx env -u NVTX_INJECTION64_PATH LD_DEBUG=files LD_DEBUG_OUTPUT="$PWD/ld_no_nvtx" \
    SCOREP_EXPERIMENT_DIRECTORY=exp_no_nvtx ./no_nvtx
expect_eq "$status $(cat no_nvtx.out)" "0 no nvtx" "no NVTX: the program runs"
cat ld_no_nvtx.* >ld_no_nvtx.txt || fail "no NVTX: the loader's list (LD_DEBUG_OUTPUT)"
expect_eq "$(grep -c 'file=.*libscorep-rt-nvtx' ld_no_nvtx.txt || true)" 0 \
    "no NVTX: libscorep-rt-nvtx is not loaded"
expect_eq "$(grep -c 'file=.*libscorep-rt\.so.*;  needed by' ld_no_nvtx.txt || true)" 1 \
    "no NVTX: the loader's list is read (libscorep-rt is in it)"
# an MPI program built by the MPI compiler wrapper: each rank's ranges
if command -v mpicc >/dev/null 2>&1 && [ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    scorep_cc --nocompiler mpicc $inc -O1 -DWITH_MPI -o sc_mpicc "$top_srcdir/test/cuda/nvtx_prog.c" -ldl
    run_app sc_mpicc env -u NVTX_INJECTION64_PATH SCOREP_EXPERIMENT_DIRECTORY=exp_sc_mpicc \
        mpirun -np 2 ./sc_mpicc
    expect_eq "$status $(cat sc_mpicc.out)" "0 nvtx done
nvtx done" "scorep-cc mpicc: exit status and output"
    expect_eq "$(profile_sum exp_sc_mpicc outer/inner visits) $(profile_sum exp_sc_mpicc "solver: iteration" visits)" \
        "6 8" "scorep-cc mpicc: the ranges of both ranks (3 and 4 each)"
else
    skip_part "scorep-cc mpicc with NVTX" "no mpicc or no MPI adapter"
fi
# without the library NVTX stays a no-op and nothing is measured
run_app none env -u NVTX_INJECTION64_PATH ./plain_c
expect_eq "$status $(cat none.out)" "0 nvtx done" "no injection: the program runs unchanged"
done_ok
