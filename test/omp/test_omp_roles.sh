#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_roles.sh: the region role of every OpenMP construct (test/omp/roles.c: one of each)
# in the trace (otf2-print's region definitions), in the profile (scorep-cube-dump --regions,
# and CubeLib's cube_dump -w where CUBELIB_DUMP is set) and in both analysis reports,
# each as Score-P's OMPT adapter types the construct (its table of regions) and spells
# the type (OTF2's region roles; Cube's role strings: scorep_region_type_to_string). Scalasca's
# scout tells critical sections from lock API calls by these roles (docs/openmp.md); the lock
# API's regions have the source file "OMP", as Score-P's (Scalasca's test for OpenMP). clang's
# build (OMPT) must show every construct of the table below; the gcc builds (libgomp's GOMP_*
# entry points, wrapped) record fewer: what they record must have the same roles.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

# OTF2 role TAB Cube role TAB construct (the region's name without " @file:line"); written
# from Score-P's table, no code shared with the runtime: Score-P 8.4's
# src/adapters/ompt/scorep_ompt_regions.inc.c, its REGION_OMP_* names (lines 66-89: the
# worksharing loop is "!$omp for/do", line 77) and region_fallback's types (lines 91-120;
# "!$omp flush", FLUSH: lines 89 and 115; clang's flush only: gcc's is a fence, no call).
# Score-P has no type for the lock API calls: wrapper, as its OMPT adapter's lock regions
# (init_region_fallbacks: lock_region_names, SCOREP_REGION_WRAPPER), the initialisations and
# destructions included.
cat >expected.txt <<'EOF'
PARALLEL	parallel	!$omp parallel
IMPLICIT_BARRIER	implicit barrier	!$omp implicit barrier
BARRIER	barrier	!$omp barrier
BARRIER	barrier	!$omp taskwait
BARRIER	barrier	!$omp taskgroup
LOOP	loop	!$omp for/do
SECTIONS	sections	!$omp sections
SECTION	section	!$omp section
SINGLE	single	!$omp single
SINGLE_SBLOCK	single sblock	!$omp single sblock
MASTER	master	!$omp masked
CRITICAL	critical	!$omp critical
CRITICAL_SBLOCK	critical sblock	!$omp critical sblock
ORDERED	ordered	!$omp ordered
ORDERED_SBLOCK	ordered sblock	!$omp ordered sblock
TASK	task	!$omp task
TASK_UNTIED	untied task	!$omp task untied
TASK_CREATE	task create	!$omp create task
FLUSH	flush	!$omp flush
WRAPPER	wrapper	omp_set_lock
WRAPPER	wrapper	omp_unset_lock
WRAPPER	wrapper	omp_test_lock
WRAPPER	wrapper	omp_set_nest_lock
WRAPPER	wrapper	omp_unset_nest_lock
WRAPPER	wrapper	omp_test_nest_lock
WRAPPER	wrapper	omp_init_lock
WRAPPER	wrapper	omp_init_lock_with_hint
WRAPPER	wrapper	omp_destroy_lock
WRAPPER	wrapper	omp_init_nest_lock
WRAPPER	wrapper	omp_init_nest_lock_with_hint
WRAPPER	wrapper	omp_destroy_nest_lock
EOF

# check_roles WHAT FILE COLUMN: FILE holds "construct TAB role" lines (one per OpenMP region);
# each must have the role of expected.txt's COLUMN (1: OTF2, 2: Cube); the constructs seen,
# sorted, go to FILE.seen
check_roles()
{
    awk -F'\t' -v col="$3" 'NR == FNR { want[$3] = $col; next }
        !($1 in want) { printf "unexpected OpenMP region \"%s\" (role %s)\n", $1, $2; bad = 1; next }
        $2 != want[$1] { printf "\"%s\": role %s, want %s\n", $1, $2, want[$1]; bad = 1 }
        END { exit bad }' expected.txt "$2" >"$2.bad" ||
        fail "$1: $(cat "$2.bad")"
    _check
    echo "ok: $1: $(wc -l <"$2") OpenMP regions with Score-P's roles"
    cut -f1 "$2" | sort -u >"$2.seen"
}

# otf2_roles EXPDIR: "construct TAB role" for the trace's OpenMP regions (otf2-print -G:
# REGION lines with Name: "..." <id> ... Role: ROLE, Paradigm: OPENMP)
otf2_roles()
{
    trace_defs "$1" | awk '$1 == "REGION" && /, Paradigm: OPENMP,/ {
        match($0, /Name: "[^"]*"/); n = substr($0, RSTART + 7, RLENGTH - 8); sub(/ @.*/, "", n)
        match($0, /, Role: [A-Z_0-9]+,/); print n "\t" substr($0, RSTART + 8, RLENGTH - 9) }'
}

# cube_roles CUBEX: the same for a Cube file's regions of paradigm openmp (scorep-cube-dump)
cube_roles()
{
    "$CUBE_DUMP" --regions "$1" >"$1.regions" || fail "scorep-cube-dump --regions $1"
    awk -F'\t' '$3 == "openmp" { n = $2; sub(/ @.*/, "", n); print n "\t" $4 }' "$1.regions"
}

# cubelib_roles CUBEX: the same as CubeLib reads the file (cube_dump -w's region lines:
# "TAB NAME:MANGLED TAB ( id=N, B, E, paradigm=P, role=R, ..."; ours writes the mangled name
# = the name; the call tree's lines start with blanks)
cubelib_roles()
{
    "$CUBELIB_DUMP" -w "$1" >"$1.w" 2>&1 || fail "CubeLib's cube_dump -w $1: $(tail -5 "$1.w")"
    awk '/^\t.*\t   \( id=[0-9]+, .*paradigm=openmp, role=/ { s = $0; sub(/^\t/, "", s); sub(/\t   \( id=.*/, "", s)
        n = substr(s, 1, (length(s) - 1) / 2); sub(/ @.*/, "", n)
        r = $0; sub(/.*, role=/, "", r); sub(/, url=.*/, "", r); print n "\t" r }' "$1.w"
}

