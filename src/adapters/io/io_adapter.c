/* SPDX-License-Identifier: BSD-3-Clause */
/* io_adapter.c: the part of POSIX and ISO C I/O recording that lives in libscorep-rt (see
 * io_adapter.h): the guard against recording the runtime's own I/O, the regions (paradigm
 * io, roles as in Score-P: file io, file io metadata, wrapper), and the handles of
 * descriptors and streams, one per-descriptor array per paradigm (the hot path reads it
 * without a lock; handles are defined on open). */
#include "adapters/io/io_adapter.h"
#include "core/events.h"
#include "runtime/runtime.h"
#include "core/subsystem.h"

#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <limits.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static __thread int nesting __attribute__((tls_model("initial-exec")));
/* the recorded call whose operation began and has not completed (nesting: one per
 * thread), for a jump out of it */
static __thread scorep_io_frame *current __attribute__((tls_model("initial-exec")));
static __thread uint64_t matching_ids __attribute__((tls_model("initial-exec")));

/* descriptor -> handle id + 1 (0: none yet), per paradigm; descriptors >= fd_cap are not
 * followed (their calls are regions without I/O records) */
static uint32_t *fd_handle[SCOREP_IO_PARADIGMS];
static int fd_cap;
/* flock: the type of the lock a descriptor took (1 + SCOREP_IO_LOCK_EXCLUSIVE or _SHARED,
 * 0: none seen), so that LOCK_UN, which does not say, releases the type acquired; relaxed
 * atomics (threads may flock one descriptor at once: the last one's type wins) */
static uint8_t *fd_flock;

/* Code whose I/O is not the program's: the measurement's (the runtime and the libraries it
 * calls while the program runs; trace writing happens after the measurement stopped) and
 * that of the communication runtimes' own machinery (configuration files read in MPI_Init,
 * progress threads, Open MPI's components). Open MPI's MPI-IO components (io, fbtl, fs,
 * fcoll, sharedfp) are the program's file access: recorded, nested in the MPI_File call. */
static const char *const own_objects[] = {
    "libscorep-rt", "libotf2",   "libdw.",     "libelf.",  "libpapi",
    "libpfm",       "libunwind", "libz.so",    "/libmpi.", "/libopen-",
    "/libpmix",     "/libevent", "/libhwloc",  "/libucx",  "/libucs",
    "/libucp",      "/libuct",   "/libfabric", "/libpsm",  "/libibverbs",
    "/liboshmem",   "/libcuda",  "/libcupti",  "/mca_",    "/libnuma",
    "/libmunge",    "/librdmacm", "/libnl-",   "/libinfinipath", "/pmix_mca_", "/hwloc_"};
static const char *const program_objects[] = {"/mca_io_", "/mca_fbtl_", "/mca_fs_", "/mca_fcoll_",
                                              "/mca_sharedfp_"};

static int own_object(const char *name)
{
    for (size_t i = 0; i < sizeof program_objects / sizeof program_objects[0]; i++)
        if (strstr(name, program_objects[i]))
            return 0;
    for (size_t i = 0; i < sizeof own_objects / sizeof own_objects[0]; i++)
        if (strstr(name, own_objects[i]))
            return 1;
    return 0;
}

/* The verdict per call site (return address), found once with dladdr (which locks) and kept
 * in a lock-free table: 0 unknown, 1 the program's, 2 not. A full table costs a dladdr per
 * call of the sites that find no slot. */
enum { SITES = 4096, PROBES = 16 };
static struct {
    uintptr_t addr;
    int verdict;
} sites[SITES];

