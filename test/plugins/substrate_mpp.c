/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_mpp.c: a substrate plugin (Score-P's public headers only) for the one-sided,
 * non-blocking collective, communicator, OpenMP fork-join and task events and the CPU
 * location (de)activations: it logs each with its
 * arguments, in the order they come, counts them per type, checks that every window, group
 * and communicator handle they carry was announced by new_definition_handle with its type
 * before the event, that every task handle of an event was created (core_task_create) and
 * not yet completed (core_task_complete), and that timestamps do not go back per location
 * (enters and exits included), and that OpenMP construct regions (enters, task begins) have
 * the SCOREP_RegionType Score-P's OMPT adapter gives them. It writes all of it at write_data to
 * $SUBSTRATE_MPP_OUT.<rank> ("count NAME n" lines, then "log" lines "NAME timestamp
 * arguments"). Test-only: one process-wide log under a lock. */
#include <scorep/SCOREP_SubstratePlugins.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_HANDLES = 65536 };

static const SCOREP_SubstratePluginCallbacks *cb;
static size_t my_id;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* handle -> the SCOREP_HANDLE_TYPE_* it was announced with + 1 (0: not announced) */
static unsigned char win_type[MAX_HANDLES], comm_type[MAX_HANDLES], group_type[MAX_HANDLES];
static unsigned long unannounced, backwards, wrong_type, announced[3];
static unsigned long counts[SCOREP_SUBSTRATES_NUM_EVENTS];
static char *log_buf;
static size_t log_len, log_cap;

static const char *const names[SCOREP_SUBSTRATES_NUM_EVENTS] = {
    [SCOREP_EVENT_RMA_WIN_CREATE] = "RMA_WIN_CREATE",
    [SCOREP_EVENT_RMA_WIN_DESTROY] = "RMA_WIN_DESTROY",
    [SCOREP_EVENT_RMA_COLLECTIVE_BEGIN] = "RMA_COLLECTIVE_BEGIN",
    [SCOREP_EVENT_RMA_COLLECTIVE_END] = "RMA_COLLECTIVE_END",
    [SCOREP_EVENT_RMA_TRY_LOCK] = "RMA_TRY_LOCK",
    [SCOREP_EVENT_RMA_ACQUIRE_LOCK] = "RMA_ACQUIRE_LOCK",
    [SCOREP_EVENT_RMA_REQUEST_LOCK] = "RMA_REQUEST_LOCK",
    [SCOREP_EVENT_RMA_RELEASE_LOCK] = "RMA_RELEASE_LOCK",
    [SCOREP_EVENT_RMA_SYNC] = "RMA_SYNC",
    [SCOREP_EVENT_RMA_GROUP_SYNC] = "RMA_GROUP_SYNC",
    [SCOREP_EVENT_RMA_PUT] = "RMA_PUT",
    [SCOREP_EVENT_RMA_GET] = "RMA_GET",
    [SCOREP_EVENT_RMA_ATOMIC] = "RMA_ATOMIC",
    [SCOREP_EVENT_RMA_WAIT_CHANGE] = "RMA_WAIT_CHANGE",
    [SCOREP_EVENT_RMA_OP_COMPLETE_BLOCKING] = "RMA_OP_COMPLETE_BLOCKING",
    [SCOREP_EVENT_RMA_OP_COMPLETE_NON_BLOCKING] = "RMA_OP_COMPLETE_NON_BLOCKING",
    [SCOREP_EVENT_RMA_OP_TEST] = "RMA_OP_TEST",
    [SCOREP_EVENT_RMA_OP_COMPLETE_REMOTE] = "RMA_OP_COMPLETE_REMOTE",
    [SCOREP_EVENT_MPI_NON_BLOCKING_COLLECTIVE_REQUEST] = "MPI_NON_BLOCKING_COLLECTIVE_REQUEST",
    [SCOREP_EVENT_MPI_NON_BLOCKING_COLLECTIVE_COMPLETE] = "MPI_NON_BLOCKING_COLLECTIVE_COMPLETE",
    [SCOREP_EVENT_COMM_CREATE] = "COMM_CREATE",
    [SCOREP_EVENT_COMM_DESTROY] = "COMM_DESTROY",
    [SCOREP_EVENT_THREAD_FORK_JOIN_TASK_CREATE] = "TASK_CREATE",
    [SCOREP_EVENT_THREAD_FORK_JOIN_TASK_SWITCH] = "TASK_SWITCH",
    [SCOREP_EVENT_THREAD_FORK_JOIN_TASK_BEGIN] = "TASK_BEGIN",
    [SCOREP_EVENT_THREAD_FORK_JOIN_TASK_END] = "TASK_END",
    [SCOREP_EVENT_THREAD_FORK_JOIN_FORK] = "FORK",
    [SCOREP_EVENT_THREAD_FORK_JOIN_JOIN] = "JOIN",
    [SCOREP_EVENT_THREAD_FORK_JOIN_TEAM_BEGIN] = "TEAM_BEGIN",
    [SCOREP_EVENT_THREAD_FORK_JOIN_TEAM_END] = "TEAM_END",
};

/* live tasks (core_task_create .. core_task_complete), a small open table under the lock */
enum { MAX_TASKS = 4096 };
static SCOREP_TaskHandle live[MAX_TASKS];
static unsigned long tasks_created, tasks_completed, task_errors, task_region_enters;

static size_t task_slot(SCOREP_TaskHandle h)
{
    size_t i = ((uintptr_t)h >> 4) % MAX_TASKS;
    while (live[i] && live[i] != h)
        i = (i + 1) % MAX_TASKS;
    return i;
}

static int init(void)
{
    return 0;
}

static void set_callbacks(const SCOREP_SubstratePluginCallbacks *c, size_t size)
{
    if (size >= sizeof *c)
        cb = c;
}

static void assign_id(size_t id)
{
    my_id = id;
}

static void new_handle(SCOREP_AnyHandle h, SCOREP_HandleType type)
{
    unsigned char *slot = type == SCOREP_HANDLE_TYPE_RMA_WINDOW             ? win_type
                          : type == SCOREP_HANDLE_TYPE_INTERIM_COMMUNICATOR ? comm_type
                          : type == SCOREP_HANDLE_TYPE_GROUP                ? group_type
                                                                            : NULL;
    if (!slot || h >= MAX_HANDLES)
        return;
    pthread_mutex_lock(&lock);
    if (slot[h])
        wrong_type++; /* announced twice */
    slot[h] = 1;
    announced[slot == win_type ? 0 : slot == comm_type ? 1 : 2]++;
    pthread_mutex_unlock(&lock);
}

/* the location's last timestamp, kept in its data slot */
static void create_location(const struct SCOREP_Location *l, const struct SCOREP_Location *p)
{
    (void)p;
    cb->SCOREP_Location_SetData(l, my_id, calloc(1, sizeof(uint64_t)));
}

static void delete_location(const struct SCOREP_Location *l)
{
    free(cb->SCOREP_Location_GetData(l, my_id));
    cb->SCOREP_Location_SetData(l, my_id, NULL);
}

static void check_time(struct SCOREP_Location *l, uint64_t t)
{
    uint64_t *last = cb->SCOREP_Location_GetData(l, my_id);
    if (!last)
        return;
    if (t < *last)
        __atomic_fetch_add(&backwards, 1, __ATOMIC_RELAXED);
    *last = t;
}

/* Score-P's type of an OpenMP construct region, by its name without " @file:line"
 * (scorep_ompt_regions.inc.c); -1: not a construct region */
static int construct_type(const char *name)
{
    static const struct {
        const char *construct;
        SCOREP_RegionType type;
    } types[] = {{"!$omp parallel", SCOREP_REGION_PARALLEL},
                 {"!$omp implicit barrier", SCOREP_REGION_IMPLICIT_BARRIER},
                 {"!$omp barrier", SCOREP_REGION_BARRIER},
                 {"!$omp taskwait", SCOREP_REGION_BARRIER},
                 {"!$omp taskgroup", SCOREP_REGION_BARRIER},
                 {"!$omp for/do", SCOREP_REGION_LOOP},
                 {"!$omp sections", SCOREP_REGION_SECTIONS},
                 {"!$omp section", SCOREP_REGION_SECTION},
                 {"!$omp single", SCOREP_REGION_SINGLE},
                 {"!$omp single sblock", SCOREP_REGION_SINGLE_SBLOCK},
                 {"!$omp masked", SCOREP_REGION_MASTER},
                 {"!$omp critical", SCOREP_REGION_CRITICAL},
                 {"!$omp critical sblock", SCOREP_REGION_CRITICAL_SBLOCK},
                 {"!$omp ordered", SCOREP_REGION_ORDERED},
                 {"!$omp ordered sblock", SCOREP_REGION_ORDERED_SBLOCK},
                 {"!$omp task", SCOREP_REGION_TASK},
                 {"!$omp task untied", SCOREP_REGION_TASK_UNTIED},
                 {"!$omp create task", SCOREP_REGION_TASK_CREATE},
                 {"!$omp flush", SCOREP_REGION_FLUSH}};
    if (!name || strncmp(name, "!$omp ", 6) != 0)
        return -1;
    const char *at = strstr(name, " @");
    size_t n = at ? (size_t)(at - name) : strlen(name);
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].construct) == n && strncmp(name, types[i].construct, n) == 0)
            return (int)types[i].type;
    return -1;
}

