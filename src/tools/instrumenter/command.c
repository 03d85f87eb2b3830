/* SPDX-License-Identifier: BSD-3-Clause */
/* command.c: turns one instrumenter invocation into compiler commands (instrumentation flags,
 * include path, the filter's plugin and the filter reference object (below), the runtime's
 * libraries) and runs them. */
#include "tools/instrumenter/command.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h" /* SCOREP_LIBOMP_DIR */
#include "filter/filter.h"
#include "tools/instrumenter/excluded_sources.h"

#ifndef SCOREP_LIBDIR
#error "SCOREP_LIBDIR must be defined by the build"
#endif
#ifndef SCOREP_INCLUDEDIR
#error "SCOREP_INCLUDEDIR must be defined by the build"
#endif

#define SUPPORTED "gcc, cc, g++, c++, clang, clang++, gfortran, nvcc"
#define FILTER_SYMBOL "scorep_cc_filter_file"
#define FILTER_REF_NAME "scorep_cc_filter"

void instr_unsupported_compiler(const char *compiler)
{
    fprintf(stderr, "%s: unsupported compiler '%s' (supported: " SUPPORTED "); see %s --help\n",
            instr_prog, compiler, instr_prog);
    exit(1);
}

void instr_no_compiler(void)
{
    fprintf(stderr, "%s: no compiler command given; see %s --help\n", instr_prog, instr_prog);
    exit(1);
}

static bool runs_llvm(const struct job *job);

void instr_set_compiler(struct job *job, const char *compiler)
{
    job->kind = compiler_find(compiler, job->c_driver, sizeof job->c_driver);
    if (job->kind == NULL)
        instr_unsupported_compiler(compiler);
    job->compiler = compiler;
    /* a C/C++ wrapper running clang gets clang's instrumentation, not gcc's plugin (which
     * clang cannot load: OMPI_CC=clang scorep-cc mpicc built nothing before session 25) */
    if ((job->kind->mpi || job->kind->shmem) && !job->kind->fortran && runs_llvm(job))
        job->kind = compiler_llvm_backed(job->kind);
}

static const char *env_or(const char *name, const char *fallback)
{
    const char *value = getenv(name);
    return value != NULL && value[0] != '\0' ? value : fallback;
}

const char *instr_includedir(void)
{
    return env_or("SCOREP_CC_INCLUDEDIR", SCOREP_INCLUDEDIR);
}

const char *instr_libdir(void)
{
    return env_or("SCOREP_CC_LIBDIR", SCOREP_LIBDIR);
}

enum instr_mpp instr_mpp_of(const struct job *job)
{
    if (job->opt.mpp != MPP_AUTO)
        return job->opt.mpp;
    return job->kind->mpi ? MPP_MPI : job->kind->shmem ? MPP_SHMEM : MPP_NONE;
}

enum instr_thread instr_thread_of(const struct job *job)
{
    if (job->opt.thread != THREAD_AUTO)
        return job->opt.thread;
    return args_any(job->nargs, job->args, arg_is_openmp) ? THREAD_OMP : THREAD_NONE;
}

/* The filter file must be readable now: a typo should fail the build, not the run. */
static char *check_filter(const char *filter)
{
    struct stat st;
    int fd = open(filter, O_RDONLY);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "%s: cannot read filter file '%s': %s\n", instr_prog, filter,
                fd < 0 ? strerror(errno) : "not a regular file");
        exit(1);
    }
    close(fd);
    char *path = realpath(filter, NULL);
    if (path == NULL) {
        fprintf(stderr, "%s: cannot resolve filter file '%s': %s\n", instr_prog, filter,
                strerror(errno));
        exit(1);
    }
    /* the same parser as the runtime's and the plugin's: syntax errors stop every compile
     * step, whichever compiler, with the file and line */
    char err[512];
    scorep_filter *f = scorep_filter_new();
    if (f == NULL || scorep_filter_parse_file(f, filter, err, sizeof err) != 0) {
        fprintf(stderr, "%s: bad filter file: %s\n", instr_prog, f != NULL ? err : "out of memory");
        exit(1);
    }
    scorep_filter_free(f);
    return path;
}