int scorep_io_own_code(const void *caller)
{
    uintptr_t a = (uintptr_t)caller;
    size_t i = (size_t)((a * 0x9e3779b97f4a7c15ull) >> 52) % SITES;
    for (int n = 0; n < PROBES; n++, i = (i + 1) % SITES) {
        uintptr_t s = __atomic_load_n(&sites[i].addr, __ATOMIC_ACQUIRE);
        if (s == a) {
            int v = __atomic_load_n(&sites[i].verdict, __ATOMIC_ACQUIRE);
            if (v)
                return v == 2;
            break;
        }
        if (s == 0)
            break;
    }
    Dl_info info;
    int own = dladdr(caller, &info) && info.dli_fname && own_object(info.dli_fname);
    i = (size_t)((a * 0x9e3779b97f4a7c15ull) >> 52) % SITES;
    for (int n = 0; n < PROBES; n++, i = (i + 1) % SITES) {
        uintptr_t expected = 0;
        if (__atomic_compare_exchange_n(&sites[i].addr, &expected, a, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE) ||
            expected == a) {
            __atomic_store_n(&sites[i].verdict, own ? 2 : 1, __ATOMIC_RELEASE);
            break;
        }
    }
    return own;
}

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* the per-file summary is written at finalize (core/events_io.c) */
static const scorep_subsystem io_summary = {.name = "I/O summary",
                                            .finalize = scorep_io_summary_finalize};

static void init(void)
{
    if (scorep_io_summary_claim() && scorep_runtime_register(&io_summary) != 0)
        scorep_warn_once("I/O: cannot register the summary; no io_summary file is written");
    struct rlimit rl;
    rlim_t cap = getrlimit(RLIMIT_NOFILE, &rl) == 0 ? rl.rlim_cur : 1024;
    if (cap == RLIM_INFINITY || cap > (1u << 20))
        cap = 1u << 20;
    if (cap < 1024)
        cap = 1024;
    int ok = 1;
    for (int p = 0; p < SCOREP_IO_PARADIGMS; p++)
        ok &= (fd_handle[p] = calloc(cap, sizeof(uint32_t))) != NULL;
    ok &= (fd_flock = calloc(cap, 1)) != NULL;
    if (ok)
        fd_cap = (int)cap;
    else
        scorep_warn_once("I/O recording: no memory for the descriptor table; I/O calls are "
                         "recorded as regions without I/O records");
}

static uint32_t region_of(const scorep_io_fn *fn)
{
    uint32_t id = __atomic_load_n(fn->region, __ATOMIC_ACQUIRE);
    if (id)
        return id - 1;
    id = scorep_defs_region(fn->name, NULL, scorep_io_paradigm_name(fn->paradigm), 0, 0,
                            SCOREP_PARADIGM_IO, (scorep_role)fn->role);
    if (id != SCOREP_INVALID_ID)
        __atomic_store_n(fn->region, id + 1, __ATOMIC_RELEASE);
    return id;
}

int scorep_io_begin(scorep_io_frame *f, const scorep_io_fn *fn, const void *caller)
{
    if (nesting || !scorep_measurement_on() || !scorep_cfg.io_posix)
        return 0;
    /* Only threads the measurement follows: the program's (they have a location once they
     * recorded anything or were started through pthread_create or OpenMP). */
    scorep_location *l = scorep_tls_location;
    if (!l)
        return 0;
    /* An event of l is in progress, or the sampling signal handler runs on it: this call is
     * the runtime's work (libunwind validates addresses with read and write on a pipe,
     * libdw reads DWARF during the unwinding at an enter). Left before the init and the
     * own-code test below, which the handler must not reach: the init takes the runtime's
     * init lock (a sample in the runtime's start-up deadlocked there: 3 hangs in 20 runs
     * with --io=posix at a 20 us sampling rate) and allocates, the
     * own-code test may call dladdr, which takes the dynamic loader's lock. */
    if (l->busy)
        return 0;
    nesting = 1; /* the slow paths below may do I/O themselves */
    pthread_once(&init_once, init);
    uint32_t r = !scorep_io_own_code(caller) && scorep_measurement_on() ? region_of(fn) : SCOREP_INVALID_ID;
    if (r == SCOREP_INVALID_ID) {
        nesting = 0;
        return 0;
    }
    *f = (scorep_io_frame){l, r, fn->paradigm, SCOREP_INVALID_ID, 0};
    /* sp: a value just below the stack pointer of the program's function that called the
     * wrapper (this function's CFA, or the wrapper's if it were inlined, less 8): the call
     * is that frame's callee, left by a jump to it or above (a signal handler's siglongjmp
     * out of a read), kept by one that lands deeper (docs/design.md, "Jumps out of calls") */
    scorep_event_enter_sp(l, r,
                          scorep_sp_tagged((uintptr_t)__builtin_dwarf_cfa() - 8, SCOREP_SP_IO));
    return 1;
}

