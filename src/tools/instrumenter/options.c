/* SPDX-License-Identifier: BSD-3-Clause */
/* options.c: parses scorep-cc's options and Score-P's instrumenter options (checked against
 * Score-P's scorep --help and its command-line parser) into one set of selections. */
#include "config.h"
#include "tools/instrumenter/options.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SCOREP_VERSION
#error "SCOREP_VERSION must be defined by the build"
#endif
#ifdef SCOREP_GCC_PLUGIN
#define GCC_PLUGIN_NAME SCOREP_GCC_PLUGIN
#else
#define GCC_PLUGIN_NAME "(not built here: gcc's plugin headers were missing)"
#endif
#ifdef SCOREP_LLVM_PLUGIN
#define LLVM_PLUGIN_NAME SCOREP_LLVM_PLUGIN
#else
#define LLVM_PLUGIN_NAME "(none: scorep-rt was built without the LLVM headers of clang)"
#endif

static void die(const char *fmt, const char *arg) __attribute__((noreturn));
static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", instr_prog);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "; see %s --help\n", instr_prog);
    exit(1);
}

static const char compilers_help[] =
    "Compilers: gcc, cc, g++, c++, clang, clang++, gfortran, also with a version\n"
    "suffix (gcc-12, clang-14), a target prefix (x86_64-linux-gnu-gcc) or a path;\n"
    "the MPI wrappers mpicc, mpicxx, mpic++, mpiCC, mpif90, mpifort, mpif77 (these\n"
    "also link the MPI adapter libscorep-rt-mpi), the OpenSHMEM wrappers oshcc,\n"
    "oshcxx, oshc++, oshCC, oshfort (these link libscorep-rt-shmem), and nvcc (host\n"
    "code instrumented through -Xcompiler; links the CUDA adapter libscorep-rt-cuda).\n";

static const char filter_help[] =
    "filter file the program uses when SCOREP_FILTERING_FILE is\n"
    "                  unset; its absolute path is embedded at link time. The\n"
    "                  plugins (--instrument=plugin) also leave the excluded\n"
    "                  functions uninstrumented at compile time; with\n"
    "                  --instrument=functions only gcc's C and C++ do, through the\n"
    "                  GCC plugin; the other compilers compile every function with\n"
    "                  the hooks and the runtime skips the filtered ones.\n"
    "                  GCC plugin: %s\n"
    "                  LLVM plugin: %s\n";

static const char added_help[] =
    "Added flags: the instrumentation (above), -I<includedir>, and when no -g option sets\n"
    "a debug level, -g1 (clang: -g1 -fdebug-info-for-profiling) for function names,\n"
    "files and lines (the generated code does not change; with --nocompiler only for\n"
    "OpenMP, whose regions are named after their lines); when linking:\n"
    "-L<libdir> -Wl,-rpath,<libdir> [-Wl,--push-state,--no-as-needed -lscorep-rt-memory -Wl,--pop-state]\n"
    "[-lscorep-rt-mpi] -lscorep-rt after all\n"
    "arguments, then for gcc with OpenMP -lscorep-rt-gomp -lgomp (--no-as-needed) or libomp's\n"
    "-L and -rpath (--openmp-runtime=libomp).\n"
    "Static executables (-static) cannot be built: the runtime is a shared library.\n"
    "\n"
    "Environment: SCOREP_CC_INCLUDEDIR and SCOREP_CC_LIBDIR replace the installed\n"
    "include and library directories (%s, %s),\n"
    "SCOREP_CC_GCC_PLUGIN and SCOREP_CC_LLVM_PLUGIN the plugins, SCOREP_CC_INSTRUMENT the\n"
    "--instrument default.\n";