/* The plugins of --instrument=plugin (#9, #20): the GCC plugin for the GNU drivers (C, C++,
 * Fortran, nvcc's host code), the LLVM pass plugin for clang/clang++; NULL: not built here. */
static const char *plugin_path(enum compiler_plugin plugin)
{
#ifdef SCOREP_GCC_PLUGIN
    if (plugin == PLUGIN_GCC)
        return env_or("SCOREP_CC_GCC_PLUGIN", SCOREP_GCC_PLUGIN);
#endif
#ifdef SCOREP_LLVM_PLUGIN
    if (plugin == PLUGIN_LLVM)
        return env_or("SCOREP_CC_LLVM_PLUGIN", SCOREP_LLVM_PLUGIN);
#endif
    (void)plugin;
    return NULL;
}

#ifdef SCOREP_LLVM_PLUGIN_CLANG
/* The major version of a clang driver (clang -dumpversion); 0 if it cannot be run. */
static int clang_major(const char *compiler)
{
    char *const argv[] = {(char *)compiler, "-dumpversion", NULL};
    char out[64];
    return argv_capture(argv, 1, out, sizeof out) > 0 ? atoi(out) : 0;
}
#endif

/* Why the plugin cannot instrument this compiler's code, NULL if it can. */
static const char *plugin_unusable(const struct job *job)
{
    const char *path = plugin_path(job->kind->plugin);
    if (job->kind->plugin == PLUGIN_LLVM) {
#ifdef SCOREP_LLVM_PLUGIN_CLANG
        static char why[128];
        int major = clang_major(job->compiler);
        /* a clang that cannot be run fails anyway, with the compiler's own message */
        if (major != 0 && major != SCOREP_LLVM_PLUGIN_CLANG) {
            snprintf(why, sizeof why, "the LLVM plugin was built for clang %d, this is clang %d",
                     SCOREP_LLVM_PLUGIN_CLANG, major);
            return why;
        }
#endif
        if (path == NULL)
            return "scorep-rt was built without the LLVM headers of this clang (Debian: "
                   "llvm-N-dev; reconfigure)";
    } else if (path == NULL) {
        return "scorep-rt was built without gcc's plugin headers (Debian: gcc-N-plugin-dev)";
    }
    if (job->kind->cuda && args_any(job->nargs, job->args, arg_is_nvcc_ccbin))
        return "nvcc's host compiler is chosen with -ccbin, the GCC plugin fits the gcc it "
               "was built for only";
    return NULL;
}

/* --instrument (#9, #20): whether a plugin instruments (region descriptors and the inline
 * throttle check) instead of -finstrument-functions. Exits on a choice the compiler lacks. */
static bool plugin_instruments(const struct job *job)
{
    const char *mode =
        job->opt.instrument ? job->opt.instrument : env_or("SCOREP_CC_INSTRUMENT", "");
    if (strcmp(mode, "functions") == 0)
        return false;
    if (mode[0] != '\0' && strcmp(mode, "plugin") != 0) {
        fprintf(stderr, "%s: --instrument=%s: expected plugin or functions\n", instr_prog, mode);
        exit(1);
    }
    static int decided = -1; /* one decision per invocation: clang may be asked once */
    if (decided >= 0)
        return decided;
    const char *why = plugin_unusable(job);
    if (why != NULL && mode[0] != '\0') {
        fprintf(stderr, "%s: --instrument=plugin: %s; use --instrument=functions\n", instr_prog,
                why);
        exit(1);
    }
    /* the default: the plugin where it is installed (a build tree may not have it yet) */
    decided = why == NULL && (mode[0] != '\0' || access(plugin_path(job->kind->plugin), R_OK) == 0);
    /* clang without its plugin: one line, on compile steps only (not on every link) */
    if (!decided && why != NULL && job->kind->plugin == PLUGIN_LLVM &&
        args_any(job->nargs, job->args, arg_is_source))
        fprintf(stderr, "%s: %s: using -finstrument-functions (slower: see --instrument)\n",
                instr_prog, why);
    return decided;
}

/* nvcc passes host compiler options through -Xcompiler. */
static void push_host(const struct job *job, struct argv_buf *cmd, const char *prefix,
                      const char *value)
{
    if (job->kind->cuda)
        argv_push(cmd, "-Xcompiler");
    argv_push_joined(cmd, prefix, value);
}

