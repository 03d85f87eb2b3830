/* SPDX-License-Identifier: BSD-3-Clause */
/* longjmp.c: the longjmp family interposed (longjmp, _longjmp, siglongjmp and the fortified
 * __longjmp_chk), at link time and under scorep-run's preload like __cxa_begin_catch: a jump
 * out of instrumented functions skips their exit hooks, so before it jumps the calls it
 * abandons are left, innermost first, at the time of the jump; the calls made after it then
 * sit under the frame that called setjmp (docs/design.md, "Jumps out of calls"). And the
 * setjmp family (_setjmp, setjmp, __sigsetjmp), whose call depth a jump uses to leave the
 * calls inlined into the setjmp caller after the setjmp. */
/* our definitions are the plain names: no fortify redirect of them to __longjmp_chk */
#undef _FORTIFY_SOURCE
#include "adapters/compiler/jump_sp.h"
#include "base/log.h"
#include "core/events.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>

typedef void (*jump_fn)(struct __jmp_buf_tag *, int);

/* glibc's functions, found once at load (a jump out of a signal handler must not call dlsym,
 * which is not async-signal-safe); a jump before that, or of one not found then, looks
 * again and aborts when there is none (resolve) */
static jump_fn real_longjmp, real__longjmp, real_siglongjmp, real_longjmp_chk;
/* the same for the setjmp family (interposed below: setjmp's notes) */
static jump_fn real__setjmp_fn, real_setjmp_fn, real_sigsetjmp_fn;
/* whether scorep_jump_sp reads this C library's jmp_buf right (jump_sp_works), and
 * AArch64's pointer guard */
static bool jump_sp_ok;
static uintptr_t jump_guard;

/* A setjmp in this frame: the stack pointer read back must be this frame's, at or below
 * its locals and within a page or two of its CFA. A wrong layout or guard gives a value
 * that passes with a chance of about 2^-48. */
static __attribute__((noinline, no_instrument_function)) bool jump_sp_works(void)
{
    jmp_buf b;
    if (setjmp(b) != 0)
        return false;
    uintptr_t sp = scorep_jump_sp(b, jump_guard), cfa = (uintptr_t)__builtin_dwarf_cfa();
    return sp <= (uintptr_t)&b && sp < cfa && cfa - sp < 8192;
}

static jump_fn resolve(jump_fn *slot, const char *name)
{
    jump_fn f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!f) {
        f = (jump_fn)dlsym(RTLD_NEXT, name);
        __atomic_store_n(slot, f, __ATOMIC_RELEASE);
    }
    if (!f)
        abort(); /* no C library's longjmp behind us: nothing sensible is left to do */
    return f;
}

__attribute__((constructor, no_instrument_function)) static void jump_init(void)
{
    /* not resolve(): a function missing here (__longjmp_chk of a C library without
     * fortification, which then no program calls) must not stop the process at load */
    real_longjmp = (jump_fn)dlsym(RTLD_NEXT, "longjmp");
    real__longjmp = (jump_fn)dlsym(RTLD_NEXT, "_longjmp");
    real_siglongjmp = (jump_fn)dlsym(RTLD_NEXT, "siglongjmp");
    real_longjmp_chk = (jump_fn)dlsym(RTLD_NEXT, "__longjmp_chk");
    real__setjmp_fn = (jump_fn)dlsym(RTLD_NEXT, "_setjmp");
    real_setjmp_fn = (jump_fn)dlsym(RTLD_NEXT, "setjmp");
    real_sigsetjmp_fn = (jump_fn)dlsym(RTLD_NEXT, "__sigsetjmp");
#if SCOREP_JUMP_SP_KNOWN
#if defined(__aarch64__)
    /* ld.so's (GLIBC_PRIVATE), which the shared libc's PTR_MANGLE loads */
    const uintptr_t *g = dlsym(RTLD_DEFAULT, "__pointer_chk_guard");
    if (!g)
        return;
    jump_guard = *g;
#endif
    jump_sp_ok = jump_sp_works();
#endif
}

