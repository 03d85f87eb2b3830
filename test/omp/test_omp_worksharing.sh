#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_worksharing.sh: test/omp/worksharing.c (3 regions of 4 threads: static and dynamic
# loops of 100 iterations, 3 sections, single, single nowait, master, barrier, an ordered
# loop of 8 iterations) in the three builds. clang: every construct with its line; gcc
# programs (libgomp's GOMP_* entry points, wrapped) report less (docs/openmp.md): checked by
# kind.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"
# A worksharing loop is "!$omp for/do", as Score-P 8.4's OMPT adapter names it
# (src/adapters/ompt/scorep_ompt_regions.inc.c:77, REGION_OMP_LOOP); the "/" is part of the name.
VARIANTS="$VARIANTS gccomp" # gcc on libomp too

omp_build worksharing
at() { echo "@worksharing.c:$(line worksharing "$1")"; }
P="!\$omp parallel $(at PAR)"
for v in $VARIANTS; do
    omp_run $v worksharing
    expect_eq "$(cat worksharing_$v.out)" "ordered 24" "$v: program output"
    x=$exp
    omp_consistent $x "$v"
    p="$root$P"
    expect_eq "$(per_loc $x "$p")" "3 3 3 3" "$v: parallel region: 4 threads x 3"
    # ordered: one lock acquisition per iteration; schedule(static,1) gives 2 per thread
    expect_eq "$(events $x THREAD_ACQUIRE_LOCK)" 24 "$v: THREAD_ACQUIRE_LOCK (ordered)"
    expect_eq "$(events $x THREAD_RELEASE_LOCK)" 24 "$v: THREAD_RELEASE_LOCK (ordered)"
    expect_eq "$(trace_summary $x | awk '$1 == "THREAD_ACQUIRE_LOCK" { print $3 }' | tr '\n' ' ')" \
        "6 6 6 6 " "$v: ordered acquisitions per thread"
    expect_eq "$(nper_loc $x "${root}!\$omp parallel/!\$omp for/do/!\$omp ordered")" "6 6 6 6" \
        "$v: ordered region per thread"
    expect_eq "$(nvisits $x "${root}!\$omp parallel/!\$omp for/do/!\$omp ordered/!\$omp ordered sblock")" \
        24 "$v: ordered sblock"
    expect_eq "$(nvisits $x "${root}!\$omp parallel/!\$omp single/!\$omp single sblock")" 6 \
        "$v: single blocks run once per single and region"
    if [ $v = clang ]; then
        expect_eq "$(per_loc $x "$p/!\$omp for/do $(at FOR_STATIC)")" "3 3 3 3" "$v: static loop"
        expect_eq "$(per_loc $x "$p/!\$omp for/do $(at FOR_STATIC)/body")" "75 75 75 75" \
            "$v: static loop body: 100 iterations / 4 threads x 3"
        expect_eq "$(per_loc $x "$p/!\$omp for/do $(at FOR_DYNAMIC)")" "3 3 3 3" "$v: dynamic loop"
        expect_eq "$(visits $x "$p/!\$omp for/do $(at FOR_DYNAMIC)/body")" 300 "$v: dynamic loop body"
        expect_eq "$(per_loc $x "$p/!\$omp sections $(at SECTIONS)")" "3 3 3 3" "$v: sections"
        expect_eq "$(visits $x "$p/!\$omp sections $(at SECTIONS)/body")" 9 "$v: section bodies"
        for s in SINGLE SINGLE_NOWAIT; do
            expect_eq "$(per_loc $x "$p/!\$omp single $(at $s)")" "3 3 3 3" "$v: $s"
            expect_eq "$(visits $x "$p/!\$omp single $(at $s)/!\$omp single sblock $(at $s)/body")" 3 \
                "$v: $s: body once per region"
        done
        expect_eq "$(profile_values $x "$p/!\$omp masked $(at MASTER)" visits)" "0 3" \
            "$v: master: on the master thread only"
        expect_eq "$(per_loc $x "$p/!\$omp barrier $(at BARRIER)")" "3 3 3 3" "$v: explicit barrier"
        for c in PAR FOR_STATIC FOR_DYNAMIC SECTIONS SINGLE ORDERED_FOR; do
            expect_eq "$(per_loc $x "$p/!\$omp implicit barrier $(at $c)")" "3 3 3 3" \
                "$v: implicit barrier of $c"
        done
        expect_eq "$(profile_paths $x | grep -c "implicit barrier $(at SINGLE_NOWAIT)")" 0 \
            "$v: no barrier after single nowait"
    else
        # gcc's code: static loops and master run without the runtime (no region); single's
        # end is derived from the next construct. On libgomp (GOMP_* wrappers) sections are
        # !$omp sections; libomp's GOMP_* layer runs them as a dynamic loop.
        if [ "$(gcc_runtime $v)" = libgomp ]; then
            expect_eq "$(nvisits $x "${root}!\$omp parallel/!\$omp for/do")" 24 \
                "$v: dynamic and ordered loop as !\$omp for/do"
            expect_eq "$(nvisits $x "${root}!\$omp parallel/!\$omp sections")" 12 "$v: sections"
            expect_eq "$(nper_loc $x "${root}!\$omp parallel/!\$omp single")" "6 6 6 6" \
                "$v: 2 singles per thread and region"
        else
            expect_eq "$(nvisits $x "${root}!\$omp parallel/!\$omp for/do")" 36 \
                "$v: dynamic loop, sections and ordered loop as !\$omp for/do"
        fi
        if [ $v = gcc ] || [ $v = gccomp ]; then
            expect_eq "$(profile_dump $x -m visits | awk -F'\t' '$2 ~ /\/body$/ {
                split($4, a, "="); s += a[2] } END { print s + 0 }')" 618 \
                "$v: body() calls: 300 + 300 + 9 + 3 x 3"
        fi
    fi
done
done_ok
