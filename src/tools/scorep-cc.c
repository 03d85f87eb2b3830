/* scorep-cc.c: compiler wrapper; adds the instrumentation flags to a compiler command and links
 * the measurement runtime (libscorep-rt) into programs and shared libraries. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h" /* SCOREP_LIBOMP_DIR */
#include "filter/filter.h"

#ifndef SCOREP_LIBDIR
#error "SCOREP_LIBDIR must be defined by the build"
#endif
#ifndef SCOREP_INCLUDEDIR
#error "SCOREP_INCLUDEDIR must be defined by the build"
#endif
#ifndef SCOREP_VERSION
#error "SCOREP_VERSION must be defined by the build"
#endif

#define PROG "scorep-cc"
#ifdef SCOREP_GCC_PLUGIN
#define GCC_PLUGIN_NAME SCOREP_GCC_PLUGIN
#else
#define GCC_PLUGIN_NAME "(not built here: gcc's plugin headers were missing)"
#endif
#define FILTER_SYMBOL "scorep_cc_filter_file"
#define FILTER_STUB "scorep_cc_filter"

/* One kind of compiler driver. Adding a driver (mpicc, nvcc, ...) means adding a row, and for
 * drivers that pass host flags differently, its own flag lists. */
struct compiler_kind {
    const char *name;              /* driver base name without target prefix or version */
    const char *c_driver;          /* C driver of the same family: compiles the filter stub */
    const char *const *instrument; /* flags that make the compiler call the runtime's hooks */
    const char *const *debug;      /* line information for file:line, added without -g */
    bool mpi;                      /* an MPI wrapper: also link the MPI adapter */
    bool fortran;                  /* a Fortran driver: --user may need -cpp */
    bool cuda; /* nvcc: host flags through -Xcompiler/-Xlinker; links the CUDA adapter */
};

static const char *const cyg_hooks[] = {"-finstrument-functions", NULL};
static const char *const gnu_debug[] = {"-g1", NULL};
/* clang's -g1 is -gline-tables-only, which omits the declaration lines of functions;
 * -fdebug-info-for-profiling adds them back. Neither changes the generated code. */
static const char *const clang_debug[] = {"-g1", "-fdebug-info-for-profiling", NULL};
/* nvcc compiles device code itself and hands host code to gcc: only the host code is
 * instrumented, as Score-P does */
static const char *const nvcc_hooks[] = {"-Xcompiler", "-finstrument-functions", NULL};
static const char *const nvcc_debug[] = {"-Xcompiler", "-g1", NULL};

static const struct compiler_kind kinds[] = {
    {"gcc", "gcc", cyg_hooks, gnu_debug, false, false, false},
    {"cc", "cc", cyg_hooks, gnu_debug, false, false, false},
    {"g++", "gcc", cyg_hooks, gnu_debug, false, false, false},
    {"c++", "cc", cyg_hooks, gnu_debug, false, false, false},
    {"gfortran", "gcc", cyg_hooks, gnu_debug, false, true, false},
    {"clang", "clang", cyg_hooks, clang_debug, false, false, false},
    {"clang++", "clang", cyg_hooks, clang_debug, false, false, false},
    /* MPI compiler wrappers (Open MPI's default to the GNU compilers) */
    {"mpicc", "mpicc", cyg_hooks, gnu_debug, true, false, false},
    {"mpicxx", "mpicc", cyg_hooks, gnu_debug, true, false, false},
    {"mpic++", "mpicc", cyg_hooks, gnu_debug, true, false, false},
    {"mpiCC", "mpicc", cyg_hooks, gnu_debug, true, false, false},
    {"mpif90", "mpicc", cyg_hooks, gnu_debug, true, true, false},
    {"mpifort", "mpicc", cyg_hooks, gnu_debug, true, true, false},
    {"mpif77", "mpicc", cyg_hooks, gnu_debug, true, true, false},
    /* CUDA (issue #11): also links the CUDA adapter libscorep-rt-cuda */
    {"nvcc", "gcc", nvcc_hooks, nvcc_debug, false, false, true},
    /* OpenSHMEM compiler wrappers (#11): also link the SHMEM adapter (osh* in build_command) */
    {"oshcc", "oshcc", cyg_hooks, gnu_debug, false, false, false},
    {"oshcxx", "oshcc", cyg_hooks, gnu_debug, false, false, false},
    {"oshc++", "oshcc", cyg_hooks, gnu_debug, false, false, false},
    {"oshCC", "oshcc", cyg_hooks, gnu_debug, false, false, false},
    {"oshfort", "oshcc", cyg_hooks, gnu_debug, false, true, false},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

struct options {
    bool user, nocompiler, dry_run, verbose;
    const char *filter;     /* as given on the command line */
    const char *instrument; /* --instrument=plugin|functions; NULL: the default */
};

/* A growing argument vector, NULL-terminated. */
struct argv_buf {
    char **v;
    size_t n, cap;
};

static void die_nomem(void)
{
    fprintf(stderr, PROG ": out of memory\n");
    exit(1);
}

static void push(struct argv_buf *a, const char *arg)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? 2 * a->cap : 32;
        a->v = realloc(a->v, a->cap * sizeof *a->v);
        if (a->v == NULL)
            die_nomem();
    }
    a->v[a->n] = strdup(arg);
    if (a->v[a->n] == NULL)
        die_nomem();
    a->v[++a->n] = NULL;
}