/* ------------------------------------------------------------- setjmp's notes */
/* The call depth at each setjmp, so that a jump to it also leaves the calls entered after
 * it in the setjmp caller's own frame: calls inlined there, whose hooks record that frame's
 * stack pointer, the jump's target, and which the strict test (sp below the target) keeps.
 * _setjmp, setjmp and __sigsetjmp (what <setjmp.h>'s setjmp and sigsetjmp call) are
 * interposed by a few instructions of assembly that call scorep_setjmp_note with the
 * jmp_buf and the caller's stack pointer and then jump to glibc's function with the stack
 * and the callee-saved registers as the program's call left them, so that the C library
 * saves the program's frame, not a wrapper's. A note per jmp_buf address, the latest
 * SCOREP_JUMP_NOTES of the location (a ring in scorep_location); a jump uses it only when
 * the buffer's address, its target and the call below the setjmp (region and sp at
 * depth - 1) are still the note's: anything else (a copied jmp_buf, a setjmp of a frame
 * that has returned, a ring that moved on) falls back to the strict test alone. No
 * allocation, lock or system call: a setjmp in a signal handler is fine (one that
 * interrupted an event of the runtime notes nothing). */
/* called by the trampolines below: notes the setjmp, returns glibc's function to jump to */
__attribute__((used, no_instrument_function, visibility("hidden"))) void *
scorep_setjmp_note(const void *env, uintptr_t sp, int which)
{
    scorep_location *l = scorep_tls_location;
    if (l && !l->finished && __atomic_load_n(&l->busy, __ATOMIC_RELAXED) == 0) {
        unsigned i = 0;
        while (i < SCOREP_JUMP_NOTES && l->jump_notes[i].env != env)
            i++;
        if (i == SCOREP_JUMP_NOTES)
            i = l->jump_notes_next++ % SCOREP_JUMP_NOTES;
        uint32_t d = l->depth;
        l->jump_notes[i] = (scorep_jump_note){env, sp, d ? l->stack_sp[d - 1] : 0,
                                              d ? l->stack_region[d - 1] : 0, d};
    }
    static const char *const names[] = {"_setjmp", "setjmp", "__sigsetjmp"};
    jump_fn *slot = which == 0   ? &real__setjmp_fn
                    : which == 1 ? &real_setjmp_fn
                                 : &real_sigsetjmp_fn;
    return (void *)resolve(slot, names[which]);
}

/* The depth noted at env's setjmp, UINT32_MAX when there is no note that still holds. */
static __attribute__((no_instrument_function)) uint32_t
setjmp_depth(const scorep_location *l, const void *env, uintptr_t target)
{
    for (unsigned i = 0; i < SCOREP_JUMP_NOTES; i++) {
        const scorep_jump_note *n = &l->jump_notes[i];
        if (n->env != env || n->sp != target || n->depth > l->depth)
            continue;
        if (n->depth == 0 ||
            (l->stack_sp[n->depth - 1] == n->below && l->stack_region[n->depth - 1] == n->region))
            return n->depth;
    }
    return UINT32_MAX;
}

#if SCOREP_JUMP_SP_KNOWN && defined(__x86_64__)
#if defined(__CET__)
#define SETJMP_ENDBR "endbr64\n"
#else
#define SETJMP_ENDBR ""
#endif
/* rdi: env, rsi: __sigsetjmp's savemask; the caller's sp is ours + 8 (the return address)
 * at entry. Two pushes and 8 bytes keep the call 16-byte aligned; r11 is free at a call.
 * The CFI lets unwinders through (the sampling's libunwind, gdb, perf): without it a sample
 * or a breakpoint in scorep_setjmp_note unwound into nonsense and lost the program's frames
 * (gdb: "_setjmp, __frame_dummy_init_array_entry, ??"; test_setjmp_semantics.sh). */
#define SETJMP_TRAMPOLINE(name, which)                                                             \
    __asm__(".text\n.globl " name "\n.type " name ",@function\n" name                              \
            ":\n.cfi_startproc\n" SETJMP_ENDBR "push %rdi\n.cfi_adjust_cfa_offset 8\npush %rsi\n"  \
            ".cfi_adjust_cfa_offset 8\nsub $8, %rsp\n.cfi_adjust_cfa_offset 8\n"                   \
            "lea 32(%rsp), %rsi\nmov $" #which ", %edx\ncall scorep_setjmp_note\n"                 \
            "mov %rax, %r11\nadd $8, %rsp\n.cfi_adjust_cfa_offset -8\npop %rsi\n"                  \
            ".cfi_adjust_cfa_offset -8\npop %rdi\n.cfi_adjust_cfa_offset -8\njmp *%r11\n"          \
            ".cfi_endproc\n.size " name ", .-" name "\n");
