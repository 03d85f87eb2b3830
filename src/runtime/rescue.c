/* SPDX-License-Identifier: BSD-3-Clause */
/* rescue.c: what a process keeps when it ends without the collective finalize (a signal,
 * MPI_Abort, exit() without MPI_Finalize) and, with SCOREP_CHECKPOINT_INTERVAL, what it
 * keeps against SIGKILL: its rank-local piece in EXPDIR/rescue, which scorep-recover
 * unifies later (recover.c). Signal safety (docs/design.md, "When a process dies"): the
 * handler only takes the time, writes one byte to a pipe and waits (poll, bounded) for the
 * rescue thread started at init, which does the work with the whole C library; then the
 * handler restores the default disposition and raises the signal again. */
#include "runtime/runtime_int.h"
#include "runtime/runtime.h"
#include "core/clock_sync.h"
#include "core/flush.h"
#include "core/system_tree.h"
#include "base/timer.h"
#include "defs/unify.h"
#include "ipc/ipc.h"
#include "profile/profile_ser.h"
#include "trace/trace_reduction.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* How long a signal handler waits for the rescue thread before the process dies anyway. */
enum { RESCUE_WAIT_MS = 20000 };

static const struct {
    int sig;
    const char *name;
    bool crash;
} signals[] = {
    {SIGTERM, "SIGTERM", false}, {SIGINT, "SIGINT", false},   {SIGHUP, "SIGHUP", false},
    {SIGXCPU, "SIGXCPU", false}, {SIGUSR1, "SIGUSR1", false}, {SIGUSR2, "SIGUSR2", false},
    {SIGSEGV, "SIGSEGV", true},  {SIGBUS, "SIGBUS", true},    {SIGFPE, "SIGFPE", true},
    {SIGILL, "SIGILL", true},    {SIGABRT, "SIGABRT", true}};
enum { N_SIGNALS = sizeof signals / sizeof signals[0] };

const char *scorep_rescue_crash_name(int sig)
{
    for (int i = 0; i < N_SIGNALS; i++)
        if (signals[i].sig == sig && signals[i].crash)
            return signals[i].name;
    return NULL;
}

static const char *signal_name(int sig)
{
    for (int i = 0; i < N_SIGNALS; i++)
        if (signals[i].sig == sig)
            return signals[i].name;
    return "signal";
}

/* -------------------------------------------------------- the rank-local piece */
static pthread_mutex_t piece_lock = PTHREAD_MUTEX_INITIALIZER;

/* version 2: an FNV-1a hash of the bytes before it closes the piece (scorep-recover checks
 * it: a piece damaged inside otherwise passed its structure check and crashed the recovery
 * of every rank); version 3: per location the records of its trace piece (a piece emptied
 * or cut at a record's end was recovered silently) and its reduction log (what the trace
 * lacks, a spill file that could not be read back included, reaches MANIFEST.md); version 4:
 * metric instances (the metrics' scopes); version 5: each call path's task migration counts
 * (task_migration_loss / _win, profile_ser.c); version 6: whether the job was one of several
 * processes' backend (MPI, SHMEM) or a serial one, after the end's clock (scorep-recover's
 * profile of a serial program had the MPI metrics bytes_sent / bytes_received, all zero) */
enum { PIECE_MAGIC = 0x53525043u, PIECE_VERSION = 6 };

static int write_file(const char *path, const void *p, size_t len)
{
    char tmp[PATH_MAX + 64];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        return -1;
    const char *c = p;
    while (len > 0) {
        ssize_t n = write(fd, c, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return -1;
        }
        c += n;
        len -= (size_t)n;
    }
    /* complete or absent: a rename replaces the last checkpoint only by a whole piece */
    return close(fd) == 0 && rename(tmp, path) == 0 ? 0 : -1;
}

/* *count: the records written. A piece that cannot be written loses the location's trace:
 * said (one line) and logged, so that the piece carries it to scorep-recover's MANIFEST.md. */
