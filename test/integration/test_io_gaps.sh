#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_io_gaps.sh: the I/O calls wrapped in session 21 (docs/io.md): the _unlocked stdio
# functions and __uflow/__overflow (which <stdio.h>'s inline getc_unlocked and putc_unlocked
# call), gets, fgetpos/fsetpos (and 64), flockfile/ftrylockfile/funlockfile, lockf (and 64),
# select/pselect, closedir, preadv2/pwritev2 (and 64), statx, and the fortified
# __fgets_unlocked_chk and __fread_unlocked_chk. test/programs/io_gaps.c calls each a known
# number of times with known bytes (its comments give every count). Built with -O2 (linked
# and, unchanged, under scorep-run), with -O2 -D_FORTIFY_SOURCE=2 (the same records) and with
# -O0 (the character functions are calls):
# exact visits and bytes per region in the profile, exact operations per file and mode,
# lock records and seeks in the trace (otf2-print), the regions' roles (Score-P's), output
# as without measurement.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/integration/io_trace.sh"

printf 'line one\nrest\n' >in.txt
# gets is not declared in C11 and later; the linker warns about it (not an error)
gcc -O2 -pthread -o gaps_plain "$PROGRAMS/io_gaps.c" 2>plain.build.err || fail "gcc io_gaps.c: $(cat plain.build.err)"
mkdir plain && (cd plain && ../gaps_plain <../in.txt >out) || fail "the plain program"
sum=0
i=0
while [ $i -lt 10000 ]; do sum=$((sum + 97 + i % 26)); i=$((i + 1)); done
expect_eq "$(cat plain/out)" "pv 10 5 8 7 3 2 abcdefgh lk 0 0 0 0 0 0 0 -1 EBADF sel 0 0 statx 0 17 dir 0 0 | fl 0 tl 0 1 s ab 5 ghijk 4 2 1 ab pos 0 0 0 0 | in [line one] r | big 10000 $sum" \
    "plain: output"
out_bytes=$(wc -c <plain/out) # fputs of the line and putchar_unlocked's newline

# the regions this test is about (the names of the functions io_gaps.c calls)
new_regions='|pwritev2|pwritev64|preadv2|preadv64|preadv64v2|pwritev64v2|lockf|lockf64|select|pselect|statx|closedir|fputc_unlocked|putc_unlocked|fputs_unlocked|fwrite_unlocked|fflush_unlocked|flockfile|ftrylockfile|funlockfile|fgetpos|fgetpos64|fsetpos|fsetpos64|fgetc_unlocked|getc_unlocked|fgets_unlocked|fread_unlocked|gets|getchar_unlocked|putchar_unlocked|__uflow|__overflow|'
# profile_leaves EXPDIR: "region visits io_bytes_written io_bytes_read" of those regions,
# summed over their call paths
profile_leaves()
{
    io_profile_leaves "$1" "$new_regions"
}
# expected_leaves PUTC GETC: with the character functions inline (-O1 and above: "inline")
# or called (-O0: "calls")
expected_leaves()
{
    {
        cat <<EOT
pwritev2 1 10 0
pwritev64 1 5 0
preadv2 1 0 8
preadv64 1 0 7
preadv64v2 1 0 3
pwritev64v2 1 2 0
lockf 6 0 0
lockf64 2 0 0
select 1 0 0
pselect 1 0 0
statx 1 0 0
closedir 2 0 0
fputc_unlocked 1 1 0
fputs_unlocked 1 5 0
fwrite_unlocked 1 6 0
fflush_unlocked 1 0 0
flockfile 1 0 0
ftrylockfile 2 0 0
funlockfile 2 0 0
fgetpos 1 0 0
fgetpos64 1 0 0
fsetpos 1 0 0
fsetpos64 1 0 0
fgetc_unlocked 2 0 1
fgets_unlocked 1 0 5
fread_unlocked 2 0 6
gets 1 0 9
getchar_unlocked 1 0 1
putchar_unlocked 1 1 0
EOT
        if [ "$1" = inline ]; then
            # 10000 characters in 4096-byte buffers: __overflow at characters 1 (sets the
            # buffer up), 4097 and 8193 (4096 bytes each; fclose writes the rest), __uflow
            # at 3 refills and at the end
            echo "putc_unlocked 1 1 0"
            echo "getc_unlocked 3 0 3"
            echo "__overflow 3 $((2 * 4096)) 0"
            echo "__uflow 4 0 10000"
        else
            echo "putc_unlocked 10001 10001 0"
            echo "getc_unlocked 10004 0 10003"
        fi
    } | sort
}

