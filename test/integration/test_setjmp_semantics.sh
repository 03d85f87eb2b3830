#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_setjmp_semantics.sh: libscorep-rt interposes _setjmp, setjmp and __sigsetjmp with a
# trampoline that notes the call depth and jumps to glibc's function (adapters/compiler/
# longjmp.c); every measured program goes through it. Nothing of the C library's semantics
# may change: test/programs/setjmp_semantics.c checks the values setjmp returns (longjmp 0
# -> 1), sigsetjmp's mask saved and restored exactly with savemask 1, nested buffers, setjmp
# through a function pointer, in a signal handler, in 4 threads at once, the callee-saved
# registers and the stack pointer across both returns (x86-64 assembly), the caller's stack
# with alloca, a dlopen'ed library that jumps, C++ exceptions between a setjmp and its jump,
# and setjmp in a constructor (the program's; a linked library's, which under scorep-run
# runs before the runtime's constructors), an atexit handler and a destructor (after the
# runtime's finalisation). Built plain, and by scorep-cc (gcc -O0, -O2 -D_FORTIFY_SOURCE=2
# -fomit-frame-pointer non-PIE, clang -O2, g++ -O2) and preloaded by scorep-run: the same output, exit 0, nothing
# on stderr, and the program's setjmp calls bound to libscorep-rt (LD_DEBUG=bindings). And a
# real program: perl's eval/die (sigsetjmp and __longjmp_chk in libperl) under scorep-run.
. "$top_srcdir/test/integration/lib.sh"
SRC=$PROGRAMS/setjmp_semantics.c
LIBSRC=$PROGRAMS/setjmp_lib.c

# the lines setjmp_semantics.c prints when every case holds
expected=$(cat "$PROGRAMS/setjmp_semantics.expected") || fail "no $PROGRAMS/setjmp_semantics.expected"
# g++: the C++ case before "done"
expected_cxx=$(printf '%s\n' "$expected" | sed 's/^done ok$/cxx ok\ndone ok/')

machine=$(build_machine)
gcc -O2 -fPIC -shared -o libsjlib.so "$LIBSRC" || fail "build: libsjlib.so"
LINK="-L$work -lsjlib -Wl,-rpath,$work -ldl -pthread"

# check NAME EXPECTED COMMAND...: the program's output, exit status and stderr
check()
{
    _n=$1 _exp=$2
    shift 2
    run_app "$_n" env SCOREP_EXPERIMENT_DIRECTORY="$_n.exp" "$@" "$work/libsjlib.so"
    # the output first: a failure then names the case
    expect_eq "$(cat "$_n.out")" "$_exp" "$_n: every case as the C library defines it"
    expect_eq "$status" 0 "$_n: exit status"
    expect_eq "$(cat "$_n.err")" "" "$_n: nothing on stderr"
}

# bound NAME COMMAND...: the objects the program's _setjmp and __sigsetjmp bind to
bound()
{
    _n=$1
    shift
    env SCOREP_EXPERIMENT_DIRECTORY="$_n.bind" LD_DEBUG=bindings LD_DEBUG_OUTPUT="$work/$_n.ld" \
        "$@" "$work/libsjlib.so" >/dev/null 2>&1 || fail "$_n: run with LD_DEBUG"
    cat "$work/$_n.ld".* | sed -n "s/.*binding file \([^ ]*\) .* to \([^ ]*\) .*symbol \`\(_setjmp\|__sigsetjmp\)'.*/\1 \3 \2/p" |
        awk '$1 ~ /sj_/ { n = split($3, p, "/"); print $2, p[n] }' | sort -u | tr '\n' ' '
}

part "plain (the reference)"
gcc -O2 -Wall -Wextra -Werror -o sj_plain "$SRC" $LINK || fail "build: plain"
check plain "$expected" ./sj_plain
expect_eq "$(nm sj_plain | awk '$1 == "U" && $2 ~ /setjmp/ { sub(/@.*/, "", $2); print $2 }' | sort -u | tr '\n' ' ')" \
    "__sigsetjmp _setjmp " "the program calls _setjmp and __sigsetjmp"

part "scorep-cc: gcc -O0, gcc -O2 fortified -fomit-frame-pointer non-PIE, g++ -O2"
scorep_cc --instrument=functions gcc -O0 -Wall -Wextra -Werror -o sj_o0 "$SRC" $LINK
check gcc_O0 "$expected" ./sj_o0
expect_eq "$(bound gcc_O0 ./sj_o0)" "__sigsetjmp libscorep-rt.so.0 _setjmp libscorep-rt.so.0 " \
    "gcc -O0: setjmp and sigsetjmp go through libscorep-rt's trampoline"
