/* SPDX-License-Identifier: BSD-3-Clause */
/* pthread_sync.c: the program's pthread mutex and condition-variable calls, as Score-P's
 * pthread adapter records them: each call a region of paradigm pthread (file "PTHREAD", role
 * wrapper, named after the function), and ThreadAcquireLock / ThreadReleaseLock events with the
 * mutex's lock id and acquisition order (1 for a mutex's first acquisition, counted at the
 * outermost lock of a recursive mutex; pthread_cond_wait releases the mutex at its start and
 * acquires it, with the next order, at its end). Works at link time and under LD_PRELOAD.
 *
 * Only calls made by the program's own executable are recorded (Score-P wraps them at link
 * time, in the program's objects only): libraries lock mutexes of their own, the runtime
 * included, and those calls go straight to libc. The acquisition order of a mutex is changed
 * only while the mutex is held, so it needs no atomics. Hot path: a range compare, the TLS
 * location, a lock-free table probe (pthread_mutex_map.c), the events; no allocation, lock or
 * system call beyond the wrapped call (a mutex's first lock creates its record). */
#include "adapters/pthread/pthread_adapter.h"
#include "adapters/pthread/pthread_mutex_map.h"
#include "base/log.h"
#include "core/events_thread.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* --------------------------------------------------------------- the real calls */
typedef int (*mutex_fn)(pthread_mutex_t *);
typedef int (*mutex_init_fn)(pthread_mutex_t *, const pthread_mutexattr_t *);
typedef int (*cond_fn)(pthread_cond_t *);
typedef int (*cond_init_fn)(pthread_cond_t *, const pthread_condattr_t *);
typedef int (*cond_wait_fn)(pthread_cond_t *, pthread_mutex_t *);
typedef int (*cond_timedwait_fn)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);

enum {
    F_MUTEX_INIT,
    F_MUTEX_DESTROY,
    F_MUTEX_LOCK,
    F_MUTEX_UNLOCK,
    F_MUTEX_TRYLOCK,
    F_COND_INIT,
    F_COND_SIGNAL,
    F_COND_BROADCAST,
    F_COND_WAIT,
    F_COND_TIMEDWAIT,
    F_COND_DESTROY,
    F_COUNT
};

/* Score-P's region names (scorep_pthread.h: "pthread_" + its list) */
static const char *const fn_name[F_COUNT] = {
    [F_MUTEX_INIT] = "pthread_mutex_init",         [F_MUTEX_DESTROY] = "pthread_mutex_destroy",
    [F_MUTEX_LOCK] = "pthread_mutex_lock",         [F_MUTEX_UNLOCK] = "pthread_mutex_unlock",
    [F_MUTEX_TRYLOCK] = "pthread_mutex_trylock",   [F_COND_INIT] = "pthread_cond_init",
    [F_COND_SIGNAL] = "pthread_cond_signal",       [F_COND_BROADCAST] = "pthread_cond_broadcast",
    [F_COND_WAIT] = "pthread_cond_wait",           [F_COND_TIMEDWAIT] = "pthread_cond_timedwait",
    [F_COND_DESTROY] = "pthread_cond_destroy",
};

static void *real_fn[F_COUNT];
static uint32_t region_id[F_COUNT] = {[0 ... F_COUNT - 1] = SCOREP_INVALID_ID};

/* our wrappers' own addresses (the end of this file), to tell them from the real calls */
static void *own(int f);

/* The C library's function: the next definition after the runtime; when the C library comes
 * before the runtime in the lookup order (a program linked with another library first), the
 * wrappers are never called, and the default definition is the C library's. */
static void *real(int f)
{
    void *p = __atomic_load_n(&real_fn[f], __ATOMIC_ACQUIRE);
    if (__builtin_expect(p == NULL, 0)) {
        p = dlsym(RTLD_NEXT, fn_name[f]);
        if (!p)
            p = dlsym(RTLD_DEFAULT, fn_name[f]);
        if (!p || p == own(f)) {
            scorep_warn("the pthread adapter finds no %s besides its own; the program cannot "
                        "run with it",
                        fn_name[f]);
            abort();
        }
        __atomic_store_n(&real_fn[f], p, __ATOMIC_RELEASE);
    }
    return p;
}

