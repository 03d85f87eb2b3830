#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_instrument_kept.sh: the compiler plugins instrument what the optimizer keeps (#31):
# test/programs/inline_kept.c built by gcc's and clang's plugins with scorep-cc's defaults,
# --instrument-threshold=0 and --instrument-inlined; exact visits per call path from the
# program's design, the build note that counts what was left out, and the MANIFEST.md section
# that names it (from the plugin's ELF note; docs/user-guide.md); a compile-time filter's
# exclusions counted there too. test/programs/inline_grown.c: gcc's plugin inlines what plain
# gcc inlines.
. "$top_srcdir/test/integration/lib.sh"
# lib.sh keeps every function for the other tests: here the defaults are the subject
unset SCOREP_CC_INSTRUMENT_THRESHOLD SCOREP_CC_INSTRUMENT_INLINED
export SCOREP_CC_INSTRUMENT=plugin

# inline_kept.c: DIRECT=1000 loop iterations (one tiny_inlined, one tiny_leaf, one inlined
# via_pointer, which calls tiny_leaf), INDIRECT=10 calls of via_pointer's out-of-line copy
# (each calls tiny_leaf), LOOPS=3 calls of with_loop.
# visits MODE: "path=visits ..." of main's call paths that MODE keeps
visits()
{
    case $1 in
    default | gcc_lto) echo "main=1 main/via_pointer=10 main/with_loop=3" ;;
    filtered) echo "main=1 main/via_pointer=10" ;;
    threshold0 | gcc_lto_threshold0) echo "main=1 main/tiny_leaf=2000 main/via_pointer=10 main/via_pointer/tiny_leaf=10 main/with_loop=3" ;;
    inlined | gcc_lto_inlined) echo "main=1 main/tiny_inlined=1000 main/tiny_leaf=1000 main/via_pointer=1010 main/via_pointer/tiny_leaf=1010 main/with_loop=3" ;;
    esac
}

# measured EXPDIR: "path=visits ..." of the profile's paths below the program root
measured()
{
    profile_dump "$1" -m visits | awk -F'\t' '$2 != "." { split($4, kv, "="); v[$2] += kv[2] }
        END { for (p in v) print p, v[p] }' | LC_ALL=C sort -k1,1 | awk '{ printf "%s%s=%s", (NR > 1 ? " " : ""), $1, $2 }'
}

# manifest MODE UNIT: the section "Left out by the compiler plugin" of MANIFEST.md for
# inline_kept.c's one translation unit: tiny_inlined inlined everywhere, tiny_leaf (no loop, no
# call, a handful of statements) below the default threshold, with_loop filtered where MODE is
# "filtered"; 5 functions in all
manifest()
{
    head="1 of 1 translation unit compiled by the plugin left functions uninstrumented (scorep-cc --instrument-inlined, --instrument-threshold=0 keep them; docs/user-guide.md):"
    unit="- \`$PROGRAMS/inline_kept.c\`:"
    below="1 below 200 $2 without loops or calls"
    case $1 in
    default) printf '%s\n%s\n' "$head" "$unit 2 of 5 functions: 1 inlined everywhere or unused, $below, 0 filtered at compile time: \`tiny_leaf\` (below threshold), \`tiny_inlined\` (inlined)" ;;
    filtered) printf '%s\n%s\n' "$head" "$unit 3 of 5 functions: 1 inlined everywhere or unused, $below, 1 filtered at compile time: \`tiny_leaf\` (below threshold), \`tiny_inlined\` (inlined), \`with_loop\` (filtered)" ;;
    threshold0) printf '%s\n%s\n' "$head" "$unit 1 of 5 functions: 1 inlined everywhere or unused, 0 filtered at compile time: \`tiny_inlined\` (inlined)" ;;
    inlined) echo "1 translation unit compiled by the plugin: nothing left out." ;;
    gcc_lto) printf '%s\n%s\n%s\n' \
        "1 of 2 translation and link-time units compiled by the plugin left functions uninstrumented (scorep-cc --instrument-inlined, --instrument-threshold=0 keep them; docs/user-guide.md):" \
        "- link-time unit 1 of gcc -flto: 2 of 5 functions: 1 inlined everywhere or unused, $below, 0 filtered at compile time: \`tiny_leaf\` (below threshold), \`tiny_inlined\` (inlined)" \
        "1 translation unit compiled with gcc -flto: the plugin in lto1 decided at link time what to leave out (with several link-time units, a function inlined in one may be kept in another)." ;;
    gcc_lto_threshold0) printf '%s\n%s\n%s\n' \
        "1 of 2 translation and link-time units compiled by the plugin left functions uninstrumented (scorep-cc --instrument-inlined, --instrument-threshold=0 keep them; docs/user-guide.md):" \
        "- link-time unit 1 of gcc -flto: 1 of 5 functions: 1 inlined everywhere or unused, 0 filtered at compile time: \`tiny_inlined\` (inlined)" \
        "1 translation unit compiled with gcc -flto: the plugin in lto1 decided at link time what to leave out (with several link-time units, a function inlined in one may be kept in another)." ;;
    gcc_lto_inlined) printf '%s\n%s\n' "1 translation unit compiled by the plugin: nothing left out." \
        "1 translation unit compiled with gcc -flto: every inlined copy kept its check and its visits (--instrument-inlined, or linked without the plugin in lto1)." ;;
    esac
}

