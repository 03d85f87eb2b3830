/* SPDX-License-Identifier: BSD-3-Clause */
/* test_core.c: unit tests of the core's building blocks: timer monotonicity, definition
 * deduplication, the memory pool's reserve for late threads, the trace buffer's merge order
 * across call depths and classes, and the
 * MPI definitions' names and trace ids (groups by content, communicators parents first), the
 * profile's lookup of the child a call enters, a checkpoint's pack and close_all of deep
 * call chains and nested teams. */
#include "buffer/buffer.h"
#include "base/memory.h"
#include "base/timer.h"
#include "defs/defs.h"
#include "defs/defs_mpi.h"
#include "profile/profile.h"
#include "profile/profile_ser.h"
#include "profile/profile_threads.h"
#include "trace/trace_mpi_groups.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int checks, failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

static void test_timer(scorep_timer_kind kind)
{
    scorep_timer_kind got = scorep_timer_init(kind);
    CHECK(got == kind || (kind == SCOREP_TIMER_TSC && got == SCOREP_TIMER_CLOCK_GETTIME),
          "timer kind %d -> %d", kind, got);
    uint64_t prev = scorep_timer_ticks(), back = 0;
    for (int i = 0; i < 1000000; i++) {
        uint64_t t = scorep_timer_ticks();
        back += t < prev;
        prev = t;
    }
    CHECK(back == 0, "timer %d went back %llu times", kind, (unsigned long long)back);
    /* A 30 ms sleep, read on the timer inside the same interval read on CLOCK_MONOTONIC: at
     * least 30 ms, and no longer than CLOCK_MONOTONIC saw, however long the load made it. The
     * 5% cover the TSC's calibration (a sample taken across a preemption), the microsecond
     * gettimeofday's granule. */
    struct timespec d = {0, 30000000}, m0, m1;
    clock_gettime(CLOCK_MONOTONIC, &m0);
    uint64_t a = scorep_timer_ticks();
    nanosleep(&d, NULL);
    uint64_t b = scorep_timer_ticks();
    clock_gettime(CLOCK_MONOTONIC, &m1);
    scorep_timer_finish();
    double secs = (double)(b - a) / (double)scorep_timer_resolution();
    double mono = (double)(m1.tv_sec - m0.tv_sec) + (double)(m1.tv_nsec - m0.tv_nsec) * 1e-9;
    CHECK(secs >= 0.0299 && secs <= mono * 1.05 + 2e-6,
          "30 ms sleep measured as %f s, CLOCK_MONOTONIC around it %f s (timer %d)", secs, mono,
          kind);
}

static void test_defs(void)
{
    uint32_t a = scorep_defs_region("foo", NULL, "a.c", 3, 3, SCOREP_PARADIGM_COMPILER,
                                    SCOREP_ROLE_FUNCTION);
    uint32_t b = scorep_defs_region("foo", NULL, "a.c", 3, 3, SCOREP_PARADIGM_COMPILER,
                                    SCOREP_ROLE_FUNCTION);
    uint32_t c = scorep_defs_region("foo", NULL, "b.c", 3, 3, SCOREP_PARADIGM_COMPILER,
                                    SCOREP_ROLE_FUNCTION);
    uint32_t d =
        scorep_defs_region("foo", NULL, "a.c", 3, 3, SCOREP_PARADIGM_USER, SCOREP_ROLE_FUNCTION);
    CHECK(a == b, "equal regions deduplicated (%u %u)", a, b);
    CHECK(a != c && a != d && c != d, "different file/paradigm give new regions");
    CHECK(scorep_defs_region_count() == 3, "3 regions, got %u", scorep_defs_region_count());
    CHECK(strcmp(scorep_defs_region_get(c)->file, "b.c") == 0, "region file kept");
    char name[32];
    for (int i = 0; i < 5000; i++) { /* crosses chunk and hash growth */
        snprintf(name, sizeof name, "s%d", i % 2500);
        uint32_t id = scorep_defs_string(name);
        CHECK(id == (uint32_t)(i % 2500), "string %s has id %u", name, id);
    }
    CHECK(scorep_defs_string_count() == 2500, "2500 strings, got %u", scorep_defs_string_count());
    uint32_t p1 = scorep_defs_parameter("n", SCOREP_PARAM_INT64);
    uint32_t p2 = scorep_defs_parameter("n", SCOREP_PARAM_STRING);
    CHECK(p1 != p2 && scorep_defs_parameter("n", SCOREP_PARAM_INT64) == p1,
          "parameters keyed by name and type");
}

static void *define_many(void *arg)
{
    (void)arg;
    char name[32];
    for (int i = 0; i < 2000; i++) {
        snprintf(name, sizeof name, "thr%d", i);
        scorep_defs_region(name, NULL, NULL, 0, 0, SCOREP_PARADIGM_USER, SCOREP_ROLE_CODE);
    }
    return NULL;
}

