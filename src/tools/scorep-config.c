/* SPDX-License-Identifier: BSD-3-Clause */
/* scorep-config.c: prints the flags a Makefile needs to build an instrumented program with the
 * plain compiler (Score-P's scorep-config: --cflags, --cppflags, --ldflags, --libs, ...). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/instrumenter/command.h"
#include "tools/instrumenter/options.h"

#ifndef SCOREP_CONFIG_CC
#error "SCOREP_CONFIG_CC and the other compiler names must be defined by the build"
#endif

enum action {
    NONE,
    CFLAGS,
    CXXFLAGS,
    FFLAGS,
    CPPFLAGS,
    LDFLAGS,
    LIBS,
    MGMT_LIBS,
    PRELOAD_LIBS,
    ADAPTER_INIT,
    NAME
};

struct config {
    struct instr_options opt;
    enum action action;
    const char *name; /* for NAME: the compiler name printed */
    bool nvcc, clang;
};

static void usage(FILE *out)
{
    fprintf(out, "Usage: scorep-config <command> [options]\n"
                 "\n"
                 "Prints what a Makefile needs to build a program measured by scorep-rt with the\n"
                 "plain compiler:\n"
                 "  gcc $(scorep-config --cflags) -c x.c\n"
                 "  gcc x.o $(scorep-config --ldflags) $(scorep-config --libs) -o x\n"
                 "Commands:\n"
                 "  --cflags, --cxxflags, --fflags\n"
                 "              compiler flags for C, C++, Fortran: the instrumentation flags\n"
                 "              of the compiler scorep-rt was built with (--cc, --cxx, --fc;\n"
                 "              clang's with --clang, nvcc's with --nvcc): its plugin where\n"
                 "              installed, else -finstrument-functions; and the --cppflags\n"
                 "              (--fflags with --user: also -cpp). No -g: add -g or -g1 for\n"
                 "              the file and line of each function\n"
                 "  --cppflags, --inc\n"
                 "              the include flag (and -DSCOREP_USER_ENABLE with --user)\n"
                 "  --ldflags   the library path and run path of the runtime (and of LLVM's\n"
                 "              libomp with --thread=omp, for gcc -fopenmp)\n"
                 "  --libs      the runtime libraries: the adapter of --mpp first\n"
                 "  --event-libs  the same as --libs\n"
                 "  --mgmt-libs   nothing: the runtime's own dependencies come with it\n"
                 "              (Score-P's --libs = --event-libs + --mgmt-libs)\n"
                 "  --preload-libs\n"
                 "              the libraries for LD_PRELOAD (absolute paths): the adapter of\n"
                 "              --mpp first, then the runtime (as scorep-run preloads them)\n"
                 "  --adapter-init\n"
                 "              C code Score-P's tools compile into the program; scorep-rt's\n"
                 "              adapters register themselves, so it defines nothing they need\n"
                 "  --prefix    the installation prefix\n"
                 "  --python-path\n"
                 "              the directory of the Python module scorep (for PYTHONPATH;\n"
                 "              docs/python.md)\n"
                 "  --remap-specfile\n"
                 "              the path of the remapping specification for Cube's remapper\n"
                 "              (scorep.spec; every profile.cubex also embeds it)\n"
                 "  --cc, --cxx, --fc, --mpicc, --mpicxx, --mpifc\n"
                 "              the compiler names scorep-rt was built with\n"
                 "  --help      this help\n"
                 "  --version   the version\n"
                 "Options:\n"
                 "  --mpp=none|mpi|shmem      the multi-process adapter (default: none)\n"
                 "  --thread=none|pthread|omp[:ompt]\n"
                 "                            omp: gcc's -fopenmp programs link LLVM's libomp\n"
                 "                            (OMPT); POSIX threads are recorded in every case\n"
                 "  --user|--nouser           the user API macros (default: off)\n"
                 "  --compiler|--nocompiler   compiler instrumentation (default: on)\n"
                 "  --cuda|--nocuda           the CUDA adapter (default: on with --nvcc only)\n"
                 "  --instrument=plugin|functions\n"
                 "                            the plugin (default where installed: the GCC\n"
                 "                            plugin, clang's LLVM plugin) or\n"
                 "                            -finstrument-functions, as scorep-cc\n"
                 "  --clang                   flags for clang (C, C++: the LLVM plugin)\n"
                 "  --nvcc                    flags in nvcc's spelling (-Xcompiler, -Xlinker)\n"
                 "  --dynamic                 accepted; --static is refused (no static runtime)\n");
}

