#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_unwind_sites.sh: with SCOREP_ENABLE_UNWINDING the trace's calling contexts are per call
# site, as Score-P's: test/programs/unwind_sites.c (2 ranks) calls MPI_Allreduce from two
# lines of exchange (SITE_A once, SITE_B twice per call, 3 calls per rank) and leaf from two
# lines of pair (SITE_C once, SITE_D twice). The trace (OTF2's Python reader) must have one
# context per line, each with its events, the call's file:line as its source code location
# and the properties EXECUTABLE/SHARED OBJECT (the program) and INSTRUCTION OFFSET, which
# binutils' addr2line (not our libdw) turns back into that line; the lines come from the
# source's marker comments. The profile merges the call sites, as Score-P's: one call path
# with every visit (also as CubeLib's cube_dump reads it when CUBELIB_DUMP names one).
. "$top_srcdir/test/integration/lib.sh"
require_mpi
python3=$(python3_with_otf2)
[ -n "$python3" ] || { echo "SKIP: no python3 with the otf2 module (python3-otf2)"; exit 77; }
command -v addr2line >/dev/null 2>&1 || { echo "SKIP: no addr2line (binutils)"; exit 77; }
export SCOREP_RUN_LIBDIR="$top_builddir/.libs"
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
K=3 # exchange's calls per rank (unwind_sites.c's US_K)
src=$PROGRAMS/unwind_sites.c
# the call sites' lines, from the source (the marker comments), not from our output
site()
{
    _l=$(grep -n "/\* $1 \*/" "$src" | cut -d: -f1)
    if [ -z "$_l" ] || [ "$(echo "$_l" | wc -l)" != 1 ]; then
        fail "marker $1 not once in $src"
    fi
    echo "$_l"
}
LA=$(site SITE_A)
LB=$(site SITE_B)
LC=$(site SITE_C)
LD=$(site SITE_D)

# run NAME COMMAND...: 2 ranks with unwinding, profile and trace into NAME
run2()
{
    _n=$1
    shift
    rc=0
    SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS= SCOREP_ENABLE_TRACING=true \
        SCOREP_EXPERIMENT_DIRECTORY=$_n \
        timeout 120 mpirun -np 2 "$@" >"$_n.out" 2>"$_n.err" || rc=$?
    [ "$rc" = 0 ] || tail -n 30 "$_n.err"
    expect_eq "$rc" 0 "$_n: 2 ranks run"
    expect_eq "$(sort "$_n.out" | tr '\n' ' ')" "rank 0: 19 526 rank 1: 19 526 " "$_n: program output"
    expect_eq "$(grep -c . "$_n.err" || :)" 0 "$_n: no message ($(head -c 300 "$_n.err"))"
    "$python3" "$top_srcdir/test/integration/cc_sites.py" "$_n/traces.otf2" >"$_n.cc" ||
        fail "cc_sites.py $_n"
}

# sites NAME PATH: "line=count" of PATH's calling contexts (sorted by line), each checked:
# the source file is unwind_sites.c, the object the program EXE, and addr2line puts the
# offset on the same line
sites()
{
    awk -F'\t' -v p="$2" '$1 == p' "$1.cc" | while IFS='	' read -r _p _where _obj _off _n; do
        _file=${_where%:*}
        [ "${_file##*/}" = unwind_sites.c ] || echo "bad-file:$_where"
        [ "$_obj" = "$exe" ] || echo "bad-object:$_obj"
        _a2l=$(addr2line -e "$_obj" "$_off" 2>/dev/null | sed 's/ (discriminator [0-9]*)//')
        [ "$_a2l" = "${_file}:${_where##*:}" ] || echo "addr2line:$_off=$_a2l"
        echo "${_where##*:}=$_n"
    done | sort -t= -k1,1n | tr '\n' ' '
}

# visits EXPDIR CALLPATH: visits per rank, "rank0 rank1"
visits()
{
    profile_dump "$1" -m visits | awk -F'\t' -v p="$2" '
        $2 == p { split($4, kv, "="); v[$3] += kv[2] }
        END { printf "%d %d\n", v[0] + 0, v[1] + 0 }'
}

