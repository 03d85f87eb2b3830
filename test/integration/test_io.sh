#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_io.sh: POSIX and ISO C I/O recording (issue #21, docs/io.md). A program with a known
# pattern (test/programs/io_mixed.c: its comments give every count) linked with
# scorep-cc --io=posix and run unchanged under scorep-run --io=posix: exact visits and bytes
# per region in the profile, exact operations and bytes per file in the trace (otf2-print),
# handles created, duplicated, destroyed, seeks; output and files byte for byte as without
# measurement. Then: --io=isoc alone, SCOREP_IO_POSIX=false, scorep-score's IO type, OpenMP
# threads doing I/O, and the edge cases (a descriptor opened before the measurement, fork and
# exec, a program that closes its standard output, an invalid descriptor).
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/integration/io_trace.sh"

# the options: which wrapper libraries are linked; bad values are refused with a message
echo 'int main(void) { return 0; }' >x.c
expect_eq "$("$SCOREP_CC" --dry-run --io=posix gcc -o x x.c | grep -o -- '-lscorep-rt-io-[a-z]*' | tr '\n' ' ')" \
    "-lscorep-rt-io-posix -lscorep-rt-io-isoc " "scorep-cc --io=posix links POSIX and ISO C wrappers"
expect_eq "$("$SCOREP_CC" --dry-run --io=isoc,mpiio gcc -o x x.c | grep -o -- '-lscorep-rt-io-[a-z]*' | tr '\n' ' ')" \
    "-lscorep-rt-io-isoc " "scorep-cc --io=isoc,mpiio links the ISO C wrappers only"
ln -s "$SCOREP_CC" scorep # installed as a link to scorep-cc, which looks at its name
./scorep --dry-run --io=runtime:posix gcc -o x x.c >scorep.cmd || fail "scorep --dry-run --io=runtime:posix"
expect_eq "$(grep -c -- '-lscorep-rt-io-posix' scorep.cmd)" 1 \
    "scorep --io=runtime:posix (Score-P's spelling)"
expect_eq "$("$top_builddir/scorep-config" --io=posix --libs | grep -o -- '-lscorep-rt-io-[a-z]*' | tr '\n' ' ')" \
    "-lscorep-rt-io-posix -lscorep-rt-io-isoc " "scorep-config --io=posix --libs"
rc=0
"$SCOREP_CC" --io=tape gcc -o x x.c 2>err.txt || rc=$?
expect_eq "$rc:$(cat err.txt)" "1:scorep-cc: --io: unknown I/O paradigm 'tape' (posix, isoc, mpiio or none); see scorep-cc --help" \
    "scorep-cc --io=tape is refused"
rc=0
"$top_builddir/scorep-run" --io=tape true 2>err.txt || rc=$?
expect_eq "$rc:$(cat err.txt)" "1:scorep-run: --io=tape: unknown I/O paradigm (posix, isoc, mpiio, none)" \
    "scorep-run --io=tape is refused"

# -fno-builtin: gcc would turn fputs of a constant into fwrite and printf into puts
gcc -O1 -fno-builtin -o mixed_plain "$PROGRAMS/io_mixed.c" || fail "gcc io_mixed.c"
mkdir plain && (cd plain && ../mixed_plain >out) || fail "the plain program"
# --instrument-inlined: -O1 inlines the static posix_part and isoc_part into main, and the
# call paths below name them (#31: by default an inlined call is no region)
scorep_cc --io=posix --instrument-inlined gcc -O1 -fno-builtin -o mixed "$PROGRAMS/io_mixed.c"
mkdir linked && cd linked
run_app mixed env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp ../mixed
cd ..
expect_eq "$status" 0 "linked: exit status"
expect_eq "$(cat linked/mixed.out)" "posix 7490 isoc 422 bad -1 EBADF" "linked: program output"
cmp plain/out linked/mixed.out || fail "linked: output differs from the plain run"
cmp plain/p.dat linked/p.dat || fail "linked: p.dat differs from the plain run"
cmp plain/c.txt linked/c.txt || fail "linked: c.txt differs from the plain run"
expect_eq "$(cat linked/mixed.err)" "" "linked: nothing on stderr"