static unsigned long omp_typed, omp_mistyped;

static void check_type(SCOREP_RegionHandle r, const char *name)
{
    int want = construct_type(name);
    if (want < 0)
        return;
    if ((int)cb->SCOREP_RegionHandle_GetType(r) == want)
        __atomic_fetch_add(&omp_typed, 1, __ATOMIC_RELAXED);
    else
        __atomic_fetch_add(&omp_mistyped, 1, __ATOMIC_RELAXED);
}

static void enter(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m)
{
    (void)m;
    check_time(l, t);
    /* a task's region comes as TASK_BEGIN, never as an enter */
    const char *name = cb->SCOREP_RegionHandle_GetName(r);
    if (name && strncmp(name, "!$omp task ", 11) == 0)
        __atomic_fetch_add(&task_region_enters, 1, __ATOMIC_RELAXED);
    check_type(r, name);
}

static void exit_(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m)
{
    enter(l, t, r, m);
}

/* handle h of kind slot must have been announced; caller holds the lock */
static void need(const unsigned char *slot, uint32_t h)
{
    if (h == 0 || h >= MAX_HANDLES || !slot[h])
        unannounced++;
}

static void append(const char *line, int n, int e);

/* one log line: event name, timestamp, then the arguments */
static void logf_(struct SCOREP_Location *l, SCOREP_Substrates_EventType e, uint64_t t,
                  const char *fmt, ...)
{
    check_time(l, t);
    char line[512];
    int n = snprintf(line, sizeof line, "%s %llu", names[e], (unsigned long long)t);
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof line - 1)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    append(line, n, (int)e);
}

