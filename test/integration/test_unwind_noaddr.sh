#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_unwind_noaddr.sh: which calling contexts carry a call site, and what those without an
# address carry (session 26). Score-P resolves a context's instruction address into its
# source code location and its EXECUTABLE/SHARED OBJECT and INSTRUCTION OFFSET properties
# and gives a context without an address neither (Score-P's unwinding unification skips ip 0;
# its tracing definitions write the properties only with an offset): never the
# region's own source location. test/programs/unwind_noaddr.c (scorep-cc --user, gcc's
# OpenMP, 2 ranks x 2 threads, SCOREP_ENABLE_UNWINDING): the user API region and the MPI
# call carry their call's line (from the source's marker comments) with object and offset,
# which binutils' addr2line turns back into that line; the contexts without an address (the
# instrumented main, whose caller is libc's start-up, and the worker thread's team and the
# calls its outlined body makes, whose frames are the OpenMP runtime's) carry neither a
# location nor a property (otf2-print -G, and OTF2's Python reader).
. "$top_srcdir/test/integration/lib.sh"
require_mpi
python3=$(python3_with_otf2)
[ -n "$python3" ] || { echo "SKIP: no python3 with the otf2 module (python3-otf2)"; exit 77; }
command -v addr2line >/dev/null 2>&1 || { echo "SKIP: no addr2line (binutils)"; exit 77; }
src=$PROGRAMS/unwind_noaddr.c
site()
{
    _l=$(grep -n "/\* $1 \*/" "$src" | cut -d: -f1)
    [ -n "$_l" ] && [ "$(echo "$_l" | wc -l)" = 1 ] || fail "marker $1 not once in $src"
    echo "$_l"
}
LU=$(site UBEGIN)
LP=$(site PAR)
LB=$(site BAR)
LA=$(site ALLRED)

scorep_cc --user mpicc -g -O0 -fopenmp -o un "$src"
exe=$(cd "$work" && pwd -P)/un
rc=0
SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS= SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=e timeout 120 mpirun -np 2 ./un >e.out 2>e.err || rc=$?
[ "$rc" = 0 ] || tail -n 30 e.err
expect_eq "$rc:$(tr '\n' ' ' <e.out)" "0:999000 999000 " "2 ranks run"
expect_eq "$(grep -c . e.err || :)" 0 "no message ($(head -c 300 e.err))"
"$python3" "$top_srcdir/test/integration/cc_sites.py" e/traces.otf2 >e.cc || fail "cc_sites.py"

# where PATH: "file:line object offset count" of PATH's one context, the offset replaced by
# "a2l-ok" when addr2line puts it on that line
where()
{
    awk -F'\t' -v p="$1" '$1 == p' e.cc | while IFS='	' read -r _p _where _obj _off _n; do
        _a2l=$(addr2line -e "$_obj" "$_off" 2>/dev/null | sed 's/ (discriminator [0-9]*)//')
        [ "$_a2l" != "$_where" ] || _off=a2l-ok
        echo "${_where##*/} ${_obj##*/} $_off $_n"
    done
}
P="!\$omp parallel @unwind_noaddr.c:$LP"
part "contexts with an address: the call site"
# the user API region's call site is the macro's line in work, on both threads of each rank
expect_eq "$(where "main/$P/work/phase")" "unwind_noaddr.c:$LU un a2l-ok 2" \
    "the master's user region: its call's line, object and offset"
expect_eq "$(where "$P/work/phase")" "unwind_noaddr.c:$LU un a2l-ok 2" \
    "the worker's user region: its call's line, object and offset"
expect_eq "$(where main/MPI_Allreduce)" "unwind_noaddr.c:$LA un a2l-ok 2" "MPI_Allreduce's call site"
# gcc's outlined body is not a frame (as Score-P's unwinding skips ._omp_fn.): on the
# master the team's call site is main's call that starts it (the count: per rank its enter
# and those below it, work, phase, the barrier and the implicit barrier)
expect_eq "$(where "main/$P")" "unwind_noaddr.c:$LP un a2l-ok 10" "the master's team: main's call"

part "contexts without an address: no location, no property (as Score-P)"
expect_eq "$(awk -F'\t' '$2 == "-" || $3 == "-" || $4 == "-" { print $1 "|" $2 "|" $3 "|" $4 }' e.cc | LC_ALL=C sort | tr '\n' ' ')" \
    "$P/!\$omp barrier @unwind_noaddr.c:$LB|-|-|- $P/!\$omp implicit barrier @unwind_noaddr.c:$LP|-|-|- $P/work|-|-|- $P|-|-|- main|-|-|- " \
    "the contexts without a call site: main and the worker's team and its calls, none half resolved"
# otf2-print: per CallingContext a source code location exactly when it has both properties
otf2-print -G e/traces.otf2 >e.defs 2>e.defs.err || fail "otf2-print -G: $(head -c 300 e.defs.err)"
expect_eq "$(awk '
    /^CALLING_CONTEXT_PROPERTY / { i = $0; sub(/, Name: .*/, "", i); sub(/.*</, "", i); sub(/>$/, "", i); np[i]++; next }
    /^CALLING_CONTEXT / { ctx[$2] = ($0 ~ /Source code location: UNDEFINED/) ? "none" : "scl" }
    END { for (c in ctx) n[ctx[c] "/" (np[c] + 0)]++; for (k in n) print k "=" n[k] }' e.defs | LC_ALL=C sort | tr '\n' ' ')" \
    "none/0=5 scl/2=9 " \
    "otf2-print: 5 contexts without location and property, 9 with a location and both properties"
expect_defs_clean e "the definitions"
done_ok
