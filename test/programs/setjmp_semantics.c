/* SPDX-License-Identifier: BSD-3-Clause */
/* setjmp_semantics.c: the setjmp family's behaviour as the C library defines it, for
 * test_setjmp_semantics.sh, which runs it plain and under scorep-rt (linked by scorep-cc,
 * preloaded by scorep-run): libscorep-rt interposes _setjmp, setjmp and __sigsetjmp with a
 * trampoline (adapters/compiler/longjmp.c), and nothing of what follows may change. One line
 * per case, "name ok" or "name BAD ..."; also valid C++ (the test builds it with g++). Linked
 * with setjmp_lib.c; its argument: the same library to dlopen. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __cplusplus
#include <stdexcept>
#define EXTERN_C extern "C"
#else
#define EXTERN_C extern
#endif

static int bad;

static void report(const char *name, int ok, const char *fmt, long a, long b)
{
    if (ok) {
        printf("%s ok\n", name);
    } else {
        printf("%s BAD ", name);
        printf(fmt, a, b);
        printf("\n");
        bad = 1;
    }
}

/* ---- setjmp returns 0, then the longjmp value; longjmp(env, 0) returns 1 */
static jmp_buf jb;
static __attribute__((noinline)) void jump_with(jmp_buf b, int v)
{
    longjmp(b, v);
}

static void case_values(void)
{
    volatile int seen[4] = {-1, -1, -1, -1};
    volatile int n = 0;
    int r = setjmp(jb);
    seen[n++] = r;
    if (n == 1)
        jump_with(jb, 7);
    if (n == 2)
        jump_with(jb, 0);
    report("values", seen[0] == 0 && seen[1] == 7 && seen[2] == 1 && n == 3, "%ld %ld",
           (long)seen[1], (long)seen[2]);
    volatile int m = 0;
    r = _setjmp(jb);
    if (m++ == 0)
        _longjmp(jb, -5);
    report("_setjmp", r == -5 && m == 2, "%ld %ld", (long)r, (long)m);
}

/* ---- sigsetjmp: the mask restored by siglongjmp exactly when savemask is nonzero */
static sigjmp_buf sjb;
static int usr1_blocked(void)
{
    sigset_t s;
    pthread_sigmask(SIG_SETMASK, NULL, &s);
    return sigismember(&s, SIGUSR1);
}

static void block_usr1(int how)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    pthread_sigmask(how, &s, NULL);
}

static void case_sigmask(int savemask)
{
    volatile int pass = 0;
    block_usr1(SIG_UNBLOCK);
    int r = sigsetjmp(sjb, savemask);
    if (pass++ == 0) {
        block_usr1(SIG_BLOCK);
        siglongjmp(sjb, 2);
    }
    /* restored (unblocked) with savemask 1, still blocked with 0 */
    int want = savemask ? 0 : 1;
    report(savemask ? "sigmask_saved" : "sigmask_unsaved", r == 2 && usr1_blocked() == want,
           "r %ld blocked %ld", (long)r, (long)usr1_blocked());
    block_usr1(SIG_UNBLOCK);
}

/* ---- nested buffers: a jump to the outer one from below the inner one */
static jmp_buf outer, inner;
static __attribute__((noinline)) int nested_inner(volatile int *path)
{
    if (setjmp(inner) == 0) {
        *path = *path * 10 + 1;
        longjmp(inner, 1);
    }
    *path = *path * 10 + 2;
    longjmp(outer, 3);
    return 0;
}

static void case_nested(void)
{
    volatile int path = 0;
    int r = setjmp(outer);
    if (r == 0)
        nested_inner(&path);
    path = path * 10 + r;
    report("nested", path == 123, "path %ld %ld", (long)path, 0L);
}

/* ---- setjmp through a function pointer (the address of the interposed symbol): the
 * compiler does not know it returns twice, so only volatile state is read after the jump */
typedef int (*setjmp_fn)(struct __jmp_buf_tag *);
static setjmp_fn volatile via = _setjmp;
static void case_pointer(void)
{
    static volatile int count, r2;
    count = 0;
    int r = via(jb);
    r2 = r;
    if (count++ == 0)
        longjmp(jb, 9);
    report("pointer", count == 2 && r2 == 9, "count %ld r %ld", (long)count, (long)r2);
}