/* a line of the log; e: its event's type (counted), or -1 (a management call) */
static void append(const char *line, int n, int e)
{
    pthread_mutex_lock(&lock);
    if (e >= 0)
        counts[e]++;
    if (log_len + (size_t)n > log_cap) {
        size_t cap = log_cap ? 2 * log_cap : 65536;
        while (cap < log_len + (size_t)n)
            cap *= 2;
        char *b = realloc(log_buf, cap);
        if (b) {
            log_buf = b;
            log_cap = cap;
        }
    }
    if (log_len + (size_t)n <= log_cap) {
        memcpy(log_buf + log_len, line, (size_t)n);
        log_len += (size_t)n;
    }
    pthread_mutex_unlock(&lock);
}

#define LOCKED(stmt)                                                                          \
    do {                                                                                      \
        pthread_mutex_lock(&lock);                                                            \
        stmt;                                                                                 \
        pthread_mutex_unlock(&lock);                                                          \
    } while (0)

static void win_create(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w)
{
    LOCKED(need(win_type, w));
    logf_(l, SCOREP_EVENT_RMA_WIN_CREATE, t, " win=%u", w);
}

static void win_destroy(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w)
{
    LOCKED(need(win_type, w));
    logf_(l, SCOREP_EVENT_RMA_WIN_DESTROY, t, " win=%u", w);
}

static void coll_begin(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaSyncLevel level)
{
    logf_(l, SCOREP_EVENT_RMA_COLLECTIVE_BEGIN, t, " level=%d", (int)level);
}

static void coll_end(struct SCOREP_Location *l, uint64_t t, SCOREP_CollectiveType op,
                     SCOREP_RmaSyncLevel level, SCOREP_RmaWindowHandle w, uint32_t root,
                     uint64_t sent, uint64_t received)
{
    LOCKED(need(win_type, w));
    logf_(l, SCOREP_EVENT_RMA_COLLECTIVE_END, t,
          " op=%d level=%d win=%u root=%d sent=%llu received=%llu", (int)op, (int)level, w,
          (int)root, (unsigned long long)sent, (unsigned long long)received);
}