/* One option per file: nvcc splits -Xcompiler values at commas. GCC's drivers only: clang
 * knows neither the option nor the GCC plugin (nvcc -ccbin may name any compiler). */
static void push_excluded_files(const struct job *job, struct argv_buf *cmd, bool plugin)
{
    if (job->kind->plugin != PLUGIN_GCC ||
        (job->kind->cuda && args_any(job->nargs, job->args, arg_is_nvcc_ccbin)))
        return;
    struct excluded_sources files;
    instr_excluded_sources(job, &files);
    for (int i = 0; i < files.n; i++)
        push_host(job, cmd,
                  plugin ? "-fplugin-arg-scorep_filter_gcc-exclude-file="
                         : "-finstrument-functions-exclude-file-list=",
                  files.paths[i]);
    instr_excluded_sources_free(&files);
    /* nvcc writes its helpers (__nv_save_fatbinhandle_for_managed_rt) into the program's
     * own source file */
    if (job->kind->cuda)
        push_host(job, cmd,
                  plugin ? "-fplugin-arg-scorep_filter_gcc-exclude-function="
                         : "-finstrument-functions-exclude-function-list=",
                  "__nv_");
}

bool instr_threshold_valid(const char *n)
{
    size_t len = strspn(n, "0123456789");
    return len > 0 && len <= 9 && n[len] == '\0';
}

/* --instrument-inlined, SCOREP_CC_INSTRUMENT_INLINED=yes|true|1 */
static bool instrument_inlined(const struct job *job)
{
    const char *v = env_or("SCOREP_CC_INSTRUMENT_INLINED", "no");
    return job->opt.instrument_inlined || strcmp(v, "yes") == 0 || strcmp(v, "true") == 0 ||
           strcmp(v, "1") == 0;
}

/* --instrument-threshold=N, SCOREP_CC_INSTRUMENT_THRESHOLD; NULL: the plugin's default */
static const char *instrument_threshold(const struct job *job)
{
    const char *n = job->opt.instrument_threshold;
    if (n == NULL)
        n = env_or("SCOREP_CC_INSTRUMENT_THRESHOLD", NULL);
    if (n != NULL && !instr_threshold_valid(n)) {
        fprintf(stderr, "%s: SCOREP_CC_INSTRUMENT_THRESHOLD=%s: expected a number\n", instr_prog,
                n);
        exit(1);
    }
    return n;
}

/* The LLVM plugin's own options (-mllvm) on a compile step: clang parses them after
 * -fplugin= has loaded the plugin, so that comes first, once (push_plugin_filter). */
static bool llvm_options_needed(const struct job *job)
{
    return args_any(job->nargs, job->args, arg_is_source) &&
           (instrument_inlined(job) || instrument_threshold(job) != NULL ||
            job->filter_path != NULL);
}

static void push_llvm_options(const struct job *job, struct argv_buf *cmd, const char *plugin)
{
    argv_push_joined(cmd, "-fplugin=", plugin);
    if (job->filter_path != NULL) {
        argv_push(cmd, "-mllvm");
        argv_push_joined(cmd, "-scorep-filter=", job->filter_path);
    }
    if (instrument_inlined(job)) {
        argv_push(cmd, "-mllvm");
        argv_push(cmd, "-scorep-instrument-inlined");
    }
    if (instrument_threshold(job) != NULL) {
        argv_push(cmd, "-mllvm");
        argv_push_joined(cmd, "-scorep-instrument-threshold=", instrument_threshold(job));
    }
}

/* the GCC plugin's: -fplugin-arg-scorep_filter_gcc-inlined, -threshold=N */
static void push_gcc_options(const struct job *job, struct argv_buf *cmd)
{
    if (instrument_inlined(job))
        push_host(job, cmd, "-fplugin-arg-scorep_filter_gcc-inlined", "");
    if (instrument_threshold(job) != NULL)
        push_host(job, cmd, "-fplugin-arg-scorep_filter_gcc-threshold=", instrument_threshold(job));
}