static void die(const char *what, const char *arg)
{
    fprintf(stderr, "scorep-config: %s '%s'; see scorep-config --help\n", what, arg);
    exit(1);
}

static bool name_command(const char *a, struct config *c)
{
#ifndef HAVE_PYTHON_MODULE
    if (strcmp(a, "--python-path") == 0) {
        fprintf(stderr, "scorep-config: --python-path: scorep-rt was built without its Python "
                        "module (configure found no Python headers: python3-dev)\n");
        exit(1);
    }
#endif
    static const char *const names[][2] = {
        {"--cc", SCOREP_CONFIG_CC},         {"--cxx", SCOREP_CONFIG_CXX},
        {"--fc", SCOREP_CONFIG_FC},         {"--mpicc", SCOREP_CONFIG_MPICC},
        {"--mpicxx", SCOREP_CONFIG_MPICXX}, {"--mpifc", SCOREP_CONFIG_MPIFC},
        {"--prefix", SCOREP_CONFIG_PREFIX}, {"--python-path", SCOREP_CONFIG_PYTHONPATH},
        /* what Scalasca's square asks Score-P 1.3-4.1 for (Score-P 5+ embeds it too) */
        {"--remap-specfile", SCOREP_CONFIG_PKGDATADIR "/scorep.spec"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(a, names[i][0]) == 0) {
            c->action = NAME;
            c->name = names[i][1];
            return true;
        }
    }
    return false;
}

static bool command(const char *a, struct config *c)
{
    static const struct {
        const char *name;
        enum action action;
    } commands[] = {{"--cflags", CFLAGS},           {"--cxxflags", CXXFLAGS},
                    {"--fflags", FFLAGS},           {"--cppflags", CPPFLAGS},
                    {"--inc", CPPFLAGS},            {"--ldflags", LDFLAGS},
                    {"--libs", LIBS},               {"--event-libs", LIBS},
                    {"--mgmt-libs", MGMT_LIBS},     {"--preload-libs", PRELOAD_LIBS},
                    {"--adapter-init", ADAPTER_INIT}};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(a, commands[i].name) == 0) {
            c->action = commands[i].action;
            return true;
        }
    }
    return name_command(a, c);
}

static void parse(int argc, char **argv, struct config *c)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "--version") == 0) {
            printf("%s\n", SCOREP_VERSION);
            exit(0);
        } else if (strcmp(a, "--nvcc") == 0) {
            c->nvcc = true;
        } else if (strcmp(a, "--clang") == 0) {
            c->clang = true;
        } else if (strncmp(a, "--instrument=", 13) == 0) {
            c->opt.instrument = a + 13;
        } else if (strcmp(a, "--static") == 0) {
            die("static linking is not possible, the runtime is a shared library only:", a);
        } else if (!command(a, c) && !instr_selection_option(a, &c->opt)) {
            die("unknown option", a);
        }
    }
}

static void push_cppflags(const struct config *c, struct argv_buf *out)
{
    argv_push_joined(out, "-I", instr_includedir());
    if (c->opt.user)
        argv_push(out, "-DSCOREP_USER_ENABLE"); /* nvcc takes -D itself */
}

/* The compiler whose flags --cflags, --cxxflags and --fflags print. */
static const char *flags_compiler(const struct config *c)
{
    if (c->nvcc)
        return "nvcc";
    if (c->action == FFLAGS)
        return SCOREP_CONFIG_FC;
    if (c->clang)
        return c->action == CXXFLAGS ? "clang++" : "clang";
    return c->action == CXXFLAGS ? SCOREP_CONFIG_CXX : SCOREP_CONFIG_CC;
}

static void push_cflags(const struct config *c, struct argv_buf *out)
{
    struct job job = {.opt = c->opt, .compiler = flags_compiler(c)};
    job.kind = compiler_find(job.compiler, job.c_driver, sizeof job.c_driver);
    if (job.kind == NULL) /* a compiler the instrumenter does not know: gcc's flags */
        job.kind = compiler_find(job.compiler = "gcc", job.c_driver, sizeof job.c_driver);
    instr_push_instrumentation(&job, out);
    push_cppflags(c, out);
    if (c->action == FFLAGS && c->opt.user)
        argv_push(out, "-cpp");
}