static void lock_ev(struct SCOREP_Location *l, uint64_t t, SCOREP_Substrates_EventType e,
                    SCOREP_RmaWindowHandle w, uint32_t remote, uint64_t id, SCOREP_LockType type)
{
    LOCKED(need(win_type, w));
    logf_(l, e, t, " win=%u remote=%d lock=%llu type=%d", w, (int)remote, (unsigned long long)id,
          (int)type);
}

static void try_lock(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w,
                     uint32_t remote, uint64_t id, SCOREP_LockType type)
{
    lock_ev(l, t, SCOREP_EVENT_RMA_TRY_LOCK, w, remote, id, type);
}

static void acquire_lock(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w,
                         uint32_t remote, uint64_t id, SCOREP_LockType type)
{
    lock_ev(l, t, SCOREP_EVENT_RMA_ACQUIRE_LOCK, w, remote, id, type);
}

static void request_lock(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w,
                         uint32_t remote, uint64_t id, SCOREP_LockType type)
{
    lock_ev(l, t, SCOREP_EVENT_RMA_REQUEST_LOCK, w, remote, id, type);
}

static void release_lock(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w,
                         uint32_t remote, uint64_t id)
{
    LOCKED(need(win_type, w));
    logf_(l, SCOREP_EVENT_RMA_RELEASE_LOCK, t, " win=%u remote=%d lock=%llu", w, (int)remote,
          (unsigned long long)id);
}

static void sync_(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w, uint32_t remote,
                  SCOREP_RmaSyncType type)
{
    LOCKED(need(win_type, w));
    logf_(l, SCOREP_EVENT_RMA_SYNC, t, " win=%u remote=%d type=%d", w, (int)remote, (int)type);
}

static void group_sync(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaSyncLevel level,
                       SCOREP_RmaWindowHandle w, SCOREP_GroupHandle g)
{
    LOCKED(need(win_type, w); need(group_type, g));
    logf_(l, SCOREP_EVENT_RMA_GROUP_SYNC, t, " level=%d win=%u group=%u", (int)level, w, g);
}

static void transfer(struct SCOREP_Location *l, uint64_t t, SCOREP_Substrates_EventType e,
                     SCOREP_RmaWindowHandle w, uint32_t remote, uint64_t bytes, uint64_t id)
{
    LOCKED(need(win_type, w));
    logf_(l, e, t, " win=%u remote=%d bytes=%llu id=%llu", w, (int)remote,
          (unsigned long long)bytes, (unsigned long long)id);
}

static void put(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w, uint32_t remote,
                uint64_t bytes, uint64_t id)
{
    transfer(l, t, SCOREP_EVENT_RMA_PUT, w, remote, bytes, id);
}

static void get(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w, uint32_t remote,
                uint64_t bytes, uint64_t id)
{
    transfer(l, t, SCOREP_EVENT_RMA_GET, w, remote, bytes, id);
}

static void atomic(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w,
                   uint32_t remote, SCOREP_RmaAtomicType type, uint64_t sent, uint64_t received,
                   uint64_t id)
{
    LOCKED(need(win_type, w));
    logf_(l, SCOREP_EVENT_RMA_ATOMIC, t, " win=%u remote=%d type=%d sent=%llu received=%llu id=%llu",
          w, (int)remote, (int)type, (unsigned long long)sent, (unsigned long long)received,
          (unsigned long long)id);
}

static void wait_change(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w)
{
    LOCKED(need(win_type, w));
    logf_(l, SCOREP_EVENT_RMA_WAIT_CHANGE, t, " win=%u", w);
}

static void op_ev(struct SCOREP_Location *l, uint64_t t, SCOREP_Substrates_EventType e,
                  SCOREP_RmaWindowHandle w, uint64_t id)
{
    LOCKED(need(win_type, w));
    logf_(l, e, t, " win=%u id=%llu", w, (unsigned long long)id);
}

static void op_blocking(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w,
                        uint64_t id)
{
    op_ev(l, t, SCOREP_EVENT_RMA_OP_COMPLETE_BLOCKING, w, id);
}

static void op_non_blocking(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w,
                            uint64_t id)
{
    op_ev(l, t, SCOREP_EVENT_RMA_OP_COMPLETE_NON_BLOCKING, w, id);
}

