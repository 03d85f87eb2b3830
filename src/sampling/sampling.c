/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling.c: SCOREP_SAMPLING_EVENTS parsing, per-thread interrupt sources (POSIX timers on
 * the thread's CPU clock, perf_event overflow signals) and the SIGPROF handler that unwinds
 * with libunwind into the thread's preallocated calling-context tree. */
#define UNW_LOCAL_ONLY
#include "sampling/sampling_internal.h"
#include "core/location.h"
#include "core/subsystem.h"
#include "base/log.h"
#include "base/settings.h"
#include "base/timer.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <libunwind.h>
#include <link.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

smp_source scorep_smp_sources[SMP_MAX_SOURCES];
int scorep_smp_n_sources;
static bool sampling_on;

/* ------------------------------------------------------------------ parsing */
typedef struct {
    const char *name;
    smp_src_kind kind;
    uint32_t type;
    uint64_t config;
    uint64_t default_period;
    bool time_based;
} src_name;

/* timer@<microseconds> and perf_cycles/perf_instructions follow Score-P; the other perf
 * names are scorep-rt's (software events that work without a hardware PMU). */
static const src_name src_names[] = {
    {"timer", SMP_SRC_TIMER, 0, 0, 10000, true},
    {"perf_cycles", SMP_SRC_PERF, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 10000000, false},
    {"perf_instructions", SMP_SRC_PERF, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 10000000,
     false},
    {"perf_task_clock", SMP_SRC_PERF, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 10000000, true},
    {"perf_cpu_clock", SMP_SRC_PERF, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 10000000, true},
    {"perf_page_faults", SMP_SRC_PERF, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 1000, false},
};
static const char accepted[] =
    "accepted: timer@<microseconds of thread CPU time>, perf_task_clock@<ns>, "
    "perf_cpu_clock@<ns>, perf_page_faults@<n>, perf_cycles@<n>, perf_instructions@<n>";

static int parse_one(const char *s, size_t len, smp_source *out, char *err, size_t errlen)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf) {
        snprintf(err, errlen, "'%.*s' is not a sampling event (%s)", (int)len, s, accepted);
        return -1;
    }
    memcpy(buf, s, len);
    buf[len] = 0;
    char *at = strchr(buf, '@');
    if (at)
        *at = 0;
    for (size_t i = 0; i < sizeof src_names / sizeof src_names[0]; i++) {
        const src_name *n = &src_names[i];
        if (strcmp(buf, n->name) != 0)
            continue;
        uint64_t period = n->default_period;
        if (at) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(at + 1, &end, 10);
            if (errno || end == at + 1 || *end || v == 0) {
                snprintf(err, errlen, "'%.*s': the period after '@' must be a positive integer",
                         (int)len, s);
                return -1;
            }
            period = v;
        }
        memcpy(out->spec, s, len);
        out->spec[len] = 0;
        out->kind = n->kind;
        out->perf_type = n->type;
        out->perf_config = n->config;
        out->period = period;
        out->time_based = n->time_based;
        return 0;
    }
    if (strncmp(buf, "PAPI_", 5) == 0)
        snprintf(err, errlen, "'%s': PAPI sampling events are not supported by scorep-rt (%s)", buf,
                 accepted);
    else
        snprintf(err, errlen, "'%s' is not a sampling event (%s)", buf, accepted);
    return -1;
}

int scorep_sampling_parse(const char *events, const char *sep, smp_source *out, int max, char *err,
                          size_t errlen)
{
    if (!sep || !*sep)
        sep = ",";
    int n = 0;
    const char *p = events ? events : "";
    while (*p) {
        size_t len = strcspn(p, sep);
        while (len && (*p == ' ' || *p == '\t'))
            p++, len--;
        size_t trimmed = len;
        while (trimmed && (p[trimmed - 1] == ' ' || p[trimmed - 1] == '\t'))
            trimmed--;
        if (trimmed) {
            if (n == max) {
                snprintf(err, errlen, "more than %d sampling events", max);
                return -1;
            }
            if (parse_one(p, trimmed, &out[n], err, errlen) != 0)
                return -1;
            n++;
        }
        p += len;
        if (*p)
            p++;
    }
    return n;
}

