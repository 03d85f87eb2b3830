/* SPDX-License-Identifier: BSD-3-Clause */
/* longjmp_calls.c: jumps out of instrumented calls (test_longjmp.sh). Each jump abandons the
 * calls between the longjmp and the frame that called setjmp, whose exit hooks never run;
 * the runtime's longjmp leaves them at the jump, so the calls made after it are the setjmp
 * caller's children. The scenes, in this order (the comments name the call path of every
 * call below the program root):
 *   three  main -> a1 -> a2 -> a3, longjmp to main; then main -> a_after
 *   none   main -> none, which longjmps to its own setjmp (abandons nothing);
 *          then none -> none_after
 *   nested main -> n1 (setjmp) -> n2 -> n3, _longjmp to n1; n1 -> n1_mid;
 *          n1 -> n4, longjmp to main; then main -> n_after
 *   thread t_main (setjmp) -> t1 -> t2, longjmp to t_main; t_main -> t_after (a pthread)
 *   signal main -> s1 -> s2, spinning until SIGALRM: the handler on_alarm siglongjmps to
 *          main; then main -> s_after
 *   altstack the same with the handler on an alternate signal stack (static, below the
 *          stack): main -> k1 -> k2, on_alt siglongjmps to main; then main -> k_after
 * Prints "done 11111115" (the scenes add 11, 101, 11002, 100001, 1000000 and 10000000 to
 * sink). */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

#ifdef __clang__
#define NI __attribute__((noinline))
#else
#define NI __attribute__((noinline, noclone))
#endif

static jmp_buf top, mid;
static sigjmp_buf sig_back;
volatile long sink;
static volatile sig_atomic_t spins;

NI void a3(void)
{
    sink++;
    longjmp(top, 1);
}

NI void a2(void)
{
    a3();
    sink++;
}

NI void a1(void)
{
    a2();
    sink++;
}

NI void a_after(void)
{
    sink += 10;
}

NI void none_after(void)
{
    sink += 100;
}

NI void none(void)
{
    jmp_buf b;
    if (!setjmp(b)) {
        sink++;
        longjmp(b, 1);
    }
    none_after();
}

NI void n3(void)
{
    sink++;
    _longjmp(mid, 1);
}

NI void n2(void)
{
    n3();
    sink++;
}

NI void n1_mid(void)
{
    sink += 1000;
}

NI void n4(void)
{
    sink++;
    longjmp(top, 2);
}

NI void n1(void)
{
    if (!_setjmp(mid))
        n2();
    n1_mid();
    n4();
    sink++;
}

NI void n_after(void)
{
    sink += 10000;
}

NI void t2(jmp_buf *b)
{
    sink++;
    longjmp(*b, 1);
}

NI void t1(jmp_buf *b)
{
    t2(b);
    sink++;
}

NI void t_after(void)
{
    sink += 100000;
}

NI void *t_main(void *arg)
{
    jmp_buf b;
    if (!setjmp(b))
        t1(&b);
    t_after();
    return arg;
}

NI void on_alarm(int sig)
{
    (void)sig;
    siglongjmp(sig_back, 1);
}

/* the timer starts after this call's enter, and the loop makes no call: the signal comes
 * while s2 runs its own code, never inside an event of the runtime */
NI void s2(void)
{
    struct itimerval it = {{0, 0}, {0, 20000}};
    setitimer(ITIMER_REAL, &it, NULL);
    for (;;)
        spins++;
}

NI void s1(void)
{
    s2();
    sink++;
}

NI void s_after(void)
{
    sink += 1000000;
}

NI void on_alt(int sig)
{
    (void)sig;
    siglongjmp(sig_back, 1);
}

NI void k2(void)
{
    struct itimerval it = {{0, 0}, {0, 20000}};
    setitimer(ITIMER_REAL, &it, NULL);
    for (;;)
        spins++;
}

NI void k1(void)
{
    k2();
    sink++;
}

NI void k_after(void)
{
    sink += 10000000;
}

static char alt_stack[1 << 16];

int main(void)
{
    if (!setjmp(top))
        a1();
    a_after();
    none();
    if (!setjmp(top))
        n1();
    n_after();
    pthread_t t;
    if (pthread_create(&t, NULL, t_main, NULL) != 0 || pthread_join(t, NULL) != 0)
        return 1;
    struct sigaction sa = {0};
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    if (!sigsetjmp(sig_back, 1))
        s1();
    s_after();
    stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack};
    sigaltstack(&ss, NULL);
    sa.sa_handler = on_alt;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGALRM, &sa, NULL);
    if (!sigsetjmp(sig_back, 1))
        k1();
    k_after();
    printf("done %ld\n", sink);
    return 0;
}