/* ---- in a signal handler: a setjmp and a jump inside the handler, and a jump out of it */
static sigjmp_buf out_of_handler;
static volatile sig_atomic_t in_handler_ok;
static void on_usr1(int sig)
{
    (void)sig;
    sigjmp_buf h;
    volatile int k = 0;
    if (sigsetjmp(h, 1) == 0) {
        k = 1;
        siglongjmp(h, 4);
    }
    in_handler_ok = k == 1;
    siglongjmp(out_of_handler, 6);
}

static void case_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    int r = sigsetjmp(out_of_handler, 1);
    if (r == 0) {
        raise(SIGUSR1);
        report("handler", 0, "raise returned %ld %ld", 0L, 0L);
        return;
    }
    /* savemask 1: SIGUSR1, blocked while its handler ran, is unblocked again */
    report("handler", r == 6 && in_handler_ok && !usr1_blocked(), "r %ld blocked %ld", (long)r,
           (long)usr1_blocked());
}

/* ---- threads at once: each its own buffers, many rounds */
enum { THREADS = 4, ROUNDS = 20000 };
static __attribute__((noinline)) void thread_jump(jmp_buf b, int v)
{
    longjmp(b, v);
}

static void *thread_main(void *arg)
{
    long id = (long)(intptr_t)arg;
    jmp_buf b;
    volatile long sum = 0;
    for (volatile int i = 0; i < ROUNDS; i++) {
        int r = setjmp(b);
        if (r == 0)
            thread_jump(b, (int)(id * 100000 + i + 1));
        sum += r - id * 100000;
    }
    return (void *)(intptr_t)(sum == (long)ROUNDS * (ROUNDS + 1) / 2);
}

static void case_threads(void)
{
    pthread_t t[THREADS];
    int good = 0;
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, thread_main, (void *)(intptr_t)(i + 1));
    for (int i = 0; i < THREADS; i++) {
        void *ok;
        pthread_join(t[i], &ok);
        good += ok != NULL;
    }
    report("threads", good == THREADS, "good %ld of %ld", (long)good, (long)THREADS);
}

/* ---- callee-saved registers and the stack pointer across the setjmp call: both returns
 * (x86-64: assembly that sets rbx, rbp, r12-r15 to known values, calls _setjmp through the
 * PLT, notes them and rsp, scrambles them, longjmps and notes them again) */
#if defined(__x86_64__)
EXTERN_C void regs_probe(jmp_buf env, uint64_t out[16]);
__asm__(".text\n.globl regs_probe\n.type regs_probe,@function\nregs_probe:\n"
        "push %rbx\npush %rbp\npush %r12\npush %r13\npush %r14\npush %r15\n"
        "push %rsi\npush %rdi\n" /* out at 8(%rsp), env at (%rsp); rsp 16-aligned */
        "movabs $0x1111111111111111, %rbx\nmovabs $0x2222222222222222, %rbp\n"
        "movabs $0x3333333333333333, %r12\nmovabs $0x4444444444444444, %r13\n"
        "movabs $0x5555555555555555, %r14\nmovabs $0x6666666666666666, %r15\n"
        "mov 8(%rsp), %rax\nmov %rsp, 112(%rax)\n" /* rsp before the call */
        "call _setjmp@PLT\n"
        "mov 8(%rsp), %rcx\ntest %eax, %eax\njnz 1f\n"
        "mov %rbx, 0(%rcx)\nmov %rbp, 8(%rcx)\nmov %r12, 16(%rcx)\nmov %r13, 24(%rcx)\n"
        "mov %r14, 32(%rcx)\nmov %r15, 40(%rcx)\nmov %rsp, 48(%rcx)\n"
        "xor %ebx, %ebx\nxor %ebp, %ebp\nxor %r12d, %r12d\nxor %r13d, %r13d\n"
        "xor %r14d, %r14d\nxor %r15d, %r15d\n"
        "mov (%rsp), %rdi\nmov $11, %esi\ncall longjmp@PLT\n"
        "1:\nmov %rbx, 56(%rcx)\nmov %rbp, 64(%rcx)\nmov %r12, 72(%rcx)\nmov %r13, 80(%rcx)\n"
        "mov %r14, 88(%rcx)\nmov %r15, 96(%rcx)\nmov %rsp, 104(%rcx)\nmov %rax, 120(%rcx)\n"
        "pop %rdi\npop %rsi\npop %r15\npop %r14\npop %r13\npop %r12\npop %rbp\npop %rbx\nret\n"
        ".size regs_probe, .-regs_probe\n");
#endif