# region: "call path visits io_bytes_written io_bytes_read" from the program's design (below
# the program root: its own visit is test_calls.sh's and profile_check's)
profile_io()
{
    profile_dump "$1" -m visits,io_bytes_written,io_bytes_read | awk -F'\t' -v pre="$2" '
        $2 == "." { next }
        { split($4, a, "="); split($5, b, "="); split($6, c, "=")
          p = $2; if (pre != "") sub("^" pre, "", p)
          v[p] += a[2]; w[p] += b[2]; r[p] += c[2] }
        END { for (p in v) print p, v[p], w[p], r[p] }' | sort
}
expected_regions()
{
    # $1: prefix of the POSIX part's regions, $2: of the ISO C part's, $3: of main's
    cat <<EOT | sort
$1close 3 0 0
$1dup 1 0 0
$1lseek 1 0 0
$1open 2 0 0
$1pread 2 0 184
$1read 5 0 3584
$1write 9 3692 0
$1writev 1 30 0
$2fclose 2 0 0
$2fflush 1 0 0
$2fgets 1 0 99
$2fopen 2 0 0
$2fprintf 1 6 0
$2fputs 1 6 0
$2fread 1 0 113
$2fseek 1 0 0
$2fwrite 2 210 0
$3printf 1 33 0
$3write 1 0 0
EOT
}
profile_io linked/exp "" | awk '$1 ~ /\/(close|dup|lseek|open|pread|read|write|writev|f[a-z]*|printf)$/' >linked.regions
expected_regions main/posix_part/ main/isoc_part/ main/ >linked.expected
expect_eq "$(cat linked.regions)" "$(cat linked.expected)" "linked: visits and bytes of every I/O region"
expect_eq "$(profile_dump linked/exp -m visits | awk -F'\t' '$2 ~ /^main\/(posix|isoc)_part\/./' | wc -l | tr -d ' ')" 17 \
    "linked: 17 I/O call paths below the two parts, nothing else"

# the trace: operations and bytes per paradigm, file and mode, paired begin/complete
d=$(pwd -P)/linked
cat <<EOT | sort >ops.expected
ISOC $d/c.txt FLUSH 0 1 0
ISOC $d/c.txt READ 0 2 212
ISOC $d/c.txt WRITE 0 4 222
ISOC /dev/stdout WRITE 0 1 33
POSIX - FAILED-WRITE 0 1 0
POSIX $d/p.dat READ 0 7 3768
POSIX $d/p.dat WRITE 0 10 3722
EOT
io_ops linked/exp >ops.linked
expect_eq "$(cat ops.linked)" "$(cat ops.expected)" "linked: operations and bytes per file in the trace"
expect_eq "$(io_events linked/exp IO_CREATE_HANDLE)" 4 "linked: 4 handles created (2 open, 2 fopen)"
expect_eq "$(io_events linked/exp IO_DUPLICATE_HANDLE)" 1 "linked: 1 duplicated (dup)"
expect_eq "$(io_events linked/exp IO_DESTROY_HANDLE)" 5 "linked: 5 destroyed (3 close, 2 fclose)"
expect_eq "$(io_events linked/exp IO_SEEK)" 2 "linked: 2 seeks (lseek, fseek)"
expect_eq "$(trace_other linked/exp | awk '$1 == "IO_SEEK"' | sed 's/.*Offset Request/Offset Request/' | sort | tr '\n' ';')" \
    "Offset Request: 0, Whence: FROM_START, Offset Result: 0;Offset Request: 1024, Whence: FROM_START, Offset Result: 1024;" \
    "linked: the seeks' offsets"