static void op_test(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w, uint64_t id)
{
    op_ev(l, t, SCOREP_EVENT_RMA_OP_TEST, w, id);
}

static void op_remote(struct SCOREP_Location *l, uint64_t t, SCOREP_RmaWindowHandle w, uint64_t id)
{
    op_ev(l, t, SCOREP_EVENT_RMA_OP_COMPLETE_REMOTE, w, id);
}

static void nbc_request(struct SCOREP_Location *l, uint64_t t, SCOREP_MpiRequestId id)
{
    logf_(l, SCOREP_EVENT_MPI_NON_BLOCKING_COLLECTIVE_REQUEST, t, " request=%llu",
          (unsigned long long)id);
}

static void nbc_complete(struct SCOREP_Location *l, uint64_t t, SCOREP_InterimCommunicatorHandle c,
                         SCOREP_MpiRank root, SCOREP_CollectiveType op, uint64_t sent,
                         uint64_t received, SCOREP_MpiRequestId id)
{
    LOCKED(need(comm_type, c));
    logf_(l, SCOREP_EVENT_MPI_NON_BLOCKING_COLLECTIVE_COMPLETE, t,
          " comm=%u root=%d op=%d sent=%llu received=%llu request=%llu", c, (int)root, (int)op,
          (unsigned long long)sent, (unsigned long long)received, (unsigned long long)id);
}

static void comm_create(struct SCOREP_Location *l, uint64_t t, SCOREP_InterimCommunicatorHandle c)
{
    LOCKED(need(comm_type, c));
    logf_(l, SCOREP_EVENT_COMM_CREATE, t, " comm=%u", c);
}

static void comm_destroy(struct SCOREP_Location *l, uint64_t t, SCOREP_InterimCommunicatorHandle c)
{
    LOCKED(need(comm_type, c));
    logf_(l, SCOREP_EVENT_COMM_DESTROY, t, " comm=%u", c);
}

/* ---- OpenMP tasks */
static void core_task_create(const struct SCOREP_Location *l, SCOREP_TaskHandle h)
{
    pthread_mutex_lock(&lock);
    size_t i = task_slot(h);
    task_errors += live[i] != NULL; /* created twice */
    live[i] = h;
    tasks_created++;
    pthread_mutex_unlock(&lock);
    (void)l;
}

static void core_task_complete(const struct SCOREP_Location *l, SCOREP_TaskHandle h)
{
    pthread_mutex_lock(&lock);
    size_t i = task_slot(h);
    if (live[i]) {
        /* remove and re-place the entries after it (open addressing) */
        live[i] = NULL;
        for (size_t j = (i + 1) % MAX_TASKS; live[j]; j = (j + 1) % MAX_TASKS) {
            SCOREP_TaskHandle k = live[j];
            live[j] = NULL;
            live[task_slot(k)] = k;
        }
        tasks_completed++;
    } else {
        task_errors++; /* completed without being created */
    }
    pthread_mutex_unlock(&lock);
    (void)l;
}

/* the task handle of an event must be live */
static void need_task(SCOREP_TaskHandle h)
{
    pthread_mutex_lock(&lock);
    task_errors += !h || live[task_slot(h)] != h;
    pthread_mutex_unlock(&lock);
}

static void task_create(struct SCOREP_Location *l, uint64_t t, SCOREP_ParadigmType p,
                        SCOREP_InterimCommunicatorHandle team, uint32_t thread, uint32_t gen)
{
    logf_(l, SCOREP_EVENT_THREAD_FORK_JOIN_TASK_CREATE, t, " loc=%u paradigm=%d team=%u thread=%u gen=%u",
          cb->SCOREP_Location_GetId(l), (int)p, team, thread, gen);
}

static void task_switch(struct SCOREP_Location *l, uint64_t t, uint64_t *m, SCOREP_ParadigmType p,
                        SCOREP_InterimCommunicatorHandle team, uint32_t thread, uint32_t gen,
                        SCOREP_TaskHandle h)
{
    (void)m;
    need_task(h);
    logf_(l, SCOREP_EVENT_THREAD_FORK_JOIN_TASK_SWITCH, t,
          " loc=%u paradigm=%d team=%u thread=%u gen=%u task=%p", cb->SCOREP_Location_GetId(l),
          (int)p, team, thread, gen, (void *)h);
}