/* ------------------------------------------------------- which calls are recorded */
/* the executable's code, and all of its mapped segments */
static uintptr_t program_lo, program_hi, image_lo, image_hi;

static int executable_code(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    uintptr_t lo = UINTPTR_MAX, hi = 0, ilo = UINTPTR_MAX, ihi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr, b = a + ph->p_memsz;
        ilo = a < ilo ? a : ilo;
        ihi = b > ihi ? b : ihi;
        if (ph->p_flags & PF_X) {
            lo = a < lo ? a : lo;
            hi = b > hi ? b : hi;
        }
    }
    if (hi) {
        image_lo = ilo;
        image_hi = ihi;
        program_lo = lo;
        program_hi = hi;
    }
    return 1; /* the first object is the executable */
}

/* before the program's constructors and main; the real calls are looked up here, not in the
 * first wrapped call */
__attribute__((constructor)) static void pthread_sync_init(void)
{
    dl_iterate_phdr(executable_code, NULL);
    for (int f = 0; f < F_COUNT; f++)
        real(f);
}

#if defined(__x86_64__)
static inline int in(uintptr_t a, uintptr_t lo, uintptr_t hi, size_t len)
{
    return a >= lo && a + len <= hi;
}

/* where the executable's PLT entry at T jumps (jmp *GOT(%rip), after endbr64 and bnd
 * prefixes); 0 when T is no such entry */
static uintptr_t plt_target(uintptr_t t)
{
    if (!in(t, program_lo, program_hi, 11))
        return 0;
    const uint8_t *q = (const uint8_t *)t;
    if (q[0] == 0xf3 && q[1] == 0x0f && q[2] == 0x1e && q[3] == 0xfa)
        q += 4;
    if (q[0] == 0xf2)
        q++;
    int32_t d;
    memcpy(&d, q + 2, 4);
    uintptr_t slot = (uintptr_t)q + 6 + (intptr_t)d;
    if (q[0] != 0xff || q[1] != 0x25 || !in(slot, image_lo, image_hi, 8))
        return 0;
    return __atomic_load_n((const uintptr_t *)slot, __ATOMIC_RELAXED);
}

/* A wrapper's return address RET lies in the executable; was it the executable that called
 * FN? Not when the executable called a library function that tail-called FN (the runtime's
 * and libraries' functions often end with an unlock): the call before RET then goes through
 * the PLT or the GOT into another object. A call of the executable's own function counts (it
 * may have tail-called FN itself), and so does a call of another form (through a register). */
static int called_from(uintptr_t ret, uintptr_t fn)
{
    if (!in(ret - 6, program_lo, program_hi, 6))
        return 1;
    const uint8_t *p = (const uint8_t *)ret;
    int32_t d;
    memcpy(&d, p - 4, 4);
    uintptr_t target = ret + (intptr_t)d;
    if (p[-6] == 0xff && p[-5] == 0x15 && in(target, image_lo, image_hi, 8)) {
        uintptr_t v = __atomic_load_n((const uintptr_t *)target, __ATOMIC_RELAXED);
        return v == fn || in(v, program_lo, program_hi, 1); /* call *GOT(%rip) */
    }
    if (p[-5] == 0xe8) { /* call rel32: FN, a PLT entry, or the executable's own function */
        uintptr_t via = target == fn ? fn : plt_target(target);
        return via == 0 || via == fn || in(via, program_lo, program_hi, 1);
    }
    return 1;
}
#elif defined(__aarch64__)
static inline int in(uintptr_t a, uintptr_t lo, uintptr_t hi, size_t len)
{
    return a >= lo && a + len <= hi;
}

static inline uint32_t insn_at(uintptr_t a)
{
    uint32_t i;
    memcpy(&i, (const void *)a, 4);
    return i;
}

/* where the executable's PLT entry at T jumps: binutils' AArch64 entry, after an optional
 * `bti c`, is adrp x16, PAGE(slot); ldr x17, [x16, #OFF(slot)]; add x16, x16, #OFF; br x17;
 * 0 when T is no such entry */