static void push_list(struct argv_buf *a, const char *const *list)
{
    for (; *list != NULL; list++)
        push(a, *list);
}

static void push_joined(struct argv_buf *a, const char *prefix, const char *value)
{
    char *s;
    if (asprintf(&s, "%s%s", prefix, value) < 0)
        die_nomem();
    push(a, s);
    free(s);
}

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " [options] <compiler> [compiler arguments...]\n"
            "       " PROG " [options] <compiler arguments...>   (the compiler is gcc)\n"
            "\n"
            "Runs the compiler with instrumentation flags and, when it links a program or a\n"
            "shared library, links the Score-P-compatible runtime libscorep-rt.\n"
            "Compilers: gcc, cc, g++, c++, clang, clang++, gfortran, also with a version\n"
            "suffix (gcc-12, clang-14), a target prefix (x86_64-linux-gnu-gcc) or a path;\n"
            "the MPI wrappers mpicc, mpicxx, mpic++, mpiCC, mpif90, mpifort, mpif77 (these\n"
            "also link the MPI adapter libscorep-rt-mpi), the OpenSHMEM wrappers oshcc,\n"
            "oshcxx, oshc++, oshCC, oshfort (these link libscorep-rt-shmem), and nvcc (host\n"
            "code instrumented through -Xcompiler; links the CUDA adapter libscorep-rt-cuda).\n"
            "\n"
            "Options (before the compiler):\n"
            "  --user          enable the user API macros (-DSCOREP_USER_ENABLE; Fortran:\n"
            "                  also -cpp for .f/.f90/... sources, for SCOREP_User.inc)\n"
            "  --nocompiler    no compiler instrumentation\n"
            "  --instrument=plugin|functions\n"
            "                  how functions are instrumented. plugin (the default for gcc,\n"
            "                  g++ and the MPI/SHMEM C and C++ wrappers when the plugin is\n"
            "                  installed): the plugin inserts a region descriptor and an\n"
            "                  inline check per function, so a throttled function costs an\n"
            "                  inline increment and no call. functions (the only choice of\n"
            "                  clang, gfortran and nvcc): -finstrument-functions.\n"
            "  --filter=FILE   filter file the program uses when SCOREP_FILTERING_FILE is\n"
            "                  unset; its absolute path is embedded at link time. With gcc,\n"
            "                  g++ and the MPI/SHMEM C and C++ wrappers (when scorep-rt was\n"
            "                  built with gcc's plugin headers), the plugin %s\n"
            "                  also leaves the excluded functions uninstrumented at compile\n"
            "                  time. clang, clang++, gfortran, the Fortran wrappers and nvcc\n"
            "                  compile every function with the hooks: their filtered\n"
            "                  functions are skipped by the runtime instead.\n"
            "  --dry-run       print the commands, one per line, and run nothing\n"
            "  --verbose       print the commands on stderr, then run them\n"
            "  --version       print the version\n"
            "  --help          print this help\n"
            "\n"
            "Added flags: the instrumentation (above), -I<includedir>, and when no -g option sets\n"
            "a debug level, -g1 (clang: -g1 -fdebug-info-for-profiling) for function names,\n"
            "files and lines (the generated code does not change); when linking:\n"
            "-L<libdir> -Wl,-rpath,<libdir> [-lscorep-rt-mpi] -lscorep-rt after all\n"
            "arguments.\n"
            "Static executables (-static) cannot be built: the runtime is a shared library.\n"
            "\n"
            "Environment: SCOREP_CC_INCLUDEDIR and SCOREP_CC_LIBDIR replace the installed\n"
            "include and library directories (%s, %s),\n"
            "SCOREP_CC_GCC_PLUGIN the plugin, SCOREP_CC_INSTRUMENT the --instrument default.\n",
            GCC_PLUGIN_NAME, SCOREP_INCLUDEDIR, SCOREP_LIBDIR);
}