void scorep_io_end(scorep_io_frame *f)
{
    current = NULL;
    scorep_event_leave(f->l, f->region);
    nesting = 0;
}

/* The walk's leave of a call that a jump abandons (a signal handler's, out of a blocking
 * read or write): its operation, when one began, ends as the call would have ended had the
 * handler returned (EINTR, bytes unknown), then the Leave; and the thread's I/O is recorded
 * again (nesting, which the call's end would have cleared). The frame is still intact: the
 * jump has not happened yet. */
static void unwind_io(scorep_location *l, uint32_t region, unsigned tag)
{
    (void)tag;
    scorep_io_frame *f = current;
    if (f && f->l == l && f->region == region)
        scorep_event_io_operation_complete(l, f->handle, (scorep_io_op)(f->matching & 3),
                                           SCOREP_IO_UNKNOWN_BYTES, f->matching, EINTR);
    current = NULL;
    scorep_event_leave(l, region);
    nesting = 0;
}

__attribute__((constructor)) static void io_register_unwind(void)
{
    scorep_event_unwind_register(SCOREP_SP_IO, unwind_io);
}

/* ------------------------------------------------------------------ handles */
static uint32_t define_handle(uint32_t paradigm, const char *name, const char *file, uint32_t flags,
                              uint32_t access)
{
    uint32_t fid = file ? scorep_defs_io_file(file) : SCOREP_INVALID_ID;
    scorep_io_handle_def key = {name, fid, paradigm, flags, SCOREP_INVALID_ID, access};
    return scorep_defs_io_handle(&key);
}

static uint32_t access_mode(int oflags)
{
    switch (oflags & O_ACCMODE) {
    case O_RDONLY:
        return 0; /* OTF2_IO_ACCESS_MODE_READ_ONLY */
    case O_WRONLY:
        return 1;
    default:
        return 2;
    }
}

/* A descriptor the adapter did not see opened: a standard stream, one opened before the
 * measurement or by code that is not wrapped, or an invalid one (EBADF follows). Defined as
 * a pre-created handle on its first use; slow path (two system calls), once per
 * descriptor. */
static uint32_t first_use(uint32_t p, int fd)
{
    static const char *const std_posix[] = {"STDIN_FILENO", "STDOUT_FILENO", "STDERR_FILENO"};
    static const char *const std_isoc[] = {"stdin", "stdout", "stderr"};
    static const char *const std_file[] = {"/dev/stdin", "/dev/stdout", "/dev/stderr"};
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0) /* not open: the call fails with EBADF; recorded on this handle */
        return define_handle(p, "invalid descriptor", NULL, SCOREP_IO_HANDLE_PRE_CREATED, 2);
    char name[32], file[PATH_MAX];
    const char *fname = file;
    if (fd <= 2) {
        snprintf(name, sizeof name, "%s", p == SCOREP_IO_ISOC ? std_isoc[fd] : std_posix[fd]);
        fname = std_file[fd];
    } else {
        snprintf(name, sizeof name, "fd %d", fd);
        char link[64];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, file, sizeof file - 1);
        if (n <= 0)
            fname = NULL;
        else
            file[n] = '\0';
    }
    uint32_t h = define_handle(p, name, fname, SCOREP_IO_HANDLE_PRE_CREATED, access_mode(fl));
    if (h != SCOREP_INVALID_ID)
        __atomic_store_n(&fd_handle[p][fd], h + 1, __ATOMIC_RELEASE);
    return h;
}

static uint32_t handle_of(uint32_t p, int fd)
{
    if (fd < 0 && p == SCOREP_IO_POSIX) /* EBADF follows */
        return define_handle(p, "invalid descriptor", NULL, SCOREP_IO_HANDLE_PRE_CREATED, 2);
    if (fd < 0 || fd >= fd_cap) /* a stream without descriptor (fmemopen), fflush(NULL) */
        return SCOREP_INVALID_ID;
    uint32_t h = __atomic_load_n(&fd_handle[p][fd], __ATOMIC_ACQUIRE);
    return h ? h - 1 : first_use(p, fd);
}