void instr_push_instrumentation(const struct job *job, struct argv_buf *cmd)
{
    if (job->opt.nocompiler)
        return;
    if (!plugin_instruments(job)) {
        argv_push_list(cmd, job->kind->instrument);
        push_excluded_files(job, cmd, false);
        return;
    }
    const char *plugin = plugin_path(job->kind->plugin);
    if (job->kind->plugin == PLUGIN_LLVM) {
        /* the plugin instruments exactly the functions clang marks for the hooks, and takes
         * the marks off (scorep_llvm_plugin.cc) */
        argv_push_list(cmd, job->kind->instrument);
        argv_push_joined(cmd, "-fpass-plugin=", plugin);
        return;
    }
    push_host(job, cmd, "-fplugin=", plugin);
    push_host(job, cmd, "-fplugin-arg-scorep_filter_gcc-instrument", "");
    push_gcc_options(job, cmd);
    push_excluded_files(job, cmd, true);
}

/* --filter: the plugin that instruments leaves the excluded functions uninstrumented; with
 * -finstrument-functions, gcc's C/C++ front ends load the GCC plugin for that alone (gfortran
 * calls no plugin hook before it adds the hooks, clang and nvcc are left out). The LLVM
 * plugin's other options (#31) come with its filter, behind one -fplugin=. */
static void push_plugin_filter(const struct job *job, struct argv_buf *cmd)
{
    if (job->opt.nocompiler)
        return;
    const struct compiler_kind *kind = job->kind;
    const char *plugin = plugin_path(kind->plugin);
    if (kind->plugin == PLUGIN_LLVM) {
        /* -mllvm options are parsed after -fplugin= loads a library, before -fpass-plugin=;
         * a link step would warn that -mllvm is unused */
        if (llvm_options_needed(job) && plugin_instruments(job))
            push_llvm_options(job, cmd, plugin);
        return;
    }
    if (job->filter_path == NULL)
        return;
    if (!plugin_instruments(job)) {
        if (plugin == NULL || kind->fortran || kind->cuda)
            return;
        argv_push_joined(cmd, "-fplugin=", plugin);
    }
    push_host(job, cmd, "-fplugin-arg-scorep_filter_gcc-filter=", job->filter_path);
}

/* Writes the C source that defines the filter symbol, escaping the path for a C string. */
static int write_filter_source(const char *file, const char *path)
{
    FILE *f = fopen(file, "w");
    if (f == NULL)
        return -1;
    fprintf(f,
            "/* generated by %s: the filter file given with --filter */\n"
            "__attribute__((used, visibility(\"default\"))) const char " FILTER_SYMBOL "[] = \"",
            instr_prog);
    for (const unsigned char *p = (const unsigned char *)path; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p >= 0x7f)
            fprintf(f, "\\%03o", *p);
        else
            fputc(*p, f);
    }
    fprintf(f, "\";\n");
    return fclose(f) == 0 ? 0 : -1;
}

static void remove_filter_ref(struct job *job)
{
    if (job->opt.keep_files)
        return;
    unlink(job->filter_ref_obj);
    unlink(job->filter_ref_src);
    rmdir(job->tmpdir);
}

/* The filter reference: a generated C file defining scorep_cc_filter_file (the filter
 * file's absolute path, read by the runtime when SCOREP_FILTERING_FILE is unset), compiled
 * in a temporary directory and linked in; in a dry run only its name pattern is shown. */
static int prepare_filter_ref(struct job *job)
{
    snprintf(job->tmpdir, sizeof job->tmpdir, "%s/scorep-cc.XXXXXX", env_or("TMPDIR", "/tmp"));
    if (!job->opt.dry_run && mkdtemp(job->tmpdir) == NULL) {
        fprintf(stderr, "%s: cannot create a temporary directory '%s': %s\n", instr_prog,
                job->tmpdir, strerror(errno));
        return -1;
    }
    snprintf(job->filter_ref_src, sizeof job->filter_ref_src, "%s/" FILTER_REF_NAME ".c",
             job->tmpdir);
    snprintf(job->filter_ref_obj, sizeof job->filter_ref_obj, "%s/" FILTER_REF_NAME ".o",
             job->tmpdir);
    if (!job->opt.dry_run && write_filter_source(job->filter_ref_src, job->filter_path) != 0) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", instr_prog, job->filter_ref_src,
                strerror(errno));
        remove_filter_ref(job);
        return -1;
    }
    return 0;
}

