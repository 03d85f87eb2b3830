#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_report.sh: scorep-report on a known MPI program (test/programs/report_mpi.c, 3 ranks:
# 5 x 1000 bytes 0->1, 3 x 2000 bytes 0->2, 2 x 64 bytes 1->2), with and without a trace.
# The page is rendered in headless Chromium; the test reads the rendered DOM: no script
# error, the region names in the flame graph and top table, the exact message matrix and
# bytes per rank. The page and its screenshot stay in test/integration/test_report.out/.
# Bad input: an empty directory, a truncated profile or trace: one message, exit 1, no file.
. "$top_srcdir/test/integration/lib.sh"

REPORT="$top_builddir/scorep-report"
DOM="python3 $top_srcdir/test/integration/report_dom.py"
keep="$top_builddir/test/integration/test_report.out"
rm -rf "$keep"
mkdir -p "$keep"
require_mpi

scorep_cc --user mpicc -O1 -o report_mpi "$PROGRAMS/report_mpi.c"
for run in trace profile traceonly; do
    tracing=true profiling=true
    [ "$run" != profile ] || tracing=false
    [ "$run" != traceonly ] || profiling=false
    run_app "$run" env SCOREP_ENABLE_TRACING=$tracing SCOREP_ENABLE_PROFILING=$profiling \
        SCOREP_EXPERIMENT_DIRECTORY="$run" timeout 120 mpirun -np 3 ./report_mpi
    expect_eq "$status" 0 "report_mpi ($run) runs measured on 3 ranks"
done

# downsampled EXPDIR: the number of region instances the timeline keeps by its rule (all
# instances at least one of 2000 columns of the trace long, and one per location, call depth
# and column of the shorter ones), counted from otf2-print's output
downsampled()
{
    # (kept as text: mawk prints numbers above 2^31 as %.6g)
    trace_defs "$1" | sed -n 's/^CLOCK_PROPERTIES.*Global Offset: \([0-9]*\), Length: \([0-9]*\).*/\1 \2/p' >clock.txt
    read -r _off _len <clock.txt
    awk -v off="$_off" -v col="$(awk -v l="$_len" 'BEGIN { printf "%d", int(l / 2000) + 1 }')" '
        $1 == "ENTER" { t[$2, d[$2]++] = $3 }
        $1 == "LEAVE" { s = t[$2, --d[$2]]
            if ($3 - s >= col) n++; else k[$2 " " d[$2] " " int((s - off) / col)] = 1 }
        END { for (x in k) n++; print n + 0 }' "$(trace_file "$1")"
}

# top_rows PAGE: the report's top groups and regions from the page's JSON data, one a line:
# TYPE VISITS TIME REGION (time in seconds with 2 decimals, as scorep-score prints it), sorted
top_rows()
{
    python3 -c '
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
data = json.loads(re.search(r"<script type=\"application/json\" id=\"report-data\">(.*?)</script>",
                            page, re.S).group(1))
for r in data["top_groups"] + data["top"]:
    print(r["type"], r["visits"], "%.2f" % r["time"], r["region"])' "$1" | LC_ALL=C sort
}

# expected_rows EXPDIR: the top table's rows as top_rows prints them, derived without
# src/tools/score: each region's type from report_mpi.c's design (MPI calls; the user regions
# phase<1> & "all" and compute; main, send_to and receive_from lead to MPI calls: COM; the
# program root, named after the executable, a region of the measurement: SCOREP), its
# visits and exclusive time summed over call paths and ranks from the profile's dump, and the
# group rows (ALL and one per type) as their sums
expected_rows()
{
    profile_dump "$1" -m visits >"$1.visits"
    profile_dump "$1" -m time >"$1.time"
    awk -F'\t' -v root="$(profile_root "$1")" '
        function type(r) {
            if (r == root) return "SCOREP"
            if (r ~ /^MPI_/) return "MPI"
            if (r == "compute" || r == "phase<1> & \"all\"") return "USR"
            if (r == "main" || r == "send_to" || r == "receive_from") return "COM"
            return "UNKNOWN(" r ")"
        }
        { n = split($2, p, "/"); r = $2 == "." ? root : p[n]; split($4, kv, "=") }
        FILENAME ~ /visits$/ { v[r] += kv[2]; next }
        { t[r] += kv[2] }
        END {
            for (r in v) {
                g = type(r); gv[g] += v[r]; gt[g] += t[r]; av += v[r]; at += t[r]
                printf "%s %d %.2f %s\n", g, v[r], t[r], r
            }
            for (g in gv) printf "%s %d %.2f %s\n", g, gv[g], gt[g], g
            printf "ALL %d %.2f ALL\n", av, at
        }' "$1.visits" "$1.time" | LC_ALL=C sort
}