/* Parses the wrapper's own options; returns the index of the first other argument. */
static int parse_options(int argc, char **argv, struct options *opt)
{
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0)
            return i + 1;
        if (strcmp(a, "--user") == 0) {
            opt->user = true;
        } else if (strcmp(a, "--nocompiler") == 0) {
            opt->nocompiler = true;
        } else if (strcmp(a, "--dry-run") == 0) {
            opt->dry_run = true;
        } else if (strcmp(a, "--verbose") == 0) {
            opt->verbose = true;
        } else if (strncmp(a, "--instrument=", 13) == 0) {
            opt->instrument = a + 13;
        } else if (strncmp(a, "--filter=", 9) == 0) {
            opt->filter = a + 9;
        } else if (strcmp(a, "--filter") == 0) {
            if (i + 1 == argc) {
                fprintf(stderr, PROG ": --filter needs a file name; see " PROG " --help\n");
                exit(1);
            }
            opt->filter = argv[++i];
        } else if (strcmp(a, "--version") == 0) {
            printf(PROG " (scorep-rt) %s\n", SCOREP_VERSION);
            exit(0);
        } else if (strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        } else {
            fprintf(stderr, PROG ": unknown option '%s'; see " PROG " --help\n", a);
            exit(1);
        }
    }
    return i;
}

/* True if rest is empty or a version suffix such as "-12" or "-14.0". */
static bool is_version_suffix(const char *rest)
{
    if (rest[0] == '\0')
        return true;
    if (rest[0] != '-' || rest[1] < '0' || rest[1] > '9')
        return false;
    return strspn(rest + 1, "0123456789.") == strlen(rest + 1);
}

/* Finds the kind of a compiler command: [dir/][target-]name[-version]. Fills the C driver of
 * the same family with the same directory, target prefix and version. */
static const struct compiler_kind *find_kind(const char *command, char *c_driver, size_t size)
{
    const char *base = strrchr(command, '/');
    base = base != NULL ? base + 1 : command;
    for (size_t k = 0; k < NKINDS; k++) {
        size_t len = strlen(kinds[k].name);
        for (const char *p = strstr(base, kinds[k].name); p != NULL;
             p = strstr(p + 1, kinds[k].name)) {
            if ((p == base || p[-1] == '-') && is_version_suffix(p + len)) {
                snprintf(c_driver, size, "%.*s%s%s", (int)(p - command), command, kinds[k].c_driver,
                         p + len);
                return &kinds[k];
            }
        }
    }
    return NULL;
}

/* Whether a first argument names an input file, so that the compiler defaults to gcc. */
static bool is_input_file(const char *arg)
{
    static const char *const extensions[] = {
        "c",   "i",   "ii",  "cc",  "cp",  "cxx", "cpp", "CPP", "c++", "C",   "f",
        "for", "ftn", "F",   "FOR", "FTN", "fpp", "FPP", "f90", "f95", "f03", "f08",
        "F90", "F95", "F03", "F08", "s",   "S",   "sx",  "o",   "a",   "so",  NULL};
    const char *dot = strrchr(arg, '.');
    if (dot == NULL || strchr(dot, '/') != NULL)
        return false;
    for (const char *const *e = extensions; *e != NULL; e++)
        if (strcmp(dot + 1, *e) == 0)
            return true;
    return false;
}

static bool in_list(const char *arg, const char *const *list)
{
    for (; *list != NULL; list++)
        if (strcmp(arg, *list) == 0)
            return true;
    return false;
}

/* Steps that produce no program or shared library, so the runtime is not linked. */
static bool stops_before_link(int argc, char **argv)
{
    static const char *const stops[] = {"-c", "-S", "-E", "-M", "-MM", "-fsyntax-only", "-r", NULL};
    for (int i = 0; i < argc; i++)
        if (in_list(argv[i], stops))
            return true;
    return false;
}