scorep_cc --instrument=functions gcc -O2 -D_FORTIFY_SOURCE=2 -fomit-frame-pointer -no-pie \
    -fno-pie -Wall -Wextra -Werror -o sj_o2 "$SRC" $LINK
check gcc_O2_nopie "$expected" ./sj_o2
# the C jumps through __longjmp_chk; x86-64's assembly (registers) calls longjmp itself
jumps="__longjmp_chk "
[ "$machine" != x86_64 ] || jumps="__longjmp_chk longjmp "
expect_eq "$(nm sj_o2 | awk '$1 == "U" && $2 ~ /longjmp/ { sub(/@.*/, "", $2); print $2 }' | sort -u | tr '\n' ' ')" \
    "$jumps" "fortified build: the C program's jumps through __longjmp_chk"
scorep_cc --instrument=functions g++ -O2 -Wall -Wextra -Werror -o sj_cxx -x c++ "$SRC" -x none \
    $LINK
check gxx_O2 "$expected_cxx" ./sj_cxx
if command -v clang >/dev/null 2>&1; then
    part "scorep-cc: clang -O2 (LLVM plugin where built, else -finstrument-functions)"
    scorep_cc clang -O2 -Wall -Wextra -Werror -o sj_clang "$SRC" $LINK
    check clang_O2 "$expected" ./sj_clang
else
    skip_part clang
fi

part "scorep-run: the runtime preloaded (the library's constructor before the runtime's)"
check preload "$expected" "$top_builddir/scorep-run" ./sj_plain
expect_eq "$(bound preload "$top_builddir/scorep-run" ./sj_plain)" \
    "__sigsetjmp libscorep-rt.so _setjmp libscorep-rt.so " \
    "scorep-run: setjmp and sigsetjmp go through libscorep-rt's trampoline"

if [ "$machine" != x86_64 ]; then
    # cross_aarch64.sh: the host's gdb and perl are x86-64 programs
    skip_part_here "gdb's backtrace, perl" "x86-64 programs; this build is for $machine"
elif command -v gdb >/dev/null 2>&1; then
    part "unwinding through the trampoline (its CFI): gdb's backtrace from scorep_setjmp_note"
    # the stack below main zeroed first and no lazy binding (whose resolver leaves return
    # addresses there): a backtrace that reads a stale slot as a return address finds 0
    printf '%s\n' '#include <setjmp.h>' '#include <stdio.h>' '#include <string.h>' \
        'static __attribute__((noinline)) void scrub(void) { char p[8192]; memset(p, 0, sizeof p); __asm__ volatile("" : : "r"(p) : "memory"); }' \
        'static __attribute__((noinline)) int sj_caller(jmp_buf b) { return setjmp(b); }' \
        'int main(void) { jmp_buf b; scrub(); if (sj_caller(b) == 0) puts("first"); return 0; }' >bt.c
    gcc -O0 -g -Wl,-z,now -o sj_bt bt.c || fail "build: bt.c"
    # stopped at the note of the program's setjmp: the frames below it, main included
    run_app gdb env SCOREP_EXPERIMENT_DIRECTORY=gdb.exp timeout 120 gdb -nx -batch \
        -ex "set env LD_PRELOAD=$top_builddir/.libs/libscorep-rt.so" -ex 'break sj_caller' \
        -ex run -ex 'break scorep_setjmp_note' -ex continue -ex bt ./sj_bt
    expect_eq "$(sed -n 's/^#[0-9]* *\(0x[0-9a-f]* in \)\{0,1\}\([A-Za-z_][A-Za-z_0-9]*\) .*/\2/p' gdb.out | tr '\n' ' ')" \
        "scorep_setjmp_note _setjmp sj_caller main " "gdb: the backtrace from the note reaches main"
else
    skip_part gdb
fi

if [ "$machine" != x86_64 ]; then
    :
elif command -v perl >/dev/null 2>&1; then
    part "perl: eval/die (sigsetjmp, __longjmp_chk) under scorep-run"
    # 100000 dies caught (10 each) and 100000 evals that return (1 each)
    prog='my $n = 0; for my $i (1..200000) { eval { die "x\n" if $i % 2; $n++ }; $n += 10 if $@ eq "x\n" } print "$n\n";'
    run_app perl env SCOREP_EXPERIMENT_DIRECTORY=perl.exp "$top_builddir/scorep-run" perl -e "$prog"
    expect_eq "$status" 0 "perl: exit status"
    expect_eq "$(cat perl.out)" 1100000 "perl: every die caught by its eval"
    expect_eq "$(cat perl.err)" "" "perl: nothing on stderr"
else
    skip_part perl
fi

done_ok
