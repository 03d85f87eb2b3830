#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_io_more.sh: the I/O calls wrapped after test_io.sh's set (docs/io.md): fcntl, dprintf,
# syncfs, sync, the stat family, unlink/unlinkat/remove, character I/O, the scanf family and
# POSIX AIO. test/programs/io_more.c calls each a known number of times with known bytes (its
# comments give every count); linked with scorep-cc --io=posix, unchanged under scorep-run
# --io=posix, built with -D_FORTIFY_SOURCE=2 -O2 and with -D_FILE_OFFSET_BITS=64: exact visits and bytes per region in the
# profile, exact operations per file and mode in the trace (otf2-print), the new records
# (IoChangeStatusFlags, IoDuplicateHandle of fcntl, IoDeleteFile, IoOperationIssued/Test/
# Cancelled), io_summary.0.tsv and scorep-report's rows; output as without measurement.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/integration/io_trace.sh"

printf '7 8\nxy' >in.txt
# -O0: at -O1 and above <stdio.h> makes putchar and getchar calls of putc and getc
gcc -O0 -fno-builtin -o more_plain "$PROGRAMS/io_more.c" || fail "gcc io_more.c"
mkdir plain && (cd plain && ../more_plain <../in.txt >out) || fail "the plain program"
line="fcntl 1 0 1 1 -1 EBADF dprintf 7 5 3 syncfs 0 stat 0 0 0 0 15 unlink 0 0 -1 ENOENT chars abcdde d -1 fscanf 2 1 1 -1 12 34 abc 56 scanf 1 1 7 8 10 x remove 0 aio 0 0 100 0 100 0 0 0 lio 0 50 100 1 pipe 1 1 0 20 0 1 10 10"
expect_eq "$(cat plain/out)" "ok!