static void test_defs_threads(void)
{
    uint32_t before = scorep_defs_region_count();
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, define_many, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    CHECK(scorep_defs_region_count() - before == 2000,
          "4 threads x 2000 equal names -> 2000 "
          "regions, got %u",
          scorep_defs_region_count() - before);
}

/* A call tree recorded into the depth arrays plus class events comes back in time order. */
/* pages a location gets from the pool, starting with `held`, until it is refused */
static uint64_t take_all(uint64_t held)
{
    uint64_t n = 0;
    while (scorep_memory_page(held + n))
        n++;
    return n;
}

/* The reserve (base/memory.h): the last eighth of the pool goes to locations that hold few
 * pages, 16 each first, then while they hold less than an eighth of what is left. Expected
 * counts worked out from that rule: 2048 pages, reserve 256; the first location stops at
 * 1792; the next takes 16 + up to h = 28 (8 * 28 < 256 - 28): 29; the third up to h = 25
 * (8 * 25 < 227 - 25): 26; a location with none still gets one while any is left. */
static void test_memory_reserve(void)
{
    CHECK(scorep_memory_init(1 << 20, 512) == 0 && scorep_memory_pages_total() == 2048,
          "a fresh 2048-page pool");
    uint64_t a = take_all(0), b = take_all(0), c = take_all(0);
    CHECK(a == 1792 && b == 29 && c == 26, "shares %llu %llu %llu, expected 1792 29 26",
          (unsigned long long)a, (unsigned long long)b, (unsigned long long)c);
    CHECK(take_all(a) == 0, "the first location gets nothing of the rest");
    uint64_t left = 2048 - scorep_memory_pages_used(), late = 0;
    while (scorep_memory_page(0))
        late++;
    CHECK(left == 201 && late == 201 && !scorep_memory_page(0),
          "locations with none take the last %llu of %llu pages", (unsigned long long)late,
          (unsigned long long)left);
    CHECK(scorep_memory_init(1 << 20, 512) == 0, "a fresh pool");
    scorep_memory_set_reserve(0);
    CHECK(take_all(0) == 2048, "no reserve: first come, first served");
}

static void test_buffer_merge(void)
{
    CHECK(scorep_memory_init(1 << 20, 512) == 0, "memory pool");
    scorep_buffer b;
    CHECK(scorep_buffer_init(&b) == 0, "buffer init");
    uint64_t t = 100;
    /* main { a { b x300 } param c } : many records, small pages -> several pages per array */
    scorep_buffer_region(&b, 0, t++, 1, BUF_ENTER);
    scorep_buffer_region(&b, 1, t++, 2, BUF_ENTER);
    for (int i = 0; i < 300; i++) {
        scorep_buffer_region(&b, 2, t++, 3, BUF_ENTER);
        scorep_buffer_region(&b, 2, t++, 3, BUF_LEAVE);
    }
    scorep_buffer_region(&b, 1, t++, 2, BUF_LEAVE);
    scorep_buffer_event(&b, BUF_CLASS_PARAM, t++, BUF_EV_PARAM_INT, 7, 42);
    scorep_buffer_region(&b, 1, t++, 4, BUF_ENTER);
    scorep_buffer_region(&b, 1, t++, 4, BUF_LEAVE);
    scorep_buffer_region(&b, 0, t++, 1, BUF_LEAVE);
    uint64_t n = 0, last = 0, order_errors = 0;
    int depth = 0, max_depth = 0, nest_errors = 0, params = 0;
    buf_merge *m = buf_merge_new(&b);
    buf_item it;
    while (m && buf_merge_next(m, &it)) {
        order_errors += it.ts != 100 + n;
        last = it.ts;
        n++;
        if (it.type == BUF_ENTER && ++depth > max_depth)
            max_depth = depth;
        if (it.type == BUF_LEAVE && --depth < 0)
            nest_errors++;
        if (it.type == BUF_EV_PARAM_INT) {
            params++;
            CHECK(it.a == 7 && it.b == 42 && depth == 1, "parameter record intact");
        }
    }
    CHECK(params == 1, "one parameter record merged, got %d", params);
    buf_merge_free(m);
    CHECK(n == t - 100, "all %llu records merged, got %llu", (unsigned long long)(t - 100),
          (unsigned long long)n);
    CHECK(order_errors == 0 && last == t - 1, "records in time order (%llu errors)",
          (unsigned long long)order_errors);
    CHECK(nest_errors == 0 && depth == 0 && max_depth == 3, "proper nesting, depth 3");
    CHECK(scorep_buffer_count(&b) == n, "buffer count");
    /* exhaust the pool (no reduction steps configured): the buffer becomes full and stops
     * everywhere */
    scorep_buffer_region(&b, 0, t++, 1, BUF_ENTER);
    while (!b.full)
        scorep_buffer_region(&b, 5, t++, 9, BUF_ENTER);
    uint64_t before = scorep_buffer_count(&b);
    scorep_buffer_region(&b, 0, t++, 1, BUF_LEAVE); /* a stream that still had room */
    CHECK(scorep_buffer_count(&b) == before, "nothing recorded after the buffer is full");
    /* lost: the enter that found no room (and set full), then the leave */
    CHECK(b.lost == 2, "2 lost events counted, got %llu", (unsigned long long)b.lost);
}