static void build_filter_ref_command(const struct job *job, struct argv_buf *cmd)
{
    argv_push(cmd, job->c_driver);
    argv_push(cmd, "-c");
    argv_push(cmd, "-fPIC");
    for (int i = 0; i < job->nargs; i++)
        if (arg_is_abi(job->args[i]))
            argv_push(cmd, job->args[i]);
    argv_push(cmd, "-o");
    argv_push(cmd, job->filter_ref_obj);
    argv_push(cmd, job->filter_ref_src);
}

void instr_push_runtime_ldflags(struct argv_buf *cmd, bool nvcc)
{
    const char *libdir = instr_libdir();
    argv_push_joined(cmd, "-L", libdir);
    if (nvcc) {
        argv_push(cmd, "-Xlinker");
        argv_push_joined(cmd, "-rpath,", libdir);
    } else {
        argv_push_joined(cmd, "-Wl,-rpath,", libdir);
    }
}

void instr_push_libs(struct argv_buf *cmd, enum instr_mpp mpp, bool cuda, bool nvcc,
                     bool memory)
{
    if (memory) {
        /* its malloc and operator new must come before libc's and libstdc++'s; linked even
         * if the program calls neither directly (strdup, gfortran's ALLOCATE) */
        argv_push(cmd, "-Wl,--push-state,--no-as-needed");
        argv_push(cmd, "-lscorep-rt-memory");
        /* the linker's own as-needed state again for what follows: libscorep-rt stays out
         * of a library whose functions the filter excluded all */
        argv_push(cmd, "-Wl,--pop-state");
    }
    if (mpp == MPP_MPI)
        argv_push(cmd, "-lscorep-rt-mpi");
    if (cuda) {
        /* the program references no adapter function: a linker that drops unneeded
         * libraries would drop it (nvcc moves linker options before all libraries) */
        argv_push(cmd, nvcc ? "-Xlinker" : "-Wl,--no-as-needed");
        if (nvcc)
            argv_push(cmd, "--no-as-needed");
        argv_push(cmd, "-lscorep-rt-cuda");
#ifdef HAVE_CUDA /* libscorep-rt-nvtx is built with the CUDA adapter */
        /* NVTX ranges of the program (its constructor names it in NVTX_INJECTION64_PATH) */
        argv_push(cmd, "-lscorep-rt-nvtx");
#endif
    }
    if (mpp == MPP_SHMEM)
        argv_push(cmd, "-lscorep-rt-shmem");
#ifdef HAVE_CUDA /* NVTX's headers were found: the NVTX adapter is built */
    if (!nvcc) {
        /* NVTX's static injection point (nvtx_inject.c): the program's NVTX ranges are
         * recorded without scorep-run; it loads the adapter only at a first NVTX call. Whole,
         * since NVTX's weak definition in the program would keep the linker from taking it
         * out of the archive. nvcc moves linker options before all libraries, so its
         * programs link the adapter itself (above). */
        argv_push(cmd, "-Wl,--whole-archive");
        argv_push(cmd, "-lscorep-rt-nvtx-inject");
        argv_push(cmd, "-Wl,--no-whole-archive");
    }
#endif
    argv_push(cmd, "-lscorep-rt");
}

/* Linked although the program references none of their symbols by name (they interpose
 * libc's): a linker that drops unneeded libraries must keep them. */
void instr_push_io_libs(struct argv_buf *cmd, unsigned io, bool nvcc)
{
    if (!(io & (INSTR_IO_POSIX | INSTR_IO_ISOC)))
        return;
    argv_push(cmd, nvcc ? "-Xlinker" : "-Wl,--no-as-needed");
    if (nvcc)
        argv_push(cmd, "--no-as-needed");
    if (io & INSTR_IO_POSIX)
        argv_push(cmd, "-lscorep-rt-io-posix");
    if (io & INSTR_IO_ISOC)
        argv_push(cmd, "-lscorep-rt-io-isoc");
}

