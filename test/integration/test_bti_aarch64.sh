#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_bti_aarch64.sh: the aarch64 setjmp trampolines (adapters/compiler/longjmp.c) run with
# Branch Target Identification enforced. They begin with `bti c` where the library is built
# with -mbranch-protection=standard, because a program's PLT reaches them by `br x17`, which
# must land on a landing pad in a guarded page. qemu-user with -cpu max enforces BTI on the
# pages that the guest maps with PROT_BTI, and arm64 glibc's ld.so (2.36, itself unmarked)
# maps every object whose GNU property note says BTI that way: enforcement is per object.
# Built here with the cross compiler: the real longjmp.c with a stub of the three runtime
# symbols it uses (test/programs/bti_runtime_stub.c) as a BTI-marked library, and
# test_setjmp_semantics.sh's program, whose setjmp calls bind to it. The library is linked
# without the C library's start files and outline atomics (-nostartfiles,
# -mno-outline-atomics): Debian 12's crti.o, crtbeginS.o and libgcc's lse objects carry no BTI
# note, and one unmarked input drops the property of the whole library (docs/design.md, "BTI
# enforced"). Checks: the note, `bti c` at the three entries, the library mapped guarded, the
# program's output exact with the real trampolines; the same library with the trampolines'
# `bti c` deleted dies of SIGILL under -cpu max and passes under a core without BTI
# (cortex-a57). Skips where the cross compiler, qemu-aarch64 or arm64's C library is missing.
. "$top_srcdir/test/integration/lib.sh"
T=aarch64-linux-gnu
for t in "$T-gcc" "$T-readelf" "$T-objdump" qemu-aarch64; do
    command -v "$t" >/dev/null 2>&1 || { echo "SKIP: no $t (aarch64 cross toolchain, qemu-user)"; exit 77; }
done
# arm64's own ld.so and libc (libc6:arm64), which qemu-aarch64 finds at their usual paths
# (qemu-aarch64 -L with the cross toolchain's /usr/aarch64-linux-gnu hung in pthread_create)
if [ ! -e /lib/ld-linux-aarch64.so.1 ] || [ ! -e /lib/aarch64-linux-gnu/libc.so.6 ]; then
    echo "SKIP: arm64's C library is not installed (libc6:arm64)"
    exit 77
fi
# (qemu 7.2's -cpu help lists the models and exits with status 1)
qemu-aarch64 -cpu help >cpus.txt 2>&1 || true
if ! grep -q -w max cpus.txt || ! grep -q -w cortex-a57 cpus.txt; then
    echo "SKIP: this qemu-aarch64 has no cpu max or cortex-a57"
    exit 77
fi

CF="-std=gnu11 -D_GNU_SOURCE -O2 -fPIC -mbranch-protection=standard -mno-outline-atomics
    -Wall -Wextra -Werror -I$top_srcdir/src -I$top_srcdir/include -I$top_builddir"
# shellcheck disable=SC2086 # one word per flag
{
    "$T-gcc" $CF -S -o longjmp.s "$top_srcdir/src/adapters/compiler/longjmp.c" &&
        "$T-gcc" $CF -c -o longjmp.o longjmp.s &&
        "$T-gcc" $CF -c -o stub.o "$PROGRAMS/bti_runtime_stub.c"
} || fail "build: longjmp.c and the stub for aarch64"
mkdir real planted
"$T-gcc" -shared -nostartfiles -o real/libbti.so longjmp.o stub.o -ldl || fail "link: real/libbti.so"
run_to real.notes "$T-readelf" -n real/libbti.so
expect_grep 'AArch64 feature: BTI' real.notes "real: libbti.so carries the BTI property"

"$T-gcc" -O2 -fPIC -shared -o libsjlib.so "$PROGRAMS/setjmp_lib.c" || fail "build: libsjlib.so"
"$T-gcc" -O2 -o prog "$PROGRAMS/setjmp_semantics.c" -L"$work/real" -lbti -L"$work" -lsjlib \
    -Wl,-rpath,"$work/real:$work" -ldl -pthread || fail "build: the program"
run_to prog.notes "$T-readelf" -n prog
expect_no_grep 'AArch64 feature: BTI' prog.notes "the program itself is not BTI-marked (Debian's crt1.o)"