static void test_mpi_defs(void)
{
    const uint32_t a[] = {0, 2}, b[] = {1, 3};
    scorep_comm_def d = {.key = 7,
                         .name = "",
                         .size = 2,
                         .members = a,
                         .size_b = 2,
                         .members_b = b,
                         .parent_key = SCOREP_COMM_KEY_NONE,
                         .is_inter = 1};
    uint32_t id = scorep_defs_comm(&d);
    d.name = "other";
    CHECK(scorep_defs_comm(&d) == id, "a communicator is its key");
    const scorep_comm_def *got = scorep_defs_comm_get(id);
    CHECK(got->size_b == 2 && got->members_b[1] == 3 && got->members_b != b, "group B copied");
    CHECK(scorep_defs_comm_set_name(id, "halves") == 0 && strcmp(got->name, "halves") == 0,
          "MPI_Comm_set_name renames");
    CHECK(scorep_defs_comm_set_name(id + 1, "x") == -1, "unknown id refused");
    uint32_t w = scorep_defs_win(9, "", id);
    CHECK(scorep_defs_win_set_name(w, "win") == 0 &&
              strcmp(scorep_defs_win_get(w)->name, "win") == 0,
          "MPI_Win_set_name renames");
}

/* comms: 0 derives from 2 (defined later), 1 an intercommunicator {0} x {1}, 2 the world */
static void test_mpi_trace_ids(void)
{
    uint32_t pair[] = {0, 1}, r0[] = {0}, r1[] = {1};
    scorep_group_def groups[] = {{2, pair}, {1, r1}};
    scorep_comm_def comms[] = {{.key = 5, .size = 2, .members = pair, .parent = 2},
                               {.key = 6,
                                .size = 1,
                                .members = r0,
                                .size_b = 1,
                                .members_b = r1,
                                .parent = 2,
                                .is_inter = 1},
                               {.key = 0, .size = 2, .members = pair, .parent = SCOREP_INVALID_ID}};
    scorep_unified u = {.comms = comms, .groups = groups};
    u.n[U_COMM] = 3;
    u.n[U_GROUP] = 2;
    scorep_mpi_groups m;
    CHECK(scorep_mpi_groups_build(&m, &u) == 0, "groups built");
    CHECK(m.n == 3, "3 distinct member lists, got %u", m.n);
    CHECK(m.of_group[0] == 1 && m.of_group[1] == 2, "MPI_Group ids %u %u", m.of_group[0],
          m.of_group[1]);
    CHECK(m.a[0] == 1 && m.a[2] == 1 && m.a[1] == 3 && m.b[1] == 2, "communicator groups shared");
    CHECK(m.comm_id[2] == 0 && m.comm_id[0] == 1 && m.comm_id[1] == 2, "parents first: %u %u %u",
          m.comm_id[0], m.comm_id[1], m.comm_id[2]);
    CHECK(m.comm_at[0] == 2 && m.comm_at[1] == 0 && m.comm_at[2] == 1, "inverse order");
    scorep_mpi_groups_free(&m);
}

/* Merges b and checks time order and nesting; counts enters of region r (or all: ~0u). */
static uint64_t check_valid(const scorep_buffer *b, uint32_t r, const char *what)
{
    buf_merge *m = buf_merge_new(b);
    buf_item it;
    uint64_t last = 0, enters = 0, bad_order = 0;
    uint32_t stack[64], depth = 0, bad_nest = 0;
    while (m && buf_merge_next(m, &it)) {
        bad_order += it.ts <= last;
        last = it.ts;
        if (it.type == BUF_ENTER && depth < 64) {
            stack[depth++] = it.a;
            enters += r == ~0u || it.a == r;
        } else if (it.type == BUF_LEAVE) {
            bad_nest += depth == 0 || stack[depth - 1] != it.a;
            depth -= depth > 0;
        }
    }
    buf_merge_free(m);
    CHECK(bad_order == 0 && bad_nest == 0, "%s: %u order, %u nesting errors", what,
          (unsigned)bad_order, bad_nest);
    return enters;
}

