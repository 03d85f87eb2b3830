#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# mpich_suite.sh: MPICH's own MPI test suite (test/mpi of a MPICH checkout, not part of
# scorep-rt) against the installed runtime: every selected test runs plain and unmodified
# under scorep-run with profiling and tracing; a test passes when both print MPICH's
# "No Errors", otf2-print reads its trace without a word on stderr, and clock_condition.py
# (OTF2's Python reader) finds every message's receive (unmatched=0) and no clock-condition
# violation. A manual validation (docs/mpi.md, "MPICH's test suite"), not part of make check.
#
#   MPICH_SRC=/path/to/mpich PREFIX=/path/to/_install test/mpi/mpich_suite.sh [DIR...]
#
# DIR: directories of test/mpi (default: pt2pt coll rma comm); tests with more than
# MAX_NP (default 4) processes, expected failures (xfail), GPU and environment variants are
# left out. Needs mpicc, mpirun, otf2-print and python3 with the otf2 module. Prints a line
# per test and a summary; exits 1 when a test passes plain and fails measured.
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
# with MPI-3.1 and no MPICH extensions
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
EOF
echo '/* no MPIX extensions */' >"$work/include/mtest_mpix.h"
cflags=(-O1 -w -I"$work/include" -I"$suite/include")
for u in mtest mtest_common mtest_thread dtypes; do
    mpicc "${cflags[@]}" -c -o "$work/obj/$u.o" "$suite/util/$u.c"
done

pass=0 fail=0 plain_fail=0 unbuilt=0
for d in "$@"; do
    [ -f "$suite/$d/testlist.in" ] || { echo "no $suite/$d/testlist.in" >&2; exit 2; }
    # name np args...: the first line of each name, without environment variants
    grep -v '^#' "$suite/$d/testlist.in" | grep -v 'env=\|xfail\|gpu\|mem=' |
        awk 'NF >= 2 && $2 ~ /^[0-9]+$/ && !seen[$1]++' >"$work/list"
    while read -r t np rest; do
        [ "$np" -le "$max_np" ] || continue
        b=$work/bin/${d//\//_}_$t
        if [ ! -f "$suite/$d/$t.c" ] ||
            ! mpicc "${cflags[@]}" -I"$suite/$d" -o "$b" "$suite/$d/$t.c" "$work"/obj/*.o \
                -lpthread -lm >"$work/build.log" 2>&1; then
            unbuilt=$((unbuilt + 1))
            continue
        fi
        read -r -a args <<<"$(echo "$rest" | grep -o 'arg=[^ ]*' | sed 's/^arg=//' | tr '\n' ' ')" || true
        rm -rf "$work/run" "$work/exp" && mkdir "$work/run"
        plain=FAIL
        if (cd "$work/run" && timeout 120 mpirun -np "$np" "$b" "${args[@]}") >"$work/plain.out" 2>&1 </dev/null &&
            grep -q 'No Errors' "$work/plain.out"; then plain=ok; fi
        rm -rf "$work/run" && mkdir "$work/run"
        measured=FAIL
        if (cd "$work/run" && SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=true \
            SCOREP_EXPERIMENT_DIRECTORY="$work/exp" timeout 240 mpirun -np "$np" \
            "$PREFIX/bin/scorep-run" "$b" "${args[@]}") >"$work/measured.out" 2>&1 </dev/null &&
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
        ok=no
        if [ $plain = ok ] && [ $measured = ok ] &&
            echo "$trace" | grep -q ' unmatched=0 .* violations=0 .* coll_violations=0'; then
            ok=yes
        fi
        if [ $plain != ok ]; then
            plain_fail=$((plain_fail + 1))
        elif [ $ok = yes ]; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            sed 's/^/    | /' "$work/measured.out" | head -n 20
        fi
        echo "$d/$t np=$np plain=$plain measured=$measured $trace"
    done <"$work/list"
done
echo "mpich_suite: $pass passed, $fail failed under scorep-run, $plain_fail failing plain too (not counted), $unbuilt not built"
[ "$fail" -eq 0 ]
