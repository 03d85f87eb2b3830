#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_io_wide.sh: the I/O calls wrapped in session 22 (docs/io.md): the wide-character
# stdio functions (fgetwc, getwc, fgetws, fputwc, putwc, fputws, ungetwc, fwprintf,
# vfwprintf, wprintf, fwscanf, vfwscanf, wscanf, getwchar, putwchar and the _unlocked
# ones), opendir/fdopendir/readdir/readdir64/closedir and flock. test/programs/io_wide.c
# calls each a known number of times with known characters (its comments give every
# count). Built with -O2 (linked, and the plain binary under scorep-run) and with
# -D_FORTIFY_SOURCE=2 (__fwprintf_chk, __fgetws_chk, ...: the same records under the plain
# names): exact visits and bytes per region (a wide character is sizeof(wchar_t) = 4
# bytes), operations per file and mode, the directory handles, flock's lock records with
# their types (otf2-print), the roles; output and files as without measurement.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/integration/io_trace.sh"

printf 'AB 5\n' >in.txt
# setup DIR: the directory "d" the program reads, with three entries besides . and ..
setup()
{
    mkdir "$1" "$1/d" && touch "$1/d/a1" "$1/d/name_of_ten" "$1/d/twenty_characters_xx"
}
gcc -O2 -o wide_plain "$PROGRAMS/io_wide.c" || fail "gcc io_wide.c"
setup plain
(cd plain && ../wide_plain <../in.txt >out) || fail "the plain program"
expect_eq "$(cat plain/out)" "<> abcdd s été 42 7 3 1 1 3 | dir 5 5 0 1 | flock 0 0 0 -1 1 0 0 -1 | in AB 5 1" \
    "plain: output"