/* main { comm { MPI_Send + message } (4 ticks, shorter than anything else) */
static uint64_t record_comm(scorep_buffer *b, uint64_t t, uint32_t main_r, uint32_t comm,
                            uint32_t send)
{
    scorep_buffer_enter(b, 0, t++, main_r);
    scorep_buffer_enter(b, 1, t, comm);
    scorep_buffer_enter(b, 2, t + 1, send);
    CHECK(scorep_buffer_mpi(b, t + 2, BUF_MPI_SEND) != NULL, "MPI record");
    scorep_buffer_leave(b, 2, t + 3, send);
    scorep_buffer_leave(b, 1, t + 4, comm);
    return t + 10;
}

/* n x ( work [50 ticks] { leaf [5 ticks] } ) inside main */
static uint64_t fill_calls(scorep_buffer *b, uint64_t t, uint32_t work, uint32_t leaf, int n)
{
    for (int i = 0; i < n && !b->full; i++) {
        scorep_buffer_enter(b, 1, t, work);
        scorep_buffer_enter(b, 2, t + 10, leaf);
        scorep_buffer_leave(b, 2, t + 15, leaf);
        scorep_buffer_leave(b, 1, t + 50, work);
        t += 60;
    }
    return t;
}

/* main and work (compiler functions) and leaf (a user region) of file: the reduction tests'
 * call tree */
static void reduction_regions(const char *file, uint32_t *main_r, uint32_t *work, uint32_t *leaf)
{
    *main_r = scorep_defs_region("main", NULL, file, 1, 1, SCOREP_PARADIGM_COMPILER,
                                 SCOREP_ROLE_FUNCTION);
    *work = scorep_defs_region("work", NULL, file, 2, 2, SCOREP_PARADIGM_COMPILER,
                               SCOREP_ROLE_FUNCTION);
    *leaf =
        scorep_defs_region("leaf", NULL, file, 3, 3, SCOREP_PARADIGM_USER, SCOREP_ROLE_FUNCTION);
}

static void test_reduction(void)
{
    uint32_t main_r, work, leaf;
    reduction_regions("r.c", &main_r, &work, &leaf);
    uint32_t comm =
        scorep_defs_region("comm", NULL, "r.c", 4, 4, SCOREP_PARADIGM_USER, SCOREP_ROLE_FUNCTION);
    uint32_t send = scorep_defs_region("MPI_Send", NULL, "", 0, 0, SCOREP_PARADIGM_MPI,
                                       SCOREP_ROLE_POINT2POINT);
    CHECK(scorep_memory_init(64 << 10, 512) == 0, "a fresh 64 KiB pool");
    scorep_buffer b;
    CHECK(scorep_buffer_init(&b) == 0, "buffer init");
    CHECK(scorep_buffer_parse_steps("min_duration,depth,noncomm", b.steps, &b.n_steps) == 0 &&
              b.n_steps == 3,
          "default steps parse");
    uint8_t st[3], n;
    CHECK(scorep_buffer_parse_steps("depth,depth", st, &n) != 0, "a step twice is refused");
    CHECK(scorep_buffer_parse_steps("deep", st, &n) != 0, "unknown step refused");
    CHECK(scorep_buffer_parse_steps("none", st, &n) == 0 && n == 0, "none: no steps");
    b.step = 0;
    b.min_dur_first = 8;
    b.min_dur_cap = 16; /* work (50 ticks) stays above it: the depth step must follow */
    uint64_t t = record_comm(&b, 1000, main_r, comm, send);
    /* far more calls than the 64 KiB pool holds: reductions, never a stop */
    t = fill_calls(&b, t, work, leaf, 200000);
    CHECK(!b.full, "reduced instead of stopping");
    /* 8 removes the leaves; 16 would remove nothing (no entry); depth 2 would free too
     * little (the leaves are gone), so the depth step cuts at 1 at once */
    CHECK(b.n_log == 2, "2 reductions, got %u", b.n_log);
    static const uint32_t rule[2] = {BUF_STEP_MIN_DURATION, BUF_STEP_DEPTH};
    static const uint64_t param[2] = {8, 1};
    for (uint32_t i = 0; i < 2 && i < b.n_log; i++)
        CHECK(b.log[i].rule == rule[i] && b.log[i].param == param[i],
              "reduction %u: rule %u param %llu", i, b.log[i].rule,
              (unsigned long long)b.log[i].param);
    CHECK(b.depth_limit == 1 && b.min_dur == 8, "limits in force: depth %u, %llu ticks",
          b.depth_limit, (unsigned long long)b.min_dur);
    /* leaf calls recorded after the first reduction were popped at their leave */
    CHECK(check_valid(&b, leaf, "leaf") == 0, "every 5-tick leaf removed");
    /* the call being entered while the depth step ran is the only one left */
    CHECK(check_valid(&b, work, "work") == 1, "depth 1 dropped: one work call left");
    CHECK(check_valid(&b, comm, "comm") == 0 && check_valid(&b, send, "send") == 1,
          "depth 1 dropped the user call around MPI_Send, MPI_Send itself kept");
    CHECK(check_valid(&b, main_r, "main") == 1, "main's open enter kept");

    /* the noncomm step alone: calls without communication go, comm and MPI_Send stay */
    CHECK(scorep_memory_init(64 << 10, 512) == 0, "a fresh 64 KiB pool");
    scorep_buffer c;
    CHECK(scorep_buffer_init(&c) == 0, "buffer init");
    CHECK(scorep_buffer_parse_steps("noncomm", c.steps, &c.n_steps) == 0, "noncomm parses");
    c.step = 0;
    uint64_t tc = record_comm(&c, 1000, main_r, comm, send);
    tc = fill_calls(&c, tc, work, leaf, 100000);
    CHECK(!c.full && c.n_log >= 1 && c.log[0].rule == BUF_STEP_NONCOMM, "noncomm applied");
    CHECK(check_valid(&c, comm, "comm") == 1 && check_valid(&c, send, "send") == 1,
          "noncomm keeps the call around communication");
    CHECK(check_valid(&c, work, "work") < 100000, "noncomm removed work calls");

    /* rewind: cut everything from a time on */
    uint64_t cut = t;
    t = fill_calls(&b, t, work, leaf, 3);
    scorep_buffer_event(&b, BUF_CLASS_PARAM, t++, BUF_EV_PARAM_INT, 1, 2);
    uint64_t all = check_valid(&b, ~0u, "before rewind");
    scorep_buffer_truncate(&b, cut);
    CHECK(check_valid(&b, ~0u, "after rewind") <= all, "rewind removes records");
    buf_merge *mm = buf_merge_new(&b);
    buf_item it;
    uint64_t late = 0;
    while (mm && buf_merge_next(mm, &it))
        late += it.ts >= cut;
    buf_merge_free(mm);
    CHECK(late == 0, "no record at or after the rewind point (%llu)", (unsigned long long)late);
    scorep_buffer_leave(&b, 0, t + 1, main_r);
    CHECK(check_valid(&b, main_r, "main closed") == 1, "main still open after the rewind");
}

