# SPDX-License-Identifier: BSD-3-Clause
# lib_omp.sh: helpers of the OpenMP tests, sourced after test/integration/lib.sh: build a test
# program of test/omp three ways (scorep-cc clang, scorep-cc gcc, plain gcc run under
# scorep-run), run it measured, and read call paths and thread events back.
OMP_SRC=$(cd "$top_srcdir/test/omp" && pwd -P)
if ! nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$'; then
    echo "SKIP: the runtime was built without its OMPT tool (omp-tools.h not found)"
    exit 77
fi
for _c in clang gcc; do
    command -v $_c >/dev/null 2>&1 || { echo "SKIP: no $_c"; exit 77; }
done
SCOREP_RUN="$top_builddir/scorep-run"
export SCOREP_RUN_LIBDIR="$top_builddir/.libs"
VARIANTS="clang gcc plain"

# omp_require_mpi: skips the test (77) without mpicc and mpirun or without the MPI adapter
# (hybrid tests: a plain mpicc -fopenmp program under mpirun + scorep-run)
omp_require_mpi()
{
    command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1 ||
        { echo "SKIP: no mpicc/mpirun"; exit 77; }
    [ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: no MPI adapter"; exit 77; }
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
}

# line PROG MARKER: number of the line of test/omp/PROG.c that holds /* MARKER */
line()
{
    grep -n "/\* $2 \*/" "$OMP_SRC/$1.c" | cut -d: -f1
}

# GCC_OPENMP_RUNTIME: the OpenMP runtime of the gcc builds and of the plain run: libgomp (the
# default of scorep-cc and scorep-run: libgomp's GOMP_* entry points wrapped by
# libscorep-rt-gomp) or libomp (LLVM's libomp through OMPT); a test of constructs the GOMP_*
# wrappers do not record sets libomp
GCC_OPENMP_RUNTIME=${GCC_OPENMP_RUNTIME:-libgomp}

# omp_build PROG: PROG_clang, PROG_gcc (scorep-cc) and PROG_plain (gcc, not instrumented);
# the gcc build must run on $GCC_OPENMP_RUNTIME: libgomp and the wrappers, or libomp alone.
# A test that adds the variant gccomp to VARIANTS gets PROG_gccomp: scorep-cc gcc on libomp.
omp_build()
{
    scorep_cc clang -fopenmp -o "$1_clang" "$OMP_SRC/$1.c"
    scorep_cc --openmp-runtime=$GCC_OPENMP_RUNTIME gcc -fopenmp -o "$1_gcc" "$OMP_SRC/$1.c"
    gcc -g -fopenmp -o "$1_plain" "$OMP_SRC/$1.c" || fail "build: gcc -fopenmp $1.c"
    case " $VARIANTS " in
    *" gccomp "*) # the other runtime's path too: gcc on LLVM's libomp, through OMPT
        scorep_cc --openmp-runtime=libomp gcc -fopenmp -o "$1_gccomp" "$OMP_SRC/$1.c"
        readelf -d "$1_gccomp" >"$1_gccomp.dyn"
        expect_grep 'NEEDED.*\[libomp\.so' "$1_gccomp.dyn" "$1: --openmp-runtime=libomp links libomp"
        ;;
    esac
    readelf -d "$1_gcc" >"$1_gcc.dyn"
    if [ "$GCC_OPENMP_RUNTIME" = libomp ]; then
        expect_grep 'NEEDED.*\[libomp\.so' "$1_gcc.dyn" "$1: scorep-cc gcc -fopenmp links libomp"
        expect_no_grep 'NEEDED.*libgomp' "$1_gcc.dyn" "$1: scorep-cc gcc -fopenmp does not link libgomp"
    else
        expect_grep 'NEEDED.*\[libscorep-rt-gomp\.so' "$1_gcc.dyn" \
            "$1: scorep-cc gcc -fopenmp links the GOMP_* wrappers"
        expect_grep 'NEEDED.*\[libgomp\.so' "$1_gcc.dyn" "$1: scorep-cc gcc -fopenmp links libgomp"
        expect_no_grep 'NEEDED.*libomp' "$1_gcc.dyn" "$1: scorep-cc gcc -fopenmp does not link libomp"
    fi
}

# gcc_runtime VARIANT: the OpenMP runtime of a gcc variant (gcc, gccomp, plain)
gcc_runtime()
{
    if [ "$1" = gccomp ]; then echo libomp; else echo "$GCC_OPENMP_RUNTIME"; fi
}