# the trace's operations on the program's files and standard streams
expected_ops()
{
    sort <<EOT
ISOC $1/big.txt READ 0 4 10000
ISOC $1/big.txt WRITE 0 3 8192
ISOC $1/s.txt FLUSH 0 1 0
ISOC $1/s.txt READ 0 8 15
ISOC $1/s.txt WRITE 0 4 13
ISOC /dev/stdin READ 0 2 10
ISOC /dev/stdout WRITE 0 2 $out_bytes
POSIX $1/v.dat READ 0 3 18
POSIX $1/v.dat WRITE 0 3 17
EOT
}

# check_trace EXPDIR DIR: the I/O records of a run in DIR (its files' directory)
check_trace()
{
    expect_eq "$(io_ops "$1")" "$(expected_ops "$2")" "$1: operations and bytes per file and mode in the trace"
    # lockf: F_LOCK, F_TLOCK and lockf64 F_LOCK acquire, the F_ULOCKs release, F_TLOCK on the
    # read-only descriptor tries; the stream: flockfile and the recursive ftrylockfile
    # acquire, the two funlockfile release, the other thread's ftrylockfile tries
    expect_eq "$(io_handle_events "$1" IO_ACQUIRE_LOCK IO_RELEASE_LOCK IO_TRY_LOCK)" "$(sort <<EOT
3 IO_ACQUIRE_LOCK POSIX $2/v.dat Type: EXCLUSIVE
3 IO_RELEASE_LOCK POSIX $2/v.dat Type: EXCLUSIVE
1 IO_TRY_LOCK POSIX $2/v.dat Type: EXCLUSIVE
2 IO_ACQUIRE_LOCK ISOC $2/s.txt Type: EXCLUSIVE
2 IO_RELEASE_LOCK ISOC $2/s.txt Type: EXCLUSIVE
1 IO_TRY_LOCK ISOC $2/s.txt Type: EXCLUSIVE
EOT
)" "$1: lock records of lockf, lockf64, flockfile, ftrylockfile, funlockfile"
    expect_eq "$(io_events "$1" IO_TRY_LOCK)" 2 "$1: two IoTryLock"
    expect_eq "$(trace_other "$1" | awk '$1 == "IO_TRY_LOCK" && $2 != 0' | wc -l | tr -d ' ')" 1 \
        "$1: one of them on the thread's location"
    # rewind and fsetpos to 0, fsetpos64 to 2
    expect_eq "$(io_handle_events "$1" IO_SEEK)" "$(printf '%s\n' \
        "2 IO_SEEK ISOC $2/s.txt Offset Request: 0, Whence: FROM_START, Offset Result: 0" \
        "1 IO_SEEK ISOC $2/s.txt Offset Request: 2, Whence: FROM_START, Offset Result: 2" | sort)" \
        "$1: seeks of rewind, fsetpos and fsetpos64"
    # opendir's handle of "." (session 22, test_io_wide.sh) and the descriptor open() gave
    # for it: both end in closedir
    expect_eq "$(io_handle_events "$1" IO_CREATE_HANDLE IO_DESTROY_HANDLE | awk -v f="$2" '$4 == f { n[$2] += $1 } END { for (k in n) print n[k], k }' | sort | tr '\n' ';')" \
        "2 IO_CREATE_HANDLE;2 IO_DESTROY_HANDLE;" "$1: closedir destroys the handles of opendir and of fdopendir's descriptor"
    expect_eq "$(trace_check_nesting "$1")" 0 "$1: well-nested trace"
}