# render PAGE NAME [#FRAGMENT]: the DOM facts of PAGE (opened with FRAGMENT) rendered by
# Chromium in NAME.facts, a screenshot in $keep/NAME.png
render()
{
    _url="file://$1${3:-}"
    chromium_headless "$2.chromium.err" --window-size=1400,2000 --dump-dom "$_url" >"$2.dom"
    chromium_headless "$2.screenshot.err" --window-size=1400,2000 --screenshot="$keep/$2.png" \
        "$_url" >/dev/null
    $DOM "$2.dom" >"$2.facts" || fail "report_dom.py $2.dom"
    expect_file "$keep/$2.png" "$2: screenshot"
    echo "screenshot: $keep/$2.png"
}

# facts NAME PREFIX: the facts of NAME starting with PREFIX, prefix removed, one a line
facts()
{
    sed -n "s/^$2 //p" "$1.facts"
}

# checks of the page common to both runs
check_page()
{
    _n=$1
    expect_eq "$(facts "$_n" status)" ok "$_n: the page rendered without script errors"
    expect_eq "$(facts "$_n" errors)" "" "$_n: no error text on the page"
    # (frames narrower than half a pixel are left out: these are wide in every run)
    for _r in report_mpi main MPI_Init compute 'phase<1> & "all"'; do
        expect_eq "$(facts "$_n" flame | grep -cxF "$_r")" 1 "$_n: flame graph frame '$_r'"
    done
    # visits summed over the 3 ranks, in the top table
    expect_eq "$(facts "$_n" top | grep -E ' (compute|MPI_Send|MPI_Recv|MPI_Init|send_to|receive_from|phase.*)$' | sort)" \
        'COM 3 receive_from
COM 3 send_to
MPI 10 MPI_Recv
MPI 10 MPI_Send
MPI 3 MPI_Init
USR 12 compute
USR 3 phase<1> & "all"' "$_n: top table rows (type, visits, region)"
    expect_eq "$(facts "$_n" heatrows)" 3 "$_n: heat map rows (one per location)"
    expect_eq "$(facts "$_n" bytes | tr '\n' ' ')" \
        "0 bytes_sent 11000 0 bytes_received 0 1 bytes_sent 128 1 bytes_received 5000 2 bytes_sent 0 2 bytes_received 6128 " \
        "$_n: bytes per rank from the profile"
    expect_no_grep 'https?://' "$2" "$_n: the page references no network resource"
}

if ! command -v chromium >/dev/null 2>&1; then
    skip_part chromium
fi

# --- with a trace: the default output file
run_app report_trace "$REPORT" trace
expect_eq "$status" 0 "scorep-report trace"
expect_file trace/report.html "report.html written into the experiment directory"
# the top table: every region of the program with its type, visits and time, and the groups
expect_eq "$(top_rows trace/report.html)" "$(expected_rows trace)" \
    "top table rows: type (the program's design), visits and time in s (the profile's dump)"
expect_eq "$(top_rows trace/report.html | grep -c .)" 17 \
    "top table: 5 groups (ALL MPI USR COM SCOREP), 12 regions (the program root, MPI_Finalize)"
cp trace/report.html "$keep/report_trace.html"
# the region name phase<1> & "all" is in the data only escaped (\u003c...), never as markup
expect_no_grep 'phase<1>' trace/report.html "the region name is escaped in the page's data"
expect_grep 'phase\\u003c1\\u003e \\u0026 \\"all\\"' trace/report.html "... as JSON escapes"
if command -v chromium >/dev/null 2>&1; then
    render "$work/trace/report.html" report_trace
    check_page report_trace trace/report.html
    expect_eq "$(facts report_trace matrix)" "mpi 0 1 5 5000