/* ------------------------------------------------------------------ handler */
static uint32_t slot_of(uint32_t parent, uint64_t key)
{
    uint64_t h = ((uint64_t)parent + 1) * 0x9e3779b97f4a7c15ull ^ key * 0xc2b2ae3d27d4eb4full;
    return (uint32_t)(h >> 40) & (2 * SMP_NODE_CAP - 1);
}

/* Child of parent with key, created from the preallocated pool; SMP_FULL when it is full. */
static uint32_t child(struct scorep_sampling_thread *t, uint32_t parent, uint64_t key)
{
    uint32_t j = slot_of(parent, key);
    for (;; j = (j + 1) & (2 * SMP_NODE_CAP - 1)) {
        uint32_t s = t->slots[j];
        if (!s)
            break;
        smp_node *n = &t->nodes[s - 1];
        if (n->parent == parent && n->key == key)
            return s - 1;
    }
    if (t->n_nodes == SMP_NODE_CAP)
        return SMP_FULL;
    uint32_t id = t->n_nodes;
    t->nodes[id] = (smp_node){key, parent, 0, 0, 0};
    t->slots[j] = id + 1;
    /* published after the node is written: another thread may read the tree while the
     * program runs (sampling_plugins.c, for a location whose events it writes) */
    __atomic_store_n(&t->n_nodes, id + 1, __ATOMIC_RELEASE);
    return id;
}

/* The slow path, when the fast one did not get through the signal frame: DWARF unwinding
 * step by step from the signal's context. */
static int unwind_stepwise(struct scorep_sampling_thread *t, void *uc)
{
    unw_cursor_t c;
    if (unw_init_local2(&c, (unw_context_t *)uc, UNW_INIT_SIGNAL_FRAME) < 0)
        return -1;
    int n = 0;
    do {
        unw_word_t ip = 0;
        unw_get_reg(&c, UNW_REG_IP, &ip);
        if (ip == 0)
            break;
        t->ips[n++] = (void *)ip;
    } while (n < SMP_MAX_FRAMES && unw_step(&c) > 0);
    return n;
}

/* Fills t->ips innermost first, t->ips[0] being the interrupted instruction. libunwind's
 * unw_backtrace caches each frame's unwind rule per thread (tens of ns per frame), whereas
 * unw_step takes signal masks per frame (microseconds). It starts in this handler; the
 * frames up to the signal frame are dropped by finding the interrupted address. */
/* The interrupted instruction's address in the signal's context (its layout is the machine's);
 * 0 where this file does not know it, and then every sample takes the slow path. */
static uintptr_t signal_pc(const void *uc)
{
    const ucontext_t *u = uc;
#if defined(__x86_64__)
    return (uintptr_t)u->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)u->uc_mcontext.pc;
#else
    (void)u;
    return 0;
#endif
}

static int unwind(struct scorep_sampling_thread *t, void *uc)
{
    uintptr_t pc = signal_pc(uc);
    if (pc == 0)
        return unwind_stepwise(t, uc);
    int n = unw_backtrace(t->ips, SMP_MAX_FRAMES);
    int k = 0;
    while (k < n && (uintptr_t)t->ips[k] != pc)
        k++;
    if (k == n) {
        t->slow_unwinds++;
        return unwind_stepwise(t, uc);
    }
    for (int i = k; i < n; i++)
        t->ips[i - k] = t->ips[i];
    return n - k;
}

static uint32_t source_of(const struct scorep_sampling_thread *t, const siginfo_t *si)
{
    if (si->si_code == SI_TIMER)
        return (uint32_t)si->si_value.sival_int;
    for (int i = 0; i < t->n_src; i++)
        if (t->fds[i] == si->si_fd)
            return (uint32_t)i;
    return 0;
}

static void account(struct scorep_sampling_thread *t, uint32_t node, uint32_t gen,
                    const siginfo_t *si, uint64_t ts, uint32_t flags)
{
    const smp_source *src = &scorep_smp_sources[gen];
    smp_node *n = &t->nodes[node];
    n->count++;
    if (gen != 0) {
        /* time comes from the first source only: two sources would count it twice */
    } else if (src->time_based) {
        uint64_t expirations =
            1 + (si->si_code == SI_TIMER && si->si_overrun > 0 ? (uint64_t)si->si_overrun : 0);
        n->time_ns += expirations * src->period * (src->kind == SMP_SRC_TIMER ? 1000 : 1);
    } else {
        n->ticks += ts - t->last_ts;
        t->last_ts = ts;
    }
    if (!t->samples)
        return;
    if (t->n_samples == t->cap_samples) {
        t->lost_samples++;
        return;
    }
    if (!(flags & SMP_IN_EVENT)) {
        if (t->events != t->events_seen)
            flags |= SMP_AFTER_EVENT;
        t->events_seen = t->events;
    }
    t->samples[t->n_samples] = (smp_sample){ts, node, gen | flags};
    __atomic_store_n(&t->n_samples, t->n_samples + 1, __ATOMIC_RELEASE); /* as n_nodes */
}