static uintptr_t plt_target(uintptr_t t)
{
    if (in(t, program_lo, program_hi, 4) && insn_at(t) == 0xd503245fu) /* bti c */
        t += 4;
    if (!in(t, program_lo, program_hi, 16))
        return 0;
    uint32_t adrp = insn_at(t), ldr = insn_at(t + 4), br = insn_at(t + 12);
    /* adrp x16 / ldr x17, [x16, #imm12 * 8] / br x17 */
    if ((adrp & 0x9f00001fu) != 0x90000010u || (ldr & 0xffc003ffu) != 0xf9400211u ||
        br != 0xd61f0220u)
        return 0;
    int64_t page = (int64_t)((((adrp >> 5) & 0x7ffffu) << 2) | ((adrp >> 29) & 3u));
    page = (page ^ 0x100000) - 0x100000; /* sign-extend 21 bits */
    uintptr_t slot = (t & ~(uintptr_t)0xfff) + (uintptr_t)(page * 4096) +
                     (uintptr_t)((ldr >> 10) & 0xfffu) * 8;
    if (!in(slot, image_lo, image_hi, 8))
        return 0;
    return __atomic_load_n((const uintptr_t *)slot, __ATOMIC_RELAXED);
}

/* called_from as on x86-64 above: a `bl` before RET into a PLT entry whose slot leads out of
 * the executable means a library function tail-called FN (found on aarch64 under qemu: the
 * user API's functions ending in an unlock were recorded as the program's
 * pthread_mutex_unlock, test_user.sh); a call through a register (blr) counts. */
static int called_from(uintptr_t ret, uintptr_t fn)
{
    if (!in(ret - 4, program_lo, program_hi, 4))
        return 1;
    uint32_t i = insn_at(ret - 4);
    if ((i & 0xfc000000u) != 0x94000000u) /* bl imm26 */
        return 1;
    int64_t d = (int64_t)(i & 0x3ffffffu);
    d = (d ^ 0x2000000) - 0x2000000; /* sign-extend 26 bits */
    uintptr_t target = ret - 4 + (uintptr_t)(d * 4);
    uintptr_t via = target == fn ? fn : plt_target(target);
    return via == 0 || via == fn || in(via, program_lo, program_hi, 1);
}
#else
static int called_from(uintptr_t ret, uintptr_t fn)
{
    (void)ret;
    (void)fn;
    return 1;
}
#endif

/* recursion guard: set while this thread is inside a recording wrapper */
static __thread int in_wrapper __attribute__((tls_model("initial-exec")));

/* the calling thread's location when a call of F from CALLER is to be recorded, else NULL */
static inline scorep_location *recorded(const void *caller, int f, uint32_t *region)
{
    uintptr_t a = (uintptr_t)caller;
    if (a < program_lo || a >= program_hi || in_wrapper || !called_from(a, (uintptr_t)own(f)))
        return NULL;
    in_wrapper = 1;
    scorep_location *l = scorep_tls_location;
    if (!l)
        l = scorep_location_get(); /* may start the measurement (first event) */
    *region = __atomic_load_n(&region_id[f], __ATOMIC_ACQUIRE);
    if (l && !l->finished && *region == SCOREP_INVALID_ID)
        *region = scorep_pthread_region(&region_id[f], fn_name[f], SCOREP_ROLE_WRAPPER);
    if (!l || l->finished || *region == SCOREP_INVALID_ID) {
        in_wrapper = 0;
        return NULL;
    }
    return l;
}

static inline void done(void)
{
    in_wrapper = 0;
}

/* -------------------------------------------------------------- lock events */
static void warn_pshared(void)
{
    scorep_warn_once("a process-shared pthread mutex is locked: its calls are regions, but "
                     "no lock events are recorded for it (as in Score-P)");
}

/* whether M is a recursive mutex: then a lock of the holder nests; else every acquisition
 * begins a new holding, even when the previous holder's unlock was not recorded (a library
 * unlocked it) */
static inline int recursive(const pthread_mutex_t *m)
{
#ifdef __GLIBC__
    return (m->__data.__kind & 3) == PTHREAD_MUTEX_RECURSIVE; /* PTHREAD_MUTEX_KIND_MASK_NP */
#else
    (void)m;
    return 1;
#endif
}

/* the mutex M of R was acquired (the caller holds it) */
static void acquired(scorep_location *l, const pthread_mutex_t *m, pthread_mutex_rec *r,
                     uint64_t raw)
{
    if (!recursive(m))
        r->nesting = 0;
    if (r->nesting++ == 0)
        r->order++;
    if (r->pshared)
        warn_pshared();
    else if (scorep_location_recording(l))
        scorep_event_thread_lock(l, BUF_EV_THREAD_ACQUIRE_LOCK, SCOREP_PARADIGM_PTHREAD, r->id,
                                 r->order, raw > r->released ? raw : r->released + 1);
}