void instr_usage_cc(FILE *out)
{
    fprintf(out,
            "Usage: %s [options] <compiler> [compiler arguments...]\n"
            "       %s [options] <compiler arguments...>   (the compiler is gcc)\n"
            "\n"
            "Runs the compiler with instrumentation flags and, when it links a program or a\n"
            "shared library, links the Score-P-compatible runtime libscorep-rt.\n",
            instr_prog, instr_prog);
    fputs(compilers_help, out);
    fprintf(out, "`scorep` takes Score-P's instrumenter options instead (scorep --help), the\n"
                 "wrappers scorep-gcc, scorep-mpicc, ... take them from the environment.\n"
                 "\n"
                 "Options (before the compiler):\n"
                 "  --user          enable the user API macros (-DSCOREP_USER_ENABLE; Fortran:\n"
                 "                  also -cpp for .f/.f90/... sources, for SCOREP_User.inc)\n"
                 "  --nocompiler    no compiler instrumentation\n"
                 "  --memory|--nomemory\n"
                 "                  link the memory adapter libscorep-rt-memory (the default,\n"
                 "                  as in Score-P; not with nvcc): SCOREP_MEMORY_RECORDING=true\n"
                 "                  then records malloc, free, C++ new and delete, memkind's\n"
                 "                  hbw_* (linked before -lmemkind); off, it only forwards\n"
                 "                  them (docs/memory.md). --nomemory: not linked\n"
                 "  --instrument=plugin|functions\n"
                 "                  how functions are instrumented. plugin (the default where\n"
                 "                  the plugin is installed): a plugin inserts a region\n"
                 "                  descriptor and an inline check per function, so a throttled\n"
                 "                  function costs an inline increment and no call: the GCC\n"
                 "                  plugin for gcc, g++, gfortran, the MPI/SHMEM wrappers and\n"
                 "                  nvcc's host code (not with -ccbin), the LLVM pass plugin\n"
                 "                  for clang and clang++ of the LLVM version it was built for.\n"
                 "                  functions: -finstrument-functions (clang without its plugin\n"
                 "                  falls back to it and says so).\n"
                 "  --instrument-inlined\n"
                 "                  the plugins instrument before inlining: every inlined copy\n"
                 "                  of a function keeps its check (the default instruments\n"
                 "                  what the optimizer keeps; no threshold then).\n"
                 "                  SCOREP_CC_INSTRUMENT_INLINED=yes: the same\n"
                 "  --instrument-threshold=N\n"
                 "                  the plugins leave functions below N statements (GCC) or IR\n"
                 "                  instructions (LLVM) without loops or calls uninstrumented;\n"
                 "                  0 keeps them all (default 200; SCOREP_CC_INSTRUMENT_THRESHOLD)\n"
                 "  --filter=FILE   ");
    fprintf(out, filter_help, GCC_PLUGIN_NAME, LLVM_PLUGIN_NAME);
    fprintf(out, "  --io=posix,isoc,mpiio\n"
                 "                  record I/O calls (posix: POSIX and ISO C; isoc: ISO C only;\n"
                 "                  mpiio: with the MPI adapter, always on) (docs/io.md)\n"
                 "  --openmp-runtime=libgomp|libomp\n"
                 "                  gcc with -fopenmp: GNU libgomp with its GOMP_* entry points\n"
                 "                  wrapped by libscorep-rt-gomp (default), or LLVM's libomp\n"
                 "                  and OMPT; SCOREP_CC_OPENMP_RUNTIME sets the default\n"
                 "                  (docs/openmp.md)\n"
                 "  --libwrap=[linktime:|runtime:]NAME[,NAME...]|PATH/NAME.libwrap\n"
                 "                  link the user library wrappers NAME (scorep-libwrap-init),\n"
                 "                  found in SCOREP_LIBWRAP_PATH's prefixes, then in scorep-rt's\n"
                 "                  (default linktime: -Wl,--wrap per function; docs/libwrap.md)\n"
                 "  --dry-run       print the commands, one per line, and run nothing\n"
                 "  --verbose       print the commands on stderr, then run them\n"
                 "  --version       print the version\n"
                 "  --help          print this help\n"
                 "\n");
    fprintf(out, added_help, SCOREP_INCLUDEDIR, SCOREP_LIBDIR);
}

