#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_unwind_enter.sh: SCOREP_ENABLE_UNWINDING without sampling events unwinds at every
# instrumented enter, as Score-P: the MPI calls of test/programs/unwind_mpi.c (2 ranks)
# lie below the functions that called them, main/solve/exchange/MPI_Sendrecv (7 per rank)
# and main/reduce_all/MPI_Allreduce (5 per rank), in the profile (exact visits, frames
# without time of their own; also as CubeLib's cube_dump reads it when CUBELIB_DUMP names
# one) and in the trace (calling contexts and unwind distances, the frames' regions' source
# file and line, or plain Enter/Leave with SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS):
# unmodified under scorep-run, and built with scorep-cc with solve filtered out
# (main/solve(unwound)/exchange(instrumented)/...).
. "$top_srcdir/test/integration/lib.sh"
require_mpi
export SCOREP_RUN_LIBDIR="$top_builddir/.libs"
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
python3=$(python3_with_otf2)
K=7 # MPI_Sendrecv per rank (unwind_mpi.c's UW_K)
M=5 # MPI_Allreduce per rank (UW_M)

# run NAME COMMAND...: 2 ranks with unwinding, profile and trace into NAME
run2()
{
    _n=$1
    shift
    rc=0
    SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS=${SMP:-} SCOREP_ENABLE_TRACING=true \
        SCOREP_EXPERIMENT_DIRECTORY=$_n \
        timeout 120 mpirun -np 2 "$@" >"$_n.out" 2>"$_n.err" || rc=$?
    [ "$rc" = 0 ] || tail -n 30 "$_n.err"
    expect_eq "$rc" 0 "$_n: 2 ranks run"
    expect_eq "$(sort "$_n.out" | tr '\n' ' ')" "rank 0: 144 rank 1: 144 " "$_n: program output"
    expect_eq "$(grep -c . "$_n.err" || :)" 0 "$_n: no message ($(head -c 300 "$_n.err"))"
}

# visits EXPDIR CALLPATH: visits per rank, "rank0 rank1"
visits()
{
    profile_dump "$1" -m visits | awk -F'\t' -v p="$2" '
        $2 == p { split($4, kv, "="); v[$3] += kv[2] }
        END { printf "%d %d\n", v[0] + 0, v[1] + 0 }'
}

# check_profile EXPDIR MAINVISITS: the MPI calls below their unwound callers; MAINVISITS:
# main's visits per rank
check_profile()
{
    expect_eq "$(visits "$1" main/solve/exchange/MPI_Sendrecv)" "$K $K" \
        "$1: main/solve/exchange/MPI_Sendrecv: $K visits per rank"
    expect_eq "$(visits "$1" main/reduce_all/MPI_Allreduce)" "$M $M" \
        "$1: main/reduce_all/MPI_Allreduce: $M visits per rank"
    expect_eq "$(visits "$1" main/solve)" "$K $K" "$1: main/solve: $K visits per rank"
    expect_eq "$(visits "$1" main/solve/exchange)" "$K $K" "$1: main/solve/exchange"
    expect_eq "$(visits "$1" main/reduce_all)" "$M $M" "$1: main/reduce_all"
    expect_eq "$(visits "$1" main)" "$2 $2" "$1: main"
    # every MPI call below main; none below the root, the runtime or the wrappers' frames
    expect_eq "$(profile_paths "$1" | grep -v '^main' | tr '\n' ' ')" "" \
        "$1: every call path below main"
    expect_eq "$(profile_paths "$1" | grep -E -c 'scorep|PMPI|MPI_.*/' || :)" 0 \
        "$1: no frames of the runtime or the MPI library, nothing below an MPI call"
    expect_eq "$(profile_paths "$1" | grep -c 'MPI_Sendrecv$')" 1 "$1: MPI_Sendrecv on one path"
    # frames have no time of their own: solve's inclusive time is exchange's
    expect_eq "$(profile_isum "$1" main/solve time)" "$(profile_isum "$1" main/solve/exchange time)" \
        "$1: main/solve's time is its exchange calls'"
    expect_eq "$(profile_sum "$1" main/solve time)" 0 "$1: main/solve: no exclusive time"
}

# trace_paths EXPDIR: "path<TAB>count" of the trace's CallingContextEnter events (OTF2's
# Python reader, mapping tables applied)
trace_paths()
{
    "$python3" "$top_srcdir/test/integration/sampling_paths.py" --enter "$1/traces.otf2" ||
        fail "sampling_paths.py --enter $1"
}

# distances EXPDIR REGION: the unwind distances of REGION's CALLING_CONTEXT_ENTER events
# (otf2-print names a context with a source code location "REGION@FILE:LINE")
distances()
{
    trace_events "$1" | awk -v r="$2" '$1 == "CALLING_CONTEXT_ENTER" &&
        (index($0, "Context: \"" r "\"") || index($0, "Context: \"" r "@")) {
            d = $0; sub(/.*Unwind Distance: /, "", d); sub(/[^0-9].*/, "", d); n[d]++ }
        END { for (k in n) print k ":" n[k] }' | sort | tr '\n' ' '
}