mpi 0 2 3 6000
mpi 1 2 2 128" "trace: message matrix cells (from, to, messages, bytes)"
    # the timeline: 3 rows, all 10 messages, one region instance per ENTER of the trace
    set -- $(facts report_trace timeline)
    expect_eq "$2 $6 $8 $9" "3 10 $(trace_count trace ENTER) 10" \
        "trace: timeline rows, messages drawn, region instances and messages in the trace"
    expect_ge "$4" 3 "trace: region instances drawn after downsampling ($4 of $8)"
    expect_grep 'Downsampled for drawing' report_trace.dom "trace: the page says how it downsamples"
    expect_eq "$(facts report_trace focus)" "all locations" "flame graph: not zoomed by default"
    # zoomed into compute (as a click does): its ancestors above it, nothing else beside it
    render "$work/trace/report.html" report_zoom '#zoom=compute'
    expect_eq "$(facts report_zoom status)" ok "zoomed page renders without script errors"
    expect_eq "$(facts report_zoom focus)" compute "flame graph zoomed into compute"
    expect_eq "$(facts report_zoom flame-crumbs)" 'all locations › report_mpi › main › phase<1> & "all" › compute' \
        "zoomed flame graph: the path to compute (from the program root)"
    expect_eq "$(facts report_zoom flame | tr '\n' ' ')" "compute " "zoomed: compute is the only frame below its path"
fi

# --- a trace without a profile: matrix and timeline, a note instead of the profile's parts
run_app report_traceonly "$REPORT" traceonly
expect_eq "$status" 0 "scorep-report (trace only)"
if command -v chromium >/dev/null 2>&1; then
    render "$work/traceonly/report.html" report_traceonly
    expect_eq "$(facts report_traceonly status)" ok "trace only: the page rendered without script errors"
    expect_eq "$(facts report_traceonly matrix)" "mpi 0 1 5 5000
mpi 0 2 3 6000
mpi 1 2 2 128" "trace only: the message matrix of report_mpi.c's design"
    expect_eq "$(facts report_traceonly timeline | cut -d' ' -f1-2,5-9)" "locations 3 messages 10 total $(trace_count traceonly ENTER) 10" \
        "trace only: timeline rows, messages, region instances"
    expect_eq "$(facts report_traceonly flame)" "" "trace only: no flame graph"
    expect_grep 'No profile in this experiment' report_traceonly.dom "trace only: the page says there is no profile"
fi

# --- a large trace: 3 x 100000 calls of tiny() are downsampled for the timeline
run_app big env SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=64M SCOREP_EXPERIMENT_DIRECTORY=big \
    timeout 120 mpirun -np 3 ./report_mpi 100000
expect_eq "$status" 0 "report_mpi 100000 runs measured"
# (the one section: what the compiler plugin left out, a fact of the build)
expect_eq "$(sed -n 's/^## //p' big/MANIFEST.md)" "Left out by the compiler plugin" \
    "big: the trace is complete (no reduction notes)"
run_app report_big "$REPORT" big
expect_eq "$status" 0 "scorep-report big"
cp big/report.html "$keep/report_big.html"
expect_ge "$(awk -v s="$(wc -c <big/report.html)" 'BEGIN { print (s < 2000000) }')" 1 \
    "big: the page stays under 2 MB ($(wc -c <big/report.html) bytes)"
if command -v chromium >/dev/null 2>&1; then
    render "$work/big/report.html" report_big
    expect_eq "$(facts report_big status)" ok "big: the page rendered without script errors"
    # MANIFEST.md's section of what the plugin left out is no reduction note
    expect_eq "$(facts report_big reduction)" \
        "The trace is complete: no reduction, flush or throttling notes in MANIFEST.md." \
        "big: the page says the trace is complete"
    set -- $(facts report_big timeline)
    expect_eq "$8" "$(trace_count big ENTER)" "big: region instances counted in the trace"
    expect_ge "$8" 300000 "big: the trace has the 300000 calls of tiny"
    expect_ge "$(($8 / 10))" "$4" "big: at most a tenth of the region instances drawn ($4)"
    expect_eq "$4" "$(downsampled big)" "big: region instances drawn, as the rule counts them"