/* A full fence that the next timer reading also waits for (x86: rdtsc is not ordered by
 * mfence alone; lfence waits for every earlier instruction, the TSC reading included). */
static inline void order_fence(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("lfence" ::: "memory");
#endif
}

void scorep_sampling_settle(const struct scorep_sampling_thread *t)
{
    /* the caller's time was read before this fence, a handler's after its busy mark became
     * visible: a handler not seen busy here takes a later time; one seen busy publishes
     * its sample before it clears the mark. A handler neither blocks nor waits: this ends
     * within one handler's run (a thread descheduled inside it: a few time slices). */
    order_fence();
    while (__atomic_load_n(&t->busy, __ATOMIC_ACQUIRE))
        sched_yield();
}

/* The lock word of the mutex that dl_iterate_phdr takes (glibc's dl_load_write_lock, in
 * the dynamic linker's _rtld_global), or NULL where it was not found (another libc). */
static const volatile int *dl_write_lock;

typedef struct {
    const char *base;
    size_t len;
    int tid;
    const volatile int *found;
    int n;
} dl_lock_search;

/* Inside dl_iterate_phdr, the mutex it holds is the one of _rtld_global's owned by this
 * thread (glibc records a mutex's owner; the dynamic linker's other locks are free here). */
static int find_dl_lock(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)info;
    (void)size;
    dl_lock_search *g = data;
    for (size_t off = 0; off + sizeof(pthread_mutex_t) <= g->len;
         off += _Alignof(pthread_mutex_t)) {
        const pthread_mutex_t *m = (const pthread_mutex_t *)(const void *)(g->base + off);
        if (m->__data.__lock != 0 && m->__data.__owner == g->tid) {
            g->found = &m->__data.__lock;
            g->n++;
        }
    }
    return 1; /* one call is enough */
}

static void locate_dl_lock(void)
{
    void *rtld = dlsym(RTLD_DEFAULT, "_rtld_global");
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (!rtld || dladdr1(rtld, &info, (void **)&sym, RTLD_DL_SYMENT) == 0 || !sym ||
        sym->st_size == 0)
        return;
    dl_lock_search g = {rtld, sym->st_size, (int)syscall(SYS_gettid), NULL, 0};
    dl_iterate_phdr(find_dl_lock, &g);
    if (g.n == 1) /* exactly one candidate, else none is trusted */
        dl_write_lock = g.found;
    else
        scorep_verbose("sampling: the dynamic linker's object-list lock not found (%d "
                       "candidates): samples in dlopen and dlclose are unwound unguarded",
                       g.n);
}

/* Whether unwinding could wait for the dynamic linker forever. libunwind looks an address's
 * unwind table up through dl_iterate_phdr, which takes the dynamic linker's
 * dl_load_write_lock (not recursive in glibc 2.36); dlopen and dlclose take it to change the
 * list of objects (_dl_add_to_namespace_list). A sample that interrupts the thread while it
 * holds that lock waited in the handler forever: Open MPI's MPI_Init maps its components so
 * (4 of 10 runs of 3 ranks hung at a 20 us perf clock; gdb: _dl_add_to_namespace_list ->
 * pthread_mutex_lock <signal> unw_backtrace -> dl_iterate_phdr -> __lll_lock_wait). Such a
 * sample, and one while the list changes (r_state RT_ADD, RT_DELETE), gets no frames: one or
 * two loads; another thread holding the lock makes this thread's samples meanwhile frameless
 * too. */
static inline bool dl_changing(void)
{
    return (dl_write_lock && *dl_write_lock != 0) ||
           *(volatile int *)&_r_debug.r_state != RT_CONSISTENT;
}

