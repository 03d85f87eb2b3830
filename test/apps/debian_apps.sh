#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# debian_apps.sh: real MPI applications from Debian 12's packages, never written for
# scorep-rt, run unmodified under `mpirun -np N scorep-run` (LD_PRELOAD) against the installed
# runtime: hpcc (HPC Challenge: HPL, PTRANS, RandomAccess, STREAM, FFT, b_eff), NetPIPE
# (netpipe-openmpi's NPopenmpi, integrity-check mode, in several of its modes) and a small
# mpi4py program (test/apps/mpi4py_app.py, under scorep-run and `python3 -m scorep`). A manual
# validation (docs/mpi.md, "Real applications from Debian's packages"), not part of make check.
#
#   PREFIX=/path/to/_install [CUBE_DUMP=/path/to/cube_dump] [NP="2 4"] [REPEAT=1] \
#       [APPS="hpcc netpipe mpi4py"] [HPCC_N=500] [TRACE_MEMORY=4M] test/apps/debian_apps.sh
#
# TRACE_MEMORY: SCOREP_TOTAL_MEMORY of the traced runs (default: the runtime's, 16000k), small
# to make the trace buffers fill (reduction, flushes) while the checks stay the same.
# Each application runs plain, with profiling, and with tracing (and profiling); checks, each a
# line "ok:"/"FAIL:":
#   - its own verification is the same plain and measured (hpcc: every line of its summary
#     but times, rates and RandomAccess's error counts, which includes Success=1 and the
#     residuals, its PASSED/FAILED lines and RandomAccess's 4 verdicts "(passed)"; NetPIPE: "Integrity check passed" for every size and no
#     failure; mpi4py_app.py: PASSED and its checksum);
#   - otf2-print reads the trace with nothing on stderr; for hpcc and NetPIPE (MPI calls
#     alone, which no reduction removes) MANIFEST.md says the trace lacks nothing;
#   - test/mpi/clock_condition.py (python3-otf2) pairs every message, no clock violation;
#   - the traced run's profile, read by CubeLib's cube_dump (CUBE_DUMP; else this
#     installation's scorep-cube-dump, said so), has per rank as many visits of every MPI
#     region as the trace has Enter events of it, and as many visits of the blocking sends
#     (MPI_Send, MPI_Ssend, MPI_Bsend, MPI_Rsend, MPI_Sendrecv, MPI_Sendrecv_replace) as the
#     trace has MpiSend events, of MPI_Isend/Issend/Ibsend/Irsend as MpiIsend events;
#   - `mpirun -np N scorep-analyze EXPDIR` ends with 0 and writes scout.cubex, which
#     cube_dump reads.
# And the wall time of the plain, profiled and traced runs (median of REPEAT). NetPIPE runs
# with 2 ranks only (it is a 2-process benchmark). Exits 77 with a message when a package
# (hpcc, netpipe-openmpi, python3-mpi4py, otf2-tools, python3-otf2) is missing; 1 when a
# check fails; prints a summary.
set -eu -o pipefail

: "${PREFIX:?PREFIX names the scorep-rt installation (its bin/scorep-run)}"
[ -x "$PREFIX/bin/scorep-run" ] || { echo "no $PREFIX/bin/scorep-run" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mpitests=$(cd "$here/../mpi" && pwd)
np_list=${NP:-2 4}
repeat=${REPEAT:-1}
apps=${APPS:-hpcc netpipe mpi4py}
hpcc_n=${HPCC_N:-500}
py=python3
[ ! -x /usr/bin/python3 ] || py=/usr/bin/python3 # Debian's python3-otf2 and mpi4py are for this one

need()
{
    # need PACKAGE TEST...: exit 77 unless TEST succeeds
    local pkg=$1
    shift
    "$@" >/dev/null 2>&1 || { echo "SKIP: $pkg is not installed (apt-get install $pkg)"; exit 77; }
}
need openmpi-bin command -v mpirun
need otf2-tools command -v otf2-print
need python3-otf2 "$py" -c 'import otf2'
for a in $apps; do
    case $a in
    hpcc) need hpcc command -v hpcc ;;
    netpipe) need netpipe-openmpi command -v NPopenmpi ;;
    mpi4py) need python3-mpi4py "$py" -c 'import mpi4py' ;;
    *) echo "unknown application '$a' (hpcc, netpipe, mpi4py)" >&2; exit 2 ;;
    esac