/* --preload-libs: what LD_PRELOAD needs to measure an unmodified program with these options,
 * in scorep-run's order: the multi-process adapter first (its wrappers must win over the
 * library's), then the runtime and the I/O wrappers that need it. Score-P prints the same
 * list of absolute paths, separated by spaces (its Python bindings put it in LD_PRELOAD). */
static void push_preload(const struct config *c, enum instr_mpp mpp, struct argv_buf *out)
{
    const char *dir = instr_libdir();
    if (mpp == MPP_MPI)
        argv_push_joined(out, dir, "/libscorep-rt-mpi.so");
    if (mpp == MPP_SHMEM)
        argv_push_joined(out, dir, "/libscorep-rt-shmem.so");
    argv_push_joined(out, dir, "/libscorep-rt.so");
    if (c->opt.io & INSTR_IO_POSIX)
        argv_push_joined(out, dir, "/libscorep-rt-io-posix.so");
    if (c->opt.io & INSTR_IO_ISOC)
        argv_push_joined(out, dir, "/libscorep-rt-io-isoc.so");
}

/* --adapter-init: Score-P prints the table of its subsystems, which its tools compile into
 * the program; scorep-rt's adapters register themselves when their library loads, so the
 * code only has to compile (Score-P's Python bindings build a library from it). */
static void print_adapter_init(void)
{
    printf("/* scorep-rt: the adapters register themselves when their library is loaded;\n"
           " * this unit defines nothing they need (Score-P's scorep-config --adapter-init\n"
           " * lists its subsystems here) */\n"
           "#include <stddef.h>\n"
           "\n"
           "const size_t scorep_rt_adapter_init_subsystems = 0;\n");
}

static void build(const struct config *c, struct argv_buf *out)
{
    enum instr_mpp mpp = c->opt.mpp == MPP_AUTO ? MPP_NONE : c->opt.mpp;
    switch (c->action) {
    case CFLAGS:
    case CXXFLAGS:
    case FFLAGS:
        push_cflags(c, out);
        break;
    case CPPFLAGS:
        push_cppflags(c, out);
        break;
    case LDFLAGS:
        /* --libwrap=runtime: the wrapper library, ahead of the objects and libraries */
        instr_push_libwrap_front(out, &c->opt.libwraps);
        instr_push_runtime_ldflags(out, c->nvcc);
        instr_push_libomp(out, c->opt.thread, false, instr_omp_runtime(&c->opt));
        break;
    case LIBS:
        /* --libwrap=linktime: --wrap per function, the archive, the library again */
        instr_push_libwrap_back(out, &c->opt.libwraps);
        instr_push_io_libs(out, c->opt.io, c->nvcc);
        instr_push_libs(out, mpp, c->opt.cuda > 0 || (c->nvcc && c->opt.cuda == 0), c->nvcc,
                        !c->nvcc && !c->opt.nomemory);
        break;
    case PRELOAD_LIBS:
        push_preload(c, mpp, out);
        break;
    default: /* MGMT_LIBS: nothing */
        break;
    }
}

int main(int argc, char **argv)
{
    instr_prog = "scorep-config";
    struct config c = {0};
    parse(argc, argv, &c);
    if (c.action == NONE) {
        /* success, as Score-P's scorep-config: tools (Score-P's Python bindings) call it with
         * options only to learn whether it accepts them */
        fprintf(stderr, "scorep-config: no command given (--cflags, --ldflags, --libs, ...); "
                        "see scorep-config --help\n");
        return 0;
    }
    if (c.action == ADAPTER_INIT) {
        print_adapter_init();
        return ferror(stdout) || fflush(stdout) != 0 ? 1 : 0;
    }
    if (c.action == NAME) {
        printf("%s\n", c.name);
        return 0;
    }
    struct argv_buf out = {0};
    build(&c, &out);
    for (size_t i = 0; i < out.n; i++)
        printf("%s%s", i > 0 ? " " : "", out.v[i]);
    printf("\n");
    return ferror(stdout) || fflush(stdout) != 0 ? 1 : 0;
}