$line" "plain: output"
printf_bytes=$((${#line} + 1)) # printf's line and its newline; "ok!\n\n" are 5 putchar
scorep_cc --io=posix gcc -O0 -fno-builtin -o more "$PROGRAMS/io_more.c"

# profile_leaves EXPDIR: "region visits io_bytes_written io_bytes_read" of the I/O regions
# (the names of io_functions.spec's regions), summed over their call paths
io_names=$(awk '!/^#/ && NF { n = $1; sub(/^__isoc99_/, "", n); sub(/^__/, "", n); sub(/_(chk|2)$/, "", n); print n }' \
    "$top_srcdir/src/adapters/io/io_functions.spec" | sort -u | tr '\n' '|')
profile_leaves()
{
    io_profile_leaves "$1" "|$io_names"
}
expected_leaves()
{
    sort <<EOT
aio_cancel 2 0 0
aio_error 5 100 10
aio_fsync 1 0 0
aio_read 3 0 0
aio_return 7 0 110
aio_suspend 5 0 0
aio_write 1 0 0
close 8 0 0
dprintf 2 12 0
fclose 2 0 0
fcntl 5 0 0
fgetc 5 0 4
fopen 2 0 0
fprintf 1 13 0
fputc 3 3 0
fscanf 3 0 0
fstat 1 0 0
fstatat 1 0 0
getc 2 0 2
getchar 2 0 2
lio_listio 2 50 100
lstat 1 0 0
open 4 0 0
printf 1 $printf_bytes 0
putc 2 2 0
putchar 5 5 0
remove 1 0 0
rewind 2 0 0
scanf 1 0 0
stat 1 0 0
sync 1 0 0
syncfs 1 0 0
ungetc 1 0 0
unlink 2 0 0
unlinkat 1 0 0
vdprintf 1 3 0
vfscanf 1 0 0
vscanf 1 0 0
write 1 20 0
EOT
}

# the trace's operations per file and mode; the pipe's name (pipe:[inode]) as "pipe"
expected_ops()
{
    sort <<EOT
ISOC $1/c.txt READ 0 7 6
ISOC $1/c.txt WRITE 0 5 5
ISOC $1/n.txt UNSIZED-READ 0 4 0
ISOC $1/n.txt WRITE 0 1 13
ISOC /dev/stdin READ 0 2 2
ISOC /dev/stdin UNSIZED-READ 0 2 0
ISOC /dev/stdout WRITE 0 6 $((printf_bytes + 5))
POSIX - FLUSH 0 1 0
POSIX $1/a.dat FLUSH 0 1 0
POSIX $1/a.dat READ 0 2 200
POSIX $1/a.dat WRITE 0 2 150
POSIX $1/m.dat FLUSH 0 1 0
POSIX $1/m.dat WRITE 0 3 15
POSIX pipe READ 0 2 20
POSIX pipe WRITE 0 1 20
EOT
}

# check_trace EXPDIR DIR: the I/O records of a run in DIR (its files' directory)
check_trace()
{
    expect_eq "$(io_ops "$1" | sed 's/pipe:\[[0-9]*\]/pipe/')" "$(expected_ops "$2")" \
        "$1: operations and bytes per file and mode in the trace"
    trace_other "$1" >"$1.other"
    expect_eq "$(awk '$1 == "IO_CHANGE_FLAGS" { sub(/.*Status Flags: /, ""); print }' "$1.other")" "{APPEND}" \
        "$1: fcntl F_SETFL: one IoChangeStatusFlags with the append flag"
    expect_eq "$(awk '$1 == "IO_DUPLICATE_HANDLE" { sub(/.*Status Flags: /, ""); print }' "$1.other" | tr '\n' ';')" \
        "NONE;{CLOSE_ON_EXEC};" "$1: fcntl F_DUPFD and F_DUPFD_CLOEXEC: two IoDuplicateHandle"
    expect_eq "$(awk '$1 == "IO_DELETE_FILE" { p = $0; sub(/.*I\/O Paradigm: "/, "", p); sub(/".*/, "", p)
                                            f = $0; sub(/.*File: "file:\/\/[^"]*\//, "", f); sub(/".*/, "", f); print p, f }' "$1.other" | tr '\n' ';')" \
        "POSIX I/O gone.dat;POSIX I/O gone2.dat;ISO C I/O n.txt;" \
        "$1: unlink, unlinkat (POSIX) and remove (ISO C) delete their files, unlink of a missing file nothing"
    expect_eq "$(io_events "$1" IO_OPERATION_ISSUED)" 6 \
        "$1: 6 operations issued (aio_write, aio_read, aio_fsync, the pipe's 2 aio_read and lio_listio LIO_NOWAIT)"
    expect_eq "$(awk '$1 == "IO_OPERATION_BEGIN" && /Operation Flags: \{NON_BLOCKING\}/' "$1.other" | wc -l | tr -d ' ')" 6 \
        "$1: the 6 begin as non-blocking"
    expect_eq "$(io_events "$1" IO_OPERATION_TEST)" 1 "$1: one IoOperationTest (aio_error: EINPROGRESS)"
    expect_eq "$(io_events "$1" IO_OPERATION_CANCELLED)" 1 "$1: one IoOperationCancelled (aio_cancel)"
    expect_eq "$(awk '$1 ~ /^IO_OPERATION_(TEST|CANCELLED)$/ { h = $0; sub(/.*Handle: "[^"]*" </, "", h); sub(/>.*/, "", h); print h }' "$1.other" | sort -u | wc -l | tr -d ' ')" 1 \
        "$1: the test and the cancellation are on the pipe's read end"
    trace_defs "$1" >"$1.defs"
    expect_grep 'IO_HANDLE .*Name: "sync - commit buffer cache to disk".*File: UNDEFINED.*I/O Paradigm: "POSIX I/O".*Flags: \{PRE_CREATED, ALL_PROXY\}' \
        "$1.defs" "$1: sync flushes Score-P's proxy handle"
    expect_eq "$(trace_check_nesting "$1")" 0 "$1: well-nested trace"
}

mkdir linked && cd linked
run_app more env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp ../more <../in.txt
cd ..
expect_eq "$status" 0 "linked: exit status"
cmp plain/out linked/more.out || fail "linked: output differs from the plain run"
expect_eq "$(cat linked/more.err)" "" "linked: nothing on stderr"
for f in m.dat c.txt a.dat; do
    cmp plain/$f linked/$f || fail "linked: $f differs from the plain run"
done
profile_leaves linked/exp >linked.leaves
expect_eq "$(cat linked.leaves)" "$(expected_leaves)" "linked: visits and bytes of every I/O region"
expect_eq "$(profile_paths linked/exp | grep -c '^main/aio_part/wait_for/aio_suspend$')" 1 \
    "linked: aio_suspend is a region where the program calls it"
d=$(cd linked && pwd -P)
check_trace linked/exp "$d"

# the per-file summary and scorep-report (from the trace; without a trace from the summary)
z=0,0,0,0,0,0,0,0,0,0
row() { printf '%s\t' "$@"; }
cat >summary.expected <<EOT
$(row ISOC 0 $((printf_bytes + 5)) 0 6 0 0 $z 5,1,0,0,0,0,0,0,0,0)/dev/stdout
$(row ISOC 0 13 4 1 0 0 $z 1,0,0,0,0,0,0,0,0,0)$d/n.txt
$(row ISOC 2 0 4 0 0 0 2,0,0,0,0,0,0,0,0,0 $z)/dev/stdin
$(row ISOC 6 5 7 5 0 0 7,0,0,0,0,0,0,0,0,0 5,0,0,0,0,0,0,0,0,0)$d/c.txt
$(row POSIX 0 0 0 0 0 0 $z $z)$d/gone.dat
$(row POSIX 0 0 0 0 0 0 $z $z)$d/gone2.dat
$(row POSIX 0 0 0 0 1 0 $z $z)(no file)
$(row POSIX 0 15 0 3 1 0 $z 3,0,0,0,0,0,0,0,0,0)$d/m.dat
$(row POSIX 20 20 2 1 0 0 2,0,0,0,0,0,0,0,0,0 1,0,0,0,0,0,0,0,0,0)pipe
$(row POSIX 200 150 2 2 1 0 0,2,0,0,0,0,0,0,0,0 1,1,0,0,0,0,0,0,0,0)$d/a.dat
EOT
expect_eq "$(grep -v '^#' linked/exp/io_summary.0.tsv | sed 's/pipe:\[[0-9]*\]/pipe/' | sort)" "$(sort summary.expected)" \
    "linked: io_summary.0.tsv (character I/O 1 byte each, fscanf reads without bytes, sync on no file)"
report_rows="ISOC $d/c.txt 6 5 7 5 0 0 ranks 0 sizes 7,0,0,0,0,0,0,0,0,0 / 5,0,0,0,0,0,0,0,0,0
ISOC $d/n.txt 0 13 4 1 0 0 ranks 0 sizes $z / 1,0,0,0,0,0,0,0,0,0
ISOC /dev/stdin 2 0 4 0 0 0 ranks 0 sizes 2,0,0,0,0,0,0,0,0,0 / $z
ISOC /dev/stdout 0 $((printf_bytes + 5)) 0 6 0 0 ranks 0 sizes $z / 5,1,0,0,0,0,0,0,0,0
POSIX (no file) 0 0 0 0 1 0 ranks 0 sizes $z / $z
POSIX $d/a.dat 200 150 2 2 1 0 ranks 0 sizes 0,2,0,0,0,0,0,0,0,0 / 1,1,0,0,0,0,0,0,0,0
POSIX $d/m.dat 0 15 0 3 1 0 ranks 0 sizes $z / 3,0,0,0,0,0,0,0,0,0
POSIX pipe 20 20 2 1 0 0 ranks 0 sizes 2,0,0,0,0,0,0,0,0,0 / 1,0,0,0,0,0,0,0,0,0"
io_report linked/exp rep >rep.rows
expect_eq "$(grep -v '^bins' rep.rows | sed 's/pipe:\[[0-9]*\]/pipe/' | sort)" "$(echo "$report_rows" | sort)" \
    "scorep-report: the rows of the files with operations, from the trace"
# every operation is outermost (issued AIO requests run beside the others, the cancelled one
# transfers nothing): the chart holds all bytes read and written
expect_eq "$(grep '^bins' rep.rows)" "bins 228 $((203 + printf_bytes + 5))" \
    "scorep-report: the bandwidth chart's totals (AIO requests in progress do not hide the calls beside them)"
mkdir notrace && cd notrace
run_app more env SCOREP_EXPERIMENT_DIRECTORY=exp ../more <../in.txt
cd ..
expect_eq "$status" 0 "no trace: exit status"
expect_eq "$(io_report notrace/exp rep_notrace | sed "s|$(cd notrace && pwd -P)|$d|; s/pipe:\[[0-9]*\]/pipe/" | grep -v '/gone2\?\.dat ' | sort)" \
    "$(printf '%s\nfrom the summaries\n' "$report_rows" | sort)" "no trace: scorep-report's rows from the summary equal those from the trace"

# unchanged under scorep-run (the regions are roots)
mkdir run && cd run
run_app more env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=exp "$top_builddir/scorep-run" --io=posix ../more_plain <../in.txt
cd ..
expect_eq "$status" 0 "scorep-run: exit status"
cmp plain/out run/more.out || fail "scorep-run: output differs from the plain run"
expect_eq "$(cat run/more.err)" "" "scorep-run: nothing on stderr"
expect_eq "$(profile_leaves run/exp)" "$(expected_leaves)" "scorep-run: visits and bytes of every I/O region"
check_trace run/exp "$(cd run && pwd -P)"

# -D_FORTIFY_SOURCE=2 -O2: dprintf and vdprintf become __dprintf_chk and __vdprintf_chk,
# fprintf __fprintf_chk, putchar and getchar putc and getc, printf("%s\n") puts: the same
# operations under the names the program calls
scorep_cc --io=posix gcc -O2 -D_FORTIFY_SOURCE=2 -o more_fortify "$PROGRAMS/io_more.c"
expect_eq "$(nm -u more_fortify | grep -c -E ' (__dprintf_chk|__vdprintf_chk|__fprintf_chk|__isoc99_fscanf|__isoc99_vfscanf|__isoc99_scanf|__isoc99_vscanf)(@|$)')" 7 \
    "fortify: the program calls the fortified and C99 variants"
mkdir fortify && cd fortify
run_app more env SCOREP_EXPERIMENT_DIRECTORY=exp ../more_fortify <../in.txt
cd ..
expect_eq "$status" 0 "fortify: exit status"
cmp plain/out fortify/more.out || fail "fortify: output differs from the plain run"
expected_leaves | awk -v pb="$printf_bytes" '
    $1 == "putchar" || $1 == "getchar" { next }
    $1 == "putc" { $2 = 7; $3 = 7 } $1 == "getc" { $2 = 4; $4 = 4 }
    $1 == "printf" { $1 = "puts" } { print }' | sort >fortify.expected
expect_eq "$(profile_leaves fortify/exp)" "$(cat fortify.expected)" "fortify: visits and bytes of every I/O region"
# -D_FILE_OFFSET_BITS=64: the program calls the 64 variants (fcntl64, stat64, aio_read64,
# lio_listio64, ...): the same operations under those names
scorep_cc --io=posix gcc -O0 -fno-builtin -D_FILE_OFFSET_BITS=64 -o more_64 "$PROGRAMS/io_more.c"
expect_eq "$(nm -u more_64 | grep -c -E ' (fcntl64|stat64|fstatat64|aio_read64|aio_error64|aio_return64|aio_cancel64|lio_listio64)(@|$)')" 8 \
    "64-bit offsets: the program calls the 64 variants"
mkdir more64 && cd more64
run_app more env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp ../more_64 <../in.txt
cd ..
expect_eq "$status" 0 "64-bit offsets: exit status"
cmp plain/out more64/more.out || fail "64-bit offsets: output differs from the plain run"
expected_leaves | awk '$1 ~ /^(aio_|lio_listio$|fcntl$|fopen$|open$|stat$|lstat$|fstat$|fstatat$)/ { $1 = $1 "64" } { print }' |
    sort >more64.expected
expect_eq "$(profile_leaves more64/exp)" "$(cat more64.expected)" "64-bit offsets: visits and bytes of every I/O region"
expect_eq "$(io_ops more64/exp | sed 's/pipe:\[[0-9]*\]/pipe/')" "$(expected_ops "$(cd more64 && pwd -P)")" \
    "64-bit offsets: operations and bytes per file and mode in the trace"
done_ok