expect_eq "$(wc -c <plain/w.txt | tr -d ' ')" 25 "plain: w.txt has 25 bytes (UTF-8)"
# wprintf's wide characters: the line after "<>" (putwchar's), in characters, not bytes
line_chars=$(python3 -c 'import sys; print(len(open(sys.argv[1], encoding="utf-8").read()) - 2)' plain/out)
# readdir's bytes: each entry's getdents64 record, 19 bytes of header, the name and its NUL,
# rounded up to 8 (the kernel's filldir64)
reclen_sum=0
for name in . .. a1 name_of_ten twenty_characters_xx; do
    reclen_sum=$((reclen_sum + (19 + ${#name} + 1 + 7) / 8 * 8))
done
expect_eq "$reclen_sum" 144 "the directory's records: 24 + 24 + 24 + 32 + 40 bytes"

new_regions='|fputwc|putwc|fputwc_unlocked|putwc_unlocked|fputws|fputws_unlocked|fwprintf|vfwprintf|fgetwc|getwc|fgetwc_unlocked|getwc_unlocked|ungetwc|fgetws|fgetws_unlocked|fwscanf|vfwscanf|getwchar|getwchar_unlocked|wscanf|putwchar|putwchar_unlocked|wprintf|opendir|fdopendir|readdir|readdir64|closedir|flock|'
expected_leaves()
{
    sort <<EOT
fputwc 1 4 0
putwc 1 4 0
fputwc_unlocked 1 4 0
putwc_unlocked 1 4 0
fputws 1 24 0
fputws_unlocked 1 12 0
fwprintf 1 28 0
vfwprintf 1 12 0
fgetwc 5 0 16
getwc 1 0 4
fgetwc_unlocked 1 0 4
getwc_unlocked 1 0 4
ungetwc 1 0 0
fgetws 1 0 24
fgetws_unlocked 1 0 12
fwscanf 1 0 0
vfwscanf 1 0 0
getwchar 1 0 4
getwchar_unlocked 1 0 4
wscanf 1 0 0
putwchar 1 4 0
putwchar_unlocked 1 4 0
wprintf 1 $((line_chars * 4)) 0
opendir 1 0 0
fdopendir 1 0 0
readdir 7 0 $reclen_sum
readdir64 6 0 $reclen_sum
closedir 2 0 0
flock 7 0 0
EOT
}

# the trace's operations per file and mode: w.txt written by 8 calls (92 bytes counted),
# read by 10 sized calls (64 bytes) and the two scanf calls; the directory read 13 times
# (6 per stream and once more at the end, the ends with 0 bytes); stdin and stdout
expected_ops()
{
    sort <<EOT
ISOC $1/w.txt WRITE 0 8 92
ISOC $1/w.txt READ 0 10 64
ISOC $1/w.txt UNSIZED-READ 0 2 0
POSIX $1/d READ 0 13 $((2 * reclen_sum))
ISOC /dev/stdin READ 0 2 8
ISOC /dev/stdin UNSIZED-READ 0 1 0
ISOC /dev/stdout WRITE 0 3 $((8 + line_chars * 4))
EOT
}

check_trace()
{
    expect_eq "$(io_ops "$1")" "$(expected_ops "$2")" "$1: operations and bytes per file and mode in the trace"
    # flock: LOCK_SH and its release shared, LOCK_EX and its release exclusive, the other
    # descriptor's failed LOCK_SH|LOCK_NB a shared try, its LOCK_EX|LOCK_NB exclusive
    expect_eq "$(io_handle_events "$1" IO_ACQUIRE_LOCK IO_RELEASE_LOCK IO_TRY_LOCK)" "$(sort <<EOT
1 IO_ACQUIRE_LOCK POSIX $2/lk Type: SHARED
2 IO_ACQUIRE_LOCK POSIX $2/lk Type: EXCLUSIVE
1 IO_RELEASE_LOCK POSIX $2/lk Type: SHARED
1 IO_RELEASE_LOCK POSIX $2/lk Type: EXCLUSIVE
1 IO_TRY_LOCK POSIX $2/lk Type: SHARED
EOT
)" "$1: flock's lock records and their types"
    # opendir's handle and open()'s for d: created and destroyed by closedir, each
    expect_eq "$(io_handle_events "$1" IO_CREATE_HANDLE IO_DESTROY_HANDLE | awk -v f="$2/d" '$4 == f { n[$2] += $1 } END { for (k in n) print n[k], k }' | sort | tr '\n' ';')" \
        "2 IO_CREATE_HANDLE;2 IO_DESTROY_HANDLE;" "$1: the directory's handles, opendir's and open's, end in closedir"
    # their flags: opendir's descriptor is read-only, a directory and close-on-exec (POSIX)
    expect_eq "$(io_handle_events "$1" IO_CREATE_HANDLE | awk -v f="$2/d" '$4 == f' | sed 's/^\([0-9]*\) [A-Z_]* [A-Z]* [^ ]* /\1 /' | tr '\n' ';')" \
        "1 Access Mode: READ_ONLY, Creation Flags: {DIRECTORY}, Status Flags: NONE;1 Access Mode: READ_ONLY, Creation Flags: {DIRECTORY}, Status Flags: {CLOSE_ON_EXEC};" \
        "$1: the directory handles' flags (open's, opendir's)"
    expect_eq "$(trace_check_nesting "$1")" 0 "$1: well-nested trace"
}

check_roles()
{
    io_region_roles "$1" >"$1.roles"
    expect_eq "$(grep -E '^(opendir|fdopendir|readdir|readdir64|closedir|flock|fgetwc|fputws|fwprintf|wscanf|ungetwc) ' "$1.roles")" "$(sort <<EOT
closedir FILE_IO_METADATA
fdopendir FILE_IO_METADATA
fgetwc FILE_IO
flock FILE_IO
fputws FILE_IO
fwprintf FILE_IO
opendir FILE_IO_METADATA
readdir FILE_IO
readdir64 FILE_IO
ungetwc FILE_IO
wscanf FILE_IO
EOT
)" "$1: region roles"
}

# run_wide DIR COMMAND...: COMMAND run in the new directory DIR on in.txt; exit status 0,
# output and w.txt as the plain run's, the visits and bytes of every new region
run_wide()
{
    _d=$1
    shift
    setup "$_d"
    cd "$_d"
    run_app wide "$@" <../in.txt
    cd ..
    expect_eq "$status" 0 "$_d: exit status"
    expect_eq "$(cat "$_d/wide.err")" "" "$_d: nothing on stderr"
    cmp plain/out "$_d/wide.out" || fail "$_d: output differs from the plain run"
    cmp plain/w.txt "$_d/w.txt" || fail "$_d: w.txt differs from the plain run"
    expect_eq "$(io_profile_leaves "$_d/exp" "$new_regions")" "$(expected_leaves)" "$_d: visits and bytes of every new region"
    check_trace "$_d/exp" "$(cd "$_d" && pwd -P)"
}

scorep_cc --io=posix gcc -O2 -o wide "$PROGRAMS/io_wide.c"
run_wide linked env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp ../wide
check_roles linked/exp

# the plain binary, unchanged, under scorep-run --io=posix (the wrappers preloaded)
run_wide run env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=exp "$top_builddir/scorep-run" --io=posix ../wide_plain

# -D_FORTIFY_SOURCE=2: glibc's checking variants, recorded under the plain names
scorep_cc --io=posix gcc -O2 -D_FORTIFY_SOURCE=2 -o wide_fortify "$PROGRAMS/io_wide.c"
expect_eq "$(nm -u wide_fortify | grep -c -E ' (__fwprintf_chk|__vfwprintf_chk|__wprintf_chk|__fgetws_chk|__fgetws_unlocked_chk)(@|$)')" 5 \
    "fortify: the program calls glibc's checking wide functions"
run_wide fortify env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp ../wide_fortify
done_ok