/* ts: the sample's time, read in the handler after its busy mark (on_signal). */
/* Runs in signal context: no allocation, no locks, no stdio; only the thread's own,
 * preallocated storage. The region stack is read as the interrupted code left it. */
static void take_sample(struct scorep_sampling_thread *t, scorep_location *l, siginfo_t *si,
                        void *uc, bool in_event, uint64_t ts)
{
    uint32_t gen = source_of(t, si);
    if (gen >= (uint32_t)scorep_smp_n_sources)
        return;
    uint32_t depth = l->depth < l->stack_cap ? l->depth : l->stack_cap;
    /* inside an event of l (its unwinding included): the region stack may be the one before
     * or after the event, whose timestamp may already be taken; the sample is the runtime's
     * work for the call that is open then (SMP_IN_EVENT) */
    in_event = in_event || t->in_runtime;
    if (in_event && depth == 0) {
        t->in_runtime_drops++; /* the runtime's work outside every instrumented call */
        return;
    }
    /* the dynamic linker changes its list of objects (dlopen maps one, dlclose removes
     * one): the regions' path only, the sample of the open call */
    bool frameless = in_event || dl_changing();
    if (frameless && depth == 0) {
        t->dl_drops += !in_event;
        t->in_runtime_drops += in_event;
        return;
    }
    /* in the runtime: the regions' path only (the frames would be the runtime's) */
    int n = frameless ? 0 : unwind(t, uc);
    if (n <= 0 && !frameless) {
        t->failed_unwinds++;
        return;
    }
    t->taken++;
    /* the instrumented regions, then the whole unwound stack from the outermost frame;
     * finalize (sampling_profile.c) drops the frames the regions already stand for */
    uint32_t node = SMP_NONE;
    for (uint32_t i = 0; i < depth && node != SMP_FULL; i++)
        node = child(t, node, SMP_REGION_KEY | l->stack_region[i]);
    for (int i = n; i-- > 0 && node != SMP_FULL;) {
        uint64_t key = (uint64_t)(uintptr_t)t->ips[i] & ~(SMP_REGION_KEY | SMP_LEAF_KEY);
        node = child(t, node, i == 0 ? key | SMP_LEAF_KEY : key);
    }
    if (node == SMP_FULL) { /* a truncated path would misplace the sample: drop it */
        t->lost_nodes++;
        return;
    }
    t->in_event += in_event;
    account(t, node, gen, si, ts, in_event ? SMP_IN_EVENT : 0);
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    int saved_errno = errno;
    scorep_location *l = scorep_tls_location;
    struct scorep_sampling_thread *t = l ? l->sampling : NULL;
    if (!t) {
        errno = saved_errno;
        return;
    }
    /* an event on l (it nests in the event the signal interrupted): finalize waits for it
     * before sampling's end reads the samples (core/location.h). The measurement check
     * comes after the mark; stopped is read only while the measurement runs. Whether the
     * signal interrupted an event of l: its mark was set (only this thread sets it). */
    bool in_event = l->busy != 0;
    scorep_location_busy_begin(l);
    if (scorep_measurement_on() && !t->stopped) {
        t->busy = 1;
        t->signals++;
        /* the sample's time is read once busy is visible to other threads: one that writes
         * an event of l at a time it read before and then finds busy clear knows that every
         * sample of l before that time is in the array (scorep_sampling_settle) */
        order_fence();
        uint64_t begin = scorep_timer_ticks();
        if (!t->stopped)
            take_sample(t, l, si, uc, in_event, begin);
        t->handler_ticks += scorep_timer_ticks() - begin;
        __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE); /* after the sample's publication */
    }
    scorep_location_busy_end(l);
    errno = saved_errno;
}

int scorep_sampling_runtime_begin(scorep_location *l)
{
    struct scorep_sampling_thread *t = l ? l->sampling : NULL;
    if (!t)
        return 0;
    int mark = t->in_runtime;
    t->in_runtime = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return mark;
}

void scorep_sampling_runtime_end(scorep_location *l, int mark)
{
    struct scorep_sampling_thread *t = l ? l->sampling : NULL;
    if (!t)
        return;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->in_runtime = mark;
}

void scorep_sampling_event(scorep_location *l)
{
    /* only the location's thread counts (its handler reads it); an event another thread
     * writes for it (an OpenMP worker's late end) comes after its samples */
    if (l == scorep_tls_location)
        l->sampling->events++;
}