/* test_reduction_depth_unlogged's flush step: empties the buffer (its pages go to the spare
 * list) as a flush to disk would, without a spill file */
static int empty_buffer(scorep_buffer *b, uint64_t ts)
{
    (void)ts;
    scorep_buffer_truncate(b, 0);
    return 0;
}

/* A depth step that removes nothing (below depth 0 only calls of MPI, as CP2K's) sets its rule
 * as before, so the ladder moves on to the flush exactly as it did, but it is not logged: the
 * trace lacks nothing (no marker, MANIFEST.md row or "reduced" warning). The first later call
 * its rule drops logs it then, at that call's time, once. */
static void test_reduction_depth_unlogged(void)
{
    uint32_t main_r, work, leaf;
    reduction_regions("u.c", &main_r, &work, &leaf);
    uint32_t test = scorep_defs_region("MPI_Test", NULL, "", 0, 0, SCOREP_PARADIGM_MPI,
                                       SCOREP_ROLE_POINT2POINT);
    CHECK(scorep_memory_init(64 << 10, 512) == 0, "a fresh 64 KiB pool");
    scorep_buffer b;
    CHECK(scorep_buffer_init(&b) == 0, "buffer init");
    CHECK(scorep_buffer_parse_steps("min_duration,depth,noncomm,flush", b.steps, &b.n_steps) == 0,
          "the default steps parse");
    b.step = 0;
    b.min_dur_first = 8;
    b.min_dur_cap = 16;
    int (*saved)(scorep_buffer *, uint64_t) = scorep_buffer_flush_hook;
    scorep_buffer_flush_hook = empty_buffer;
    uint64_t t = 1000;
    scorep_buffer_enter(&b, 0, t++, main_r);
    /* MPI_Test polls (with a request record each) until the depth step has cut */
    int polls = 0;
    for (; polls < 100000 && b.depth_limit == UINT32_MAX && !b.full; polls++, t += 10) {
        scorep_buffer_enter(&b, 1, t, test);
        CHECK(scorep_buffer_mpi(&b, t + 1, BUF_MPI_REQUEST_TEST) != NULL, "MPI record");
        scorep_buffer_leave(&b, 1, t + 2, test);
    }
    CHECK(!b.full && b.depth_limit == 1, "the depth step cut at 1 (limit %u) after %d polls",
          b.depth_limit, polls);
    CHECK(b.step == 3, "the ladder went on to the flush step (step %u)", b.step);
    CHECK(b.n_log == 0, "a cut that removed nothing is not logged (%u entries, the first %s)",
          b.n_log, b.n_log ? scorep_buffer_step_name((buf_step)b.log[0].rule) : "-");
    /* more polls: still recorded, still nothing logged */
    for (int i = 0; i < 1000; i++, t += 10) {
        scorep_buffer_enter(&b, 1, t, test);
        scorep_buffer_leave(&b, 1, t + 2, test);
    }
    CHECK(b.n_log == 0 && check_valid(&b, test, "polls") > 0, "MPI calls recorded, nothing logged");
    /* the first compiler call at depth 1: dropped by the rule, which is logged now */
    uint64_t t_drop = t;
    scorep_buffer_enter(&b, 1, t, work);
    scorep_buffer_enter(&b, 2, t + 1, leaf);
    scorep_buffer_leave(&b, 2, t + 2, leaf);
    scorep_buffer_leave(&b, 1, t + 3, work);
    t += 10;
    CHECK(b.n_log == 1 && b.log[0].rule == BUF_STEP_DEPTH && b.log[0].param == 1 &&
              b.log[0].ts == t_drop && b.log[0].removed == 0,
          "logged at the first dropped call: %u entries, rule %u param %llu ts %llu removed %llu",
          b.n_log, b.n_log ? b.log[0].rule : 0, b.n_log ? (unsigned long long)b.log[0].param : 0,
          b.n_log ? (unsigned long long)b.log[0].ts : 0,
          b.n_log ? (unsigned long long)b.log[0].removed : 0);
    CHECK(check_valid(&b, work, "work") == 0 && check_valid(&b, leaf, "leaf") == 0,
          "work and leaf not recorded");
    /* later drops are covered by that entry */
    scorep_buffer_enter(&b, 1, t, work);
    scorep_buffer_leave(&b, 1, t + 3, work);
    CHECK(b.n_log == 1, "one entry for the rule, got %u", b.n_log);
    scorep_buffer_flush_hook = saved;
}