/* Invocations that only ask the compiler something (gcc -v, gcc --version): passed on as
 * they are, since the added runtime library would turn them into a link. */
static bool is_query(int argc, char **argv)
{
    static const char *const queries[] = {"-v",           "--version",     "-dumpversion",
                                          "-dumpmachine", "-dumpspecs",    "-dumpfullversion",
                                          "--help",       "--target-help", NULL};
    for (int i = 0; i < argc; i++)
        if (!in_list(argv[i], queries) && strncmp(argv[i], "-print-", 7) != 0 &&
            strncmp(argv[i], "--print-", 8) != 0)
            return false;
    return true;
}

/* Options that set the debug information level; others such as -gz or -gsplit-dwarf only
 * modify it and do not produce line information on their own. */
static bool sets_debug_level(const char *arg)
{
    static const char *const prefixes[] = {"-ggdb", "-gdwarf", "-gstabs", "-gxcoff",    "-gvms",
                                           "-gbtf", "-gctf",   "-gline-", "-gcodeview", NULL};
    static const char *const exact[] = {"-g", "-gmlt", "-gfull", "-gused", "-glldb", "-gsce", NULL};
    if (strncmp(arg, "-g", 2) == 0 && arg[2] >= '0' && arg[2] <= '9')
        return true;
    if (in_list(arg, exact))
        return true;
    for (const char *const *p = prefixes; *p != NULL; p++)
        if (strncmp(arg, *p, strlen(*p)) == 0)
            return true;
    return false;
}

static bool any_arg(int argc, char **argv, bool (*pred)(const char *))
{
    for (int i = 0; i < argc; i++)
        if (pred(argv[i]))
            return true;
    return false;
}

static bool is_static_option(const char *arg)
{
    return strcmp(arg, "-static") == 0 || strcmp(arg, "-static-pie") == 0;
}

/* -x LANG applies to all later inputs, so it must be reset before the filter object. */
static bool is_language_option(const char *arg)
{
    return strncmp(arg, "-x", 2) == 0;
}

static bool is_abi_option(const char *arg)
{
    return strcmp(arg, "-m32") == 0 || strcmp(arg, "-m64") == 0 || strcmp(arg, "-mx32") == 0;
}

static const char *env_or(const char *name, const char *fallback)
{
    const char *value = getenv(name);
    return value != NULL && value[0] != '\0' ? value : fallback;
}

/* The filter file must be readable now: a typo should fail the build, not the run. */
static char *check_filter(const char *filter)
{
    struct stat st;
    int fd = open(filter, O_RDONLY);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, PROG ": cannot read filter file '%s': %s\n", filter,
                fd < 0 ? strerror(errno) : "not a regular file");
        exit(1);
    }
    close(fd);
    char *path = realpath(filter, NULL);
    if (path == NULL) {
        fprintf(stderr, PROG ": cannot resolve filter file '%s': %s\n", filter, strerror(errno));
        exit(1);
    }
    /* the same parser as the runtime's and the plugin's: syntax errors stop every compile
     * step, whichever compiler, with the file and line */
    char err[512];
    scorep_filter *f = scorep_filter_new();
    if (f == NULL || scorep_filter_parse_file(f, filter, err, sizeof err) != 0) {
        fprintf(stderr, PROG ": bad filter file: %s\n", f != NULL ? err : "out of memory");
        exit(1);
    }
    scorep_filter_free(f);
    return path;
}

/* The GCC plugin that leaves the filter's excluded functions uninstrumented. Only drivers
 * that run gcc's C or C++ front end load it: gfortran calls no plugin hook before it inserts
 * the profiling calls, clang has no gcc plugins, and nvcc is left out (its host compiler
 * need not be the gcc the plugin was built for). These filter at run time only. */
static const char *gcc_plugin(const struct compiler_kind *kind)
{
#ifdef SCOREP_GCC_PLUGIN
    if (kind->fortran || kind->cuda || strcmp(kind->c_driver, "clang") == 0)
        return NULL;
    return env_or("SCOREP_CC_GCC_PLUGIN", SCOREP_GCC_PLUGIN);
#else
    (void)kind;
    return NULL;
#endif
}

static bool gcc_plugin_built(void)
{
#ifdef SCOREP_GCC_PLUGIN
    return true;
#else
    return false;
#endif
}

