#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_nodebug.sh: OpenMP code without debug information (Debian's LAMMPS and FFTW are
# built so) in an MPI job: test/omp/nodebug.c and its shared library nodebug_lib.c, built
# -g0 with plain mpicc -fopenmp, run unchanged on 2 ranks x 2 threads under scorep-run, on
# libgomp (GOMP_* wrappers) and on libomp (OMPT). Without a line the regions are named
# "<construct> @<object>+0x<offset>", the offset in the object's ELF addresses, the same on
# every rank; until session 20 they were named by the absolute address, which address space
# randomisation makes different per rank, so each rank had regions and call paths of its own
# for one construct (found with LAMMPS, docs/openmp.md "LAMMPS"). The expected offsets come
# from nm and objdump: the outlined function's entry + 1 (gomp_wrap.c's code pointer) and
# the return address of the call of GOMP_parallel (libomp's codeptr_ra).
# Skipped (77) without mpicc/mpirun or the MPI adapter.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

omp_require_mpi
export OMPI_CC=gcc # the expected offsets are found by gcc's names of outlined functions
mpicc -g0 -O1 -fopenmp -fPIC -shared -o libnodebug.so "$OMP_SRC/nodebug_lib.c" ||
    fail "build: libnodebug.so"
mpicc -g0 -O1 -fopenmp -o nodebug "$OMP_SRC/nodebug.c" -L. -lnodebug -Wl,-rpath,"$PWD" ||
    fail "build: nodebug"
run_to nodebug.debug readelf -S nodebug libnodebug.so
expect_no_grep '\.debug_' nodebug.debug "no debug information in the program and the library"
# per rank: main's region adds 1 + 2, the library's 2 x 10 (r + 1), r = 0..2: 9 + 120
out="rank 0 local 129 total 258
rank 1 local 129 total 258"
run_app plain mpirun --oversubscribe -np 2 ./nodebug
expect_eq "$status" 0 "unmeasured run: exit status"
expect_eq "$(sort plain.out)" "$out" "unmeasured run: output"

# offset OBJECT SYMBOL ADD: SYMBOL's ELF address in OBJECT plus ADD, as "0x..." (nm)
offset()
{
    run_to "$work/.nm" nm "$1"
    _a=$(awk -v s="$2" '$3 == s { print $1 }' "$work/.nm")
    [ -n "$_a" ] || fail "nm $1: no symbol $2"
    printf '0x%x\n' $((0x$_a + $3))
}
# after_call OBJECT FUNC: the address after FUNC's call of GOMP_parallel (objdump)
after_call()
{
    disasm_fn "$1" "$2" >"$work/.fn"
    _a=$(awk '/call.*<GOMP_parallel@plt>/ { on = 1; next } on { sub(/:.*/, ""); print $1; exit }' \
        "$work/.fn")
    [ -n "$_a" ] || fail "objdump $1: no call of GOMP_parallel in $2"
    printf '0x%x\n' $((0x$_a))
}

for rt in libgomp libomp; do
    if [ $rt = libgomp ]; then
        exe=$(offset nodebug main._omp_fn.0 1)
        lib=$(offset libnodebug.so lib_work._omp_fn.0 1)
    else
        exe=$(after_call nodebug main)
        lib=$(after_call libnodebug.so lib_work)
    fi
    x=exp_$rt
    run_app $rt env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=$x \
        mpirun --oversubscribe -np 2 "$SCOREP_RUN" --openmp-runtime=$rt ./nodebug
    expect_eq "$status" 0 "$rt: exit status"
    expect_eq "$(sort $rt.out)" "$out" "$rt: measured output"
    expect_defs_clean $x "$rt"
    trace_defs $x >$x.regions
    expect_eq "$(sed -n 's/^REGION .*Name: "\(!$omp parallel @[^"]*\)".*/\1/p' $x.regions | sort)" \
        "!\$omp parallel @libnodebug.so+$lib
!\$omp parallel @nodebug+$exe" "$rt: one parallel region per construct, named object+offset"
    expect_no_grep 'Name: "[^"]*@0x' $x.regions "$rt: no region named by an absolute address"
    # one call path per construct, visited 3 times by each of the 4 threads of the job
    for p in "!\$omp parallel @nodebug+$exe" "!\$omp parallel @libnodebug.so+$lib"; do
        expect_eq "$(per_loc $x "$p")" "3 3 3 3" "$rt: $p: 3 visits on each of 2 x 2 threads"
    done
    expect_eq "$(events $x THREAD_FORK)" 12 "$rt: THREAD_FORK: 2 ranks x 2 constructs x 3"
    expect_eq "$(events $x THREAD_TEAM_BEGIN)" 24 "$rt: THREAD_TEAM_BEGIN: 12 teams x 2"
    omp_consistent $x "$rt"
done
done_ok