/* Ahead of libomptarget, which clang adds after every library of the command: the
 * adapter's __tgt_* entry points must win over libomptarget's. */
void instr_push_omptarget(struct argv_buf *cmd, int nargs, char **args)
{
#ifdef HAVE_OMPT
    if (!args_any(nargs, args, arg_is_openmp_offload))
        return;
    argv_push(cmd, "-Wl,--push-state,--no-as-needed");
    argv_push(cmd, "-lscorep-rt-omptarget");
    argv_push(cmd, "-Wl,--pop-state");
#else
    (void)cmd;
    (void)nargs;
    (void)args;
#endif
}

const char *instr_omp_runtime(const struct instr_options *opt)
{
    const char *r =
        opt->omp_runtime ? opt->omp_runtime : env_or("SCOREP_CC_OPENMP_RUNTIME", "libgomp");
    if (strcmp(r, "libgomp") != 0 && strcmp(r, "libomp") != 0) {
        fprintf(stderr, "%s: SCOREP_CC_OPENMP_RUNTIME=%s: expected libgomp or libomp\n", instr_prog,
                r);
        exit(1);
    }
    return r;
}

/* gcc -fopenmp links GNU libgomp, which has no OMPT interface. libgomp (the default, faster
 * for gcc's code: docs/openmp.md): libscorep-rt-gomp's GOMP_* functions, linked ahead of the
 * libgomp gcc adds at the end, record the constructs and call libgomp's. libomp: LLVM's
 * libomp has OMPT and libgomp's entry points; its directory holds a libgomp.so that is
 * libomp, so searching that directory first makes gcc's own -lgomp link libomp. clang
 * -fopenmp links libomp itself. */
void instr_push_libomp(struct argv_buf *cmd, enum instr_thread thread, bool clang,
                       const char *omp_runtime)
{
#ifdef HAVE_OMPT
    if (thread != THREAD_OMP || clang)
        return;
    if (strcmp(omp_runtime, "libgomp") == 0) {
        /* libgomp right behind: a program that calls only GOMP_* functions (no omp_*) needs
         * nothing else of it, and --as-needed would drop it */
        argv_push(cmd, "-Wl,--push-state,--no-as-needed");
        argv_push(cmd, "-lscorep-rt-gomp");
        argv_push(cmd, "-lgomp");
        argv_push(cmd, "-Wl,--pop-state");
        return;
    }
#ifdef SCOREP_LIBOMP_DIR
    argv_push(cmd, "-L" SCOREP_LIBOMP_DIR);
    argv_push(cmd, "-Wl,-rpath," SCOREP_LIBOMP_DIR);
#endif
#else
    (void)cmd;
    (void)thread;
    (void)clang;
    (void)omp_runtime;
#endif
}

/* Whether the job's compiler is LLVM's (clang, flang: libomp): an MPI or SHMEM wrapper runs
 * the compiler its environment names (Open MPI's OMPI_CC/OMPI_CXX/OMPI_FC, MPICH's MPICH_*),
 * else the one Open MPI's wrapper was built for (`-showme:command`); a gcc program linked for
 * libgomp must not get libgomp into a clang program, which runs on libomp. */
static bool runs_llvm(const struct job *job)
{
    if (compiler_is_clang(job->kind))
        return true;
    if (!job->kind->mpi && !job->kind->shmem)
        return false;
    const char *n = job->kind->name;
    bool cxx = strstr(n, "xx") || strstr(n, "++") || strstr(n, "CC");
    const char *vars[2] = {job->kind->fortran ? "OMPI_FC" : cxx ? "OMPI_CXX" : "OMPI_CC",
                           job->kind->fortran ? "MPICH_FC" : cxx ? "MPICH_CXX" : "MPICH_CC"};
    char backend[PATH_MAX] = "";
    for (int i = 0; i < 2 && !backend[0]; i++)
        if (getenv(vars[i]) && getenv(vars[i])[0])
            snprintf(backend, sizeof backend, "%s", getenv(vars[i]));
    if (!backend[0] && !strchr(job->compiler, '\'')) {
        char probe[PATH_MAX + 64];
        snprintf(probe, sizeof probe, "'%s' -showme:command 2>/dev/null", job->compiler);
        FILE *p = popen(probe, "r");
        if (p) {
            if (!fgets(backend, sizeof backend, p))
                backend[0] = 0;
            pclose(p);
        }
    }
    const char *base = strrchr(backend, '/');
    base = base ? base + 1 : backend;
    return strncmp(base, "clang", 5) == 0 || strncmp(base, "flang", 5) == 0;
}