/* Writes the C source that defines the filter symbol, escaping the path for a C string. */
static int write_filter_source(const char *file, const char *path)
{
    FILE *f = fopen(file, "w");
    if (f == NULL)
        return -1;
    fprintf(f,
            "/* generated by " PROG ": the filter file given with --filter */\n"
            "__attribute__((used, visibility(\"default\"))) const char " FILTER_SYMBOL "[] = \"");
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

static void print_quoted(FILE *out, const char *arg, bool first)
{
    static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                               "0123456789_-+=/.,:@%";
    bool plain =
        arg[0] != '\0' && strspn(arg, safe) == strlen(arg) && !(first && strchr(arg, '=') != NULL);
    if (plain) {
        fputs(arg, out);
        return;
    }
    fputc('\'', out);
    for (const char *p = arg; *p != '\0'; p++) {
        if (*p == '\'')
            fputs("'\\''", out);
        else
            fputc(*p, out);
    }
    fputc('\'', out);
}

static void print_command(FILE *out, char **argv)
{
    for (size_t i = 0; argv[i] != NULL; i++) {
        if (i > 0)
            fputc(' ', out);
        print_quoted(out, argv[i], i == 0);
    }
    fputc('\n', out);
    fflush(out);
}

static int exit_status(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}

static void exec_or_die(char **argv)
{
    execvp(argv[0], argv);
    fprintf(stderr, PROG ": cannot run '%s': %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* Runs a command and waits for it. Interrupts go to the child (same process group); the
 * wrapper outlives them so that it can remove its temporary files. */
static int run(char **argv)
{
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old_int, old_quit;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    pid_t pid = fork();
    if (pid == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        exec_or_die(argv);
    }
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        continue;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    if (pid < 0) {
        fprintf(stderr, PROG ": cannot start '%s': %s\n", argv[0], strerror(errno));
        return 1;
    }
    return exit_status(status);
}

/* Everything one invocation needs. */
struct job {
    struct options opt;
    const struct compiler_kind *kind;
    const char *compiler;
    char c_driver[PATH_MAX];
    int nargs; /* the user's compiler arguments */
    char **args;
    bool link;
    char *filter_path; /* absolute, when --filter is given */
    char tmpdir[PATH_MAX];
    char stub_src[PATH_MAX + 32], stub_obj[PATH_MAX + 32];
};

/* Takes the compiler from the first argument, or gcc when that is an option or input file. */
static void choose_compiler(struct job *job, int argc, char **argv, int first)
{
    if (first >= argc) {
        fprintf(stderr, PROG ": no compiler command given; see " PROG " --help\n");
        exit(1);
    }
    job->kind = find_kind(argv[first], job->c_driver, sizeof job->c_driver);
    if (job->kind != NULL) {
        job->compiler = argv[first];
        first++;
    } else if (argv[first][0] == '-' || is_input_file(argv[first])) {
        job->compiler = "gcc";
        job->kind = find_kind("gcc", job->c_driver, sizeof job->c_driver);
    } else {
        fprintf(stderr,
                PROG ": unsupported compiler '%s' (supported: gcc, cc, g++, c++, clang, clang++,"
                     " gfortran, nvcc); see " PROG " --help\n",
                argv[first]);
        exit(1);
    }
    job->args = argv + first;
    job->nargs = argc - first;
}

static void remove_stub(struct job *job)
{
    unlink(job->stub_obj);
    unlink(job->stub_src);
    rmdir(job->tmpdir);
}

/* The stub's temporary directory; in a dry run only its name pattern is shown. */
static int prepare_stub(struct job *job)
{
    snprintf(job->tmpdir, sizeof job->tmpdir, "%s/scorep-cc.XXXXXX", env_or("TMPDIR", "/tmp"));
    if (!job->opt.dry_run && mkdtemp(job->tmpdir) == NULL) {
        fprintf(stderr, PROG ": cannot create a temporary directory '%s': %s\n", job->tmpdir,
                strerror(errno));
        return -1;
    }
    snprintf(job->stub_src, sizeof job->stub_src, "%s/" FILTER_STUB ".c", job->tmpdir);
    snprintf(job->stub_obj, sizeof job->stub_obj, "%s/" FILTER_STUB ".o", job->tmpdir);
    if (!job->opt.dry_run && write_filter_source(job->stub_src, job->filter_path) != 0) {
        fprintf(stderr, PROG ": cannot write '%s': %s\n", job->stub_src, strerror(errno));
        remove_stub(job);
        return -1;
    }
    return 0;
}

static void build_stub_command(const struct job *job, struct argv_buf *cmd)
{
    push(cmd, job->c_driver);
    push(cmd, "-c");
    push(cmd, "-fPIC");
    for (int i = 0; i < job->nargs; i++)
        if (is_abi_option(job->args[i]))
            push(cmd, job->args[i]);
    push(cmd, "-o");
    push(cmd, job->stub_obj);
    push(cmd, job->stub_src);
}

/* gcc -fopenmp links GNU libgomp, which has no OMPT interface. LLVM's libomp has one and
 * also provides libgomp's entry points; its directory holds a libgomp.so that is libomp, so
 * searching that directory first makes the compiler's own -lgomp link libomp. */
static void link_libomp(const struct job *job, struct argv_buf *cmd)
{
#ifdef SCOREP_LIBOMP_DIR
    if (strcmp(job->kind->c_driver, "clang") == 0) /* clang -fopenmp links libomp itself */
        return;
    for (int i = 0; i < job->nargs; i++) {
        if (strcmp(job->args[i], "-fopenmp") == 0) {
            push(cmd, "-L" SCOREP_LIBOMP_DIR);
            push(cmd, "-Wl,-rpath," SCOREP_LIBOMP_DIR);
            return;
        }
    }
#else
    (void)job;
    (void)cmd;
#endif
}

/* Fortran sources that gfortran compiles without the C preprocessor (the upper-case
 * suffixes .F, .F90, ... are preprocessed anyway). */
static bool is_unpreprocessed_fortran(const char *arg)
{
    static const char *const extensions[] = {"f", "for", "ftn", "f90", "f95", "f03", "f08", NULL};
    const char *dot = strrchr(arg, '.');
    return arg[0] != '-' && dot != NULL && strchr(dot, '/') == NULL && in_list(dot + 1, extensions);
}

/* --instrument (#9): whether the GCC plugin instruments (its region descriptors and inline
 * throttle check) instead of -finstrument-functions. Exits on a choice the compiler lacks. */
static bool plugin_instruments(const struct job *job)
{
    const char *mode =
        job->opt.instrument ? job->opt.instrument : env_or("SCOREP_CC_INSTRUMENT", "");
    bool can = gcc_plugin(job->kind) != NULL;
    if (strcmp(mode, "functions") == 0)
        return false;
    if (strcmp(mode, "plugin") == 0 && !can) {
        fprintf(stderr,
                PROG ": --instrument=plugin: the GCC plugin instruments only gcc's C and C++ "
                     "(gcc, g++, MPI/SHMEM C/C++ wrappers) and %s; use --instrument=functions\n",
                gcc_plugin_built() ? "not this compiler" : "was not built here");
        exit(1);
    }
    if (mode[0] != '\0' && strcmp(mode, "plugin") != 0) {
        fprintf(stderr, PROG ": --instrument=%s: expected plugin or functions\n", mode);
        exit(1);
    }
    /* the default: the plugin where it is installed (a build tree may not have it yet) */
    return can && (mode[0] != '\0' || access(gcc_plugin(job->kind), R_OK) == 0);
}

static void push_instrumentation(const struct job *job, struct argv_buf *cmd)
{
    if (job->opt.nocompiler)
        return;
    if (!plugin_instruments(job)) {
        push_list(cmd, job->kind->instrument);
        return;
    }
    push_joined(cmd, "-fplugin=", gcc_plugin(job->kind));
    push(cmd, "-fplugin-arg-scorep_filter_gcc-instrument");
}

/* --filter with gcc's C/C++: the plugin also leaves excluded functions uninstrumented. */
static void push_plugin_filter(const struct job *job, struct argv_buf *cmd)
{
    const char *plugin = gcc_plugin(job->kind);
    if (job->opt.nocompiler || job->filter_path == NULL || plugin == NULL)
        return;
    if (!plugin_instruments(job))
        push_joined(cmd, "-fplugin=", plugin);
    push_joined(cmd, "-fplugin-arg-scorep_filter_gcc-filter=", job->filter_path);
}

static void build_command(const struct job *job, struct argv_buf *cmd, bool with_stub)
{
    push(cmd, job->compiler);
    push_instrumentation(job, cmd);
    push_joined(cmd, "-I", env_or("SCOREP_CC_INCLUDEDIR", SCOREP_INCLUDEDIR));
    if (job->opt.user)
        push(cmd, "-DSCOREP_USER_ENABLE");
    /* #include "scorep/SCOREP_User.inc" and its macros need the preprocessor; Score-P's
     * wrapper also preprocesses every Fortran file with --user. */
    if (job->opt.user && job->kind->fortran &&
        any_arg(job->nargs, job->args, is_unpreprocessed_fortran))
        push(cmd, "-cpp");
    if (!job->opt.nocompiler && !any_arg(job->nargs, job->args, sets_debug_level))
        push_list(cmd, job->kind->debug);
    push_plugin_filter(job, cmd);
    for (int i = 0; i < job->nargs; i++)
        push(cmd, job->args[i]);
    if (!job->link)
        return;
    bool nvcc = job->kind->cuda;
    if (with_stub) {
        if (!nvcc && any_arg(job->nargs, job->args, is_language_option)) {
            push(cmd, "-x");
            push(cmd, "none");
        }
        push(cmd, job->stub_obj);
        if (nvcc)
            push(cmd, "-Xlinker");
        push(cmd, nvcc ? "--export-dynamic-symbol=" FILTER_SYMBOL
                       : "-Wl,--export-dynamic-symbol=" FILTER_SYMBOL);
    }
    const char *libdir = env_or("SCOREP_CC_LIBDIR", SCOREP_LIBDIR);
    push_joined(cmd, "-L", libdir);
    if (nvcc) {
        push(cmd, "-Xlinker");
        push_joined(cmd, "-rpath,", libdir);
    } else {
        push_joined(cmd, "-Wl,-rpath,", libdir);
    }
    if (job->kind->mpi)
        push(cmd, "-lscorep-rt-mpi");
    if (nvcc) {
        /* the program references no adapter function: a linker that drops unneeded
         * libraries would drop it (nvcc moves linker options before all libraries) */
        push(cmd, "-Xlinker");
        push(cmd, "--no-as-needed");
        push(cmd, "-lscorep-rt-cuda");
    }
    if (strncmp(job->kind->name, "osh", 3) == 0) /* OpenSHMEM drivers (#11) */
        push(cmd, "-lscorep-rt-shmem");
    push(cmd, "-lscorep-rt");
    link_libomp(job, cmd);
}

/* Prints (dry run, verbose) and runs the stub compile, if any, then the compiler command. */
static int execute(struct job *job, struct argv_buf *stub, struct argv_buf *cmd)
{
    FILE *log = job->opt.dry_run ? stdout : job->opt.verbose ? stderr : NULL;
    if (log != NULL && stub->n > 0)
        print_command(log, stub->v);
    if (log != NULL)
        print_command(log, cmd->v);
    if (job->opt.dry_run)
        return 0;
    if (stub->n == 0)
        exec_or_die(cmd->v);
    int status = run(stub->v);
    if (status != 0)
        fprintf(stderr, PROG ": compiling the filter reference failed\n");
    else
        status = run(cmd->v);
    remove_stub(job);
    return status;
}

int main(int argc, char **argv)
{
    struct job job = {0};
    int first = parse_options(argc, argv, &job.opt);
    choose_compiler(&job, argc, argv, first);
    if (job.opt.filter != NULL)
        job.filter_path = check_filter(job.opt.filter);
    struct argv_buf stub = {0}, cmd = {0};
    if (is_query(job.nargs, job.args)) {
        push(&cmd, job.compiler);
        for (int i = 0; i < job.nargs; i++)
            push(&cmd, job.args[i]);
        return execute(&job, &stub, &cmd);
    }
    job.link = !stops_before_link(job.nargs, job.args);
    if (job.link && any_arg(job.nargs, job.args, is_static_option)) {
        fprintf(stderr, PROG ": static executables (-static) are not supported: the measurement "
                             "runtime libscorep-rt is a shared library\n");
        return 1;
    }
    bool with_stub = job.link && job.filter_path != NULL;
    if (with_stub) {
        if (prepare_stub(&job) != 0)
            return 1;
        build_stub_command(&job, &stub);
    }
    build_command(&job, &cmd, with_stub);
    return execute(&job, &stub, &cmd);
}