void instr_usage_scorep(FILE *out)
{
    fprintf(out, "Usage: scorep [options] <compiler> [compiler arguments...]\n"
                 "\n"
                 "Score-P's instrumenter command line for scorep-rt: the same program as\n"
                 "scorep-cc with Score-P's option names.\n");
    fputs(compilers_help, out);
    fprintf(out, "\n"
                 "Options (before the compiler):\n"
                 "  --help, -h      print this help\n"
                 "  --version       print the version\n"
                 "  -v, --verbose[=<level>]\n"
                 "                  0: quiet, 1 (default of -v, --verbose): print the commands\n"
                 "                  on stderr, 2: also the selected paradigms\n"
                 "  --dry-run       print the commands, run nothing\n"
                 "  --keep-files    keep the temporary files (the filter reference)\n"
                 "  --user|--nouser enable the user API macros (default: off)\n"
                 "  --compiler|--nocompiler\n"
                 "                  compiler instrumentation (default: on)\n"
                 "  --cuda|--nocuda link the CUDA adapter when the compiler is nvcc (default: on)\n"
                 "  --memory|--nomemory\n"
                 "                  link the memory adapter libscorep-rt-memory, which records\n"
                 "                  malloc, free, new, delete, hbw_* when\n"
                 "                  SCOREP_MEMORY_RECORDING=true\n"
                 "                  (default: --memory, as in Score-P; not with nvcc)\n"
                 "  --thread=none|pthread|omp[:ompt]\n"
                 "                  omp (the default with -fopenmp): OpenMP recorded; clang\n"
                 "                  through OMPT, gcc as --openmp-runtime says. none: no\n"
                 "                  OpenMP events. pthread: as none; the runtime records\n"
                 "                  POSIX threads in every case. omp:opari2 is refused.\n"
                 "  --openmp-runtime=libgomp|libomp\n"
                 "                  gcc programs: GNU libgomp with its GOMP_* entry points\n"
                 "                  wrapped (default; SCOREP_CC_OPENMP_RUNTIME sets another),\n"
                 "                  or LLVM's libomp and OMPT (docs/openmp.md)\n"
                 "  --mpp=none|mpi|shmem\n"
                 "                  the adapter linked (default: mpi with the MPI compiler\n"
                 "                  wrappers, shmem with the OpenSHMEM ones, else none)\n"
                 "  --mpi, --nompi, --openmp, --noopenmp\n"
                 "                  deprecated in Score-P: --mpp=mpi, --mpp=none, --thread=omp,\n"
                 "                  --thread=none, with a warning\n"
                 "  --instrument-filter=<file>, --filter=<file>\n"
                 "                  ");
    fprintf(out, filter_help, GCC_PLUGIN_NAME, LLVM_PLUGIN_NAME);
    fprintf(out, "  --dynamic       accepted: the runtime is always linked dynamically\n"
                 "  --static        refused: there is no static runtime\n"
                 "  --noopari, --nopreprocess, --noopencl, --noopenacc,\n"
                 "  --nokokkos, --nohip, --nopdt, --noonline-access, --io=none\n"
                 "                  accepted: scorep-rt has none of these Score-P features;\n"
                 "                  enabling one of them is an error\n"
                 "  --io=posix,isoc,mpiio\n"
                 "                  record I/O: posix links the POSIX and ISO C I/O wrappers,\n"
                 "                  isoc the ISO C ones only; MPI-IO is recorded by the MPI\n"
                 "                  adapter (docs/io.md)\n"
                 "  --libwrap=[linktime:|runtime:]NAME[,NAME...]|PATH/NAME.libwrap\n"
                 "                  link user library wrappers made with scorep-libwrap-init,\n"
                 "                  looked up in SCOREP_LIBWRAP_PATH and scorep-rt's prefix\n"
                 "                  (default: linktime; docs/libwrap.md). --nolibwrap: none\n"
                 "\n");
    fprintf(out, added_help, SCOREP_INCLUDEDIR, SCOREP_LIBDIR);
}

