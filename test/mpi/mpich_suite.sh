#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# mpich_suite.sh: MPICH's own MPI test suite (test/mpi of a MPICH checkout, not part of
# scorep-rt) against the installed runtime: every selected test runs plain and unmodified
# under scorep-run with profiling and tracing; a test passes when both print MPICH's
# "No Errors", otf2-print reads its trace without a word on stderr, and clock_condition.py
# (OTF2's Python reader) finds every message's receive (unmatched=0) and no clock-condition
# violation (only the latter where the trace stopped early for want of SCOREP_TOTAL_MEMORY,
# default here 256M). A manual validation (docs/mpi.md, "MPICH's test suite"), not part of make check.
#
#   MPICH_SRC=/path/to/mpich PREFIX=/path/to/_install test/mpi/mpich_suite.sh [DIR...]
#
# DIR: directories of test/mpi (default: pt2pt coll rma comm); tests with more than
# MAX_NP (default 4) processes, expected failures (xfail), GPU and environment variants are
# left out. Fortran: f77/X (mpif.h), f90/X (`use mpi`; made from f77/X by the suite's own
# maint/f77tof90, as its autogen script does) and f08/X (`use mpi_f08`), built with mpif90; f77,
# f90 or f08 alone stands for all of its directories. LINK=scorep: the measured run is of a
# second binary linked by `scorep-cc --nocompiler mpicc|mpif90`, run without scorep-run
# (the link-time path). Needs mpicc (mpif90), mpirun, otf2-print and python3 with the otf2
# module. Prints a line per test and a summary; exits 1 when a test passes plain and fails
# measured.
set -eu -o pipefail

: "${MPICH_SRC:?MPICH_SRC names a MPICH checkout (github.com/pmodels/mpich)}"
: "${PREFIX:?PREFIX names the scorep-rt installation (its bin/scorep-run)}"
here=$(cd "$(dirname "$0")" && pwd)
suite=$MPICH_SRC/test/mpi
[ -f "$suite/util/mtest.c" ] || { echo "no $suite/util/mtest.c: not a MPICH checkout" >&2; exit 2; }
[ -x "$PREFIX/bin/scorep-run" ] || { echo "no $PREFIX/bin/scorep-run" >&2; exit 2; }
py=python3
[ ! -x /usr/bin/python3 ] || py=/usr/bin/python3 # Debian's python3-otf2 is for this one
max_np=${MAX_NP:-4}
[ $# -gt 0 ] || set -- pt2pt coll rma comm
work=$(mktemp -d "${TMPDIR:-/tmp}/mpich-suite.XXXXXX")
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# The suite's configure makes these two headers; what its C tests need of them, for an MPI
# with MPI-3.1 and no MPICH extensions (the Fortran tests' C helpers: gfortran's names)
mkdir -p "$work/include" "$work/bin" "$work/obj"
cat >"$work/include/mpitestconf.h" <<'EOF'
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_UNISTD_H 1
#define HAVE_STDARG_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_MPI_WIN_CREATE 1
#define HAVE_MPI_IO 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_LONG_LONG 1
#define USE_STRICT_MPI 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX
#define HAVE_PTHREAD_H 1
#define F77_NAME_LOWER_USCORE 1
EOF
echo '/* no MPIX extensions */' >"$work/include/mtest_mpix.h"
cflags=(-O1 -w -I"$work/include" -I"$suite/include")
for u in mtest mtest_common mtest_thread dtypes; do
    mpicc "${cflags[@]}" -c -o "$work/obj/$u.o" "$suite/util/$u.c"
done
link=${LINK:-}
[ -z "$link" ] || [ "$link" = scorep ] || { echo "LINK: scorep or nothing" >&2; exit 2; }

# f77, f90, f08: every directory their testlist.in names (not the configure-chosen @...@)
dirs=()
for d in "$@"; do
    case $d in
    f77 | f90 | f08) while read -r x; do dirs+=("$d/$x"); done < <(grep -v '^#\|@' "$suite/$d/testlist.in") ;;
    *) dirs+=("$d") ;;
    esac