static void push_compile_flags(const struct job *job, struct argv_buf *cmd)
{
    instr_push_instrumentation(job, cmd);
    argv_push_joined(cmd, "-I", instr_includedir());
    if (job->opt.user)
        argv_push(cmd, "-DSCOREP_USER_ENABLE");
    /* #include "scorep/SCOREP_User.inc" and its macros need the preprocessor; Score-P's
     * wrapper also preprocesses every Fortran file with --user. */
    if (job->opt.user && job->kind->fortran &&
        args_any(job->nargs, job->args, arg_is_unpreprocessed_fortran))
        argv_push(cmd, "-cpp");
    /* line tables also without compiler instrumentation when OpenMP constructs are named
     * after their source lines (the code does not change) */
    if ((!job->opt.nocompiler || instr_thread_of(job) == THREAD_OMP) &&
        !args_any(job->nargs, job->args, arg_sets_debug_level))
        argv_push_list(cmd, job->kind->debug);
    push_plugin_filter(job, cmd);
}

static void push_filter_ref_object(const struct job *job, struct argv_buf *cmd)
{
    bool nvcc = job->kind->cuda;
    if (!nvcc && args_any(job->nargs, job->args, arg_is_language)) {
        argv_push(cmd, "-x");
        argv_push(cmd, "none");
    }
    argv_push(cmd, job->filter_ref_obj);
    if (nvcc)
        argv_push(cmd, "-Xlinker");
    argv_push(cmd, nvcc ? "--export-dynamic-symbol=" FILTER_SYMBOL
                        : "-Wl,--export-dynamic-symbol=" FILTER_SYMBOL);
}

/* The MPI adapter right before an MPI library the command names itself (scorep --mpp=mpi
 * nvcc ... -lmpi): loaded after it, the adapter's MPI functions would never be called. The
 * compiler wrappers (mpicc) add their library after everything, behind the adapter. */
static void push_mpi_adapter(struct argv_buf *cmd, bool nvcc)
{
    if (!nvcc) /* nvcc moves linker options in front of all libraries */
        argv_push(cmd, "-Wl,--push-state,--no-as-needed");
    argv_push(cmd, "-lscorep-rt-mpi");
    if (!nvcc)
        argv_push(cmd, "-Wl,--pop-state");
}

static void build_command(const struct job *job, struct argv_buf *cmd, bool with_filter_ref)
{
    bool nvcc = job->kind->cuda;
    enum instr_mpp mpp = instr_mpp_of(job);
    bool memkind_seen = false;
    struct link_state ls = {0};
    argv_push(cmd, job->compiler);
    push_compile_flags(job, cmd);
    if (job->link)
        instr_push_libwrap_front(cmd, &job->opt.libwraps);
    for (int i = 0; i < job->nargs; i++) {
        if (job->link && mpp == MPP_MPI && arg_is_mpi_library(job->args[i])) {
            push_mpi_adapter(cmd, nvcc);
            mpp = MPP_NONE; /* linked */
        }
        /* the memory adapter before memkind's library: otherwise the program's hbw_* calls
         * bind to libmemkind and are not recorded (the adapter is named again at the end,
         * which adds nothing). memkind's static library (libmemkind.a, or -lmemkind after
         * -Wl,-Bstatic) puts hbw_* into the executable, whose definitions come before every
         * library's: its calls are wrapped at link time instead, and the wrappers, linked
         * before libmemkind.a, reach memkind's functions as __real_hbw_* (memory_hbw_wrap.c) */
        if (job->link && !nvcc && !job->opt.nomemory && !memkind_seen &&
            (arg_is_memkind_archive(job->args[i]) ||
             (ls.bstatic && arg_is_memkind_library(job->args[i])))) {
            argv_push(cmd, "-Wl,--wrap=hbw_malloc,--wrap=hbw_calloc,--wrap=hbw_realloc,"
                           "--wrap=hbw_free,--wrap=hbw_posix_memalign,"
                           "--wrap=hbw_posix_memalign_psize");
            /* a static library only: found in either -B state */
            argv_push(cmd, "-lscorep-rt-hbw-wrap");
            memkind_seen = true;
        } else if (job->link && !nvcc && !job->opt.nomemory && !memkind_seen &&
                   arg_is_memkind_library(job->args[i])) {
            argv_push(cmd, "-Wl,--push-state,--no-as-needed");
            argv_push(cmd, "-lscorep-rt-memory");
            argv_push(cmd, "-Wl,--pop-state");
            memkind_seen = true;
        }
        arg_link_state(job->args[i], i > 0 && strcmp(job->args[i - 1], "-Xlinker") == 0, &ls);
        argv_push(cmd, job->args[i]);
    }
    if (!job->link)
        return;
    if (with_filter_ref)
        push_filter_ref_object(job, cmd);
    instr_push_libwrap_back(cmd, &job->opt.libwraps);
    instr_push_runtime_ldflags(cmd, nvcc);
    instr_push_io_libs(cmd, job->opt.io, nvcc);
    instr_push_omptarget(cmd, job->nargs, job->args);
    instr_push_libs(cmd, mpp, nvcc && job->opt.cuda >= 0, nvcc, !nvcc && !job->opt.nomemory);
    instr_push_libomp(cmd, instr_thread_of(job), runs_llvm(job), instr_omp_runtime(&job->opt));
}