static void parse_io(const char *list, struct instr_options *opt);

/* scorep-cc's options; returns 1 when arg was one, 2 when it also took the next argument. */
static int cc_option(const char *a, const char *next, struct instr_options *opt)
{
    if (strcmp(a, "--user") == 0) {
        opt->user = true;
    } else if (strcmp(a, "--nocompiler") == 0) {
        opt->nocompiler = true;
    } else if (strcmp(a, "--memory") == 0 || strcmp(a, "--nomemory") == 0) {
        opt->nomemory = a[2] == 'n';
    } else if (strcmp(a, "--dry-run") == 0) {
        opt->dry_run = true;
    } else if (strcmp(a, "--verbose") == 0) {
        opt->verbosity = 1;
    } else if (strncmp(a, "--instrument=", 13) == 0) {
        opt->instrument = a + 13;
    } else if (strcmp(a, "--instrument-inlined") == 0) {
        opt->instrument_inlined = true;
    } else if (strncmp(a, "--instrument-threshold=", 23) == 0) {
        opt->instrument_threshold = a + 23;
        if (!instr_threshold_valid(opt->instrument_threshold))
            die("--instrument-threshold=%s: expected a number (0: no threshold)", a + 23);
    } else if (strncmp(a, "--io=", 5) == 0 || strncmp(a, "--openmp-runtime=", 17) == 0 ||
               strncmp(a, "--libwrap=", 10) == 0) {
        instr_selection_option(a, opt);
    } else if (strncmp(a, "--filter=", 9) == 0) {
        opt->filter = a + 9;
    } else if (strcmp(a, "--filter") == 0) {
        if (next == NULL)
            die("--filter needs a file name%s", "");
        opt->filter = next;
        return 2;
    } else if (strcmp(a, "--version") == 0) {
        printf("%s (scorep-rt) %s\n", instr_prog, SCOREP_VERSION);
        exit(0);
    } else if (strcmp(a, "--help") == 0) {
        instr_usage_cc(stdout);
        exit(0);
    } else {
        die("unknown option '%s'", a);
    }
    return 1;
}

int instr_parse_cc_options(int argc, char **argv, struct instr_options *opt)
{
    int i = 1;
    while (i < argc && strncmp(argv[i], "--", 2) == 0) {
        if (strcmp(argv[i], "--") == 0)
            return i + 1;
        i += cc_option(argv[i], i + 1 < argc ? argv[i + 1] : NULL, opt);
    }
    return i;
}

/* --thread= and --mpp= may each select once (Score-P: "You can use '--thread' only once");
 * repeating the same selection is fine. */
static void select_once(int *slot, int value, int unset, const char *group)
{
    if (*slot != unset && *slot != value)
        die("%s can select only one paradigm", group);
    *slot = value;
}

static void parse_thread(const char *value, struct instr_options *opt)
{
    int t;
    if (strcmp(value, "none") == 0)
        t = THREAD_NONE;
    else if (strcmp(value, "pthread") == 0)
        t = THREAD_PTHREAD;
    else if (strcmp(value, "omp") == 0 || strcmp(value, "omp:ompt") == 0)
        t = THREAD_OMP;
    else if (strcmp(value, "omp:opari2") == 0)
        die("--thread=%s: scorep-rt measures OpenMP through OMPT only (--thread=omp:ompt)", value);
    else
        die("unknown paradigm '%s' for --thread (none, pthread, omp, omp:ompt)", value);
    int slot = opt->thread;
    select_once(&slot, t, THREAD_AUTO, "--thread");
    opt->thread = slot;
}