static int save_trace(const char *dir, int rank, scorep_location *l, uint64_t *count)
{
    char path[PATH_MAX + 64], tmp[PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/rank-%d.loc-%u.trace", dir, rank, l->id);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    int rc = fd < 0 ? -1 : scorep_flush_save(&l->buffer, fd, count);
    int err = errno;
    if (fd >= 0 && close(fd) != 0 && rc == 0) {
        rc = -1;
        err = errno;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        rc = -1;
        err = errno;
    }
    if (rc == 0)
        return 0;
    if (fd >= 0)
        unlink(tmp);
    *count = 0;
    uint64_t lost = scorep_flush_count(&l->buffer);
    scorep_warn("rank %d location %u: its trace piece %s cannot be written (%s); its %llu trace "
                "records are lost (the profile is kept)",
                rank, l->id, path, strerror(err), (unsigned long long)lost);
    scorep_buffer_log(&l->buffer, BUF_STEP_UNREAD, BUF_UNREAD_PIECE_UNWRITTEN, l->first_ts, lost);
    return -1;
}

static uint64_t wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void pack_env(ser_buf *b)
{
    uint32_t n = 0;
    for (char **e = environ; e && *e; e++)
        n += strncmp(*e, "SCOREP_", 7) == 0;
    ser_u32(b, n);
    for (char **e = environ; e && *e; e++)
        if (strncmp(*e, "SCOREP_", 7) == 0)
            ser_str(b, *e);
}

/* close_raw != 0: a checkpoint of running threads (their open calls count as ended then;
 * no trace). */
static int pack_piece(ser_buf *b, const scorep_ending *e, uint64_t end_raw, uint64_t close_raw,
                      const char *dir)
{
    const scorep_ipc *ipc = scorep_ipc_get();
    ser_u32(b, PIECE_MAGIC);
    ser_u32(b, PIECE_VERSION);
    ser_u32(b, (uint32_t)ipc->rank());
    ser_u32(b, (uint32_t)ipc->size());
    ser_u32(b, e->kind);
    ser_u32(b, (uint32_t)e->code);
    ser_u64(b, wall_ns());
    ser_u64(b, end_raw);
    ser_u32(b, (uint32_t)scorep_ipc_job_multi());
    ser_str(b, scorep_program_name());
    ser_str(b, scorep_node_name());
    ser_u32(b, scorep_program_region());
    ser_u64(b, scorep_program_begin_ts());
    uint64_t timer[SCOREP_TIMER_STATE_WORDS];
    scorep_timer_save(timer);
    for (int i = 0; i < SCOREP_TIMER_STATE_WORDS; i++)
        ser_u64(b, timer[i]);
    const scorep_clock_point *pts;
    int n_pts = scorep_clock_points(&pts);
    ser_u32(b, (uint32_t)n_pts);
    for (int i = 0; i < n_pts; i++) {
        ser_u64(b, pts[i].time);
        ser_u64(b, (uint64_t)pts[i].offset);
        ser_f64(b, pts[i].stddev);
    }
    pack_env(b);
    ser_buf defs = {0};
    int rc = scorep_defs_pack_local(&defs);
    ser_u64(b, defs.len);
    ser_put(b, defs.data, defs.len);
    ser_free(&defs);
    uint32_t n = 0;
    for (scorep_location *l = scorep_location_first(); l; l = l->next)
        n++;
    ser_u32(b, n);
    ser_buf prof = {0};
    for (scorep_location *l = scorep_location_first(); l && rc == 0; l = l->next) {
        uint64_t records = 0;
        bool trace = !close_raw && l->tracing && save_trace(dir, ipc->rank(), l, &records) == 0;
        ser_u32(b, l->id);
        ser_str(b, l->name);
        ser_u32(b, l->create_seq);
        ser_u32(b, l->parent_id);
        ser_u32(b, l->gpu);
        ser_u32(b, l->profiling);
        ser_u32(b, trace);
        ser_u64(b, l->first_ts);
        ser_u64(b, close_raw ? close_raw : l->end_ts);
        ser_u64(b, close_raw ? close_raw : l->last_ts);
        ser_u32(b, l->buffer.full);
        ser_u64(b, l->buffer.full_ts);
        ser_u64(b, l->buffer.lost);
        ser_u64(b, records);
        if (l->tracing)
            scorep_trace_red_pack(b, l);
        else
            ser_u32(b, 0);
        prof.len = 0;
        if (l->profiling)
            rc = scorep_profile_pack(&l->profile, close_raw, &prof);
        ser_u64(b, prof.len);
        ser_put(b, prof.data, prof.len);
    }
    ser_free(&prof);
    return rc == 0 && !b->failed ? 0 : -1;
}

static int piece_dir(char *dir, size_t len)
{
    const char *exp = scorep_experiment_dir();
    if (!exp || !*exp)
        return -1;
    snprintf(dir, len, "%s/rescue", exp);
    return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

static int write_piece(const scorep_ending *e, uint64_t end_raw, uint64_t close_raw)
{
    char dir[PATH_MAX], path[PATH_MAX + 32];
    if (piece_dir(dir, sizeof dir) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/rank-%d.piece", dir, scorep_ipc_get()->rank());
    ser_buf b = {0};
    int rc = pack_piece(&b, e, end_raw, close_raw, dir);
    if (rc == 0) {
        ser_u64(&b, scorep_piece_hash(b.data, b.len));
        rc = write_file(path, b.data, b.len);
    }
    ser_free(&b);
    return rc;
}

int scorep_rescue_write_piece(const scorep_ending *e, uint64_t end_raw)
{
    pthread_mutex_lock(&piece_lock);
    int rc = write_piece(e, end_raw, 0);
    pthread_mutex_unlock(&piece_lock);
    uint64_t res = scorep_timer_resolution();
    scorep_verbose("rank %d: its piece written %.3f ms after the measurement ended",
                   scorep_ipc_get()->rank(),
                   res ? (double)(scorep_timer_ticks() - end_raw) * 1e3 / (double)res : 0.0);
    char how[64];
    if (e->kind == SCOREP_END_SIGNAL)
        snprintf(how, sizeof how, "%s", signal_name(e->code));
    else if (e->kind == SCOREP_END_ABORT)
        snprintf(how, sizeof how, "MPI_Abort(%d)", e->code);
    else
        snprintf(how, sizeof how, "exit(%d)", e->code);
    if (rc == 0)
        scorep_warn("rank %d ends without MPI_Finalize (%s): its data is kept in %s/rescue; "
                    "`scorep-recover %s` makes the profile and trace",
                    scorep_ipc_get()->rank(), how, scorep_experiment_dir(),
                    scorep_experiment_dir());
    else
        scorep_warn("rank %d ends without MPI_Finalize (%s); writing its data to %s/rescue "
                    "failed",
                    scorep_ipc_get()->rank(), how, scorep_experiment_dir());
    return rc;
}

void scorep_rescue_discard_piece(void)
{
    char dir[PATH_MAX], path[PATH_MAX + 32];
    pthread_mutex_lock(&piece_lock);
    if (piece_dir(dir, sizeof dir) == 0) {
        snprintf(path, sizeof path, "%s/rank-%d.piece", dir, scorep_ipc_get()->rank());
        unlink(path);
        rmdir(dir); /* when the last rank's piece is gone */
    }
    pthread_mutex_unlock(&piece_lock);
}

/* ---------------------------------------------------------- checkpoints */
static double checkpoint_s;

static void checkpoint(void)
{
    pthread_mutex_lock(&piece_lock);
    if (scorep_measurement_on() && scorep_experiment_dir() && *scorep_experiment_dir()) {
        scorep_ending e = {SCOREP_END_CHECKPOINT, 0, NULL, 0};
        uint64_t now = scorep_timer_ticks();
        static bool warned;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int rc = write_piece(&e, now, now);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (rc != 0 && !warned) {
            warned = true;
            scorep_warn("writing a checkpoint into %s/rescue failed", scorep_experiment_dir());
        }
        /* (bench/run_rescue_bench.sh reads this line) */
        scorep_verbose("checkpoint written in %.3f ms",
                       (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                           (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    }
    pthread_mutex_unlock(&piece_lock);
}

/* ------------------------------------------------------- the rescue thread */
static int wake_pipe[2] = {-1, -1}, done_pipe[2] = {-1, -1};
static pid_t installed_pid;
static pthread_t rescue_tid;
static bool thread_running;
static int claimed;
static scorep_ending request;

static void wait_end_done(int ms)
{
    for (int waited = 0; !scorep_rt_end_done() && waited < ms; waited += 10) {
        struct timespec d = {0, 10000000};
        nanosleep(&d, NULL);
    }
}

/* ------------------------------------ the rescue thread's own descriptor table
 * A process whose descriptor table is shared by two threads pays for it on every system
 * call on a descriptor: the kernel takes and drops a reference to the file (fdget/fput)
 * instead of borrowing it, and locks the file position of a regular file. A serial program
 * would pay that for the rescue thread alone (+43 ns per 8-byte write to /dev/null on the
 * development VM, docs/io.md). So the thread sleeps with a table of its own
 * (unshare(CLONE_FILES)), holding only its two pipes and a pidfd of the process at high
 * numbers, and before it works (a rescue, a checkpoint) it takes the program's descriptors
 * over at their numbers (pidfd_getfd: the same open files, as a shared table would show
 * them; a flush's spill file, a metric's descriptors). A checkpoint drops them again. Where
 * the kernel lacks pidfd_getfd or close_range (before Linux 5.9) or forbids them, the
 * table stays shared, as before. */
static bool own_table;
static int rt_wake = -1, rt_done = -1, rt_pidfd = -1; /* numbers in the thread's table */
static int rt_base; /* the thread's own numbers start here; the program's above are not taken */
static int *taken;
static size_t n_taken;

#if defined(__linux__) && defined(SYS_pidfd_open) && defined(SYS_pidfd_getfd) &&                   \
    defined(SYS_close_range) && defined(CLONE_FILES)
static int high_fd(int fd, int base)
{
    int h = fcntl(fd, F_DUPFD_CLOEXEC, base);
    close(fd);
    return h;
}

/* Before unsharing (the table is still the program's): whether the calls work here. */
static bool can_own_table(void)
{
    int pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
    if (pidfd < 0)
        return false;
    int t = (int)syscall(SYS_pidfd_getfd, pidfd, wake_pipe[0], 0);
    close(pidfd);
    if (t < 0)
        return false;
    close(t);
    return syscall(SYS_close_range, ~0u, ~0u, 0) == 0;
}

/* The copy of the program's table that unshare made: everything but the thread's own
 * descriptors is closed (a copy of a pipe's write end would keep its reader from seeing
 * the end; a copy of a regular file would make the program's calls lock its position). */
static void unshare_table(void)
{
    if (!can_own_table() || unshare(CLONE_FILES) != 0)
        return;
    struct rlimit rl;
    rlim_t lim = getrlimit(RLIMIT_NOFILE, &rl) == 0 ? rl.rlim_cur : 1024;
    int base = (int)(lim == RLIM_INFINITY || lim > 4096 ? 4096 : lim) - 4;
    int w = fcntl(wake_pipe[0], F_DUPFD_CLOEXEC, base);
    int d = w < 0 ? -1 : fcntl(done_pipe[1], F_DUPFD_CLOEXEC, base);
    int p = (int)syscall(SYS_pidfd_open, getpid(), 0);
    /* the write end too: the pipe then never reads as ended, whatever the program closes */
    int ww = w < 0 ? -1 : fcntl(wake_pipe[1], F_DUPFD_CLOEXEC, base);
    if (w < 0 || d < 0 || p < 0 || ww < 0 || (p = high_fd(p, base)) < 0 ||
        syscall(SYS_close_range, 0u, (unsigned)base - 1, 0) != 0) {
        /* the table is its own, but without a way back: the descriptors stay as the copy
         * has them; the rescue then finds the program's descriptors of the thread's start */
        scorep_verbose("rescue thread: own descriptor table incomplete");
        return;
    }
    rt_base = base;
    rt_wake = w;
    rt_done = d;
    rt_pidfd = p;
    own_table = true;
}

/* the program's descriptors (/proc/self/fd: the thread group leader's table) at their
 * numbers, below the thread's own */
static void take_table(void)
{
    if (!own_table)
        return;
    int cap = 64;
    free(taken);
    n_taken = 0;
    taken = malloc(sizeof *taken * (size_t)cap);
    DIR *dir = opendir("/proc/self/fd");
    if (!taken || !dir) {
        if (dir)
            closedir(dir);
        /* the warning needs the program's stderr */
        int e = (int)syscall(SYS_pidfd_getfd, rt_pidfd, 2, 0);
        if (e >= 0 && e != 2) {
            dup2(e, 2);
            close(e);
        }
        if (e >= 0 && taken)
            taken[n_taken++] = 2;
        scorep_warn_once("rescue thread: cannot list the program's descriptors (/proc/self/fd); "
                         "the rescue goes on without them");
        return;
    }
    struct dirent *ent;
    while ((ent = readdir(dir)) != NULL) {
        char *end;
        long fd = strtol(ent->d_name, &end, 10);
        if (*end || end == ent->d_name || fd < 0 || fd >= rt_base)
            continue;
        if ((int)n_taken == cap) {
            int *t = realloc(taken, sizeof *taken * (size_t)(cap *= 2));
            if (!t)
                break;
            taken = t;
        }
        taken[n_taken++] = (int)fd;
    }
    closedir(dir);
    /* (the listing's own number in this table is free again) */
    size_t k = 0;
    for (size_t i = 0; i < n_taken; i++) {
        int fd = taken[i];
        int got = (int)syscall(SYS_pidfd_getfd, rt_pidfd, fd, 0);
        if (got < 0)
            continue; /* closed meanwhile */
        if (got != fd) {
            int ok = dup2(got, fd) == fd;
            close(got);
            if (!ok)
                continue;
        }
        taken[k++] = fd;
    }
    n_taken = k;
}

static void drop_table(void)
{
    for (size_t i = 0; own_table && i < n_taken; i++)
        close(taken[i]);
    n_taken = 0;
}
#else
static void unshare_table(void) {}
static void take_table(void) {}
static void drop_table(void) {}
#endif

static void *rescue_thread(void *arg)
{
    (void)arg;
    unshare_table();
    int wake = own_table ? rt_wake : wake_pipe[0], done = own_table ? rt_done : done_pipe[1];
    int timeout = checkpoint_s > 0 ? (int)(checkpoint_s * 1000.0) : -1;
    for (;;) {
        struct pollfd p = {wake, POLLIN, 0};
        int n = poll(&p, 1, timeout);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) {
            take_table();
            checkpoint();
            drop_table();
            continue;
        }
        char c;
        if (read(wake, &c, 1) != 1)
            continue;
        take_table();
        scorep_rt_finish(&request);
        wait_end_done(RESCUE_WAIT_MS); /* another thread's end (exit path) in progress */
        if (write(done, "d", 1) != 1) {
            /* the handlers time out */
        }
        return NULL;
    }
}

/* ------------------------------------------------------- the signal handler */
/* The thread that ends the measurement itself (exit, MPI_Abort, MPI_Finalize): a signal
 * handler on it must not wait for an end that only this thread can complete. */
static int finishing;
static pthread_t finishing_tid;

void scorep_rescue_block(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < N_SIGNALS; i++)
        if (!signals[i].crash)
            sigaddset(&set, signals[i].sig);
    finishing_tid = pthread_self();
    __atomic_store_n(&finishing, 1, __ATOMIC_RELEASE);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

void scorep_rescue_unblock(const sigset_t *old)
{
    __atomic_store_n(&finishing, 0, __ATOMIC_RELEASE);
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void restore_and_raise(int sig)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    /* blocked while the handler runs: delivered, with the default action, when it returns
     * (a fault re-executes the instruction and faults again: the same end either way) */
    raise(sig);
}

static void wait_done(void)
{
    struct pollfd p = {done_pipe[0], POLLIN, 0};
    int left = RESCUE_WAIT_MS;
    while (left > 0) {
        int n = poll(&p, 1, 100);
        if (n > 0)
            return;
        left -= 100;
    }
}

/* Async-signal-safe only: atomics, the timer (rdtsc or clock_gettime), write, poll,
 * sigaction, raise, getpid, pthread_self. */
static void on_signal(int sig, siginfo_t *info, void *ctx)
{
    (void)info;
    (void)ctx;
    int saved = errno;
    if (getpid() != installed_pid || !thread_running || pthread_equal(pthread_self(), rescue_tid) ||
        (__atomic_load_n(&finishing, __ATOMIC_ACQUIRE) &&
         pthread_equal(pthread_self(), finishing_tid))) {
        /* a forked child, or the end itself crashed: nothing to wait for */
        restore_and_raise(sig);
        errno = saved;
        return;
    }
    int expected = 0;
    if (__atomic_compare_exchange_n(&claimed, &expected, 1, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
        request.kind = SCOREP_END_SIGNAL;
        request.code = sig;
        request.crash_raw = scorep_timer_ticks();
        /* the thread the signal stopped: it may be inside an event it will not end (a crash
         * marks its call path; runtime.c) */
        request.crash_loc = scorep_tls_location;
        if (write(wake_pipe[1], "w", 1) != 1) {
            restore_and_raise(sig);
            errno = saved;
            return;
        }
    }
    wait_done();
    restore_and_raise(sig);
    errno = saved;
}

/* A crash by stack overflow needs another stack for its handler; one the program (or a
 * language runtime) set up is kept. */
static void install_alt_stack(void)
{
    static char *stack;
    size_t size = 256 * 1024; /* the handler itself needs little; glibc's minimum is less */
    stack_t cur;
    if (sigaltstack(NULL, &cur) != 0 || !(cur.ss_flags & SS_DISABLE))
        return;
    if (!stack && !(stack = malloc(size)))
        return;
    stack_t ss = {.ss_sp = stack, .ss_size = size, .ss_flags = 0};
    sigaltstack(&ss, NULL);
}

static int start_thread(void)
{
    typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    /* the C library's: this thread is the measurement's, not the program's (no location).
     * RTLD_NEXT finds nothing when the C library comes before the runtime in the lookup order
     * (a program linked with the runtime after other libraries: the MPI test programs); the
     * default definition is then the C library's (the pthread adapter's wrapper, which the
     * runtime's own threads pass through unrecorded, is found only if it comes first). */
    create_fn create = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
    if (!create)
        create = (create_fn)dlsym(RTLD_DEFAULT, "pthread_create");
    if (!create || pipe(wake_pipe) != 0)
        return -1;
    if (pipe(done_pipe) != 0)
        return -1;
    fcntl(wake_pipe[0], F_SETFD, FD_CLOEXEC);
    fcntl(wake_pipe[1], F_SETFD, FD_CLOEXEC);
    fcntl(done_pipe[0], F_SETFD, FD_CLOEXEC);
    fcntl(done_pipe[1], F_SETFD, FD_CLOEXEC);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread takes no signal of the program */
    int rc = create(&rescue_tid, NULL, rescue_thread, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc == 0) {
        pthread_detach(rescue_tid);
        thread_running = true;
    }
    return rc == 0 ? 0 : -1;
}

void scorep_rescue_install(void)
{
    checkpoint_s = scorep_cfg.checkpoint_interval;
    installed_pid = getpid();
    if (start_thread() != 0) {
        scorep_warn("cannot start the rescue thread: a signal ends this process without "
                    "its data");
        return;
    }
    install_alt_stack();
    for (int i = 0; i < N_SIGNALS; i++) {
        struct sigaction old, sa;
        /* leave the program's own handlers alone (docs/user-guide.md) */
        if (sigaction(signals[i].sig, NULL, &old) != 0 || old.sa_handler != SIG_DFL ||
            (old.sa_flags & SA_SIGINFO))
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_signal;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        sigaction(signals[i].sig, &sa, NULL);
    }
}

void scorep_rescue_forked(void)
{
    thread_running = false; /* the parent's thread is not in the child */
}

/* MPI_Abort: on its own thread (a signal that comes meanwhile wakes the rescue thread,
 * which finds the end in progress and waits for it). */
void scorep_runtime_rescue_abort(int errorcode)
{
    scorep_ending e = {SCOREP_END_ABORT, errorcode, NULL, 0};
    scorep_rt_finish(&e);
}