static uint32_t creation_flags(int oflags)
{
    return ((oflags & O_CREAT) ? 1u : 0) | ((oflags & O_TRUNC) ? 2u : 0) |
           ((oflags & O_DIRECTORY) ? 4u : 0) | ((oflags & O_EXCL) ? 8u : 0) |
           ((oflags & O_NOCTTY) ? 16u : 0) | ((oflags & O_NOFOLLOW) ? 32u : 0);
}

static uint32_t status_flags(int oflags)
{
    return ((oflags & O_CLOEXEC) ? 1u : 0) | ((oflags & O_APPEND) ? 2u : 0) |
           ((oflags & O_NONBLOCK) ? 4u : 0) | ((oflags & O_SYNC) == O_SYNC ? 16u : 0) |
           ((oflags & O_DSYNC) ? 32u : 0);
}

void scorep_io_created(scorep_io_frame *f, int fd, const char *path, int oflags)
{
    if (fd < 0 || fd >= fd_cap)
        return;
    char name[32], resolved[PATH_MAX], link[64];
    snprintf(name, sizeof name, "fd %d", fd);
    const char *file = path;
    if (path ? realpath(path, resolved) != NULL : 0)
        file = resolved;
    if (!path) { /* fdopen: the descriptor's file */
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, resolved, sizeof resolved - 1);
        if (n > 0) {
            resolved[n] = '\0';
            file = resolved;
        }
    }
    uint32_t h = define_handle(f->paradigm, name, file, 0, 0);
    if (h == SCOREP_INVALID_ID)
        return;
    __atomic_store_n(&fd_handle[f->paradigm][fd], h + 1, __ATOMIC_RELEASE);
    scorep_event_io_create_handle(f->l, h, access_mode(oflags), creation_flags(oflags),
                                  status_flags(oflags));
}

void scorep_io_closing(scorep_io_frame *f, int fd)
{
    f->handle = fd >= 0 && fd < fd_cap ? handle_of(f->paradigm, fd) : SCOREP_INVALID_ID;
}

static void forget(scorep_io_frame *f, uint32_t p, int fd, uint32_t h)
{
    __atomic_store_n(&fd_handle[p][fd], 0, __ATOMIC_RELEASE);
    __atomic_store_n(&fd_flock[fd], 0, __ATOMIC_RELAXED);
    if (h != SCOREP_INVALID_ID)
        scorep_event_io_destroy_handle(f->l, h);
}

void scorep_io_closed(scorep_io_frame *f, int fd, int ok)
{
    if (!ok || fd < 0 || fd >= fd_cap)
        return;
    forget(f, f->paradigm, fd, f->handle);
    /* fclose closed the descriptor too: its POSIX handle (if one) ends as well */
    uint32_t ph = f->paradigm == SCOREP_IO_ISOC
                      ? __atomic_load_n(&fd_handle[SCOREP_IO_POSIX][fd], __ATOMIC_ACQUIRE)
                      : 0;
    if (ph)
        forget(f, SCOREP_IO_POSIX, fd, ph - 1);
}

void scorep_io_closing_known(scorep_io_frame *f, int fd)
{
    uint32_t h = fd >= 0 && fd < fd_cap ? __atomic_load_n(&fd_handle[f->paradigm][fd], __ATOMIC_ACQUIRE)
                                        : 0;
    f->handle = h ? h - 1 : SCOREP_INVALID_ID;
}

/* Score-P records lockf's and flockfile's locks as exclusive locks of the handle */
void scorep_io_lock(scorep_io_frame *f, int fd, scorep_io_lock_event which)
{
    uint32_t h = handle_of(f->paradigm, fd);
    if (h != SCOREP_INVALID_ID)
        scorep_event_io_lock(f->l, which, h, SCOREP_IO_LOCK_EXCLUSIVE);
}

/* flock(2): LOCK_SH is a shared lock, LOCK_EX an exclusive one (OTF2's lock types);
 * LOCK_UN releases (recorded before the call, as lockf's F_ULOCK) the type the descriptor
 * acquired; with LOCK_NB an attempt that failed is an IoTryLock */