static void parse_mpp(const char *value, struct instr_options *opt)
{
    int m;
    if (strcmp(value, "none") == 0)
        m = MPP_NONE;
    else if (strcmp(value, "mpi") == 0)
        m = MPP_MPI;
    else if (strcmp(value, "shmem") == 0)
        m = MPP_SHMEM;
    else
        die("unknown paradigm '%s' for --mpp (none, mpi, shmem)", value);
    int slot = opt->mpp;
    select_once(&slot, m, MPP_AUTO, "--mpp");
    opt->mpp = slot;
}

/* Score-P's deprecated spellings, mapped as Score-P maps them (with its warning). */
static const char *deprecated(const char *a)
{
    static const char *const map[][2] = {{"--mpi", "--mpp=mpi"},
                                         {"--nompi", "--mpp=none"},
                                         {"--openmp", "--thread=omp"},
                                         {"--noopenmp", "--thread=none"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        if (strcmp(a, map[i][0]) == 0) {
            fprintf(stderr, "%s: warning: %s is deprecated (in Score-P too); use %s\n", instr_prog,
                    a, map[i][1]);
            return map[i][1];
        }
    }
    return a;
}

/* Score-P adapters scorep-rt does not have: turning them off is what scorep-rt does anyway,
 * turning them on cannot be honoured. */
static bool absent_feature(const char *a)
{
    static const char *const names[] = {"opari",  "preprocess", "opencl",        "openacc",
                                        "kokkos", "hip",        "pdt",           "online-access",
                                        NULL};
    if (strncmp(a, "--", 2) != 0)
        return false;
    for (const char *const *n = names; *n != NULL; n++) {
        size_t len = strlen(*n);
        if (strncmp(a, "--no", 4) == 0 && strcmp(a + 4, *n) == 0)
            return true;
        /* "--name", "--name=..." and "--name:..." (strchr finds the terminating NUL too) */
        if (strncmp(a + 2, *n, len) == 0 && strchr("=:", a[2 + len]) != NULL)
            die("%s: scorep-rt does not have this Score-P feature", a);
    }
    return false;
}

static void parse_verbose(const char *a, struct instr_options *opt)
{
    const char *level = strchr(a, '=');
    if (level == NULL) {
        opt->verbosity = 1;
        return;
    }
    if (strcmp(level + 1, "0") != 0 && strcmp(level + 1, "1") != 0 && strcmp(level + 1, "2") != 0)
        die("%s: the verbosity level is 0, 1 or 2", a);
    opt->verbosity = level[1] - '0';
}

static bool flag_option(const char *a, struct instr_options *opt)
{
    static const struct {
        const char *name;
        size_t offset;
        bool value;
    } flags[] = {
        {"--user", offsetof(struct instr_options, user), true},
        {"--nouser", offsetof(struct instr_options, user), false},
        {"--compiler", offsetof(struct instr_options, nocompiler), false},
        {"--nocompiler", offsetof(struct instr_options, nocompiler), true},
        {"--memory", offsetof(struct instr_options, nomemory), false},
        {"--nomemory", offsetof(struct instr_options, nomemory), true},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        if (strcmp(a, flags[i].name) == 0) {
            *(bool *)((char *)opt + flags[i].offset) = flags[i].value;
            return true;
        }
    }
    return false;
}

/* --io=LIST: none, posix (POSIX and ISO C, as in Score-P), isoc, mpiio (recorded by the MPI
 * adapter: accepted), each with Score-P's optional "runtime:" or "linktime:" prefix (both
 * mean symbol interposition here) */
static void parse_io(const char *list, struct instr_options *opt)
{
    char buf[256];
    if (strlen(list) >= sizeof buf)
        die("--io=%s: too long", list);
    strcpy(buf, list);
    opt->io = 0;
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (strncmp(w, "runtime:", 8) == 0 || strncmp(w, "linktime:", 9) == 0)
            w = strchr(w, ':') + 1;
        if (strcmp(w, "none") == 0)
            opt->io = 0;
        else if (strcmp(w, "posix") == 0)
            opt->io |= INSTR_IO_POSIX | INSTR_IO_ISOC;
        else if (strcmp(w, "isoc") == 0)
            opt->io |= INSTR_IO_ISOC;
        else if (strcmp(w, "mpiio") == 0 || strcmp(w, "mpi-io") == 0)
            opt->io |= INSTR_IO_MPIIO;
        else
            die("--io: unknown I/O paradigm '%s' (posix, isoc, mpiio or none)", w);
    }
}