part "an unmodified program under scorep-run: MPI_Allreduce from two lines"
mpicc -g -O0 -o uw_plain "$src" || fail "mpicc"
exe=$(cd "$work" && pwd -P)/uw_plain
run2 plain "$top_builddir/scorep-run" ./uw_plain
# 2 ranks x K calls: SITE_A once, SITE_B twice per call
expect_eq "$(sites plain main/solve/exchange/MPI_Allreduce)" "$LA=$((2 * K)) $LB=$((4 * K)) " \
    "plain: MPI_Allreduce's calling contexts, one per call site, with file:line and properties"
# the frame's context carries the call's address in it: exchange is split alike
expect_eq "$(sites plain main/solve/exchange)" "$LA=$((2 * K)) $LB=$((4 * K)) " \
    "plain: exchange's frame contexts, one per call of MPI_Allreduce in it"
expect_eq "$(awk -F'\t' '$1 ~ /MPI_Allreduce$/' plain.cc | cut -f1 | sort -u | tr '\n' ' ')" \
    "main/solve/exchange/MPI_Allreduce " "plain: MPI_Allreduce on one path"
# every context of the program's own code has a location and both properties
expect_eq "$(awk -F'\t' '$2 == "-" || $3 == "-" || $4 == "-"' plain.cc | tr '\t\n' '| ')" "" \
    "plain: every context with a source code location, object and offset"
# the profile merges the call sites (Score-P's profile enters the contexts' regions)
expect_eq "$(visits plain main/solve/exchange/MPI_Allreduce)" "$((3 * K)) $((3 * K))" \
    "plain: the profile's MPI_Allreduce: every call on one path"
expect_eq "$(visits plain main/solve/exchange)" "$((3 * K)) $((3 * K))" "plain: main/solve/exchange"
expect_eq "$(profile_paths plain | grep -c 'MPI_Allreduce$')" 1 "plain: one profile path"
# otf2-print reads the definitions without a warning
expect_defs_clean plain "plain: the definitions"
expect_eq "$(trace_defs plain | grep -c '^CALLING_CONTEXT_PROPERTY .*INSTRUCTION OFFSET' || :)" \
    "$(trace_defs plain | grep -c '^CALLING_CONTEXT ' || :)" \
    "plain: otf2-print: an INSTRUCTION OFFSET property per calling context"

part "scorep-cc: an instrumented function from two lines"
# leaf has no loop and no call: --instrument-threshold=0 instruments it
scorep_cc --instrument-threshold=0 mpicc -g -O0 -o uw_inst "$src"
exe=$(cd "$work" && pwd -P)/uw_inst
run2 inst ./uw_inst
# the instrumented region's call site is the call in its caller (pair, instrumented too)
expect_eq "$(sites inst main/pair/leaf)" "$LC=2 $LD=4 " \
    "inst: leaf's calling contexts, one per call site"
expect_eq "$(sites inst main/solve/exchange/MPI_Allreduce)" "$LA=$((2 * K)) $LB=$((4 * K)) " \
    "inst: MPI_Allreduce's calling contexts below the instrumented exchange"
expect_eq "$(visits inst main/pair/leaf)" "3 3" "inst: the profile's leaf: 3 visits per rank"
expect_eq "$(visits inst main/solve/exchange/MPI_Allreduce)" "$((3 * K)) $((3 * K))" \
    "inst: the profile's MPI_Allreduce"

if [ -n "$CUBELIB_DUMP" ]; then
    part "CubeLib's reading of the profiles"
    cubelib_visits "$CUBELIB_DUMP" plain/profile.cubex 'MPI_Allreduce$' >cl.visits
    expect_eq "$(tr '\n' ' ' <cl.visits)" \
        "0 main/solve/exchange/MPI_Allreduce=$((3 * K)) 1 main/solve/exchange/MPI_Allreduce=$((3 * K)) " \
        "CubeLib: plain: MPI_Allreduce's visits on one path per rank"
    cubelib_visits "$CUBELIB_DUMP" inst/profile.cubex 'leaf$' >cl.visits
    expect_eq "$(tr '\n' ' ' <cl.visits)" "0 main/pair/leaf=3 1 main/pair/leaf=3 " \
        "CubeLib: inst: leaf's visits on one path per rank"
else
    skip_part_here "CubeLib's own reading (cube_dump)" \
        "CubeLib is not packaged for this system (set CUBELIB_DUMP to a built cube_dump)"
fi

done_ok