# Score-P's roles (its scorep_posix_io_function_list.inc) where it wraps the call, file io
# metadata for the stat family, statx, ftruncate (which it does not wrap), file io else
check_roles()
{
    io_region_roles "$1" >"$1.roles"
    expect_eq "$(grep -E '^(open|close|fopen|fclose|lseek|fsetpos|fsetpos64|rewind|closedir|statx|read|write|lockf|flockfile|ftrylockfile|funlockfile|gets|getc_unlocked|__uflow|__overflow|fread_unlocked|pwritev2|select|pselect|fgetpos|fgetpos64|fputs) ' "$1.roles")" "$(sort <<EOT
__overflow FILE_IO
__uflow FILE_IO
close FILE_IO_METADATA
closedir FILE_IO_METADATA
fclose FILE_IO_METADATA
fgetpos WRAPPER
fgetpos64 WRAPPER
flockfile FILE_IO
fopen FILE_IO_METADATA
fputs FILE_IO
fread_unlocked FILE_IO
fsetpos FILE_IO_METADATA
fsetpos64 FILE_IO_METADATA
ftrylockfile FILE_IO
funlockfile FILE_IO
getc_unlocked FILE_IO
gets FILE_IO
lockf FILE_IO
open FILE_IO_METADATA
pselect WRAPPER
pwritev2 FILE_IO
rewind FILE_IO_METADATA
select WRAPPER
statx FILE_IO_METADATA
EOT
)" "$1: region roles as Score-P's"
}

# run_gaps DIR KIND COMMAND...: COMMAND run in the new directory DIR on in.txt (as "gaps":
# DIR/gaps.out, DIR/exp); its exit status 0, its output as the plain run's, the visits and
# bytes of every new region as expected_leaves KIND says
run_gaps()
{
    _d=$1 _kind=$2
    shift 2
    mkdir "$_d" && cd "$_d"
    run_app gaps "$@" <../in.txt
    cd ..
    expect_eq "$status" 0 "$_d: exit status"
    cmp plain/out "$_d/gaps.out" || fail "$_d: output differs from the plain run"
    expect_eq "$(profile_leaves "$_d/exp")" "$(expected_leaves "$_kind")" "$_d: visits and bytes of every new region"
}

# -O2: the character functions of the inline part are inline (__overflow, __uflow)
scorep_cc --io=posix gcc -O2 -pthread -o gaps "$PROGRAMS/io_gaps.c" 2>gaps.build.err
expect_eq "$(nm -u gaps | grep -c -E ' (__uflow|__overflow|fgets_unlocked|fread_unlocked)(@|$)')" 4 \
    "-O2: the program calls __uflow, __overflow, fgets_unlocked and fread_unlocked"
run_gaps linked inline env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp ../gaps
expect_eq "$(cat linked/gaps.err)" "" "linked: nothing on stderr"
for f in v.dat s.txt big.txt; do
    cmp plain/$f linked/$f || fail "linked: $f differs from the plain run"
done
d=$(cd linked && pwd -P)
check_trace linked/exp "$d"
check_roles linked/exp

# the plain -O2 binary, unchanged, under scorep-run --io=posix (the wrappers preloaded)
run_gaps run inline env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=exp "$top_builddir/scorep-run" --io=posix ../gaps_plain
check_trace run/exp "$(cd run && pwd -P)"

# -O2 -D_FORTIFY_SOURCE=2 (Debian's hardening): fgets_unlocked and fread_unlocked become
# __fgets_unlocked_chk and __fread_unlocked_chk; recorded the same, under the plain names
scorep_cc --io=posix gcc -O2 -D_FORTIFY_SOURCE=2 -pthread -o gaps_fortify "$PROGRAMS/io_gaps.c" 2>fortify.build.err
expect_eq "$(nm -u gaps_fortify | grep -c -E ' (__fgets_unlocked_chk|__fread_unlocked_chk|__uflow|__overflow)(@|$)')" 4 \
    "fortify: the program calls __fgets_unlocked_chk, __fread_unlocked_chk, __uflow and __overflow"
expect_eq "$(nm -u gaps_fortify | grep -c -E ' (fgets_unlocked|fread_unlocked)(@|$)')" 0 \
    "fortify: and not fgets_unlocked or fread_unlocked"
run_gaps fortify inline env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp ../gaps_fortify
check_trace fortify/exp "$(cd fortify && pwd -P)"

# -O0: getc_unlocked and putc_unlocked are calls, one visit per character (profile only)
scorep_cc --io=posix gcc -O0 -pthread -o gaps_O0 "$PROGRAMS/io_gaps.c" 2>O0.build.err
run_gaps O0 calls env SCOREP_EXPERIMENT_DIRECTORY=exp ../gaps_O0
done_ok