static void case_registers(void)
{
#if defined(__x86_64__)
    uint64_t out[16];
    memset(out, 0, sizeof out);
    regs_probe(jb, out);
    int ok = out[15] == 11;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 6; i++)
            ok &= out[pass * 7 + i] == 0x1111111111111111ull * (uint64_t)(i + 1);
    ok &= out[6] == out[14] && out[13] == out[14];
    report("registers", ok, "rbx %lx after jump %lx", (long)out[0], (long)out[7]);
#else
    report("registers", 1, "", 0L, 0L); /* assembly for x86-64 only */
#endif
}

/* ---- the stack across setjmp: locals of the caller, a large frame and alloca intact */
static __attribute__((noinline)) long stack_case(int n)
{
    volatile long a[64];
    for (int i = 0; i < 64; i++)
        a[i] = i * n;
    volatile long *dyn = (volatile long *)__builtin_alloca(sizeof(long) * (size_t)n);
    for (int i = 0; i < n; i++)
        dyn[i] = 1000 + i;
    jmp_buf b;
    volatile int pass = 0;
    if (setjmp(b) == 0) {
        pass = 1;
        jump_with(b, 1);
    }
    long s = pass;
    for (int i = 0; i < 64; i++)
        s += a[i];
    for (int i = 0; i < n; i++)
        s += dyn[i];
    return s;
}

static void case_stack(void)
{
    long s = stack_case(37);
    long want = 1 + 37L * 63 * 64 / 2 + 37L * 1000 + 36L * 37 / 2;
    report("stack", s == want, "%ld want %ld", s, want);
}

/* ---- a dlopen'ed library that jumps inside itself */
static void case_dlopen(const char *lib)
{
    void *h = dlopen(lib, RTLD_NOW);
    if (!h) {
        report("dlopen", 0, "%ld %ld", 0L, 0L);
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return;
    }
    int (*f)(int) = (int (*)(int))dlsym(h, "sjlib_try");
    int r = f ? f(5) : -1;
    report("dlopen", r == 15, "r %ld %ld", (long)r, 0L);
    dlclose(h);
}

#ifdef __cplusplus
/* ---- C++: an exception thrown and caught between a setjmp and its longjmp */
static __attribute__((noinline)) void cxx_throw(int v)
{
    throw std::runtime_error(v == 3 ? "three" : "other");
}

static void case_cxx(void)
{
    volatile int caught = 0;
    jmp_buf b;
    int r = setjmp(b);
    if (r == 0) {
        try {
            cxx_throw(3);
        } catch (const std::runtime_error &e) {
            caught = strcmp(e.what(), "three") == 0;
        }
        longjmp(b, 8);
    }
    report("cxx", r == 8 && caught, "r %ld caught %ld", (long)r, (long)caught);
}
#endif

/* ---- a constructor of the program (after the libraries') and a destructor (after the
 * runtime's finalisation at exit, when it was linked: atexit handlers run in reverse) */
static int ctor_result = -1;
__attribute__((constructor)) static void ctor(void)
{
    jmp_buf b;
    volatile int k = 0;
    int r = setjmp(b);
    if (k++ == 0)
        longjmp(b, 21);
    ctor_result = r;
}

/* a library of the program's, whose constructor jumps (setjmp_lib.c) */
EXTERN_C int sjlib_ctor_result;

static void at_exit_jump(void)
{
    jmp_buf b;
    volatile int k = 0;
    int r = setjmp(b);
    if (k++ == 0)
        longjmp(b, 22);
    printf("atexit %s\n", r == 22 ? "ok" : "BAD");
    fflush(stdout);
}

__attribute__((destructor)) static void dtor(void)
{
    jmp_buf b;
    volatile int k = 0;
    int r = setjmp(b);
    if (k++ == 0)
        longjmp(b, 23);
    printf("destructor %s\n", r == 23 ? "ok" : "BAD");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    report("constructor", ctor_result == 21, "%ld %ld", (long)ctor_result, 0L);
    report("library_constructor", sjlib_ctor_result == 21, "%ld %ld", (long)sjlib_ctor_result, 0L);
    case_values();
    case_sigmask(1);
    case_sigmask(0);
    case_nested();
    case_pointer();
    case_handler();
    case_threads();
    case_registers();
    case_stack();
    if (argc > 1)
        case_dlopen(argv[1]);
#ifdef __cplusplus
    case_cxx();
#endif
    atexit(at_exit_jump);
    printf("done %s\n", bad ? "BAD" : "ok");
    return bad;
}
