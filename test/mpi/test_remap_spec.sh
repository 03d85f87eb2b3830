#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_remap_spec.sh: every profile.cubex embeds scorep-rt's remapping specification as the
# misc-data member Score-P 5+ writes (named after it, remapping + .spec), which Cube's remapper
# (cube_remap2, run by Scalasca's square -s) reads: byte for byte share/scorep.spec, from both
# Cube writers (gather, parallel); the spec is well-formed and names only metrics the profile
# has, metrics it defines itself, or those cube_remap2 -d fills in; scorep-config
# --remap-specfile names the installed copy. Optional part: SQUARE=/path/to/square (with
# CubeLib's cube_dump and cube_remap2 on PATH) runs square -s on the experiment and checks the
# remapped tree's values.
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs collectives_scorep
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 (the spec's XML check)"; exit 77; }
SPEC="$top_srcdir/share/scorep.spec"

# The metrics the writer defines in every profile (profile_cube.c's define_metrics, read from
# the source rather than from the file under test): the spec may copy only these.
grep -o 'add_metric(w, kinds, "[a-z_]*"' "$top_srcdir/src/writers/profile_cube.c" |
    sed 's/.*"\(.*\)"/\1/' | LC_ALL=C sort >writer_metrics.txt
expect_eq "$(tr '\n' ' ' <writer_metrics.txt)" "max_time min_time time visits " \
    "the writer's unconditional metrics (profile_cube.c)"

# check_spec SPECFILE ANCHOR WHAT: well-formed, every reference resolved; prints the metrics
# the spec copies from the profile (no type, not filled in by the remapper)
check_spec() {
    python3 - "$1" "$2" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
spec, anchor = sys.argv[1], sys.argv[2]
root = ET.parse(spec).getroot()          # raises on malformed XML
assert root.tag == "metrics", "root element is %s, not metrics" % root.tag
# filled in by CubeLib's remapper under -d (ReMap2's remap2_calls.cpp looks them up by name)
by_remapper = {"omp_idle_threads", "omp_limited_parallelism", "imbalance", "imbalance_above",
               "imbalance_above_single", "imbalance_below", "imbalance_below_bypass",
               "imbalance_below_singularity"}
have = {m.findtext("uniq_name") for m in ET.parse(anchor).getroot().iter("metric")}
defined, copied, errors = {}, [], []
for m in root.iter("metric"):
    name = m.findtext("uniq_name")
    for tag in ("disp_name", "uniq_name", "dtype", "uom", "descr"):
        if m.find(tag) is None:
            errors.append("%s: no <%s>" % (name, tag))
    if name in defined:
        errors.append("%s defined twice" % name)
    defined[name] = m
for name, m in defined.items():
    kind = m.get("type")
    if kind is None:
        if name not in by_remapper:
            copied.append(name)
            if name not in have:
                errors.append("%s is copied from the profile, which has no such metric" % name)
        continue
    if kind not in ("PREDERIVED_EXCLUSIVE", "POSTDERIVED"):
        errors.append("%s: type %s" % (name, kind))
    expr = m.findtext("cubepl") or ""
    if not expr.strip():
        errors.append("%s: derived without <cubepl>" % name)
    for ref in re.findall(r"metric::([A-Za-z_]+)\(", expr + (m.findtext("cubeplinit") or "")):
        if ref not in defined:
            errors.append("%s refers to metric %s, defined nowhere" % (name, ref))
    # a selecting metric reads the array the initialisation fills under its name
    for arr in re.findall(r"\$\{([a-z_0-9]+)\}\[\$\{calculation::callpath::id\}\]", expr):
        inits = " ".join(x.findtext("cubeplinit") or "" for x in defined.values())
        if "global(%s)" % arr not in inits:
            errors.append("%s reads ${%s}[], which no cubeplinit declares" % (name, arr))
if errors:
    sys.exit("\n".join(errors))
print(" ".join(sorted(copied)))
EOF
}

# a profile with just the writer's unconditional metrics
sed 's|.*|<metric><uniq_name>&</uniq_name></metric>|' writer_metrics.txt |
    { echo "<cube><metrics>"; cat; echo "</metrics></cube>"; } >fixed_anchor.xml
copied=$(check_spec "$SPEC" fixed_anchor.xml 2>&1) || fail "share/scorep.spec: $copied"
expect_eq "$copied" "time visits" "the spec copies time and visits from the profile"
for _m in $copied; do
    expect_eq "$(grep -cx "$_m" writer_metrics.txt)" 1 "$_m: a metric of every profile"
done

for writer in gather parallel; do
    run_bounded "$writer" 120 '_scorep( |$)' env SCOREP_PROFILING_CUBE_WRITER="$writer" \
        SCOREP_EXPERIMENT_DIRECTORY="$work/$writer" \
        mpirun --oversubscribe --allow-run-as-root -np 4 "$T/collectives_scorep"
    expect_eq "$status" 0 "$writer: 4 ranks run"
    p="$work/$writer/profile.cubex"
    expect_file "$p" "$writer: profile.cubex"
    tar tf "$p" >members.txt || fail "$writer: tar tf"
    expect_eq "$(grep -cx remapping.spec members.txt || true)" 1 "$writer: one remapping.spec member"
    tar xOf "$p" remapping.spec >embedded.spec || fail "$writer: tar xOf remapping.spec"
    expect_eq "$(cmp embedded.spec "$SPEC" >/dev/null && echo same)" same \
        "$writer: the embedded spec is share/scorep.spec byte for byte"
    tar xOf "$p" anchor.xml >profile_anchor.xml || fail "$writer: anchor.xml"
    out=$(check_spec embedded.spec profile_anchor.xml 2>&1) || fail "$writer: embedded spec: $out"
    expect_eq "$out" "time visits" "$writer: the metrics it copies are in this profile"
    # the repository's own reader still reads the file (members it does not know are skipped)
    "$CUBE_DUMP" -m visits "$p" >visits.txt || fail "$writer: scorep-cube-dump -m visits"
    expect_grep MPI_Allreduce visits.txt "$writer: scorep-cube-dump reads the profile"
done
# each layout keeps its anchor.xml where it was (test_profile_parallel.sh tells them by it)
expect_eq "$(tar tf "$work/gather/profile.cubex" | head -n 1)" anchor.xml "gather: anchor.xml first"
expect_eq "$(tar tf "$work/parallel/profile.cubex" | tail -n 1)" anchor.xml "parallel: anchor.xml last"

# scorep-config --remap-specfile: $(pkgdatadir)/scorep.spec, the installed copy of the same text
# (configure's variables, expanded as make does: pkgdatadir = $(datadir)/scorep-rt, ...)
mkvar() { sed -n "s/^$1 = //p" "$top_builddir/Makefile"; }
pkgdatadir=$(mkvar pkgdatadir)
for _v in datadir datarootdir prefix; do
    _val=$(mkvar "$_v")
    pkgdatadir=$(echo "$pkgdatadir" | sed "s|[$][({]${_v}[)}]|${_val}|g")
done
expect_eq "$("$top_builddir/scorep-config" --remap-specfile)" "$pkgdatadir/scorep.spec" \
    "scorep-config --remap-specfile"
if [ -f "$pkgdatadir/scorep.spec" ]; then
    expect_eq "$(cmp "$pkgdatadir/scorep.spec" "$SPEC" >/dev/null && echo same)" same \
        "the installed scorep.spec is share/scorep.spec"
else
    skip_part_here "the installed scorep.spec" "not installed yet (make install)"
fi

# Optional: Scalasca's square -s remaps with the embedded spec (no other spec reachable)
if [ -z "${SQUARE:-}" ] || ! command -v cube_remap2 >/dev/null 2>&1 ||
    ! command -v cube_dump >/dev/null 2>&1; then
    skip_part_here "square -s on the experiment" \
        "Scalasca and CubeLib are not packaged here (set SQUARE, put cube_remap2 and cube_dump on PATH)"
else
    part "square -s"
    cp -R "$work/gather" "$work/sq"
    # square also scores the summary with scorep-score: this build's
    PATH="$top_builddir:$PATH" "$SQUARE" -v -s "$work/sq" >square.out 2>&1 ||
        fail "square -s: $(tail -c 800 square.out)"
    expect_grep "^INFO: Using spec: embedded$" square.out "square used the embedded specification"
    expect_file "$work/sq/summary.cubex" "square wrote summary.cubex"
    # root values (aggregated over every location): the copied metrics equal the profile's;
    # the collectives program spends time in MPI collectives, none in point-to-point calls
    root() { cube_dump -m "$1" -z incl -t aggr -c 0 "$2" | tail -n 1 | awk '{ print $NF }'; }
    for _m in time visits; do
        expect_eq "$(root "$_m" "$work/sq/summary.cubex")" \
            "$(root "$_m" "$work/gather/profile.cubex")" \
            "summary.cubex: $_m as in the profile"
    done
    expect_eq "$(root execution "$work/sq/summary.cubex")" "$(root time "$work/gather/profile.cubex")" \
        "summary.cubex: execution = time (no idle threads in a pure MPI run)"
    mpi=$(root mpi "$work/sq/summary.cubex")
    coll=$(root mpi_collective "$work/sq/summary.cubex")
    expect_ge "$coll" 0.0000001 "summary.cubex: MPI collective time"
    expect_ge "$mpi" "$coll" "summary.cubex: mpi includes mpi_collective"
fi
echo "checks: $checks"