/* ------------------------------------------------------------------ sources */
static long perf_open(const smp_source *s)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = s->perf_type;
    a.config = s->perf_config;
    a.sample_period = s->period;
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.wakeup_events = 1;
    return syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static int start_perf(struct scorep_sampling_thread *t, int i)
{
    long fd = perf_open(&scorep_smp_sources[i]);
    if (fd < 0)
        return -1;
    struct f_owner_ex owner = {F_OWNER_TID, (pid_t)syscall(SYS_gettid)};
    t->fds[i] = (int)fd;
    if (fcntl((int)fd, F_SETFL, fcntl((int)fd, F_GETFL) | O_ASYNC) != 0 ||
        fcntl((int)fd, F_SETSIG, SIGPROF) != 0 || fcntl((int)fd, F_SETOWN_EX, &owner) != 0 ||
        ioctl((int)fd, PERF_EVENT_IOC_RESET, 0) != 0 ||
        ioctl((int)fd, PERF_EVENT_IOC_ENABLE, 0) != 0) {
        close((int)fd);
        t->fds[i] = -1;
        return -1;
    }
    return 0;
}

static int start_timer(struct scorep_sampling_thread *t, int i)
{
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = SIGPROF;
    ev.sigev_value.sival_int = i;
    ev._sigev_un._tid = (pid_t)syscall(SYS_gettid); /* sigev_notify_thread_id: glibc >= 2.37 */
    /* the thread's CPU clock: a blocked thread is neither sampled nor woken up */
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &t->timers[i]) != 0)
        return -1;
    uint64_t us = scorep_smp_sources[i].period;
    struct itimerspec its;
    its.it_interval.tv_sec = (time_t)(us / 1000000);
    its.it_interval.tv_nsec = (long)(us % 1000000) * 1000;
    its.it_value = its.it_interval;
    if (timer_settime(t->timers[i], 0, &its, NULL) != 0) {
        timer_delete(t->timers[i]);
        return -1;
    }
    return 0;
}

/* libunwind creates its per-thread frame cache (mmap) and finds unwind tables on first
 * use; doing that here, outside signal context, keeps the handler off that path. */
static void warm_unwinder(struct scorep_sampling_thread *t)
{
    unw_backtrace(t->ips, SMP_MAX_FRAMES); /* also creates the thread's trace cache */
}

void scorep_sampling_thread_start(scorep_location *l)
{
    if (!sampling_on)
        return;
    struct scorep_sampling_thread *t = calloc(1, sizeof *t);
    if (!t || !(t->nodes = malloc(SMP_NODE_CAP * sizeof *t->nodes)) ||
        !(t->slots = calloc(2 * SMP_NODE_CAP, sizeof *t->slots)) ||
        !(t->samples = malloc(SMP_SAMPLE_CAP * sizeof *t->samples))) {
        if (t) {
            free(t->nodes);
            free(t->slots);
        }
        free(t);
        scorep_warn("location %u: no memory for sampling; this thread is not sampled", l->id);
        return;
    }
    t->cap_samples = SMP_SAMPLE_CAP; /* the profile's visits and the trace read them */
    t->n_src = scorep_smp_n_sources;
    t->last_ts = scorep_timer_ticks();
    warm_unwinder(t);
    l->sampling = t;
    for (int i = 0; i < t->n_src; i++) {
        t->fds[i] = -1;
        int rc = scorep_smp_sources[i].kind == SMP_SRC_TIMER ? start_timer(t, i) : start_perf(t, i);
        t->armed[i] = rc == 0;
        if (rc != 0)
            scorep_warn("location %u: sampling event '%s' cannot be started (%s); this thread "
                        "is not sampled by it",
                        l->id, scorep_smp_sources[i].spec, strerror(errno));
    }
}

static void stop_thread(struct scorep_sampling_thread *t)
{
    t->stopped = 1;
    for (int i = 0; i < t->n_src; i++) {
        /* the thread's own end and finalize may race: only one of them closes */
        if (!__atomic_exchange_n(&t->armed[i], false, __ATOMIC_ACQ_REL))
            continue;
        if (scorep_smp_sources[i].kind == SMP_SRC_TIMER)
            timer_delete(t->timers[i]);
        else
            close(t->fds[i]);
    }
}

/* On t's own thread: its CPU time, for SCOREP_VERBOSE's report beside its signals (the
 * thread's end, not the event path) */