bool instr_selection_option(const char *arg, struct instr_options *opt)
{
    const char *a = deprecated(arg);
    if (strcmp(a, "--cuda") == 0 || strcmp(a, "--nocuda") == 0) {
        opt->cuda = a[2] == 'c' ? 1 : -1;
        return true;
    }
    if (strncmp(a, "--thread=", 9) == 0) {
        parse_thread(a + 9, opt);
        return true;
    }
    if (strncmp(a, "--mpp=", 6) == 0) {
        parse_mpp(a + 6, opt);
        return true;
    }
    if (strncmp(a, "--io=", 5) == 0) {
        parse_io(a + 5, opt);
        return true;
    }
    if (strncmp(a, "--libwrap=", 10) == 0) {
        instr_libwrap_option(a + 10, &opt->libwraps);
        return true;
    }
    if (strcmp(a, "--libwrap") == 0)
        die("--libwrap needs a wrapper: --libwrap=[linktime:|runtime:]NAME%s", "");
    if (strcmp(a, "--nolibwrap") == 0) {
        opt->libwraps.n = 0;
        return true;
    }
    if (strncmp(a, "--openmp-runtime=", 17) == 0) {
        if (strcmp(a + 17, "libgomp") != 0 && strcmp(a + 17, "libomp") != 0)
            die("%s: the OpenMP runtime of gcc programs is libgomp or libomp", a);
        opt->omp_runtime = a + 17;
        return true;
    }
    return flag_option(a, opt) || absent_feature(a) || strcmp(a, "--dynamic") == 0;
}

/* One of Score-P's options (the ones this runtime can honour or knows to be absent). */
static void scorep_option(const char *a, struct instr_options *opt)
{
    if (instr_selection_option(a, opt))
        return;
    if (strcmp(a, "--dry-run") == 0) {
        opt->dry_run = true;
    } else if (strcmp(a, "--keep-files") == 0) {
        opt->keep_files = true;
    } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
        instr_usage_scorep(stdout);
        exit(0);
    } else if (strcmp(a, "--version") == 0) {
        /* Score-P's form ("Score-P 8.4"): tools read the version from it */
        printf("Score-P %s (scorep-rt %s)\n", SCOREP_INTERFACE_VERSION, SCOREP_VERSION);
        exit(0);
    } else if (strcmp(a, "-v") == 0 || strncmp(a, "--verbose", 9) == 0) {
        if (a[1] == '-' && a[9] != '\0' && a[9] != '=')
            die("unknown option '%s'", a);
        parse_verbose(a, opt);
    } else if (strncmp(a, "--instrument-filter=", 20) == 0 || strncmp(a, "--filter=", 9) == 0) {
        opt->filter = strchr(a, '=') + 1;
        if (opt->filter[0] == '\0')
            die("%s needs a file name", a);
    } else if (strcmp(a, "--static") == 0) {
        die("%s: static linking is not possible, the runtime is a shared library only", a);
    } else {
        die("unknown option '%s'", a);
    }
}

int instr_parse_scorep_options(int argc, char **argv, struct instr_options *opt)
{
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++)
        scorep_option(argv[i], opt);
    return i;
}

void instr_parse_scorep_words(char *const *words, const char *origin, struct instr_options *opt)
{
    for (; *words != NULL; words++) {
        if ((*words)[0] != '-') {
            fprintf(stderr, "%s: %s: '%s' is not an option of scorep; see scorep --help\n",
                    instr_prog, origin, *words);
            exit(1);
        }
        scorep_option(*words, opt);
    }
}