/* Whether a call enclosed communication, found by the reduction from the MPI and THREAD
 * records between its Enter and Leave (buffer_reduce.c; issue #31 took the mark off the
 * leave): the noncomm step keeps exactly the calls with such a record inside. */
static void test_reduction_encloses(void)
{
    uint32_t main_r, work, leaf;
    reduction_regions("e.c", &main_r, &work, &leaf);
    /* 512-byte pages: 7 MPI records, 30 region records per page, so the cursors cross pages */
    CHECK(scorep_memory_init(64 << 10, 512) == 0, "a fresh 64 KiB pool");
    scorep_buffer b;
    CHECK(scorep_buffer_init(&b) == 0, "buffer init");
    CHECK(scorep_buffer_parse_steps("noncomm", b.steps, &b.n_steps) == 0, "noncomm parses");
    b.step = 0;
    scorep_buffer_enter(&b, 0, 10, main_r);
    /* kept: a thread event inside */
    scorep_buffer_enter(&b, 1, 100, work);
    scorep_buffer_event(&b, BUF_CLASS_THREAD, 105, BUF_EV_THREAD_CREATE, 0, 1);
    scorep_buffer_leave(&b, 1, 110, work);
    /* removed: a message just before the Enter, one just after the Leave */
    CHECK(scorep_buffer_mpi(&b, 199, BUF_MPI_SEND) != NULL, "MPI record");
    scorep_buffer_enter(&b, 1, 200, work);
    scorep_buffer_leave(&b, 1, 210, work);
    CHECK(scorep_buffer_mpi(&b, 211, BUF_MPI_SEND) != NULL, "MPI record");
    /* kept, both: a message inside the inner call (the outer one encloses it too) */
    scorep_buffer_enter(&b, 1, 300, work);
    scorep_buffer_enter(&b, 2, 301, leaf);
    CHECK(scorep_buffer_mpi(&b, 302, BUF_MPI_RECV) != NULL, "MPI record");
    scorep_buffer_leave(&b, 2, 303, leaf);
    scorep_buffer_leave(&b, 1, 304, work);
    /* 20 calls with a message inside, 20 without, alternating, over several pages */
    uint64_t t = 1000;
    for (int i = 0; i < 20; i++, t += 100) {
        scorep_buffer_enter(&b, 1, t, work);
        CHECK(scorep_buffer_mpi(&b, t + 5, BUF_MPI_SEND) != NULL, "MPI record");
        scorep_buffer_leave(&b, 1, t + 10, work);
        scorep_buffer_enter(&b, 1, t + 20, work);
        scorep_buffer_leave(&b, 1, t + 30, work);
    }
    CHECK(b.cls[BUF_CLASS_MPI].first != b.cls[BUF_CLASS_MPI].last, "MPI records on several pages");
    CHECK(check_valid(&b, work, "work before") == 43, "43 work calls recorded");
    CHECK(scorep_buffer_reduce(&b, t) == 0 && b.n_log == 1 && b.log[0].rule == BUF_STEP_NONCOMM,
          "the noncomm step ran");
    CHECK(b.log[0].removed == 2 * 21, "21 calls removed, got %llu records",
          (unsigned long long)b.log[0].removed);
    CHECK(check_valid(&b, work, "work") == 22, "work: the 1 + 1 + 20 calls with communication");
    CHECK(check_valid(&b, leaf, "leaf") == 1, "leaf: the call around the receive");
    CHECK(check_valid(&b, main_r, "main") == 1, "main's open enter kept");
    /* the slot before every page's first record reads as type 0 (buf_page.zero): the
     * traced leave's fast path reads it as the Enter of an empty page (core/events.h) */
    uint32_t bad = 0;
    for (uint32_t d = 0; d < b.depth_cap; d++)
        for (const buf_page *p = b.depth[d].first; p; p = p->next)
            bad += ((const buf_region_rec *)(const void *)(p + 1) - 1)->type != 0;
    CHECK(bad == 0, "%u pages whose record slot before the first is not type 0", bad);
}