static void stop_own_thread(struct scorep_sampling_thread *t)
{
    struct timespec c;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c) == 0)
        t->cpu_ns = (uint64_t)c.tv_sec * 1000000000u + (uint64_t)c.tv_nsec;
    stop_thread(t);
}

void scorep_sampling_thread_end(scorep_location *l)
{
    if (l->sampling)
        stop_own_thread(l->sampling);
}

void scorep_sampling_stop_all(void)
{
    if (!sampling_on)
        return;
    struct sigaction cur;
    if (sigaction(SIGPROF, NULL, &cur) == 0 && cur.sa_sigaction != on_signal)
        scorep_warn("the program replaced the SIGPROF handler of sampling; samples stopped "
                    "when it did");
    scorep_location *own = scorep_tls_location;
    if (own && own->sampling)
        stop_own_thread(own->sampling);
    for (scorep_location *l = scorep_location_first(); l; l = l->next)
        if (l->sampling)
            stop_thread(l->sampling);
    /* a handler that began before the stop finishes within microseconds */
    for (scorep_location *l = scorep_location_first(); l; l = l->next)
        for (int spins = 0; l->sampling && l->sampling->busy && spins < 100000; spins++)
            sched_yield();
}

/* ------------------------------------------------------------------ init */
/* Drops the perf sources this machine cannot open (no PMU, perf_event_paranoid). */
static void probe_sources(void)
{
    int kept = 0;
    for (int i = 0; i < scorep_smp_n_sources; i++) {
        smp_source *s = &scorep_smp_sources[i];
        if (s->kind == SMP_SRC_PERF) {
            long fd = perf_open(s);
            if (fd < 0) {
                scorep_warn("SCOREP_SAMPLING_EVENTS: '%s' cannot be opened here (perf_event_open: "
                            "%s); sampling goes on without it. Software events such as "
                            "perf_task_clock@<ns> and timer@<us> need no hardware counters",
                            s->spec, strerror(errno));
                continue;
            }
            close((int)fd);
        }
        scorep_smp_sources[kept++] = *s;
    }
    scorep_smp_n_sources = kept;
}

int scorep_sampling_init(void)
{
    if (!scorep_cfg.enable_unwinding)
        return 0;
    char err[512];
    int n = scorep_sampling_parse(scorep_cfg.sampling_events, scorep_cfg.sampling_sep,
                                  scorep_smp_sources, SMP_MAX_SOURCES, err, sizeof err);
    if (n < 0) {
        scorep_warn("SCOREP_SAMPLING_EVENTS='%s': %s; the program runs without sampling",
                    scorep_cfg.sampling_events ? scorep_cfg.sampling_events : "", err);
        return -1;
    }
    scorep_smp_n_sources = n;
    probe_sources();
    if (scorep_smp_n_sources == 0)
        return 0;
    unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
    locate_dl_lock();
    struct sigaction old;
    if (sigaction(SIGPROF, NULL, &old) == 0 &&
        ((old.sa_flags & SA_SIGINFO) ? old.sa_sigaction != NULL
                                     : old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN)) {
        scorep_warn("the program handles SIGPROF itself (profiling timer); the program runs "
                    "without sampling");
        return -1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGPROF, &sa, NULL) != 0) {
        scorep_warn("cannot install the SIGPROF handler (%s); the program runs without sampling",
                    strerror(errno));
        return -1;
    }
    sampling_on = true;
    return 0;
}

bool scorep_sampling_enabled(void)
{
    return sampling_on;
}

bool scorep_sampling_unwinding(void)
{
    return scorep_cfg.enable_unwinding;
}

/* ------------------------------------------------ the runtime's subsystem (subsystem.h) */
static void sampling_subsystem_init(void)
{
    scorep_unwind_init();
    (void)scorep_sampling_init(); /* prints why sampling stays off */
}

static void sampling_location_created(scorep_location *l)
{
    scorep_unwind_thread_start(l);
    scorep_sampling_thread_start(l);
}

const scorep_subsystem scorep_subsystem_sampling = {
    .name = "sampling",
    .init = sampling_subsystem_init,
    .location_created = sampling_location_created,
    .end = scorep_sampling_stop_all,
    .finalize = scorep_sampling_finish, /* defines the sampled functions: before unification */
};