/* the mutex of R is about to be released (the caller still holds it) */
static void releasing(scorep_location *l, pthread_mutex_rec *r)
{
    r->nesting--;
    if (!r->pshared && scorep_location_recording(l)) {
        scorep_event_thread_lock(l, BUF_EV_THREAD_RELEASE_LOCK, SCOREP_PARADIGM_PTHREAD, r->id,
                                 r->order, scorep_timer_ticks());
        r->released = l->last_ts; /* the release's time, as recorded */
    }
}

/* ------------------------------------------------------------------ mutexes */
#define WRAPPER __attribute__((visibility("default")))

WRAPPER int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
    mutex_init_fn call = (mutex_init_fn)real(F_MUTEX_INIT);
    uint32_t region;
    scorep_location *l = recorded(__builtin_return_address(0), F_MUTEX_INIT, &region);
    if (!l)
        return call(m, attr);
    int shared = PTHREAD_PROCESS_PRIVATE;
    if (attr)
        pthread_mutexattr_getpshared(attr, &shared);
    scorep_event_enter(l, region);
    int rc = call(m, attr);
    pthread_mutex_rec *r = rc == 0 ? pthread_mutex_get(m) : NULL;
    if (r)
        r->pshared = shared == PTHREAD_PROCESS_SHARED;
    scorep_event_leave(l, region);
    done();
    return rc;
}

WRAPPER int pthread_mutex_destroy(pthread_mutex_t *m)
{
    mutex_fn call = (mutex_fn)real(F_MUTEX_DESTROY);
    uint32_t region;
    scorep_location *l = recorded(__builtin_return_address(0), F_MUTEX_DESTROY, &region);
    if (!l)
        return call(m);
    scorep_event_enter(l, region);
    int rc = call(m);
    if (rc == 0)
        pthread_mutex_forget(m); /* a mutex initialised here later gets a new id (Score-P) */
    scorep_event_leave(l, region);
    done();
    return rc;
}

/* lock and trylock: the region around the call, the acquisition at its end */
static int lock_call(int f, pthread_mutex_t *m, const void *caller)
{
    mutex_fn call = (mutex_fn)real(f);
    uint32_t region;
    scorep_location *l = recorded(caller, f, &region);
    if (!l)
        return call(m);
    pthread_mutex_rec *r = pthread_mutex_get(m); /* statically initialised: created here */
    scorep_event_enter(l, region);
    int rc = call(m);
    uint64_t raw = scorep_timer_ticks_ordered();
    if (rc == 0 && r)
        acquired(l, m, r, raw);
    scorep_event_leave_raw(l, region, raw);
    done();
    return rc;
}

WRAPPER int pthread_mutex_lock(pthread_mutex_t *m)
{
    return lock_call(F_MUTEX_LOCK, m, __builtin_return_address(0));
}

WRAPPER int pthread_mutex_trylock(pthread_mutex_t *m)
{
    return lock_call(F_MUTEX_TRYLOCK, m, __builtin_return_address(0));
}

WRAPPER int pthread_mutex_unlock(pthread_mutex_t *m)
{
    mutex_fn call = (mutex_fn)real(F_MUTEX_UNLOCK);
    uint32_t region;
    scorep_location *l = recorded(__builtin_return_address(0), F_MUTEX_UNLOCK, &region);
    if (!l)
        return call(m);
    pthread_mutex_rec *r = pthread_mutex_find(m);
    if (!r || !r->nesting) { /* its lock was not recorded (a library's, a timed lock) */
        done();
        return call(m);
    }
    scorep_event_enter(l, region);
    releasing(l, r);
    int rc = call(m);
    scorep_event_leave(l, region);
    done();
    return rc;
}

/* ----------------------------------------------------------- condition variables */
static int cond_call(int f, pthread_cond_t *c, const void *caller)
{
    cond_fn call = (cond_fn)real(f);
    uint32_t region;
    scorep_location *l = recorded(caller, f, &region);
    if (!l)
        return call(c);
    scorep_event_enter(l, region);
    int rc = call(c);
    scorep_event_leave(l, region);
    done();
    return rc;
}