/* The profile finds the node of a call by the child entered last, then by the sibling entered
 * after that child the last time (next_hit), then by the index. A loop whose calls change
 * order (A B A C, A B A B, ...: A's successor changes) must count every call on its own
 * region's node: a successor hint taken without checking its region would put C's calls on
 * B. Expected visits are tallied from the sequence itself. */
static void test_profile_children(void)
{
    enum { A = 1, B = 2, C = 3, D = 4, N = 3000 };
    scorep_profile p;
    CHECK(scorep_profile_init(&p, 16) == 0, "profile init");
    uint64_t t = 1, expected[5] = {0}, inner[5] = {0};
    for (int i = 0; i < N; i++) {
        uint32_t seq[4] = {A, i % 2 ? B : C, A, i % 3 ? C : B};
        for (int k = 0; k < 4; k++) {
            scorep_profile_enter(&p, seq[k], t++);
            expected[seq[k]]++;
            if (seq[k] == A && i % 5 == 0) { /* a child of A now and then */
                scorep_profile_enter(&p, i % 2 ? D : B, t++);
                scorep_profile_leave(&p, i % 2 ? D : B, t++);
                inner[i % 2 ? D : B]++;
            }
            scorep_profile_leave(&p, seq[k], t++);
        }
    }
    CHECK(p.cur == &p.root && p.depth == 0 && p.overflow == 0, "back at the root");
    int children = 0;
    for (pnode *c = p.root.first_child; c; c = c->next_sibling, children++) {
        CHECK(c->kind == PNODE_REGION && c->id >= A && c->id <= C, "child region %u", c->id);
        if (c->id < A || c->id > C)
            continue;
        CHECK(c->visits == expected[c->id], "region %u: %llu visits, expected %llu", c->id,
              (unsigned long long)c->visits, (unsigned long long)expected[c->id]);
        if (c->id != A)
            continue;
        int grandchildren = 0;
        for (pnode *g = c->first_child; g; g = g->next_sibling, grandchildren++)
            CHECK(g->visits == inner[g->id], "A/%u: %llu visits, expected %llu", g->id,
                  (unsigned long long)g->visits, (unsigned long long)inner[g->id]);
        CHECK(grandchildren == 2, "A has 2 children, got %d", grandchildren);
    }
    CHECK(children == 3, "3 children of the root, got %d", children);
}

/* The first child of n (the chains below have one child a node). */
static const pnode *only_child(const pnode *n)
{
    return n ? n->first_child : NULL;
}

/* A checkpoint's pack with close_ts writes the open calls as ended then (a visit each, the
 * time since their enter) and the fork's call path above a worker's open implicit tasks
 * with the time in the team but no visit: for any call depth and any nesting of teams
 * (until session 25: 4096 open and 1024 mapped nodes, 16 teams). Unpacked again, the chain
 * of D open calls has a visit on each node, and a worker inside L nested teams (each
 * mapped at a node `at` of region AT + i, its implicit task making C calls of region
 * CALL + i) has a visit on every call and none on the mapped nodes, in the piece and after
 * close_all, which ends the teams one by one. */