static void task_be(struct SCOREP_Location *l, uint64_t t, SCOREP_Substrates_EventType e,
                    SCOREP_RegionHandle r, uint64_t *m, SCOREP_ParadigmType p,
                    SCOREP_InterimCommunicatorHandle team, uint32_t thread, uint32_t gen,
                    SCOREP_TaskHandle h)
{
    need_task(h);
    const char *name = cb->SCOREP_RegionHandle_GetName(r);
    check_type(r, name);
    logf_(l, e, t, " loc=%u paradigm=%d team=%u thread=%u gen=%u task=%p metrics=%d region=%s",
          cb->SCOREP_Location_GetId(l), (int)p, team, thread, gen, (void *)h, m != NULL,
          name ? name : "(none)");
}

static void task_begin(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m,
                       SCOREP_ParadigmType p, SCOREP_InterimCommunicatorHandle team,
                       uint32_t thread, uint32_t gen, SCOREP_TaskHandle h)
{
    task_be(l, t, SCOREP_EVENT_THREAD_FORK_JOIN_TASK_BEGIN, r, m, p, team, thread, gen, h);
}

static void task_end(struct SCOREP_Location *l, uint64_t t, SCOREP_RegionHandle r, uint64_t *m,
                     SCOREP_ParadigmType p, SCOREP_InterimCommunicatorHandle team,
                     uint32_t thread, uint32_t gen, SCOREP_TaskHandle h)
{
    task_be(l, t, SCOREP_EVENT_THREAD_FORK_JOIN_TASK_END, r, m, p, team, thread, gen, h);
}

/* fork-join events and the CPU location (de)activations, logged in the order they come
 * (ACTIVATE/DEACTIVATE have no timestamp: "-") */
static unsigned loc_id(const struct SCOREP_Location *l)
{
    return l ? (unsigned)cb->SCOREP_Location_GetId(l) : UINT32_MAX;
}

static void fork_(struct SCOREP_Location *l, uint64_t t, SCOREP_ParadigmType p, uint32_t n,
                  uint32_t seq)
{
    logf_(l, SCOREP_EVENT_THREAD_FORK_JOIN_FORK, t, " loc=%u paradigm=%d requested=%u seq=%u",
          loc_id(l), (int)p, n, seq);
}

static void join_(struct SCOREP_Location *l, uint64_t t, SCOREP_ParadigmType p)
{
    logf_(l, SCOREP_EVENT_THREAD_FORK_JOIN_JOIN, t, " loc=%u paradigm=%d", loc_id(l), (int)p);
}

static void team_begin(struct SCOREP_Location *l, uint64_t t, SCOREP_ParadigmType p,
                       SCOREP_InterimCommunicatorHandle team, uint64_t tid)
{
    (void)tid;
    logf_(l, SCOREP_EVENT_THREAD_FORK_JOIN_TEAM_BEGIN, t, " loc=%u paradigm=%d team=%u",
          loc_id(l), (int)p, team);
}

static void team_end(struct SCOREP_Location *l, uint64_t t, SCOREP_ParadigmType p,
                     SCOREP_InterimCommunicatorHandle team)
{
    logf_(l, SCOREP_EVENT_THREAD_FORK_JOIN_TEAM_END, t, " loc=%u paradigm=%d team=%u",
          loc_id(l), (int)p, team);
}

static void activate(const struct SCOREP_Location *l, const struct SCOREP_Location *parent,
                     uint32_t seq)
{
    char line[128];
    int n = snprintf(line, sizeof line, "ACTIVATE - loc=%u parent=%d seq=%u\n", loc_id(l),
                     parent ? (int)loc_id(parent) : -1, seq);
    append(line, n, -1);
}

static void deactivate(const struct SCOREP_Location *l, const struct SCOREP_Location *parent)
{
    char line[128];
    int n = snprintf(line, sizeof line, "DEACTIVATE - loc=%u parent=%d\n", loc_id(l),
                     parent ? (int)loc_id(parent) : -1);
    append(line, n, -1);
}

static SCOREP_Substrates_Callback enabled[SCOREP_SUBSTRATES_NUM_EVENTS];
static SCOREP_Substrates_Callback disabled[SCOREP_SUBSTRATES_NUM_EVENTS];

#define SET(E, f) enabled[SCOREP_EVENT_##E] = (SCOREP_Substrates_Callback)(f)