#define SETJMP_TRAMPOLINES 1
#elif SCOREP_JUMP_SP_KNOWN && defined(__aarch64__)
/* x0: env, x1: savemask; the caller's sp is ours at entry; x29 and x30 (the return
 * address glibc saves) restored before the jump; x16 is the intra-call scratch register
 * (a `br x16` may land on glibc's `bti c`). `bti c` first where the library is built with
 * branch protection (-mbranch-protection=standard marks it BTI; a call through the PLT is a
 * `br x17`, which on BTI hardware must land on one, else SIGILL); a hint, a no-op elsewhere.
 * The CFI as on x86-64. */
#if defined(__ARM_FEATURE_BTI_DEFAULT)
#define SETJMP_BTI "bti c\n"
#else
#define SETJMP_BTI ""
#endif
#define SETJMP_TRAMPOLINE(name, which)                                                             \
    __asm__(".text\n.globl " name "\n.type " name ",%function\n" name                              \
            ":\n.cfi_startproc\n" SETJMP_BTI "stp x29, x30, [sp, -32]!\n.cfi_def_cfa_offset 32\n"  \
            ".cfi_offset 29, -32\n.cfi_offset 30, -24\nstp x0, x1, [sp, 16]\nmov x29, sp\n"        \
            "add x1, sp, 32\nmov w2, " #which "\nbl scorep_setjmp_note\nmov x16, x0\n"             \
            "ldp x0, x1, [sp, 16]\nldp x29, x30, [sp], 32\n.cfi_restore 29\n.cfi_restore 30\n"     \
            ".cfi_def_cfa_offset 0\nbr x16\n.cfi_endproc\n.size " name ", .-" name "\n");
#define SETJMP_TRAMPOLINES 1
#endif
#ifdef SETJMP_TRAMPOLINES
SETJMP_TRAMPOLINE("_setjmp", 0)
SETJMP_TRAMPOLINE("setjmp", 1)
SETJMP_TRAMPOLINE("__sigsetjmp", 2)
#endif

/* Leaves the calls of this thread that the jump to env abandons: those whose recorded stack
 * pointer (core/events.c) is below the one env returns to, setjmp's caller's at its call.
 * Nothing when the jmp_buf cannot be read, when the target is not above this frame (not a
 * jump up this thread's stack: a wrong jmp_buf, which glibc's __longjmp_chk reports), or
 * when an event of this location is in progress: a jump out of a signal handler that
 * interrupted the runtime (not async-signal-safe; its state is not the calls' state). */
static __attribute__((noinline, no_instrument_function)) void
jump_leave_calls(const struct __jmp_buf_tag *env)
{
    scorep_location *l = scorep_tls_location;
    if (!l || l->finished || __atomic_load_n(&l->busy, __ATOMIC_RELAXED) != 0 || !l->depth)
        return;
    if (!jump_sp_ok) {
        /* a machine whose layout jump_sp.h knows, and the check at load failed (a C library
         * that changed it): say once that the jumps close nothing */
        static int said;
        if (SCOREP_JUMP_SP_KNOWN && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
            scorep_warn("longjmp: this C library's jmp_buf cannot be read; the calls a jump "
                        "abandons are closed by the next leave that does not match");
        return;
    }
    uintptr_t target = scorep_jump_sp(env, jump_guard);
    if (target <= (uintptr_t)__builtin_frame_address(0))
        return;
    scorep_event_unwind_jump(l, target, setjmp_depth(l, env, target));
}

__attribute__((noreturn, no_instrument_function, visibility("default"))) void
longjmp(struct __jmp_buf_tag env[1], int val)
{
    jump_leave_calls(env);
    resolve(&real_longjmp, "longjmp")(env, val);
    abort();
}

__attribute__((noreturn, no_instrument_function, visibility("default"))) void
_longjmp(struct __jmp_buf_tag env[1], int val)
{
    jump_leave_calls(env);
    resolve(&real__longjmp, "_longjmp")(env, val);
    abort();
}

__attribute__((noreturn, no_instrument_function, visibility("default"))) void
siglongjmp(struct __jmp_buf_tag env[1], int val)
{
    jump_leave_calls(env);
    resolve(&real_siglongjmp, "siglongjmp")(env, val);
    abort();
}

/* -D_FORTIFY_SOURCE's longjmp, _longjmp and siglongjmp (bits/setjmp2.h) */
void __longjmp_chk(struct __jmp_buf_tag env[1], int val) __attribute__((noreturn));
__attribute__((noreturn, no_instrument_function, visibility("default"))) void
__longjmp_chk(struct __jmp_buf_tag env[1], int val)
{
    jump_leave_calls(env);
    resolve(&real_longjmp_chk, "__longjmp_chk")(env, val);
    abort();
}