fi

# --- a reduced trace (SCOREP_TOTAL_MEMORY too small): the page shows MANIFEST.md's notes
run_app reduced env SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=1M SCOREP_EXPERIMENT_DIRECTORY=reduced \
    timeout 120 mpirun -np 3 ./report_mpi 100000
expect_eq "$status" 0 "report_mpi 100000 runs measured with 1M of memory"
expect_grep '^## What the trace lacks' reduced/MANIFEST.md "reduced: MANIFEST.md has reduction notes"
run_app report_reduced "$REPORT" reduced
expect_eq "$status" 0 "scorep-report reduced"
if command -v chromium >/dev/null 2>&1; then
    render "$work/reduced/report.html" report_reduced
    expect_eq "$(facts report_reduced status)" ok "reduced: the page rendered without script errors"
    expect_grep '^reduction ## What the trace lacks' report_reduced.facts "reduced: the notes on the page"
    # MANIFEST.md has the compiler plugin's section too (after the notes): not on the page's notes
    expect_grep '^## Left out by the compiler plugin$' reduced/MANIFEST.md \
        "reduced: MANIFEST.md says what the compiler plugin left out"
    expect_eq "$(count_lines 'Left out by the compiler plugin|translation unit' report_reduced.facts)" 0 \
        "reduced: the page's notes leave the compiler plugin's section out"
    # the steps counted in the trace's own markers (otf2-marker), not in MANIFEST.md
    run_to reduced.markers otf2-marker reduced/traces.otf2
    steps=$(count_lines '^MARKER .*Text: "rule=min_duration ' reduced.markers)
    expect_ge "$steps" 3 "reduced: a min_duration step on each of the 3 ranks at least"
    expect_eq "$(facts report_reduced reduction | grep -o '| min_duration |' | wc -l | tr -d ' ')" \
        "$steps" "reduced: every reduction step of the trace's markers on the page"
    expect_grep 'id="timeline-reduced"' report_reduced.dom "reduced: the timeline says the trace is incomplete"
fi

# --- profile only, -o: the matrix is replaced by the bytes per rank, with a note
run_app report_profile "$REPORT" -o "$work/profile_report.html" profile
expect_eq "$status" 0 "scorep-report -o (profile only)"
expect_no_file profile/report.html "-o: nothing written into the experiment directory"
cp profile_report.html "$keep/report_profile.html"
if command -v chromium >/dev/null 2>&1; then
    render "$work/profile_report.html" report_profile
    check_page report_profile profile_report.html
    expect_eq "$(facts report_profile matrix)" "" "profile only: no per-pair matrix"
    expect_grep 'needs a trace' report_profile.dom "profile only: the page says the matrix needs a trace"
fi

# --- SHMEM (test/shmem/shmem_rma.c on 3 PEs): PE r puts 64+4+100 bytes to PE r+1 and 8 to
# PE 0, gets 128+8+48 bytes from PE r-1, 3 atomics on PE 0; the matrices come from the trace
if [ -e "$top_builddir/.libs/libscorep-rt-shmem.so" ] && command -v oshrun >/dev/null 2>&1; then
    scorep_cc oshcc -O1 -o shmem_rma "$top_srcdir/test/shmem/shmem_rma.c"
    # (osc ^rdma: Open MPI's rdma one-sided component crashes at exit here, see test_shmem.sh)
    run_app shmem env OMPI_MCA_osc='^rdma' SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=shmem \
        timeout 120 oshrun -np 3 ./shmem_rma
    expect_eq "$status" 0 "shmem_rma runs measured on 3 PEs"
    run_app report_shmem "$REPORT" shmem
    expect_eq "$status" 0 "scorep-report shmem"
    cp shmem/report.html "$keep/report_shmem.html"
    if command -v chromium >/dev/null 2>&1; then
        render "$work/shmem/report.html" report_shmem
        expect_eq "$(facts report_shmem status)" ok "shmem: the page rendered without script errors"
        expect_eq "$(facts report_shmem matrix | grep -E '^(puts|gets) ' | sort)" "gets 0 2 3 184