void scorep_io_flock_before(scorep_io_frame *f, int fd, int op)
{
    if ((op & ~LOCK_NB) != LOCK_UN || fd < 0 || fd >= fd_cap)
        return;
    uint32_t h = handle_of(f->paradigm, fd);
    uint8_t t = __atomic_load_n(&fd_flock[fd], __ATOMIC_RELAXED);
    if (h != SCOREP_INVALID_ID)
        scorep_event_io_lock(f->l, SCOREP_IO_LOCK_RELEASE, h,
                             t ? t - 1u : (uint32_t)SCOREP_IO_LOCK_EXCLUSIVE);
}

void scorep_io_flock_after(scorep_io_frame *f, int fd, int op, int ret)
{
    int what = op & ~LOCK_NB;
    if ((what != LOCK_SH && what != LOCK_EX) || fd < 0 || fd >= fd_cap)
        return;
    uint32_t type = what == LOCK_SH ? SCOREP_IO_LOCK_SHARED : SCOREP_IO_LOCK_EXCLUSIVE;
    if (ret != 0 && !(op & LOCK_NB)) /* failed without trying: EBADF, EINTR, ... */
        return;
    uint32_t h = handle_of(f->paradigm, fd);
    if (ret == 0)
        __atomic_store_n(&fd_flock[fd], (uint8_t)(type + 1), __ATOMIC_RELAXED);
    if (h != SCOREP_INVALID_ID)
        scorep_event_io_lock(f->l, ret == 0 ? SCOREP_IO_LOCK_ACQUIRE : SCOREP_IO_LOCK_TRY, h, type);
}

static void duplicated(scorep_io_frame *f, int oldfd, int newfd, int ok, uint32_t status);

void scorep_io_duplicated(scorep_io_frame *f, int oldfd, int newfd, int ok)
{
    duplicated(f, oldfd, newfd, ok, 0);
}

static void duplicated(scorep_io_frame *f, int oldfd, int newfd, int ok, uint32_t status)
{
    if (!ok || oldfd < 0 || oldfd >= fd_cap || newfd < 0 || newfd >= fd_cap)
        return;
    uint32_t p = f->paradigm, old = handle_of(p, oldfd);
    uint32_t prev = __atomic_load_n(&fd_handle[p][newfd], __ATOMIC_ACQUIRE);
    if (prev && newfd != oldfd) /* dup2 onto an open descriptor closed it */
        forget(f, p, newfd, prev - 1);
    const scorep_io_handle_def *d =
        old != SCOREP_INVALID_ID ? scorep_defs_io_handle_get(old) : NULL;
    char name[32];
    snprintf(name, sizeof name, "fd %d", newfd);
    const char *file =
        d && d->file != SCOREP_INVALID_ID ? scorep_defs_io_file_get(d->file)->name : NULL;
    uint32_t h = define_handle(p, name, file, 0, 0);
    if (h == SCOREP_INVALID_ID || old == SCOREP_INVALID_ID)
        return;
    __atomic_store_n(&fd_handle[p][newfd], h + 1, __ATOMIC_RELEASE);
    scorep_event_io_duplicate_handle(f->l, old, h, status);
}

/* Score-P records F_DUPFD as a duplication; F_SETFL's new flags are recorded as they are
 * asked for (the close-on-exec flag, which F_SETFD sets, is not among them: knowing it
 * would cost another fcntl) */
void scorep_io_fcntl(scorep_io_frame *f, int fd, int cmd, intptr_t arg, int ret)
{
    if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
        duplicated(f, fd, ret, ret >= 0, cmd == F_DUPFD_CLOEXEC ? 1u : 0);
    else if (cmd == F_SETFL && ret == 0) {
        uint32_t h = fd >= 0 && fd < fd_cap ? handle_of(f->paradigm, fd) : SCOREP_INVALID_ID;
        if (h != SCOREP_INVALID_ID)
            scorep_event_io_change_status_flags(f->l, h, status_flags((int)arg));
    }
}