static void print_selection(const struct job *job)
{
    static const char *const mpps[] = {"auto", "none", "mpi", "shmem"};
    static const char *const threads[] = {"auto", "none", "pthread", "omp"};
    fprintf(stderr, "%s: compiler %s, mpp=%s, thread=%s, compiler instrumentation %s, user %s\n",
            instr_prog, job->compiler, mpps[instr_mpp_of(job)], threads[instr_thread_of(job)],
            job->opt.nocompiler ? "off" : "on", job->opt.user ? "on" : "off");
}

/* Prints (dry run, verbose) and runs the filter reference's compile, if any, then the compiler
 * command. */
static int execute(struct job *job, struct argv_buf *filter_ref, struct argv_buf *cmd)
{
    FILE *log = job->opt.dry_run ? stdout : job->opt.verbosity > 0 ? stderr : NULL;
    if (job->opt.verbosity > 1)
        print_selection(job);
    if (log != NULL && filter_ref->n > 0)
        argv_print(log, filter_ref->v);
    if (log != NULL)
        argv_print(log, cmd->v);
    if (job->opt.dry_run)
        return 0;
    if (filter_ref->n == 0)
        argv_exec(cmd->v);
    int status = argv_run(filter_ref->v);
    if (status != 0)
        fprintf(stderr, "%s: compiling the filter reference failed\n", instr_prog);
    else
        status = argv_run(cmd->v);
    remove_filter_ref(job);
    return status;
}

static void pass_through(const struct job *job, struct argv_buf *cmd)
{
    argv_push(cmd, job->compiler);
    for (int i = 0; i < job->nargs; i++)
        argv_push(cmd, job->args[i]);
}

int instr_run_job(struct job *job)
{
    if (job->opt.filter != NULL)
        job->filter_path = check_filter(job->opt.filter);
    struct argv_buf filter_ref = {0}, cmd = {0};
    if (args_are_query(job->nargs, job->args)) {
        pass_through(job, &cmd);
        return execute(job, &filter_ref, &cmd);
    }
    job->link = !args_stop_before_link(job->nargs, job->args);
    if (job->link && args_any(job->nargs, job->args, arg_is_static)) {
        fprintf(stderr,
                "%s: static executables (-static) are not supported: the measurement "
                "runtime libscorep-rt is a shared library\n",
                instr_prog);
        return 1;
    }
    bool with_filter_ref = job->link && job->filter_path != NULL;
    if (with_filter_ref) {
        if (prepare_filter_ref(job) != 0)
            return 1;
        build_filter_ref_command(job, &filter_ref);
    }
    build_command(job, &cmd, with_filter_ref);
    return execute(job, &filter_ref, &cmd);
}