# section EXPDIR: the non-empty lines of MANIFEST.md's section, without its heading
section()
{
    awk '/^## / { on = ($0 == "## Left out by the compiler plugin"); next } on && NF' "$1/MANIFEST.md"
}

# check COMPILER LABEL NOTE_UNIT MODE [OPTION]: builds, runs, compares the visits, the note
# and the MANIFEST's section
check()
{
    cc=$1 label=$2 unit=$3 mode=$4
    shift 4
    "$SCOREP_CC" "$@" "$cc" -O2 -o "kept_$label" "$PROGRAMS/inline_kept.c" 2>"build_$label.err" ||
        fail "build $label: $(cat "build_$label.err")"
    verify "$label" "$unit" "$mode"
}

# check_lto COMPILER LABEL NOTE_UNIT MODE [OPTION]: as check, with -flto on a compile step
# (with OPTION) and a link step (whose notes join the compile step's)
check_lto()
{
    cc=$1 label=$2 unit=$3 mode=$4
    shift 4
    "$SCOREP_CC" "$@" "$cc" -O2 -flto -c -o "kept_$label.o" "$PROGRAMS/inline_kept.c" \
        2>"build_$label.err" || fail "compile $label: $(cat "build_$label.err")"
    "$SCOREP_CC" "$cc" -O2 -flto -o "kept_$label" "kept_$label.o" 2>>"build_$label.err" ||
        fail "link $label: $(cat "build_$label.err")"
    verify "$label" "$unit" "$mode"
}

# verify LABEL NOTE_UNIT MODE: runs kept_LABEL, compares the visits, the note and the section
verify()
{
    label=$1 unit=$2 mode=$3
    run_app "$label" env SCOREP_EXPERIMENT_DIRECTORY="exp_$label" "./kept_$label"
    expect_eq "$status $(cat "$label.out")" "0 2520465" "$label: exit status and output"
    expect_eq "$(measured "exp_$label")" "$(visits "$mode")" "$label: visits per call path"
    lines=1
    case $mode in
    default) note="2 of 5 functions left uninstrumented: 1 inlined everywhere or unused, 1 below 200 $unit without loops or calls" ;;
    filtered) note="2 of 4 functions left uninstrumented: 1 inlined everywhere or unused, 1 below 200 $unit without loops or calls" ;;
    threshold0) note="1 of 5 functions left uninstrumented: 1 inlined everywhere or unused" ;;
    gcc_lto) lines=2 note="$(printf '%s\n%s' "'-flto': what is left out is decided at link time, by the plugin in lto1" \
        "link-time unit of gcc -flto: 2 of 5 functions left uninstrumented: 1 inlined everywhere or unused, 1 below 200 statements without loops or calls")" ;;
    gcc_lto_inlined) note="'-flto': what is left out is decided at link time, by the plugin in lto1" ;;
    gcc_lto_threshold0) lines=2 note="$(printf '%s\n%s' "'-flto': what is left out is decided at link time, by the plugin in lto1" \
        "link-time unit of gcc -flto: 1 of 5 functions left uninstrumented: 1 inlined everywhere or unused")" ;;
    *) note="" lines=0 ;;
    esac
    # one line per translation unit, only when something was left out (with gcc -flto: one of
    # the compile step, one per link-time unit)
    expect_eq "$(sed -n '/scorep: /{s/.*scorep: //; s/^[^:]*inline_kept.c: //; s/ (scorep-cc .*//; p; }' "build_$label.err")" \
        "$note" "$label: the build note"
    expect_eq "$(count_lines scorep: "build_$label.err")" "$lines" \
        "$label: the number of note lines"
    expect_eq "$(section "exp_$label")" "$(manifest "$mode" "$unit")" \
        "$label: MANIFEST.md's section of what was left out"
}