trace_defs linked/exp >defs.txt
expect_eq "$(grep '^IO_PARADIGM' defs.txt | sed 's/.*Identification: "\([^"]*\)".*Class: \([A-Z]*\).*/\1 \2/' | tr '\n' ' ')" \
    "POSIX SERIAL ISOC SERIAL MPI-IO PARALLEL " "linked: the I/O paradigms as Score-P identifies them"
expect_grep 'IO_HANDLE .*Name: "invalid descriptor".*I/O Paradigm: "POSIX I/O".*PRE_CREATED' defs.txt \
    "linked: the write to a descriptor that is not open is on the 'invalid descriptor' handle"
ebadf=$(python3 -c 'import errno; print(errno.EBADF)')
expect_eq "$(grep -A1 '^IO_OPERATION_COMPLETE .*Handle: "invalid descriptor"' "$(trace_file linked/exp)" | sed -n 's/.*ADDITIONAL ATTRIBUTES: ("io_error" <[0-9]*>; UINT32; \([0-9]*\))$/\1/p')" \
    "$ebadf" "linked: the failed write's completion carries its errno (EBADF) as io_error"
expect_grep 'IO_HANDLE .*Name: "stdout".*File: "file:///dev/stdout".*PRE_CREATED' defs.txt \
    "linked: the standard output is named"
expect_eq "$(trace_check_nesting linked/exp)" 0 "linked: well-nested trace"

# scorep-report: the per-file table and the bandwidth chart's totals (outermost operations)
z=0,0,0,0,0,0,0,0,0,0
expect_eq "$(io_report linked/exp rep)" "ISOC /dev/stdout 0 33 0 1 0 0 ranks 0 sizes $z / 1,0,0,0,0,0,0,0,0,0
ISOC $d/c.txt 212 222 2 4 1 0 ranks 0 sizes 1,1,0,0,0,0,0,0,0,0 / 3,1,0,0,0,0,0,0,0,0
POSIX (no file) 0 0 0 0 0 1 ranks 0 sizes $z / $z
POSIX $d/p.dat 3768 3722 7 10 0 0 ranks 0 sizes 2,5,0,0,0,0,0,0,0,0 / 2,8,0,0,0,0,0,0,0,0
bins 3980 3977" "scorep-report: bytes, operations, access sizes and ranks per file"
if command -v chromium >/dev/null 2>&1; then
    expect_eq "$(io_render rep)" "io ISOC /dev/stdout 0 33 0 1 0 0 ranks 0
io ISOC $d/c.txt 212 222 2 4 1 0 ranks 0
io POSIX (no file) 0 0 0 0 0 1 ranks 0
io POSIX $d/p.dat 3768 3722 7 10 0 0 ranks 0
io-chart
status ok" "scorep-report: the rendered I/O table and chart"
else
    skip_part chromium
fi

# built with -D_FORTIFY_SOURCE=2 -O2 the program calls __printf_chk and __fprintf_chk (and gcc
# turns fputs of a constant into fwrite): the same regions and bytes, under the plain names
scorep_cc --io=posix --instrument-inlined gcc -O2 -D_FORTIFY_SOURCE=2 -o mixed_fortify "$PROGRAMS/io_mixed.c"
nm -u mixed_fortify | grep -q __printf_chk || fail "fortify: the program does not call __printf_chk"
mkdir fortify && cd fortify
run_app mixed env SCOREP_EXPERIMENT_DIRECTORY=exp ../mixed_fortify
cd ..
expect_eq "$status" 0 "fortify: exit status"
cmp plain/out fortify/mixed.out || fail "fortify: output differs from the plain run"
profile_io fortify/exp "" | awk '$1 ~ /\/(close|dup|lseek|open|pread|read|write|writev|f[a-z]*|printf)$/' >fortify.regions
awk '$1 !~ /\/fputs$/ { if ($1 ~ /\/fwrite$/) { $2 = 3; $3 = 216 } print }' linked.expected >fortify.expected
expect_eq "$(cat fortify.regions)" "$(cat fortify.expected)" "fortify: visits and bytes of every I/O region"

# without a trace the report's rows come from the runtime's per-process summary
# (io_summary.0.tsv), with the same numbers
mkdir notrace && cd notrace
run_app mixed env SCOREP_EXPERIMENT_DIRECTORY=exp ../mixed
cd ..
expect_eq "$status" 0 "no trace: exit status"
expect_eq "$(grep -v '^#' notrace/exp/io_summary.0.tsv | sort)" "$(printf '%s\t' ISOC 0 33 0 1 0 0 $z 1,0,0,0,0,0,0,0,0,0)/dev/stdout
$(printf '%s\t' ISOC 212 222 2 4 1 0 1,1,0,0,0,0,0,0,0,0 3,1,0,0,0,0,0,0,0,0)$(pwd -P)/notrace/c.txt
$(printf '%s\t' POSIX 0 0 0 0 0 1 $z $z)(no file)
$(printf '%s\t' POSIX 3768 3722 7 10 0 0 2,5,0,0,0,0,0,0,0,0 2,8,0,0,0,0,0,0,0,0)$(pwd -P)/notrace/p.dat" \
    "no trace: io_summary.0.tsv"
expect_grep '^- `io_summary\.0\.tsv`: per-file I/O summary of rank 0' notrace/exp/MANIFEST.md "no trace: MANIFEST.md lists io_summary.0.tsv"
expect_eq "$(io_report notrace/exp rep_notrace | sed "s|$(pwd -P)/notrace|$d|")" "$(io_report linked/exp rep_again | grep -v '^bins')
from the summaries" "no trace: scorep-report's rows from the summary equal those from the trace"
if command -v chromium >/dev/null 2>&1; then
    io_render rep_notrace >rep_notrace.rows
    expect_eq "$(grep -c '^io ' rep_notrace.rows)" 4 "no trace: the rendered page shows the 4 rows"
    expect_grep 'id="io-summary-note"' rep_notrace.dom "no trace: the page says why there is no chart"
fi

# the same program unchanged under scorep-run
run_app run env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=run "$top_builddir/scorep-run" --io=posix ./mixed_plain
expect_eq "$status" 0 "scorep-run: exit status"
cmp plain/out run.out || fail "scorep-run: output differs from the plain run"
cmp plain/p.dat p.dat || fail "scorep-run: p.dat differs"
expect_eq "$(cat run.err)" "" "scorep-run: nothing on stderr"
profile_io run "" >run.regions
expected_regions "" "" "" | awk '{ k = $1; v[k] += $2; w[k] += $3; r[k] += $4 } END { for (k in v) print k, v[k], w[k], r[k] }' |
    sort >run.expected
expect_eq "$(cat run.regions)" "$(cat run.expected)" "scorep-run: visits and bytes of every I/O region (below the program root)"
d=$(pwd -P)
sed "s|$(pwd -P)/linked|$d|" ops.expected >ops.run.expected
expect_eq "$(io_ops run)" "$(cat ops.run.expected)" "scorep-run: operations and bytes per file in the trace"

# --io=isoc: the ISO C calls only
rm -f p.dat c.txt
run_app isoc env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_EXPERIMENT_DIRECTORY=isoc \
    "$top_builddir/scorep-run" --io=isoc ./mixed_plain
expect_eq "$status" 0 "--io=isoc: exit status"
expect_eq "$(profile_paths isoc | tr '\n' ' ')" \
    "fclose fflush fgets fopen fprintf fputs fread fseek fwrite printf " "--io=isoc: only ISO C regions"

# SCOREP_IO_POSIX=false: the wrappers are there, nothing is recorded
run_app off env SCOREP_IO_POSIX=false SCOREP_EXPERIMENT_DIRECTORY=off ./mixed
expect_eq "$status" 0 "SCOREP_IO_POSIX=false: exit status"
expect_eq "$(profile_paths off | tr '\n' ' ')" "main main/isoc_part main/posix_part " \
    "SCOREP_IO_POSIX=false: no I/O regions"

# scorep-score: the I/O regions are their own type
"$SCOREP_SCORE" linked/exp/profile.cubex >score.txt || fail "scorep-score"
expect_eq "$(awk '$1 == "IO" && $NF == "IO" { print $3 }' score.txt)" 38 \
    "scorep-score: type IO with the 38 visits of the I/O calls"

# The runtime's own I/O is not recorded: with 1 MiB of trace memory and the flush step only,
# calls.c's trace buffer is written to disk while the program runs (from inside its events);
# the only I/O calls the profile has are the program's two printf.
scorep_cc --io=posix gcc -O1 -fno-builtin -o calls_io "$PROGRAMS/calls.c" -lpthread
run_app flush env SCOREP_TRACING_REDUCTION=flush SCOREP_TOTAL_MEMORY=1M SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=flush ./calls_io
expect_eq "$status" 3 "flush: exit status (calls.c returns 3)"
expect_grep 'trace buffers of [0-9]+ of [0-9]+ locations were flushed to disk [0-9]+ times' flush.err \
    "flush: the trace was flushed to disk while the program ran"
io_names=$(awk '!/^#/ && NF { print $1 }' "$top_srcdir/src/adapters/io/io_functions.spec" | tr '\n' '|')
expect_eq "$(profile_dump flush -m visits | awk -F'\t' -v n="|$io_names" '{ k = $2; sub(/.*\//, "", k) } index(n, "|" k "|") { print $2, $4 }')" \
    "main/printf visits=2" "flush: the only recorded I/O is the program's two printf (not the runtime's writes)"

# OpenMP threads doing I/O: thread t writes (t + 1) x 100 bytes (the threads are the runtime's
# OMPT tool's: a build without it, cross_aarch64.sh's, has no OpenMP part)
if ! nm -D "$top_builddir/.libs/libscorep-rt.so" | grep -q ' T ompt_start_tool$'; then
    skip_part_here "OpenMP" "the runtime was built without its OMPT tool"
else
    scorep_cc --io=posix gcc -fopenmp -fno-builtin -o io_omp "$PROGRAMS/io_omp.c"
    run_app omp env OMP_NUM_THREADS=4 SCOREP_EXPERIMENT_DIRECTORY=omp ./io_omp
    expect_eq "$status" 0 "OpenMP: exit status"
    expect_eq "$(cat omp.out)" "omp total 1000" "OpenMP: program output"
    # (which location a thread gets depends on the order the threads start)
    profile_dump omp -m io_bytes_written,visits | awk -F'\t' '$2 ~ /\/write$/ { print $3, $4, $5 }' >omp.writes
    expect_eq "$(awk '{ print $1 }' omp.writes | sort | tr '\n' ' ')" "0 1 2 3 " "OpenMP: writes on 4 locations"
    expect_eq "$(awk '{ print $2, $3 }' omp.writes | sort | tr '\n' ';')" \
        "io_bytes_written=100 visits=1;io_bytes_written=200 visits=2;io_bytes_written=300 visits=3;io_bytes_written=400 visits=4;" \
        "OpenMP: each thread's writes and bytes on its location"
fi

# edge cases: fd 3 opened by the shell, fork and exec, standard output closed
printf 'hello input' >input.txt
gcc -fno-builtin -o edge_plain "$PROGRAMS/io_edge.c" || fail "gcc io_edge.c"
mkdir edge_plain.d && (cd edge_plain.d && ../edge_plain 3<../input.txt) || fail "plain io_edge"
scorep_cc --io=posix gcc -fno-builtin -o edge "$PROGRAMS/io_edge.c"
mkdir edge.d && cd edge.d
SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp timeout 120 ../edge 3<../input.txt >out 2>err ||
    fail "io_edge measured: exit status $?"
cd ..
for f in edge.txt child.txt exec.txt; do
    cmp edge_plain.d/$f edge.d/$f || fail "edge: $f differs from the plain run"
done
expect_eq "$(cat edge.d/edge.txt)" "pre 11 child 0 w -1 EBADF printf 10 fflush -1" "edge: the calls behaved as without measurement"
expect_eq "$(profile_io edge.d/exp main/ | grep -E '^(read|write|printf|fflush) ' | tr '\n' ';')" \
    "fflush 1 0 0;printf 1 10 0;read 1 0 11;write 1 0 0;" "edge: read of fd 3 counted, write to the closed stdout failed"
trace_defs edge.d/exp >edge.defs
expect_grep "IO_HANDLE .*Name: \"fd 3\".*File: \"file://$(pwd -P)/input.txt\".*PRE_CREATED" edge.defs \
    "edge: the descriptor opened before the measurement is a pre-created handle of its file"
expect_eq "$(trace_other edge.d/exp | awk '$1 == "IO_DESTROY_HANDLE" && /STDOUT_FILENO/' | wc -l | tr -d ' ')" 1 \
    "edge: close(1) destroys the STDOUT_FILENO handle"
done_ok