done
set -- "${dirs[@]}"
fortran=no
for d in "$@"; do case $d in f77/* | f90/* | f08/*) fortran=yes ;; esac; done
if [ $fortran = yes ]; then
    # gfortran 10 and later reject one buffer passed as REAL and INTEGER in one file, which
    # the f77 tests do (MPICH's configure adds this flag too)
    ffl=(-O1 -w)
    echo 'end' >"$work/t.f90"
    if mpif90 -fallow-argument-mismatch -c -o "$work/t.o" "$work/t.f90" >/dev/null 2>&1; then
        ffl+=(-fallow-argument-mismatch)
    fi
    mpif90 "${ffl[@]}" -J"$work/obj" -c -o "$work/obj/mtest_f77.o" "$suite/util/mtest_f77.f"
    mpif90 "${ffl[@]}" -J"$work/obj" -c -o "$work/obj/mtest_f90.o" "$suite/util/mtest_f90.f90"
    mpif90 "${ffl[@]}" -J"$work/obj" -c -o "$work/obj/mtest_f08.o" "$suite/util/mtest_f08.f90"
fi

# f77tof90 IN OUT...: the suite's converter, quiet unless it fails
f77tof90()
{
    perl "$suite/maint/f77tof90" "$@" >"$work/f77tof90.log" 2>&1 || { cat "$work/f77tof90.log" >&2; return 1; }
}

# fsrc DIR: the directory that holds DIR's sources and testlist, with the headers the
# suite's configure makes from *.h.in (Open MPI's MPI_ADDRESS_KIND and MPI_OFFSET_KIND are 8)
fsrc()
{
    local g=$work/src/$1 c
    rm -rf "$g" && mkdir -p "$g"
    # some C helpers include "../../include/mpitestconf.h"
    [ -e "$work/src/include" ] || ln -s ../include "$work/src/include"
    [ ! -d "$suite/$1" ] || cp -r "$suite/$1/." "$g"
    case $1 in
    f90/*) [ ! -d "$suite/f77/${1#f90/}" ] ||
        f77tof90 "$suite/f77/${1#f90/}" "$g" Makefile.am Makefile.ap || return 1 ;;
    f08/*) # C helpers its Makefile.am copies from the f90 version (BUILT_SOURCES)
        if [ -d "$suite/f77/${1#f08/}" ]; then
            rm -rf "$work/src/f90gen" && mkdir -p "$work/src/f90gen"
            f77tof90 "$suite/f77/${1#f08/}" "$work/src/f90gen" || return 1
            for c in "$work"/src/f90gen/*.c; do
                [ ! -f "$c" ] || [ -e "$g/${c##*/}" ] || cp "$c" "$g"
            done
        fi ;;
    esac
    for h in "$g"/*.h.in; do
        [ -f "$h" ] || continue
        sed 's/@F77_MPI_ADDRESS@/integer*8/; s/@F77_MPI_OFFSET@/integer*8/' "$h" >"${h%.in}"
    done
    echo "$g"
}

# fbuild DIR SRCDIR TEST OUT [COMPILER...]: a Fortran test from its Makefile.am's
# TEST_SOURCES (default TEST.f or TEST.f90), files that define a module first
fbuild()
{
    local d=$1 g=$2 t=$3 out=$4 srcs f fs=() cs=() mtest
    shift 4
    srcs=$(sed -n "s/^\(nodist_\)\?${t}_SOURCES *= *//p" "$g/Makefile.am" 2>/dev/null | head -n 1)
    if [ -z "$srcs" ]; then
        if [ -f "$g/$t.f" ]; then srcs=$t.f; else srcs=$t.f90; fi
    fi
    for f in $srcs; do
        [ -f "$g/$f" ] || return 1
        case $f in
        *.c) cs+=("$g/$f") ;;
        *) if grep -q -i '^ *module ' "$g/$f"; then fs=("$g/$f" "${fs[@]}"); else fs+=("$g/$f"); fi ;;
        esac
    done
    case $d in f77/*) mtest=mtest_f77 ;; f90/*) mtest=mtest_f90 ;; *) mtest=mtest_f08 ;; esac
    rm -rf "$work/fobj" && mkdir "$work/fobj"
    for f in "${cs[@]}"; do
        mpicc "${cflags[@]}" -c -o "$work/fobj/$(basename "$f").o" "$f" || return 1
        fs+=("$work/fobj/$(basename "$f").o")
    done
    (cd "$work/fobj" && "$@" "${ffl[@]}" -I"$g" -I"$work/obj" "${fs[@]}" "$work/obj/$mtest.o" \
        "$work"/obj/mtest.o "$work"/obj/mtest_common.o "$work"/obj/mtest_thread.o \
        "$work"/obj/dtypes.o -o "$out" -lpthread -lm)
}

pass=0 fail=0 plain_fail=0 unbuilt=0
for d in "$@"; do
    src=$suite/$d
    case $d in f77/* | f90/* | f08/*) src=$(fsrc "$d") ;; esac
    list=$src/testlist.in
    [ -f "$list" ] || list=$src/testlist
    [ -f "$list" ] || { echo "no $src/testlist(.in)" >&2; exit 2; }
    # name np args...: the first line of each name, without environment variants
    grep -v '^#' "$list" | grep -v 'env=\|xfail\|gpu\|mem=' |
        awk 'NF >= 2 && $2 ~ /^[0-9]+$/ && !seen[$1]++' >"$work/list"
    while read -r t np rest; do
        [ "$np" -le "$max_np" ] || continue
        b=$work/bin/${d//\//_}_$t
        case $d in
        f77/* | f90/* | f08/*)
            build() { fbuild "$d" "$src" "$t" "$@"; }
            cc=mpif90 ;;
        *)
            build()
            {
                local out=$1
                shift
                [ -f "$src/$t.c" ] && "$@" "${cflags[@]}" -I"$src" -o "$out" "$src/$t.c" \
                    "$work"/obj/mtest.o "$work"/obj/mtest_common.o "$work"/obj/mtest_thread.o \
                    "$work"/obj/dtypes.o -lpthread -lm
            }
            cc=mpicc ;;
        esac
        if ! build "$b" $cc >"$work/build.log" 2>&1; then
            unbuilt=$((unbuilt + 1))
            continue
        fi
        measure=("$PREFIX/bin/scorep-run" "$b")
        if [ -n "$link" ]; then
            measure=("$b.linked")
            if ! build "$b.linked" "$PREFIX/bin/scorep-cc" --nocompiler $cc >"$work/build.log" 2>&1; then
                fail=$((fail + 1))
                sed 's/^/    | /' "$work/build.log" | tail -n 20
                echo "$d/$t np=$np scorep-cc --nocompiler $cc failed"
                continue
            fi
        fi
        read -r -a args <<<"$(echo "$rest" | grep -o 'arg=[^ ]*' | sed 's/^arg=//' | tr '\n' ' ')" || true
        rm -rf "$work/run" "$work/exp" && mkdir "$work/run"
        plain=FAIL
        if (cd "$work/run" && timeout 120 mpirun -np "$np" "$b" "${args[@]}") >"$work/plain.out" 2>&1 </dev/null &&
            grep -q 'No Errors' "$work/plain.out"; then plain=ok; fi
        rm -rf "$work/run" && mkdir "$work/run"
        measured=FAIL
        if (cd "$work/run" && SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=true \
            SCOREP_TOTAL_MEMORY=${SCOREP_TOTAL_MEMORY:-256M} \
            SCOREP_EXPERIMENT_DIRECTORY="$work/exp" timeout 240 mpirun -np "$np" \
            "${measure[@]}" "${args[@]}") >"$work/measured.out" 2>&1 </dev/null &&
            grep -q 'No Errors' "$work/measured.out"; then measured=ok; fi
        trace="no trace"
        if [ -f "$work/exp/traces.otf2" ]; then
            if ! otf2-print "$work/exp/traces.otf2" >/dev/null 2>"$work/print.err" || [ -s "$work/print.err" ]; then
                trace="otf2-print: $(head -c 200 "$work/print.err" | tr '\n' ' ')"
            else
                trace=$("$py" "$here/clock_condition.py" "$work/exp/traces.otf2" 2>&1 | tr '\n' ' ') ||
                    trace="clock_condition.py failed: $trace"
            fi
        fi
        # a trace that stopped early (SCOREP_TOTAL_MEMORY used up, as the run warned) keeps
        # sends whose receives it lost: there only the clock condition is checked
        want=' unmatched=0 .* violations=0 .* coll_violations=0'
        if grep -q 'SCOREP_TOTAL_MEMORY was used up' "$work/measured.out"; then
            want=' violations=0 .* coll_violations=0'
            trace="$trace(trace stopped early: memory)"
        fi
        ok=no
        if [ $plain = ok ] && [ $measured = ok ] && echo "$trace" | grep -q "$want"; then
            ok=yes
        fi
        if [ $plain != ok ]; then
            plain_fail=$((plain_fail + 1))
        elif [ $ok = yes ]; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            head -n 20 "$work/measured.out" | sed 's/^/    | /'
        fi
        echo "$d/$t np=$np plain=$plain measured=$measured $trace"
    done <"$work/list"
done
echo "mpich_suite: $pass passed, $fail failed under scorep-run, $plain_fail failing plain too (not counted), $unbuilt not built"
[ "$fail" -eq 0 ]