# the lines setjmp_semantics.c prints when every case holds
expected=$(cat "$PROGRAMS/setjmp_semantics.expected") || fail "no $PROGRAMS/setjmp_semantics.expected"

# runq NAME CPU LIBDIR: the program under qemu-aarch64 -cpu CPU with LIBDIR's libbti.so
runq()
{
    status=0
    LD_LIBRARY_PATH="$work/$3" timeout 120 qemu-aarch64 -cpu "$2" ./prog "$work/libsjlib.so" \
        >"$1.out" 2>"$1.err" || status=$?
}

runq real max real
expect_eq "$(cat real.out)" "$expected" "real trampolines, BTI enforced: every case"
expect_eq "$status" 0 "real trampolines, BTI enforced: exit status"
expect_eq "$(cat real.err)" "" "real trampolines, BTI enforced: nothing on stderr"

# the program's setjmp calls go to libbti.so's trampolines (through its PLT), its jumps to
# the wrappers there (compiled with their own landing pads: paciasp)
LD_DEBUG=bindings LD_LIBRARY_PATH="$work/real" timeout 120 qemu-aarch64 -cpu max ./prog \
    "$work/libsjlib.so" >/dev/null 2>bindings.txt || fail "the run with LD_DEBUG=bindings"
for f in _setjmp __sigsetjmp longjmp siglongjmp; do
    expect_grep "binding file \\./prog \\[0\\] to $work/real/libbti.so \\[0\\]: normal symbol \`$f'" \
        bindings.txt "the program's $f binds to libbti.so"
done

# ld.so maps each BTI-marked object's code again with PROT_BTI (0x10): libbti.so, and arm64's
# libc only where it is marked itself (Debian 12's is not)
libc_bti=0
run_to libc.notes "$T-readelf" -n /lib/aarch64-linux-gnu/libc.so.6
! grep -q 'AArch64 feature: BTI' libc.notes || libc_bti=1
LD_LIBRARY_PATH="$work/real" timeout 120 qemu-aarch64 -cpu max -strace ./prog "$work/libsjlib.so" \
    >/dev/null 2>strace.txt || fail "the run with -strace"
grep -c 'mmap(.*PROT_EXEC|PROT_READ|0x10,' strace.txt >guarded.txt || true
expect_eq "$(cat guarded.txt)" $((1 + libc_bti)) "the objects mapped guarded (PROT_BTI): libbti.so + $libc_bti"

# the planted defect's library: the same compiler output without the trampolines' `bti c` (the
# top-level asm's lines; the compiler's own landing pads are "\tbti\tc" or paciasp)
grep -c '^bti c$' longjmp.s >bti_lines.txt || true
expect_eq "$(cat bti_lines.txt)" 3 "the compiler output holds the 3 trampolines' bti c"
sed '/^bti c$/d' longjmp.s >planted.s
"$T-gcc" -c -o planted.o planted.s || fail "build: planted.o"
"$T-gcc" -shared -nostartfiles -o planted/libbti.so planted.o stub.o -ldl || fail "link: planted/libbti.so"

for v in real planted; do
    run_to $v.notes "$T-readelf" -n $v/libbti.so
    expect_grep 'AArch64 feature: BTI' $v.notes "$v: libbti.so carries the BTI property"
    run_to $v.dis "$T-objdump" -d $v/libbti.so
    for f in _setjmp setjmp __sigsetjmp; do
        first=$(sed -n "/^[0-9a-f]* <$f>:\$/{n;p;q}" $v.dis | awk '{print $2}')
        [ $v = real ] && want=d503245f || want=a9be7bfd # bti c; stp x29, x30, [sp, -32]!
        expect_eq "$first" "$want" "$v: $f's first instruction"
    done
done

# the planted defect: a PLT call (br x17) into a guarded page without a landing pad
runq planted max planted
expect_eq "$status" 132 "planted (no bti c), BTI enforced: killed by SIGILL"
expect_grep 'uncaught target signal 4 \(Illegal instruction\)' planted.err "planted: qemu's report"
# and only BTI kills it: the same library on a core without BTI
runq planted_a57 cortex-a57 planted
expect_eq "$(cat planted_a57.out)" "$expected" "planted, core without BTI: every case"
expect_eq "$status" 0 "planted, core without BTI: exit status"
done_ok