WRAPPER int pthread_cond_signal(pthread_cond_t *c)
{
    return cond_call(F_COND_SIGNAL, c, __builtin_return_address(0));
}

WRAPPER int pthread_cond_broadcast(pthread_cond_t *c)
{
    return cond_call(F_COND_BROADCAST, c, __builtin_return_address(0));
}

WRAPPER int pthread_cond_destroy(pthread_cond_t *c)
{
    return cond_call(F_COND_DESTROY, c, __builtin_return_address(0));
}

WRAPPER int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr)
{
    cond_init_fn call = (cond_init_fn)real(F_COND_INIT);
    uint32_t region;
    scorep_location *l = recorded(__builtin_return_address(0), F_COND_INIT, &region);
    if (!l)
        return call(c, attr);
    scorep_event_enter(l, region);
    int rc = call(c, attr);
    scorep_event_leave(l, region);
    done();
    return rc;
}

/* wait and timedwait: the mutex is released at the start and acquired again (also after a
 * timeout) at the end, with the next acquisition order, as Score-P records it */
static int wait_call(int f, pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *ts,
                     const void *caller)
{
    uint32_t region;
    scorep_location *l = recorded(caller, f, &region);
    if (!l)
        return f == F_COND_WAIT ? ((cond_wait_fn)real(f))(c, m)
                                : ((cond_timedwait_fn)real(f))(c, m, ts);
    pthread_mutex_rec *r = pthread_mutex_find(m);
    int held = r && r->nesting; /* its lock was recorded */
    scorep_event_enter(l, region);
    if (held)
        releasing(l, r);
    int rc = f == F_COND_WAIT ? ((cond_wait_fn)real(f))(c, m)
                              : ((cond_timedwait_fn)real(f))(c, m, ts);
    uint64_t raw = scorep_timer_ticks_ordered();
    if (held)
        acquired(l, m, r, raw);
    scorep_event_leave_raw(l, region, raw);
    done();
    return rc;
}

WRAPPER int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
    return wait_call(F_COND_WAIT, c, m, NULL, __builtin_return_address(0));
}

WRAPPER int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                   const struct timespec *ts)
{
    return wait_call(F_COND_TIMEDWAIT, c, m, ts, __builtin_return_address(0));
}

/* hidden aliases of the wrappers: their addresses are this library's definitions (the
 * exported names resolve to the C library's when it comes first in the lookup order) */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 9
#define OWN_ATTRS(f) alias(#f), visibility("hidden"), copy(f)
#else
#define OWN_ATTRS(f) alias(#f), visibility("hidden")
#endif
#define OWN(f) extern __typeof(f) own_##f __attribute__((OWN_ATTRS(f)));
OWN(pthread_mutex_init)
OWN(pthread_mutex_destroy)
OWN(pthread_mutex_lock)
OWN(pthread_mutex_unlock)
OWN(pthread_mutex_trylock)
OWN(pthread_cond_init)
OWN(pthread_cond_signal)
OWN(pthread_cond_broadcast)
OWN(pthread_cond_wait)
OWN(pthread_cond_timedwait)
OWN(pthread_cond_destroy)

static void *own(int f)
{
    static void *const fns[F_COUNT] = {
        [F_MUTEX_INIT] = (void *)own_pthread_mutex_init,
        [F_MUTEX_DESTROY] = (void *)own_pthread_mutex_destroy,
        [F_MUTEX_LOCK] = (void *)own_pthread_mutex_lock,
        [F_MUTEX_UNLOCK] = (void *)own_pthread_mutex_unlock,
        [F_MUTEX_TRYLOCK] = (void *)own_pthread_mutex_trylock,
        [F_COND_INIT] = (void *)own_pthread_cond_init,
        [F_COND_SIGNAL] = (void *)own_pthread_cond_signal,
        [F_COND_BROADCAST] = (void *)own_pthread_cond_broadcast,
        [F_COND_WAIT] = (void *)own_pthread_cond_wait,
        [F_COND_TIMEDWAIT] = (void *)own_pthread_cond_timedwait,
        [F_COND_DESTROY] = (void *)own_pthread_cond_destroy,
    };
    return fns[f];
}