# omp_run VARIANT PROG [ARGS...]: runs the build VARIANT of PROG measured (profile and trace)
# into $exp; plain runs under scorep-run. Sets $root: the call-path prefix above the first
# OpenMP region ("main/", or "" without compiler instrumentation).
omp_run()
{
    _v=$1
    _p=$2
    shift 2
    exp="exp_${_p}_$_v"
    root="main/"
    if [ "$_v" = plain ]; then
        root=""
        set -- "$SCOREP_RUN" --openmp-runtime=$GCC_OPENMP_RUNTIME "./${_p}_plain" "$@"
    else
        set -- "./${_p}_$_v" "$@"
    fi
    run_app "${_p}_$_v" env SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=200M \
        SCOREP_FILTERING_FILE="$OMP_SRC/omp_filter.txt" SCOREP_EXPERIMENT_DIRECTORY="$exp" "$@"
    expect_eq "$status" 0 "$_p $_v: exit status"
    expect_eq "$(cat "${_p}_$_v.err")" "" "$_p $_v: nothing on stderr"
}

# visits EXP PATH [LOCATION]: visits of the call path, summed over locations
visits()
{
    profile_sum "$1" "$2" visits "${3:-}"
}

# per_loc EXP PATH: visits of the call path per location that has it, ascending
per_loc()
{
    profile_values "$1" "$2" visits | awk '{ print $2 }' | sort -n | tr '\n' ' ' | sed 's/ $//'
}

# nvisits EXP PATH: like visits, with " @file:line" taken off every region name of the
# profile's call paths first (gcc's line tables put some constructs on earlier lines)
nvisits()
{
    profile_dump "$1" -m visits | awk -F'\t' -v p="$2" '
        { q = $2; gsub(/ @[^\/]*/, "", q) }
        q == p { split($4, kv, "="); s += kv[2] }
        END { print s + 0 }'
}

# nper_loc EXP PATH: per_loc with line-free region names
nper_loc()
{
    profile_dump "$1" -m visits | awk -F'\t' -v p="$2" '
        { q = $2; gsub(/ @[^\/]*/, "", q) }
        q == p { split($4, kv, "="); n[$3] += kv[2] }
        END { for (l in n) print n[l] }' | sort -n | tr '\n' ' ' | sed 's/ $//'
}

# events EXP TYPE [LOCATION [REGION]]: number of events of TYPE ("" for any location)
events()
{
    trace_count "$@"
}

# team_begins EXP: "LOCATION TEAM COUNT" for the THREAD_TEAM_BEGIN events, LOCATION the
# location's number in its process (id >> 32: ids are local << 32 | rank, Score-P's)
team_begins()
{
    trace_other "$1" | awk '$1 == "THREAD_TEAM_BEGIN" { l = ($2 - $2 % 4294967296) / 4294967296
            match($0, /<[0-9]+>$/); n[l " " substr($0, RSTART + 1, RLENGTH - 2)]++ }
        END { for (k in n) print k, n[k] }' | sort -n
}

# omp_consistent EXP LABEL: checks every OpenMP run must pass: a well-ordered, well-nested
# trace; per location as many team ends as begins and joins as forks; every created task
# completed; no negative exclusive time beyond rounding; otf2-print reads the definitions
omp_consistent()
{
    expect_eq "$(trace_check_order "$1")" 0 "$2: timestamps increase per location"
    expect_eq "$(trace_check_nesting "$1")" 0 "$2: enter/leave nest per location"
    expect_eq "$(trace_summary "$1" | awk '$1 == "THREAD_TEAM_BEGIN" { n[$2] += $3 }
        $1 == "THREAD_TEAM_END" { n[$2] -= $3 } $1 == "THREAD_FORK" { f[$2] += $3 }
        $1 == "THREAD_JOIN" { f[$2] -= $3 }
        END { for (l in n) if (n[l]) bad++; for (l in f) if (f[l]) bad++; print bad + 0 }')" 0 \
        "$2: team end per team begin, join per fork, on every location"
    expect_eq "$(events "$1" THREAD_TASK_COMPLETE)" "$(events "$1" THREAD_TASK_CREATE)" \
        "$2: every created task completed"
    expect_eq "$(profile_dump "$1" -m time | awk -F'\t' '{ split($4, a, "=");
        if (a[2] + 0 < -1e-9) bad++ } END { print bad + 0 }')" 0 "$2: no negative exclusive time"
    trace_defs "$1" >"$1.defs"
    expect_grep '^COMM .*"OpenMP thread team"' "$1.defs" "$2: thread team communicators defined"
}