/* Score-P's handle of sync(2): a pre-created proxy of all handles, without file */
void scorep_io_flush_all_begin(scorep_io_frame *f)
{
    static uint32_t proxy; /* handle id + 1 */
    uint32_t h = __atomic_load_n(&proxy, __ATOMIC_ACQUIRE);
    if (!h) { /* once: a definition */
        h = define_handle(f->paradigm, "sync - commit buffer cache to disk", NULL,
                          SCOREP_IO_HANDLE_PRE_CREATED | SCOREP_IO_HANDLE_ALL_PROXY, 2) + 1;
        __atomic_store_n(&proxy, h, __ATOMIC_RELEASE);
    }
    f->handle = h - 1;
    if (f->handle == SCOREP_INVALID_ID)
        return;
    f->matching = ((++matching_ids) << 2) | SCOREP_IO_OP_FLUSH;
    scorep_event_io_operation_begin(f->l, f->handle, SCOREP_IO_OP_FLUSH, SCOREP_IO_OP_FLAG_NONE, 0,
                                    f->matching);
}

/* ------------------------------------------------------------------ deletion */
uint32_t scorep_io_file_of(const char *path)
{
    char resolved[PATH_MAX];
    if (!path || !realpath(path, resolved))
        return SCOREP_INVALID_ID;
    return scorep_defs_io_file(resolved);
}

void scorep_io_deleted(scorep_io_frame *f, uint32_t file, int ok)
{
    if (ok && file != SCOREP_INVALID_ID)
        scorep_event_io_delete_file(f->l, f->paradigm, file);
}

/* ------------------------------------------------------------------ POSIX AIO */
/* The outstanding requests: aiocb address -> handle and mode, an open-addressing table
 * written at issue and completion, read without a lock (as mpi_io.c's files). A request
 * that finds no slot is issued but never completed in the trace (warned once). */
enum { AIO_SLOTS = 4096 };
#define AIO_TOMBSTONE ((uintptr_t)1)
static struct {
    uintptr_t key;
    uint32_t handle, op;
} aio_reqs[AIO_SLOTS];

static size_t aio_slot(uintptr_t k)
{
    return (size_t)((k >> 4) * 0x9e3779b97f4a7c15ull >> 52) % AIO_SLOTS;
}