static uint32_t get_event_functions(SCOREP_Substrates_Mode mode, SCOREP_Substrates_Callback **fn)
{
    SET(ENTER_REGION, enter);
    SET(EXIT_REGION, exit_);
    SET(THREAD_FORK_JOIN_TASK_CREATE, task_create);
    SET(THREAD_FORK_JOIN_TASK_SWITCH, task_switch);
    SET(THREAD_FORK_JOIN_TASK_BEGIN, task_begin);
    SET(THREAD_FORK_JOIN_TASK_END, task_end);
    SET(THREAD_FORK_JOIN_FORK, fork_);
    SET(THREAD_FORK_JOIN_JOIN, join_);
    SET(THREAD_FORK_JOIN_TEAM_BEGIN, team_begin);
    SET(THREAD_FORK_JOIN_TEAM_END, team_end);
    SET(RMA_WIN_CREATE, win_create);
    SET(RMA_WIN_DESTROY, win_destroy);
    SET(RMA_COLLECTIVE_BEGIN, coll_begin);
    SET(RMA_COLLECTIVE_END, coll_end);
    SET(RMA_TRY_LOCK, try_lock);
    SET(RMA_ACQUIRE_LOCK, acquire_lock);
    SET(RMA_REQUEST_LOCK, request_lock);
    SET(RMA_RELEASE_LOCK, release_lock);
    SET(RMA_SYNC, sync_);
    SET(RMA_GROUP_SYNC, group_sync);
    SET(RMA_PUT, put);
    SET(RMA_GET, get);
    SET(RMA_ATOMIC, atomic);
    SET(RMA_WAIT_CHANGE, wait_change);
    SET(RMA_OP_COMPLETE_BLOCKING, op_blocking);
    SET(RMA_OP_COMPLETE_NON_BLOCKING, op_non_blocking);
    SET(RMA_OP_TEST, op_test);
    SET(RMA_OP_COMPLETE_REMOTE, op_remote);
    SET(MPI_NON_BLOCKING_COLLECTIVE_REQUEST, nbc_request);
    SET(MPI_NON_BLOCKING_COLLECTIVE_COMPLETE, nbc_complete);
    SET(COMM_CREATE, comm_create);
    SET(COMM_DESTROY, comm_destroy);
    *fn = mode == SCOREP_SUBSTRATES_RECORDING_ENABLED ? enabled : disabled;
    return SCOREP_SUBSTRATES_NUM_EVENTS;
}

static void write_data(void)
{
    const char *out = getenv("SUBSTRATE_MPP_OUT");
    if (!out)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s.%d", out, cb->SCOREP_Ipc_GetRank());
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    for (int e = 0; e < SCOREP_SUBSTRATES_NUM_EVENTS; e++)
        if (names[e])
            fprintf(f, "count %s %lu\n", names[e], counts[e]);
    fprintf(f, "announced windows %lu comms %lu groups %lu twice %lu\n", announced[0], announced[1],
            announced[2], wrong_type);
    fprintf(f, "unannounced %lu\n", unannounced);
    fprintf(f, "backwards %lu\n", backwards);
    fprintf(f, "omp region types right %lu wrong %lu\n", omp_typed, omp_mistyped);
    size_t left = 0;
    for (size_t i = 0; i < MAX_TASKS; i++)
        left += live[i] != NULL;
    fprintf(f, "tasks created %lu completed %lu live %zu errors %lu region_enters %lu\n",
            tasks_created, tasks_completed, left, task_errors, task_region_enters);
    size_t start = 0;
    for (size_t i = 0; i < log_len; i++)
        if (log_buf[i] == '\n') {
            fprintf(f, "log %.*s\n", (int)(i - start), log_buf + start);
            start = i + 1;
        }
    fclose(f);
}

SCOREP_SUBSTRATE_PLUGIN_ENTRY(mpp)
{
    SCOREP_SubstratePluginInfo info;
    memset(&info, 0, sizeof info);
    info.plugin_version = SCOREP_SUBSTRATE_PLUGIN_VERSION;
    info.init = init;
    info.assign_id = assign_id;
    info.create_location = create_location;
    info.delete_location = delete_location;
    info.write_data = write_data;
    info.new_definition_handle = new_handle;
    info.core_task_create = core_task_create;
    info.core_task_complete = core_task_complete;
    info.activate_cpu_location = activate;
    info.deactivate_cpu_location = deactivate;
    info.get_event_functions = get_event_functions;
    info.set_callbacks = set_callbacks;
    return info;
}
