#!/bin/sh
# test_programs_race_free.sh: the threaded test programs have no data race of their own
# (ThreadSanitizer, without the runtime). A race in a program makes its printed result
# differ now and then: memory_c.c once printed "sum 23" for "sum 24" on CI, which failed a
# test of the runtime that had done nothing wrong.
. "$top_srcdir/test/integration/lib.sh"

P="$top_srcdir/test/programs"
tsan_cc()
{
    gcc -O1 -g -fsanitize=thread -fno-omit-frame-pointer -I"$top_srcdir/include" "$@" -lpthread -lm
}
# run_tsan NAME ARGS...: runs ./NAME under ThreadSanitizer (exit 66 on a race, NAME.err holds
# the report); sets status
run_tsan()
{
    _n=$1
    shift
    status=0
    TSAN_OPTIONS="exitcode=66 halt_on_error=1" timeout 120 $NO_ASLR "./$_n" "$@" >"$_n.out" \
        2>"$_n.err" || status=$?
}

# ThreadSanitizer itself: it must find the race of a program made to hold one. On a kernel
# whose address-space randomisation it does not support ("unexpected memory mapping") it runs
# with randomisation off (setarch -R); where it cannot run at all the test skips, a skip that
# is not about a package (CI counts it as such)
cat >racy.c <<'EOF'
#include <pthread.h>
static long n;
static void *add(void *a) { for (int i = 0; i < 100000; i++) n++; return a; }
int main(void)
{
    pthread_t t[2];
    for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, add, 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
    return n == 0;
}
EOF
tsan_cc -o racy racy.c 2>racy.cc || { echo "SKIP: gcc cannot build with -fsanitize=thread: $(head -1 racy.cc)"; exit 77; }
NO_ASLR=
run_tsan racy
if ! grep -q 'WARNING: ThreadSanitizer: data race' racy.err && command -v setarch >/dev/null; then
    echo "ThreadSanitizer without address-space randomisation: $(head -1 racy.err)"
    NO_ASLR="setarch $(uname -m) -R"
    run_tsan racy
fi
if ! grep -q 'WARNING: ThreadSanitizer: data race' racy.err; then
    echo "SKIP-NOT-A-PACKAGE: ThreadSanitizer does not run on this machine: $(head -2 racy.err)"
    echo "SKIP: ThreadSanitizer does not run on this machine"
    exit 77
fi
expect_eq "$status" 66 "ThreadSanitizer finds the race of a program made to hold one"

# the programs that start threads, with arguments the tests use (sleeper: the mode that ends)
check_program()
{
    _src=$1
    shift
    _n=$(basename "$_src" .c)
    tsan_cc -o "$_n" "$_src" || fail "$_n: does not build with -fsanitize=thread"
    run_tsan "$_n" "$@"
    expect_eq "$(grep -c 'WARNING: ThreadSanitizer' "$_n.err" || true)" 0 \
        "$_n $*: no data race (exit status $status; $(grep -m1 -A3 'WARNING: ThreadSanitizer' "$_n.err" | tr '\n' ' '))"
}
check_program "$P/memory_c.c"
check_program "$P/substrate_calls.c"
check_program "$P/calls.c"
check_program "$P/user_threads.c"
check_program "$P/user_recording_threads.c"
check_program "$P/sampling_threads.c"
check_program "$P/sampling_churn.c"
check_program "$P/memory_stress.c"
check_program "$P/metrics.c" 100 20 2 0
check_program "$P/selective.c"
check_program "$P/throttle_paths.c"
check_program "$P/forks.c"
check_program "$P/sleeper.c" exit
check_program "$P/exit_busy.c" 50
check_program "$top_srcdir/test/analysis/pthread_locks.c" 0.05
done_ok