static void aio_insert(const struct aiocb *cb, uint32_t handle, uint32_t op)
{
    uintptr_t k = (uintptr_t)cb;
    for (size_t i = aio_slot(k), n = 0; n < AIO_SLOTS; i = (i + 1) % AIO_SLOTS, n++) {
        uintptr_t s = __atomic_load_n(&aio_reqs[i].key, __ATOMIC_ACQUIRE);
        if ((s == 0 || s == AIO_TOMBSTONE || s == k) &&
            __atomic_compare_exchange_n(&aio_reqs[i].key, &s, AIO_TOMBSTONE + 1, false,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            /* claimed (key 2: busy); fill in, then publish the key */
            aio_reqs[i].handle = handle;
            aio_reqs[i].op = op;
            __atomic_store_n(&aio_reqs[i].key, k, __ATOMIC_RELEASE);
            return;
        }
    }
    scorep_warn_once("I/O: more than 4096 asynchronous requests at once; the others are not "
                     "completed in the trace");
}

/* the slot of cb, or -1 */
static long aio_find(const struct aiocb *cb)
{
    uintptr_t k = (uintptr_t)cb;
    for (size_t i = aio_slot(k), n = 0; n < AIO_SLOTS; i = (i + 1) % AIO_SLOTS, n++) {
        uintptr_t s = __atomic_load_n(&aio_reqs[i].key, __ATOMIC_ACQUIRE);
        if (s == 0)
            return -1;
        if (s == k)
            return (long)i;
    }
    return -1;
}

static void aio_remove(long i)
{
    __atomic_store_n(&aio_reqs[i].key, AIO_TOMBSTONE, __ATOMIC_RELEASE);
}

static scorep_io_op aio_op(int opcode)
{
    return opcode == LIO_WRITE ? SCOREP_IO_OP_WRITE : SCOREP_IO_OP_READ;
}

/* what aio_return will return for a request aio_error reported done (glibc keeps it in the
 * aiocb); unknown elsewhere */
static uint64_t aio_result(const struct aiocb *cb)
{
#ifdef __GLIBC__
    return cb->__return_value >= 0 ? (uint64_t)cb->__return_value : SCOREP_IO_UNKNOWN_BYTES;
#else
    (void)cb;
    return SCOREP_IO_UNKNOWN_BYTES;
#endif
}

void scorep_io_aio_begin(scorep_io_frame *f, const struct aiocb *cb, scorep_io_op op)
{
    f->handle = cb ? handle_of(SCOREP_IO_POSIX, cb->aio_fildes) : SCOREP_INVALID_ID;
    if (f->handle == SCOREP_INVALID_ID)
        return;
    f->matching = (uint64_t)(uintptr_t)cb;
    scorep_event_io_operation_begin(f->l, f->handle, op, SCOREP_IO_OP_FLAG_NON_BLOCKING,
                                    op == SCOREP_IO_OP_FLUSH ? 0 : (uint64_t)cb->aio_nbytes,
                                    f->matching);
}

void scorep_io_aio_issued(scorep_io_frame *f, const struct aiocb *cb, scorep_io_op op, int ok)
{
    if (f->handle == SCOREP_INVALID_ID)
        return;
    if (!ok) { /* not queued: the operation ends here, failed */
        scorep_event_io_operation_complete(f->l, f->handle, op, SCOREP_IO_UNKNOWN_BYTES,
                                           f->matching, (uint32_t)errno);
        return;
    }
    scorep_event_io_operation_issued(f->l, f->handle, f->matching);
    aio_insert(cb, f->handle, op);
}

void scorep_io_aio_error(scorep_io_frame *f, const struct aiocb *cb, int ret)
{
    long i = cb ? aio_find(cb) : -1;
    if (i < 0)
        return;
    uint32_t h = aio_reqs[i].handle;
    uint64_t id = (uint64_t)(uintptr_t)cb;
    if (ret == EINPROGRESS) {
        scorep_event_io_operation_test(f->l, h, id);
        return;
    }
    if (ret == ECANCELED)
        scorep_event_io_operation_cancelled(f->l, h, id);
    else
        scorep_event_io_operation_complete(f->l, h, (scorep_io_op)aio_reqs[i].op,
                                           ret == 0 ? aio_result(cb) : SCOREP_IO_UNKNOWN_BYTES, id,
                                           ret > 0 ? (uint32_t)ret : 0);
    aio_remove(i);
}

void scorep_io_aio_return(scorep_io_frame *f, const struct aiocb *cb, long ret)
{
    long i = cb ? aio_find(cb) : -1;
    if (i < 0)
        return;
    scorep_event_io_operation_complete(f->l, aio_reqs[i].handle, (scorep_io_op)aio_reqs[i].op,
                                       ret >= 0 ? (uint64_t)ret : SCOREP_IO_UNKNOWN_BYTES,
                                       (uint64_t)(uintptr_t)cb, ret >= 0 ? 0 : (uint32_t)errno);
    aio_remove(i);
}

void scorep_io_aio_cancel(scorep_io_frame *f, int fd, const struct aiocb *cb, int ret)
{
    if (ret != AIO_CANCELED)
        return;
    if (cb) {
        long i = aio_find(cb);
        if (i >= 0) {
            scorep_event_io_operation_cancelled(f->l, aio_reqs[i].handle, (uint64_t)(uintptr_t)cb);
            aio_remove(i);
        }
        return;
    }
    /* every request of fd (a slow path: the whole table) */
    for (long i = 0; i < AIO_SLOTS; i++) {
        uintptr_t k = __atomic_load_n(&aio_reqs[i].key, __ATOMIC_ACQUIRE);
        if (k > AIO_TOMBSTONE + 1 && ((const struct aiocb *)k)->aio_fildes == fd) {
            scorep_event_io_operation_cancelled(f->l, aio_reqs[i].handle, (uint64_t)k);
            aio_remove(i);
        }
    }
}

static int lio_entry(struct aiocb *cb)
{
    return cb && (cb->aio_lio_opcode == LIO_READ || cb->aio_lio_opcode == LIO_WRITE);
}

void scorep_io_lio_begin(scorep_io_frame *f, int mode, struct aiocb *const list[], int n)
{
    for (int k = 0; list && k < n; k++) {
        if (!lio_entry(list[k]))
            continue;
        uint32_t h = handle_of(SCOREP_IO_POSIX, list[k]->aio_fildes);
        if (h != SCOREP_INVALID_ID)
            scorep_event_io_operation_begin(
                f->l, h, aio_op(list[k]->aio_lio_opcode),
                mode == LIO_NOWAIT ? SCOREP_IO_OP_FLAG_NON_BLOCKING : SCOREP_IO_OP_FLAG_NONE,
                (uint64_t)list[k]->aio_nbytes, (uint64_t)(uintptr_t)list[k]);
    }
}

/* LIO_WAIT: every request is done when the call returns; LIO_NOWAIT: the queued ones are
 * issued (their state from aio_error, which reads the aiocb) */
void scorep_io_lio_end(scorep_io_frame *f, int mode, struct aiocb *const list[], int n, int ret)
{
    (void)ret;
    for (int k = 0; list && k < n; k++) {
        struct aiocb *cb = list[k];
        if (!lio_entry(cb))
            continue;
        uint32_t h = handle_of(SCOREP_IO_POSIX, cb->aio_fildes);
        if (h == SCOREP_INVALID_ID)
            continue;
        int e = aio_error(cb);
        scorep_io_op op = aio_op(cb->aio_lio_opcode);
        uint64_t id = (uint64_t)(uintptr_t)cb;
        if (mode == LIO_NOWAIT && (e == EINPROGRESS || e == 0))
            scorep_event_io_operation_issued(f->l, h, id);
        if (mode == LIO_NOWAIT && e == EINPROGRESS)
            aio_insert(cb, h, op);
        else
            scorep_event_io_operation_complete(f->l, h, op,
                                               e == 0 ? aio_result(cb) : SCOREP_IO_UNKNOWN_BYTES, id,
                                               e > 0 ? (uint32_t)e : (e < 0 ? (uint32_t)errno : 0));
    }
}

/* ---------------------------------------------------------------- operations */

void scorep_io_op_begin(scorep_io_frame *f, int fd, scorep_io_op op, uint64_t bytes)
{
    f->handle = handle_of(f->paradigm, fd);
    if (f->handle == SCOREP_INVALID_ID)
        return;
    f->matching = ((++matching_ids) << 2) | (uint64_t)op; /* the op rides in the low bits */
    scorep_event_io_operation_begin(f->l, f->handle, op, SCOREP_IO_OP_FLAG_NONE, bytes,
                                    f->matching);
    current = f;
}

void scorep_io_op_end(scorep_io_frame *f, uint64_t transferred)
{
    if (f->handle == SCOREP_INVALID_ID)
        return;
    current = NULL;
    /* called right after the wrapped call: errno is still its errno (a failure without one
     * is EIO: the error code tells failed operations from those of unknown size) */
    uint32_t error = 0;
    if (transferred == SCOREP_IO_UNSIZED_BYTES)
        transferred = SCOREP_IO_UNKNOWN_BYTES;
    else if (transferred == SCOREP_IO_UNKNOWN_BYTES)
        error = errno ? (uint32_t)errno : EIO;
    scorep_event_io_operation_complete(f->l, f->handle, (scorep_io_op)(f->matching & 3),
                                       transferred, f->matching, error);
}

void scorep_io_seek(scorep_io_frame *f, int fd, int64_t offset, int whence, uint64_t result)
{
    uint32_t h = handle_of(f->paradigm, fd);
    if (h != SCOREP_INVALID_ID)
        scorep_event_io_seek(f->l, h, offset, (uint32_t)whence, result);
}

int scorep_io_mode_flags(const char *mode)
{
    int plus = mode && strchr(mode, '+') != NULL;
    int f = 0;
    switch (mode ? mode[0] : 'r') {
    case 'w':
        f = (plus ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC;
        break;
    case 'a':
        f = (plus ? O_RDWR : O_WRONLY) | O_CREAT | O_APPEND;
        break;
    default:
        f = plus ? O_RDWR : O_RDONLY;
    }
    if (mode && strchr(mode, 'x'))
        f |= O_EXCL;
    if (mode && strchr(mode, 'e'))
        f |= O_CLOEXEC;
    return f;
}

int scorep_io_stream_fd(FILE *fp)
{
    return fp ? fileno_unlocked(fp) : -1;
}