cc_line()
{
    trace_events "$1" | grep -m1 '^CALLING_CONTEXT_ENTER' || :
}

part "an unmodified program under scorep-run"
mpicc -g -O0 -o uw_plain "$PROGRAMS/unwind_mpi.c" || fail "mpicc"
run2 plain "$top_builddir/scorep-run" ./uw_plain
# main's calls: MPI_Init, MPI_Comm_rank, MPI_Comm_size, the solve and reduce_all chains,
# MPI_Finalize
check_profile plain $((K + M + 4))
if [ -n "$python3" ]; then
    expect_eq "$(trace_paths plain | grep -E 'MPI_(Sendrecv|Allreduce)' | tr '\t\n' '= ')" \
        "main/reduce_all/MPI_Allreduce=$((2 * M)) main/solve/exchange/MPI_Sendrecv=$((2 * K)) " \
        "plain: the trace's calling contexts of the MPI calls"
else
    skip_part_here "the trace's calling contexts" "python3 with the otf2 module (python3-otf2)"
fi
# from the root (no instrumented call open): 1 + the contexts entered (3 frames and the call)
expect_eq "$(distances plain MPI_Sendrecv)" "5:$((2 * K)) " "plain: MPI_Sendrecv's unwind distance"
expect_eq "$(distances plain MPI_Allreduce)" "4:$((2 * M)) " "plain: MPI_Allreduce's unwind distance"
expect_eq "$(count_lines '^(ENTER|LEAVE) ' "$(trace_file plain)")" 0 "plain: no Enter/Leave records"
# the frames' regions name their functions' source file and declaration line (read from
# the DWARF only for frames that become regions; start-up and runtime frames are folded by
# their names alone)
trace_defs plain >plain.defs
for fn in solve exchange; do
    line=$(grep -n "^__attribute__((noinline)) void $fn(" "$PROGRAMS/unwind_mpi.c" | cut -d: -f1)
    expect_eq "$(awk -v n="Name: \"$fn\"" '$1 == "REGION" && index($0, n) &&
        /Paradigm: SAMPLING/ { f = $0; sub(/.*File: "/, "", f); sub(/".*Begin: /, " ", f);
        sub(/,.*/, "", f); print f }' plain.defs)" "$PROGRAMS/unwind_mpi.c $line" \
        "plain: $fn's region: its file and line"
done

part "a frame cache of one slot (SCOREP_TEST_UNWIND_CACHE=1, test-only)"
# every lookup evicts the previous frame: the frames of one unwind must not depend on the
# cache (an eviction once inserted a frame the filter leaves out, 1 run in 20)
SCOREP_TEST_UNWIND_CACHE=1 run2 tiny "$top_builddir/scorep-run" ./uw_plain
check_profile tiny $((K + M + 4))

part "record storage grown from one entry (SCOREP_TEST_UNWIND_FIRST_CAP=1, test-only)"
# the records, sequences and pools start at one entry and double at every power of two
# (1024 in a real run, no upper bound since session 25): every enter's record survives its
# storage's moves, as many calling-context events with the same contexts and distances as
# in the run with the storage of 1024
SCOREP_TEST_UNWIND_FIRST_CAP=1 run2 grow "$top_builddir/scorep-run" ./uw_plain
check_profile grow $((K + M + 4))
expect_eq "$(distances grow MPI_Sendrecv)" "5:$((2 * K)) " "grow: MPI_Sendrecv's unwind distance"
expect_eq "$(distances grow MPI_Allreduce)" "4:$((2 * M)) " "grow: MPI_Allreduce's unwind distance"
expect_eq "$(trace_count grow CALLING_CONTEXT_ENTER)" "$(trace_count plain CALLING_CONTEXT_ENTER)" \
    "grow: as many calling-context events as with 1024 entries"
expect_eq "$(trace_events grow | grep -c '@unwind_mpi\.c:' || :)" \
    "$(trace_events plain | grep -c '@unwind_mpi\.c:' || :)" \
    "grow: as many events with a call site as with 1024 entries"
if [ -n "$python3" ]; then
    expect_eq "$(trace_paths grow | tr '\t\n' '= ')" "$(trace_paths plain | tr '\t\n' '= ')" \
        "grow: the trace's calling contexts as with 1024 entries"
fi

part "with sampling as well (SCOREP_SAMPLING_EVENTS=timer@1000)"
# the samples lie below the instrumented calls' nodes, frames included: MPI_Init's below
# main/MPI_Init, not in a second tree at the root
SMP=timer@1000 run2 smp "$top_builddir/scorep-run" ./uw_plain
expect_eq "$(visits smp main/solve/exchange/MPI_Sendrecv)" "$K $K" "smp: MPI_Sendrecv's visits"
expect_eq "$(profile_paths smp | grep -v '^main' | tr '\n' ' ')" "" "smp: every call path below main"