gets 1 0 3 184
gets 2 1 3 184
puts 0 0 1 8
puts 0 1 3 168
puts 1 0 1 8
puts 1 2 3 168
puts 2 0 4 176" "shmem: puts and gets matrix cells (origin, target, operations, bytes)"
        # each PE: fetch-add (8 bytes sent), inc (0), compare-swap (16) on PE 0
        expect_eq "$(facts report_shmem matrix | grep '^atomics ' | sort)" "atomics 0 0 3 24
atomics 1 0 3 24
atomics 2 0 3 24" "shmem: atomics matrix cells (origin, target, operations, operand bytes sent)"
        expect_eq "$(facts report_shmem bytes | grep -E 'bytes_(put|get)' | tr '\n' ' ')" \
            "0 bytes_put 200 0 bytes_get 200 1 bytes_put 200 1 bytes_get 200 2 bytes_put 200 2 bytes_get 200 " \
            "shmem: bytes put/got per PE in the profile (with the atomics' 24 bytes sent, 16 received)"
    fi
else
    skip_part oshrun
fi

# --- bad input: one message on stderr, exit status 1, no report (nor temporary file) left
# bad NAME DIR ERE: scorep-report DIR fails with one line matching ERE
bad()
{
    # (not run_app: its profile check would fail on the truncated profile)
    status=0
    "$REPORT" "$2" >"bad_$1.out" 2>"bad_$1.err" || status=$?
    expect_eq "$status" 1 "$1: exit status"
    expect_eq "$(wc -l <"bad_$1.err" | tr -d ' ')" 1 "$1: one line of message"
    expect_grep "^scorep-report: .*$3" "bad_$1.err" "$1: the message says what is wrong"
    # (a directory that does not exist holds no report)
    expect_eq "$(if [ -d "$2" ]; then entries "$2" '^report\.html'; else echo 0; fi)" 0 \
        "$1: no report.html (nor a temporary file) written"
}
mkdir empty
bad empty empty "not an experiment directory"
bad missing no_such_dir "cannot open the experiment directory"
mkdir badprof
head -c 3000 profile/profile.cubex >badprof/profile.cubex
bad truncated_profile badprof "cannot read the profile"
rm -r badprof
# a trace whose definitions are cut in half (its profile is fine): the whole report fails
cp -r trace badtrace
rm badtrace/report.html
def=badtrace/traces.def
head -c $(($(wc -c <"$def") / 2)) "$def" >"$def.half"
mv "$def.half" "$def"
bad truncated_trace badtrace "cannot read the trace .*badtrace/traces.def: truncated"
# an event file cut in half: a warning naming it, the report shows the intact part
# (otf2_read_guard.c)
cp -r trace cutevt
rm cutevt/report.html
evt=cutevt/traces/1.evt
head -c $(($(wc -c <"$evt") / 2)) "$evt" >"$evt.half"
mv "$evt.half" "$evt"
status=0
"$REPORT" cutevt >cutevt.out 2>cutevt.err || status=$?
expect_eq "$status" 0 "truncated event file: exit status"
expect_grep "^scorep-report: warning: .*cutevt/traces/1.evt: truncated in chunk 1" cutevt.err \
    "truncated event file: a warning naming the file"
expect_file cutevt/report.html "truncated event file: the report"
# a signal while writing: the file size limit (ulimit -f 4: 2 or 4 KiB) is passed by the page,
# SIGXFSZ ends scorep-report; its temporary file is removed
mkdir sigout
status=0
(ulimit -f 4 && exec "$REPORT" -o sigout/report.html trace) >sig.out 2>sig.err || status=$?
expect_eq "$status" 153 "file size limit: ended by SIGXFSZ (128 + 25)"
expect_eq "$(entries sigout)" 0 "file size limit: no report, no temporary file"
done_ok