# inline_grown.c: mix(), 30 statements without loop or call, called twice in main's loop;
# plain gcc -O2 inlines it (the premise, checked: another gcc may decide otherwise). The
# plugin's build must inline it too: before the inliner it holds only internal exit markers,
# which gcc's size estimate counts as nothing (#31). Output from the program's design (its
# arithmetic done again in unsigned 64 bits: 2987), no mix symbol, no mix region, the note;
# main's region though main never returns (it ends in exit()).
grown()
{
    "$1" -O2 -o grown_plain "$PROGRAMS/inline_grown.c" || fail "build grown_plain"
    run_to grown_plain.nm nm grown_plain
    if [ "$(count_lines ' mix$' grown_plain.nm)" != 0 ]; then
        skip_part_here "gcc's plugin inlines what gcc inlines" "this gcc keeps mix() out of line"
        return 0
    fi
    "$SCOREP_CC" "$1" -O2 -o grown "$PROGRAMS/inline_grown.c" 2>build_grown.err ||
        fail "build grown: $(cat build_grown.err)"
    run_to grown.nm nm grown
    expect_eq "$(count_lines ' mix$' grown.nm)" 0 "grown: mix() inlined as by plain gcc"
    run_app grown env SCOREP_EXPERIMENT_DIRECTORY=exp_grown ./grown
    expect_eq "$status $(cat grown.out)" "0 2987" "grown: exit status and output"
    expect_eq "$(measured exp_grown)" "main=1" "grown: visits per call path"
    expect_eq "$(sed -n 's/.*scorep: [^:]*inline_grown.c: //; s/ (scorep-cc .*//p' build_grown.err)" \
        "1 of 2 functions left uninstrumented: 1 inlined everywhere or unused, 0 below 200 statements without loops or calls" \
        "grown: the build note"
}

# the compile-time filter: with_loop excluded
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE with_loop\nSCOREP_REGION_NAMES_END\n' >kept.filter

if "$SCOREP_CC" --help | grep -q 'not built here'; then
    skip_part "gcc plugin headers (gcc-12-plugin-dev)"
else
    part "gcc's plugin"
    check gcc gcc_default statements default
    check gcc gcc_threshold0 statements threshold0 --instrument-threshold=0
    check gcc gcc_inlined statements inlined --instrument-inlined
    check gcc gcc_filtered statements filtered --filter=kept.filter
    # -flto: lto1 inlines at link time; scorep-cc loads the plugin there too, which learns each
    # descriptor's function and rule from the descriptor: the visits of the default, a note per
    # link-time unit; with --instrument-inlined on the compile step every copy keeps its check
    check_lto gcc gcc_lto statements gcc_lto
    check_lto gcc gcc_lto_inlined statements gcc_lto_inlined --instrument-inlined
    # the compile step's threshold holds at link time (the link step is given none)
    check_lto gcc gcc_lto_threshold0 statements gcc_lto_threshold0 --instrument-threshold=0
    # the environment's equivalent, and the threshold that reaches tiny_leaf (5 statements)
    export SCOREP_CC_INSTRUMENT_THRESHOLD=0
    check gcc gcc_env statements threshold0
    unset SCOREP_CC_INSTRUMENT_THRESHOLD
    grown gcc
fi

if command -v clang >/dev/null 2>&1 && [ -f "$SCOREP_CC_LLVM_PLUGIN" ]; then
    part "clang's plugin"
    check clang clang_default instructions default
    check clang clang_threshold0 instructions threshold0 --instrument-threshold=0
    check clang clang_inlined instructions inlined --instrument-inlined
    check clang clang_filtered instructions filtered --filter=kept.filter
    # -flto: the plugin instruments at the end of the compile step's optimizer, after its
    # inliner; the link-time optimizer inlines across units with the checks (exact visits)
    printf 'int main(void) { return 0; }\n' >lto_probe.c
    if clang -flto -o lto_probe lto_probe.c 2>lto_probe.err; then
        check_lto clang clang_lto instructions default
    else
        skip_part "clang's LTO linker plugin (LLVMgold.so of llvm-14-linker-tools) for clang -flto"
    fi
else
    skip_part "clang with scorep-rt's LLVM plugin (llvm-14-dev)"
fi

# bad thresholds stop the build with a message
status=0
"$SCOREP_CC" --instrument-threshold=x gcc -c "$PROGRAMS/inline_kept.c" 2>bad.err || status=$?
expect_eq "$status $(cat bad.err)" "1 scorep-cc: --instrument-threshold=x: expected a number (0: no threshold); see scorep-cc --help" \
    "--instrument-threshold=x"
done_ok