done
cube_dump=${CUBE_DUMP:-}
if [ -n "$cube_dump" ]; then
    [ -x "$cube_dump" ] || { echo "CUBE_DUMP=$cube_dump is not executable" >&2; exit 2; }
    cube_tool="CubeLib's cube_dump"
else
    cube_tool="scorep-cube-dump (this installation's; CUBE_DUMP names CubeLib's)"
fi
echo "profile read by $cube_tool"

work=$(mktemp -d "${TMPDIR:-/tmp}/debian-apps.XXXXXX")
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# the caller's measurement settings must not change the runs
for v in $(env | sed -n 's/^\(SCOREP_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done

pass=0 fail=0
results=() # "app np plain profile trace" (seconds, medians)
check()
{
    # check WHAT OK [DETAIL]: one line per check
    if [ "$2" = 0 ]; then
        pass=$((pass + 1))
        echo "  ok: $1${3:+ ($3)}"
    else
        fail=$((fail + 1))
        echo "  FAIL: $1${3:+ ($3)}"
    fi
}

median()
{
    sort -g | awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# run DIR MODE NP CMD...: runs CMD under mpirun in a fresh DIR (MODE plain, profile or
# trace), after the words of plain_pre (plain) or measure_pre (measured), its output in
# DIR.out, its wall time appended to DIR.times, its exit status in DIR.rc
plain_pre=()
measure_pre=("$PREFIX/bin/scorep-run")
run()
{
    local dir=$1 mode=$2 np=$3
    shift 3
    local env=() pre=("${measure_pre[@]}")
    case $mode in
    plain) pre=("${plain_pre[@]}") ;;
    profile) env=(SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false) ;;
    trace) env=(SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=true)
        [ -z "${TRACE_MEMORY:-}" ] || env+=(SCOREP_TOTAL_MEMORY="$TRACE_MEMORY") ;;
    esac
    rm -rf "$dir" && mkdir -p "$dir"
    [ -z "${SETUP:-}" ] || "$SETUP" "$dir" "$np"
    local t0 t1
    t0=$(date +%s.%N)
    rc=0
    (cd "$dir" && env "${env[@]}" SCOREP_EXPERIMENT_DIRECTORY="$dir/exp" timeout 600 \
        mpirun -np "$np" "${pre[@]}" "$@") >"$dir.out" 2>&1 </dev/null || rc=$?
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc >>"$dir.times"
    echo "$rc" >"$dir.rc"
}

# profile_visits EXPDIR: "RANK REGION VISITS" for every region whose name starts with MPI_,
# summed over its call paths (exclusive visits are a call path's own)
profile_visits()
{
    if [ -n "$cube_dump" ]; then
        # -w: the call tree (a line per call path: "  |-NAME  [ ( id=CNODE, ...") and the
        # system tree ("MPI Rank R (id=.., rank=R )" above its threads "NAME (id=LOC, ...");
        # csv2: "CNODE,LOC,VALUE" per call path and location
        "$cube_dump" -w "$1/profile.cubex" >"$work/tree.txt"
        "$cube_dump" -m visits -x excl -z incl -s csv2 "$1/profile.cubex" >"$work/visits.csv"
        "$py" - "$work/tree.txt" "$work/visits.csv" <<'EOF'
import collections, re, sys
cnode, rank_of, section, rank = {}, {}, None, None
for line in open(sys.argv[1]):
    if "CALL TREE" in line and line.lstrip().startswith("-"):
        section = "calltree"
    elif "SYSTEM DIMENSION" in line:
        section = "system"
    elif "=====" in line:
        section = None
    elif section == "calltree":
        m = re.match(r"^[\s|-]*(\S+)\s+\[ \( id=(\d+),", line)
        if m:
            cnode[m.group(2)] = m.group(1)
    elif section == "system":
        m = re.search(r"\(id=\d+, type=process, rank=(\d+)", line)
        if m:
            rank = int(m.group(1))
        m = re.search(r"\(id=(\d+), type=thread", line)
        if m:
            rank_of[m.group(1)] = rank
sums = collections.Counter()
for row in list(open(sys.argv[2]))[1:]:
    f = row.strip().split(",")
    if len(f) == 3 and cnode.get(f[0], "").startswith("MPI_"):
        sums[(rank_of[f[1]], cnode[f[0]])] += int(float(f[2]))
for (r, name), v in sorted(sums.items()):
    print(r, name, v)
EOF
    else
        "$PREFIX/bin/scorep-cube-dump" -m visits "$1/profile.cubex" |
            awk -F'\t' '{ n = split($2, p, "/"); split($4, kv, "=") }
                p[n] ~ /^MPI_/ { s[$3 " " p[n]] += kv[2] }
                END { for (k in s) print k, s[k] }' | sort -k1,1n -k2
    fi
}