find_cubelib_dump "CubeLib's cube_dump -w of the profiles"
omp_build roles
for v in $VARIANTS; do
    omp_run $v roles
    expect_eq "$(cat roles_$v.out)" "sum 42" "$v: program output"
    x=$exp
    omp_consistent $x "$v"
    otf2_roles $x >otf2_$v.txt
    check_roles "$v: trace" otf2_$v.txt 1
    cube_roles $x/profile.cubex >cube_$v.txt
    check_roles "$v: profile" cube_$v.txt 2
    expect_eq "$(cat cube_$v.txt.seen)" "$(cat otf2_$v.txt.seen)" \
        "$v: the profile has the trace's OpenMP constructs"
    if [ -n "$CUBELIB_DUMP" ]; then
        cubelib_roles $x/profile.cubex >cubelib_$v.txt
        check_roles "$v: the profile as CubeLib reads it" cubelib_$v.txt 2
        expect_eq "$(cat cubelib_$v.txt.seen)" "$(cat cube_$v.txt.seen)" \
            "$v: CubeLib reads the profile's OpenMP regions"
    fi
    # the lock API's regions have the source file "OMP" (Score-P's; Scalasca counts lock API
    # contention only at regions named "!$omp ..." or of that file)
    trace_defs $x | awk '$1 == "REGION" && /, Paradigm: OPENMP,/ && /Name: "omp_/ {
        n++; if ($0 ~ /, File: "OMP" </) ok++ } END { print n + 0, ok + 0 }' >files_$v.txt
    expect_eq "$(awk '{ print ($1 >= 4 && $1 == $2) }' files_$v.txt)" 1 \
        "$v: the lock API regions' file is OMP ($(cat files_$v.txt): regions, of file OMP)"
    expect_grep '^!\$omp parallel$' otf2_$v.txt.seen "$v: a parallel region"
    expect_grep '^!\$omp critical$' otf2_$v.txt.seen "$v: a critical region"
    if [ $v = clang ]; then
        # roles.c's flush: once per thread, with no duration (Score-P's
        # scorep_ompt_cb_host_flush enters and leaves at one timestamp, OMPT giving a flush
        # none; ours leaves one tick later, as any two events of one location): in the
        # trace each flush's Leave follows its Enter on the location, one tick later
        expect_eq "$(nper_loc $x "${root}!\$omp parallel/!\$omp flush")" "1 1" \
            "$v: one flush per thread"
        expect_eq "$(trace_events $x | awk '$1 == "ENTER" || $1 == "LEAVE" {
            f = /Region: "!\$omp flush @/
            if ($1 == "LEAVE" && f) { n++; if (!fe[$2] || $3 - ft[$2] != 1) bad++ }
            fe[$2] = f && $1 == "ENTER"; ft[$2] = $3 } END { print n + 0, bad + 0 }')" "2 0" \
            "$v: 2 flushes, each left one tick after its enter"
    fi
done
# clang's build on OMPT: every construct of the table, but section (LLVM 14 does not report
# it: docs/openmp.md), the lock tests (LLVM before 18 reports them as omp_set_lock,
# omp_set_nest_lock) and workshare (Fortran)
opt='^!\$omp section$\|^omp_test_\|^!\$omp workshare$'
expect_eq "$(grep -v "$opt" otf2_clang.txt.seen)" "$(cut -f3 expected.txt | grep -v "$opt" | sort -u)" \
    "clang: every construct of the table in the trace"

# the in-situ analysis report (the trace buffers' definitions: an_load_buffer.c) and the
# post-mortem one (the trace's: an_load_otf2.c) carry the roles too
part "analysis reports"
a=$work/an
run_app roles_an env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_ANALYSIS=true \
    SCOREP_FILTERING_FILE="$OMP_SRC/omp_filter.txt" SCOREP_EXPERIMENT_DIRECTORY="$a" ./roles_clang
expect_eq "$status" 0 "roles (analysis): exit status"
expect_file "$a/scout.cubex" "the in-situ analysis wrote scout.cubex"
cube_roles $a/scout.cubex >an_insitu.txt
check_roles "in-situ analysis report" an_insitu.txt 2
mv "$a/scout.cubex" "$a/scout_insitu.cubex"
"$top_builddir/scorep-analyze" "$a" >an.out 2>&1 || fail "scorep-analyze $a: $(tail -5 an.out)"
cube_roles $a/scout.cubex >an_pm.txt
check_roles "post-mortem analysis report" an_pm.txt 2
expect_eq "$(cat an_pm.txt.seen)" "$(cat an_insitu.txt.seen)" \
    "both analysis reports have the same OpenMP constructs"
expect_grep '^!\$omp critical sblock$' an_pm.txt.seen "the reports have the critical section"
if [ -n "$CUBELIB_DUMP" ]; then
    for f in scout_insitu scout; do
        cubelib_roles $a/$f.cubex >cubelib_$f.txt
        check_roles "$f.cubex as CubeLib reads it" cubelib_$f.txt 2
        expect_eq "$(cat cubelib_$f.txt.seen)" "$(cat an_pm.txt.seen)" \
            "CubeLib reads $f.cubex's OpenMP regions"
    done
fi
done_ok