part "plain Enter/Leave records (SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS)"
SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS=true run2 conv "$top_builddir/scorep-run" ./uw_plain
expect_eq "$(trace_count conv CALLING_CONTEXT_ENTER)" 0 "conv: no calling-context events"
expect_eq "$(trace_check_nesting conv)" 0 "conv: Enter/Leave properly nested"
for r in solve exchange MPI_Sendrecv; do
    expect_eq "$(trace_count conv ENTER '' "$r")" $((2 * K)) "conv: $((2 * K)) Enter records of $r"
done
expect_eq "$(trace_count conv ENTER '' reduce_all)" $((2 * M)) "conv: Enter records of reduce_all"
expect_eq "$(trace_count conv ENTER '' main)" $((2 * (K + M + 4))) \
    "conv: Enter records of main as its visits"

part "scorep-cc, solve filtered out"
cat >uw.flt <<EOF
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE solve
SCOREP_REGION_NAMES_END
EOF
"$SCOREP_CC" --filter uw.flt mpicc -g -O0 -o uw_inst "$PROGRAMS/unwind_mpi.c" ||
    fail "scorep-cc --filter mpicc"
run2 inst ./uw_inst
# main is instrumented here: one visit
check_profile inst 1
expect_eq "$(profile_dump inst -m visits | awk -F'\t' '$2 == "main" { print $3 }' | sort -u |
    wc -l)" 2 "inst: main on both ranks"
if [ -n "$python3" ]; then
    expect_eq "$(trace_paths inst | awk -F'\t' '$1 ~ /(MPI_Sendrecv|MPI_Allreduce|exchange)$/' |
        tr '\t\n' '= ')" \
        "main/reduce_all/MPI_Allreduce=$((2 * M)) main/solve/exchange=$((2 * K)) main/solve/exchange/MPI_Sendrecv=$((2 * K)) " \
        "inst: the trace's calling contexts"
fi
# exchange's enter from main's context (after the previous exchange left): solve and
# exchange new; MPI_Sendrecv's from exchange's: itself only
expect_eq "$(distances inst exchange)" "3:$((2 * K)) " "inst: exchange's unwind distance"
expect_eq "$(distances inst MPI_Sendrecv)" "2:$((2 * K)) " "inst: MPI_Sendrecv's unwind distance"

part "MPI calls inside OpenMP parallel regions (helper unwound below the region)"
# the parallel region is unwound at its fork (main/outer, test_unwind_omp.sh), the workers'
# trees grafted below it; the calls inside get the frames below the OpenMP runtime and the
# outlined body: on the master and the worker alike, 2 regions x 2 threads per rank
mpicc -g -O0 -fopenmp -o uw_omp "$PROGRAMS/unwind_omp_mpi.c" || fail "mpicc -fopenmp"
rc=0
SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS= SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=omp timeout 120 mpirun -np 2 "$top_builddir/scorep-run" ./uw_omp \
    >omp.out 2>omp.err || rc=$?
expect_eq "$rc" 0 "omp: 2 ranks run"
if grep -q 'no multiple' omp.out; then
    skip_part_here "MPI calls inside parallel regions" "MPI_THREAD_MULTIPLE not provided"
else
    expect_eq "$(profile_dump omp -m visits | awk -F'\t' '$2 ~ /^main\/outer\/!\$omp parallel @unwind_omp_mpi\.c:[0-9]+\/helper\/MPI_Sendrecv$/ {
            split($4, kv, "="); v[$3] += kv[2] } END { for (l in v) print l "=" v[l] }' | sort |
        tr '\n' ' ')" "0=2 1=2 2=2 3=2 " \
        "omp: main/outer/parallel/helper/MPI_Sendrecv: 2 visits per thread"
    expect_eq "$(profile_paths omp | grep -c '_omp_fn\|MPI_Sendrecv' || :)" 1 \
        "omp: MPI_Sendrecv on one path, no outlined body"
fi

if [ -n "$CUBELIB_DUMP" ]; then
    part "CubeLib's reading of the profile"
    # main/solve/exchange/MPI_Sendrecv with K visits on each rank
    cubelib_visits "$CUBELIB_DUMP" plain/profile.cubex 'MPI_(Sendrecv|Allreduce)$' >cl.visits
    expect_eq "$(cat cl.visits | tr '\n' ' ')" \
        "0 main/reduce_all/MPI_Allreduce=$M 0 main/solve/exchange/MPI_Sendrecv=$K 1 main/reduce_all/MPI_Allreduce=$M 1 main/solve/exchange/MPI_Sendrecv=$K " \
        "CubeLib: the MPI calls below their unwound callers, exact visits per rank"
else
    skip_part_here "CubeLib's own reading (cube_dump)" \
        "CubeLib is not packaged for this system (set CUBELIB_DUMP to a built cube_dump)"
fi

done_ok