static void test_profile_deep_open(void)
{
    enum { R = 5, D = 5000, L = 40, C = 30, AT = 1000, CALL = 2000, T = 1000000 };
    scorep_profile p, q;
    CHECK(scorep_profile_init(&p, 100000) == 0, "profile init");
    for (uint64_t t = 1; t <= D; t++)
        scorep_profile_enter(&p, R, t);
    ser_buf b = {0};
    CHECK(scorep_profile_pack(&p, T, &b) == 0, "pack %d open calls", D);
    ser_reader r = {b.data, b.data + b.len, 0};
    CHECK(scorep_profile_init(&q, 100000) == 0 && scorep_profile_unpack(&q, &r) == 0,
          "unpack %d open calls", D);
    uint64_t n = 0, closed = 0, timed = 0;
    for (const pnode *c = only_child(&q.root); c; c = only_child(c), n++) {
        closed += c->visits == 1;
        timed += c->sum == (uint64_t)T - (n + 1);
    }
    CHECK(n == D && closed == D && timed == D,
          "%llu nodes, %llu with a visit, %llu with the time since their enter; expected %d",
          (unsigned long long)n, (unsigned long long)closed, (unsigned long long)timed, D);
    ser_free(&b);

    scorep_profile w;
    static scorep_profile_saved saved[L];
    CHECK(scorep_profile_init(&w, 100000) == 0, "profile init");
    uint64_t t = 1, first[L];
    pnode *ats[L];
    for (uint32_t i = 0; i < L; i++) {
        ats[i] = scorep_profile_child_slow(&w, w.cur, AT + i, PNODE_REGION, AT + i, 0);
        CHECK(ats[i] != NULL, "mapped node %u", i);
        if (!ats[i])
            return;
        scorep_profile_attach(&w, ats[i], w.depth + 1, &saved[i]);
        first[i] = t;
        for (uint32_t k = 0; k < C; k++)
            scorep_profile_enter(&w, CALL + i, t++);
    }
    CHECK(w.n_attach == L, "%u teams followed, expected %d", w.n_attach, L);
    b = (ser_buf){0};
    CHECK(scorep_profile_pack(&w, T, &b) == 0, "pack %d nested teams", L);
    r = (ser_reader){b.data, b.data + b.len, 0};
    CHECK(scorep_profile_init(&q, 100000) == 0 && scorep_profile_unpack(&q, &r) == 0,
          "unpack %d nested teams", L);
    uint64_t calls = 0, mapped = 0, bad = 0;
    const pnode *last_at = NULL, *first_at = NULL;
    for (const pnode *c = only_child(&q.root); c; c = only_child(c)) {
        if (c->id >= CALL && c->id < CALL + L) {
            calls++;
            bad += c->visits != 1;
        } else if (c->id >= AT && c->id < AT + L) {
            mapped++;
            bad += c->visits != 0;
            last_at = c;
            first_at = first_at ? first_at : c;
        }
    }
    CHECK(calls == (uint64_t)L * C && mapped == L && bad == 0,
          "pack: %llu calls, %llu mapped nodes, %llu with a wrong visit count; expected %d, %d, 0",
          (unsigned long long)calls, (unsigned long long)mapped, (unsigned long long)bad, L * C, L);
    /* the innermost team's mapped node: the time of its task only (the outer ones' times go
     * to the nodes above theirs) */
    CHECK(last_at && last_at->sum == T - first[L - 1],
          "pack: innermost mapped node's time %llu, expected %llu",
          last_at ? (unsigned long long)last_at->sum : 0ull,
          (unsigned long long)(T - first[L - 1]));
    /* the outermost team's: every team's time (each one's path runs through it) */
    uint64_t all = 0;
    for (uint32_t i = 0; i < L; i++)
        all += T - first[i];
    CHECK(first_at && first_at->sum == all,
          "pack: outermost mapped node's time %llu, expected %llu",
          first_at ? (unsigned long long)first_at->sum : 0ull, (unsigned long long)all);
    ser_free(&b);
    scorep_profile_close_all(&w, T);
    CHECK(w.n_attach == 0 && w.cur == &w.root && w.depth == 0,
          "close_all: %u teams left, at the root %d, depth %u", w.n_attach, w.cur == &w.root,
          w.depth);
    bad = 0;
    for (uint32_t i = 0; i < L; i++) {
        bad += ats[i]->visits != 0;
        for (const pnode *c = only_child(ats[i]); c && c->id == CALL + i; c = only_child(c))
            bad += c->visits != 1;
    }
    CHECK(bad == 0, "close_all: %llu nodes with a wrong visit count", (unsigned long long)bad);
    CHECK(ats[L - 1]->sum == T - first[L - 1],
          "close_all: innermost mapped node's time %llu, expected %llu",
          (unsigned long long)ats[L - 1]->sum, (unsigned long long)(T - first[L - 1]));
    CHECK(ats[0]->sum == all, "close_all: outermost mapped node's time %llu, expected %llu",
          (unsigned long long)ats[0]->sum, (unsigned long long)all);
}

int main(void)
{
    test_timer(SCOREP_TIMER_CLOCK_GETTIME);
    test_timer(SCOREP_TIMER_GETTIMEOFDAY);
    test_timer(SCOREP_TIMER_TSC);
    test_defs();
    test_defs_threads();
    test_memory_reserve();
    test_buffer_merge();
    test_reduction();
    test_reduction_depth_unlogged();
    test_reduction_encloses();
    test_mpi_defs();
    test_mpi_trace_ids();
    test_profile_children();
    test_profile_deep_open();
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