# trace_counts EXPDIR: "RANK REGION ENTERS" for every MPI_ region, and "RANK @SEND N",
# "RANK @ISEND N" (MpiSend, MpiIsend events), from otf2-print (ranks: the location groups
# "MPI Rank R"); otf2-print's stderr in $work/print.err
trace_counts()
{
    otf2-print -G "$1/traces.otf2" 2>"$work/print.err" |
        sed -n 's/^LOCATION  *\([0-9]*\) .*Group: "MPI Rank \([0-9]*\)".*/\1 \2/p' >"$work/ranks.txt"
    otf2-print "$1/traces.otf2" 2>>"$work/print.err" | awk -v ranks="$work/ranks.txt" '
        BEGIN { while ((getline l < ranks) > 0) { split(l, a, " "); rank[a[1]] = a[2] } }
        $1 == "ENTER" && $4 == "Region:" { r = $5; gsub(/"/, "", r); if (r ~ /^MPI_/) n[rank[$2] " " r]++; next }
        $1 == "MPI_SEND" { n[rank[$2] " @SEND"]++; next }
        $1 == "MPI_ISEND" { n[rank[$2] " @ISEND"]++; next }
        END { for (k in n) print k, n[k] }' | sort -k1,1n -k2
}

# check_trace LABEL DIR NP: the checks of a traced run's results
check_trace()
{
    local label=$1 dir=$2 np=$3 e=$2/exp
    if [ ! -f "$e/traces.otf2" ]; then
        check "$label: trace written" 1 "no $e/traces.otf2"
        return
    fi
    local flushes
    flushes=$(awk 'match($0, /flushed to disk [0-9]+ times/) { split(substr($0, RSTART, RLENGTH), w, " "); s += w[4] }
        END { print s + 0 }' "$dir.out")
    trace_counts "$e" >"$work/trace.txt" || echo "otf2-print: exit $?" >>"$work/print.err"
    check "$label: otf2-print reads the trace, nothing on stderr" "$([ ! -s "$work/print.err" ] && echo 0 || echo 1)" \
        "$(du -sh "$e/traces" | cut -f1), $flushes buffer flushes$([ ! -s "$work/print.err" ] || echo "; $(head -c 200 "$work/print.err" | tr '\n' ' ')")"
    if [ "${MPI_ONLY:-}" = yes ]; then
        # an uninstrumented C program records MPI calls alone, which no reduction step removes:
        # its trace lacks nothing, however often it was flushed
        check "$label: MANIFEST.md: the trace lacks nothing" \
            "$(grep -c 'What the trace lacks' "$e/MANIFEST.md")"
    fi
    check "$label: the trace has $np MPI ranks" "$([ "$(cut -d' ' -f2 "$work/ranks.txt" | sort -u | wc -l)" = "$np" ] && echo 0 || echo 1)" \
        "location groups \"MPI Rank R\": $(cut -d' ' -f2 "$work/ranks.txt" | sort -u | wc -l)"
    local cc
    cc=$("$py" "$mpitests/clock_condition.py" "$e/traces.otf2" 2>&1 | tr '\n' ' ') || cc="clock_condition.py failed: $cc"
    check "$label: clock_condition.py" "$(echo "$cc" | grep -q ' unmatched=0 .* violations=0 .* coll_violations=0' && echo 0 || echo 1)" "$cc"
    profile_visits "$e" >"$work/profile.txt" || { check "$label: $cube_tool reads profile.cubex" 1; return; }
    check "$label: $cube_tool reads profile.cubex" 0 "$(awk '{ s += $3 } END { print s + 0 }' "$work/profile.txt") visits of MPI regions"
    # every MPI region: profile visits = trace Enters, per rank
    local diff
    diff=$(join -a1 -a2 -e 0 -o 0,1.2,2.2 <(awk '$2 !~ /^@/ { print $1 ":" $2, $3 }' "$work/trace.txt" | sort) \
        <(awk '{ print $1 ":" $2, $3 }' "$work/profile.txt" | sort) | awk '$2 != $3' | head -5 | tr '\n' ';')
    check "$label: per rank, visits of each MPI region = its Enter events" "$([ -z "$diff" ] && echo 0 || echo 1)" \
        "$(grep -vc '@' "$work/trace.txt") rank/region pairs, $(awk '$2 !~ /^@/ { s += $3 } END { print s + 0 }' "$work/trace.txt") Enters${diff:+; differ (rank:region trace profile): $diff}"
    local r sends isends vs vi bad="" all=""
    for ((r = 0; r < np; r++)); do
        sends=$(awk -v r="$r" '$1 == r && $2 == "@SEND" { print $3 }' "$work/trace.txt")
        isends=$(awk -v r="$r" '$1 == r && $2 == "@ISEND" { print $3 }' "$work/trace.txt")
        vs=$(awk -v r="$r" '$1 == r && $2 ~ /^MPI_(Send|Ssend|Bsend|Rsend|Sendrecv|Sendrecv_replace)$/ { s += $3 } END { print s + 0 }' "$work/profile.txt")
        vi=$(awk -v r="$r" '$1 == r && $2 ~ /^MPI_(Isend|Issend|Ibsend|Irsend)$/ { s += $3 } END { print s + 0 }' "$work/profile.txt")
        all="$all rank $r: ${sends:-0}/${isends:-0};"
        [ "${sends:-0}" = "$vs" ] && [ "${isends:-0}" = "$vi" ] || bad="$bad rank $r: MpiSend ${sends:-0} vs $vs visits, MpiIsend ${isends:-0} vs $vi;"
    done
    check "$label: per rank, MpiSend/MpiIsend events = visits of the send calls" "$([ -z "$bad" ] && echo 0 || echo 1)" "${bad:-$all}"
    rm -f "$e/scout.cubex"
    local an=0
    (cd "$dir" && timeout 600 mpirun -np "$np" "$PREFIX/bin/scorep-analyze" "$e") >"$dir.analyze" 2>&1 </dev/null || an=$?
    local cubeok=1
    if [ -f "$e/scout.cubex" ]; then
        if [ -n "$cube_dump" ]; then "$cube_dump" -w "$e/scout.cubex" >/dev/null 2>&1 && cubeok=0
        else "$PREFIX/bin/scorep-cube-dump" "$e/scout.cubex" >/dev/null 2>&1 && cubeok=0; fi
    fi
    check "$label: scorep-analyze exit 0, scout.cubex read by $cube_tool" "$([ "$an" = 0 ] && [ "$cubeok" = 0 ] && echo 0 || echo 1)" \
        "exit $an$([ "$an" = 0 ] || echo "; $(tail -n 3 "$dir.analyze" | tr '\n' ' ')")"
}

# the application's own verdict from a run's output (DIR, DIR.out) on stdout
hpcc_setup()
{
    # a square-ish process grid P x Q = NP; N small (a run takes seconds)
    local p=1 q=$2
    [ "$2" != 4 ] || { p=2; q=2; }
    sed -e "s/^1000 .*Ns/$hpcc_n         Ns/" -e "s/^2 .*Ps/$p            Ps/" -e "s/^2 .*Qs/$q            Qs/" \
        /usr/share/doc/hpcc/examples/_hpccinf.txt >"$1/hpccinf.txt"
}
hpcc_verdict()
{
    [ -f "$1/hpccoutf.txt" ] || { echo "no hpccoutf.txt"; return; }
    sed -n '/^Begin of Summary section/,/^End of Summary section/p' "$1/hpccoutf.txt" |
        grep -v -E '_time|Time|time[0-9]|flops|GUPs|GBs|GBytes|_usec|STREAM_(Copy|Scale|Add|Triad)|RandomAccess.*_Errors'
    # RandomAccess: plain runs with 8 ranks find 0 to 16 errors in 131072 locations (HPCC
    # passes up to 1%): its "(passed)" counts, not the number.
    # (HPL and PTRANS print a CPU-time line only when the CPU time is not 0: its count varies)
    awk '/^WALL .* PASSED / || /\.\.\.\.\.\. PASSED$/ { p++ } /FAILED/ { f++ } /Found [0-9]+ errors in/ { e[$NF]++ }
        /tests completed and (passed|failed) residual checks/ { r[$0]++ }
        END { print "PASSED lines (wall time, residual): " p + 0; print "FAILED lines: " f + 0
              for (k in r) print k ": " r[k] " times"
              for (k in e) print "RandomAccess verifications " k ": " e[k] }' "$1/hpccoutf.txt" | sort
}
hpcc_good()
{
    grep -q '^Success=1$' "$1" && grep -q '^FAILED lines: 0$' "$1" && ! grep -q '^PASSED lines.*: 0$' "$1" &&
        grep -q '^RandomAccess verifications (passed).: 4$' "$1" && ! grep -q 'RandomAccess verifications (failed)' "$1"
}
netpipe_verdict()
{
    awk '{ p += gsub(/Integrity check passed/, "") } tolower($0) ~ /fail/ { f++ }
        END { print "passed " p + 0; print "failed " f + 0 }' "$1.out"
}
netpipe_good() { ! grep -q '^passed 0$' "$1" && grep -q '^failed 0$' "$1"; }
mpi4py_verdict() { grep '^mpi4py_app: ' "$1.out" || echo "no verdict"; }
mpi4py_good() { grep -q '^mpi4py_app: PASSED' "$1"; }

# one application: LABEL APP NP CMD... (APP: the verdict functions' prefix)
validate()
{
    local label=$1 app=$2 np=$3
    shift 3
    echo "== $label, $np ranks: $*"
    local d=$work/run i
    rm -f "$d".*.times
    for ((i = 0; i < repeat; i++)); do
        for m in plain profile trace; do
            run "$d.$m" "$m" "$np" "$@"
            { echo "exit $(cat "$d.$m.rc")"; "${app}_verdict" "$d.$m"; } >"$work/v.$m"
        done
    done
    local good=1
    "${app}_good" "$work/v.plain" && good=0
    check "$label: plain run verifies" "$good" "$(head -c 160 <"$work/v.plain" | tr '\n' ' ')"
    for m in profile trace; do
        local same=1
        cmp -s "$work/v.plain" "$work/v.$m" && same=0
        check "$label: $m run verifies the same as plain" "$same" \
            "$(wc -l <"$work/v.$m") verdict lines$([ "$same" = 0 ] || echo ": $(diff "$work/v.plain" "$work/v.$m" | head -n 6 | tr '\n' ' ')")"
    done
    awk '/^\[scorep-rt\]/ && !/SCOREP_TOTAL_MEMORY ran short/' "$d.profile.out" "$d.trace.out" >"$work/warn"
    check "$label: no scorep-rt warning but trace-memory ones" "$([ ! -s "$work/warn" ] && echo 0 || echo 1)" \
        "$(head -n 2 "$work/warn" | tr '\n' ' ')"
    check_trace "$label" "$d.trace" "$np"
    local tp tf tt
    tp=$(median <"$d.plain.times")
    tf=$(median <"$d.profile.times")
    tt=$(median <"$d.trace.times")
    echo "  time (s, median of $repeat): plain $tp, profile $tf, trace $tt"
    results+=("$label|$np|$tp|$tf|$tt")
}

for np in $np_list; do
    for a in $apps; do
        case $a in
        hpcc)
            MPI_ONLY=yes SETUP=hpcc_setup validate hpcc hpcc "$np" hpcc ;;
        netpipe)
            [ "$np" = 2 ] || continue
            # modes that also pass plain with Open MPI 4.1 (-2 without -a deadlocks, -B
            # refuses -i, NPopenmpi2's MPI_Win_create fails plain: MPI_ERR_INFO)
            for mode in "" -a -S -z -s "-2 -a" -I; do
                # shellcheck disable=SC2086 # the mode's options are words
                MPI_ONLY=yes validate "NPopenmpi -i${mode:+ $mode}" netpipe 2 NPopenmpi -i -u 65536 -n 10 $mode
            done ;;
        mpi4py)
            plain_pre=("$py") measure_pre=("$PREFIX/bin/scorep-run" "$py")
            validate "scorep-run python3 mpi4py_app.py" mpi4py "$np" "$here/mpi4py_app.py"
            measure_pre=(env PYTHONPATH="$("$PREFIX/bin/scorep-config" --python-path)" "$py" -m scorep --mpp=mpi)
            validate "python3 -m scorep mpi4py_app.py" mpi4py "$np" "$here/mpi4py_app.py"
            plain_pre=() measure_pre=("$PREFIX/bin/scorep-run") ;;
        esac
    done
done

echo
echo "| application | ranks | plain s | profile s | trace s |"
echo "| --- | --- | --- | --- | --- |"
for r in "${results[@]}"; do echo "| ${r//|/ | } |"; done
echo
echo "$pass checks passed, $fail failed"
[ "$fail" = 0 ]
