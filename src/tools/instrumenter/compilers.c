/* SPDX-License-Identifier: BSD-3-Clause */
/* compilers.c: the table of compiler drivers the instrumenter knows and the predicates that
 * classify their arguments (link or compile step, queries, debug level, inputs). */
#include "tools/instrumenter/compilers.h"

#include <stdio.h>
#include <string.h>

static const char *const cyg_hooks[] = {"-finstrument-functions", NULL};
static const char *const gnu_debug[] = {"-g1", NULL};
/* clang's -g1 is -gline-tables-only, which omits the declaration lines of functions;
 * -fdebug-info-for-profiling adds them back. Neither changes the generated code. */
static const char *const clang_debug[] = {"-g1", "-fdebug-info-for-profiling", NULL};
/* nvcc compiles device code itself and hands host code to gcc: only the host code is
 * instrumented, as Score-P does */
static const char *const nvcc_hooks[] = {"-Xcompiler", "-finstrument-functions", NULL};
static const char *const nvcc_debug[] = {"-Xcompiler", "-g1", NULL};

/* columns: name, C driver, hooks, debug, mpi, shmem, fortran, cuda, plugin */
static const struct compiler_kind kinds[] = {
    {"gcc", "gcc", cyg_hooks, gnu_debug, false, false, false, false, PLUGIN_GCC},
    {"cc", "cc", cyg_hooks, gnu_debug, false, false, false, false, PLUGIN_GCC},
    {"g++", "gcc", cyg_hooks, gnu_debug, false, false, false, false, PLUGIN_GCC},
    {"c++", "cc", cyg_hooks, gnu_debug, false, false, false, false, PLUGIN_GCC},
    {"gfortran", "gcc", cyg_hooks, gnu_debug, false, false, true, false, PLUGIN_GCC},
    {"clang", "clang", cyg_hooks, clang_debug, false, false, false, false, PLUGIN_LLVM},
    {"clang++", "clang", cyg_hooks, clang_debug, false, false, false, false, PLUGIN_LLVM},
    /* MPI compiler wrappers (Open MPI's default to the GNU compilers) */
    {"mpicc", "mpicc", cyg_hooks, gnu_debug, true, false, false, false, PLUGIN_GCC},
    {"mpicxx", "mpicc", cyg_hooks, gnu_debug, true, false, false, false, PLUGIN_GCC},
    {"mpic++", "mpicc", cyg_hooks, gnu_debug, true, false, false, false, PLUGIN_GCC},
    {"mpiCC", "mpicc", cyg_hooks, gnu_debug, true, false, false, false, PLUGIN_GCC},
    {"mpif90", "mpicc", cyg_hooks, gnu_debug, true, false, true, false, PLUGIN_GCC},
    {"mpifort", "mpicc", cyg_hooks, gnu_debug, true, false, true, false, PLUGIN_GCC},
    {"mpif77", "mpicc", cyg_hooks, gnu_debug, true, false, true, false, PLUGIN_GCC},
    /* CUDA (issue #11): also links the CUDA adapter libscorep-rt-cuda */
    {"nvcc", "gcc", nvcc_hooks, nvcc_debug, false, false, false, true, PLUGIN_GCC},
    /* OpenSHMEM compiler wrappers (#11): also link the SHMEM adapter */
    {"oshcc", "oshcc", cyg_hooks, gnu_debug, false, true, false, false, PLUGIN_GCC},
    {"oshcxx", "oshcc", cyg_hooks, gnu_debug, false, true, false, false, PLUGIN_GCC},
    {"oshc++", "oshcc", cyg_hooks, gnu_debug, false, true, false, false, PLUGIN_GCC},
    {"oshCC", "oshcc", cyg_hooks, gnu_debug, false, true, false, false, PLUGIN_GCC},
    {"oshfort", "oshcc", cyg_hooks, gnu_debug, false, true, true, false, PLUGIN_GCC},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* True if rest is empty or a version suffix such as "-12" or "-14.0". */
static bool is_version_suffix(const char *rest)
{
    if (rest[0] == '\0')
        return true;
    if (rest[0] != '-' || rest[1] < '0' || rest[1] > '9')
        return false;
    return strspn(rest + 1, "0123456789.") == strlen(rest + 1);
}

const struct compiler_kind *compiler_find(const char *command, char *c_driver, size_t size)
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

const struct compiler_kind *compiler_llvm_backed(const struct compiler_kind *kind)
{
    /* one compiler per scorep-cc process: a copy of the wrapper's row suffices */
    static struct compiler_kind llvm;
    llvm = *kind;
    llvm.debug = clang_debug;
    llvm.plugin = PLUGIN_LLVM;
    return &llvm;
}

bool compiler_is_clang(const struct compiler_kind *kind)
{
    return strcmp(kind->c_driver, "clang") == 0;
}

static bool in_list(const char *arg, const char *const *list)
{
    for (; *list != NULL; list++)
        if (strcmp(arg, *list) == 0)
            return true;
    return false;
}

bool arg_is_input_file(const char *arg)
{
    static const char *const extensions[] = {
        "c",   "i",   "ii",  "cc",  "cp",  "cxx", "cpp", "CPP", "c++", "C",   "f",
        "for", "ftn", "F",   "FOR", "FTN", "fpp", "FPP", "f90", "f95", "f03", "f08",
        "F90", "F95", "F03", "F08", "s",   "S",   "sx",  "o",   "a",   "so",  NULL};
    const char *dot = strrchr(arg, '.');
    if (dot == NULL || strchr(dot, '/') != NULL)
        return false;
    return in_list(dot + 1, extensions);
}

bool args_stop_before_link(int argc, char **argv)
{
    static const char *const stops[] = {"-c", "-S", "-E", "-M", "-MM", "-fsyntax-only", "-r", NULL};
    for (int i = 0; i < argc; i++)
        if (in_list(argv[i], stops))
            return true;
    return false;
}

/* Passed on as they are, since the added runtime library would turn them into a link. */
bool args_are_query(int argc, char **argv)
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

bool args_any(int argc, char **argv, bool (*pred)(const char *))
{
    for (int i = 0; i < argc; i++)
        if (pred(argv[i]))
            return true;
    return false;
}

/* Options that set the debug information level; others such as -gz or -gsplit-dwarf only
 * modify it and do not produce line information on their own. */
bool arg_sets_debug_level(const char *arg)
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

bool arg_is_static(const char *arg)
{
    return strcmp(arg, "-static") == 0 || strcmp(arg, "-static-pie") == 0;
}

/* -x LANG applies to all later inputs, so it must be reset before the filter object. */
bool arg_is_language(const char *arg)
{
    return strncmp(arg, "-x", 2) == 0;
}

bool arg_is_abi(const char *arg)
{
    return strcmp(arg, "-m32") == 0 || strcmp(arg, "-m64") == 0 || strcmp(arg, "-mx32") == 0;
}

bool arg_is_openmp(const char *arg)
{
    return strcmp(arg, "-fopenmp") == 0;
}

/* clang's offload targets (-fopenmp-targets=x86_64-pc-linux-gnu, nvptx64, ...) */
bool arg_is_openmp_offload(const char *arg)
{
    return strncmp(arg, "-fopenmp-targets=", 17) == 0;
}

bool arg_is_unpreprocessed_fortran(const char *arg)
{
    static const char *const extensions[] = {"f", "for", "ftn", "f90", "f95", "f03", "f08", NULL};
    const char *dot = strrchr(arg, '.');
    return arg[0] != '-' && dot != NULL && strchr(dot, '/') == NULL && in_list(dot + 1, extensions);
}

bool arg_is_source(const char *arg)
{
    static const char *const linked[] = {"o", "a", "so", NULL};
    const char *dot = strrchr(arg, '.');
    return arg[0] != '-' && arg_is_input_file(arg) && !in_list(dot + 1, linked);
}

bool arg_is_nvcc_ccbin(const char *arg)
{
    return strcmp(arg, "-ccbin") == 0 || strncmp(arg, "-ccbin=", 7) == 0 ||
           strncmp(arg, "--compiler-bindir", 17) == 0;
}

/* An MPI library on the command line (-lmpi, -lmpi_cxx, -lmpich, .../libmpi.so.40): the MPI
 * adapter must come before it, or the program's MPI calls resolve to the library's own. */
/* memkind's shared library (-lmemkind, or its path): the memory adapter goes before it, so
 * that the adapter's hbw_* wrappers interpose its functions */
bool arg_is_memkind_library(const char *arg)
{
    if (strcmp(arg, "-lmemkind") == 0)
        return true;
    const char *base = strrchr(arg, '/');
    base = base != NULL ? base + 1 : arg;
    return arg[0] != '-' && strncmp(base, "libmemkind.so", 13) == 0;
}

/* memkind's static library: a path to libmemkind.a, or -l:libmemkind.a */
bool arg_is_memkind_archive(const char *arg)
{
    if (strcmp(arg, "-l:libmemkind.a") == 0)
        return true;
    const char *base = strrchr(arg, '/');
    base = base != NULL ? base + 1 : arg;
    return arg[0] != '-' && strcmp(base, "libmemkind.a") == 0;
}

/* The linker's -Bstatic/-Bdynamic state after arg (-Wl,OPT[,OPT...] or the argument of an
 * -Xlinker), which decides whether a later -lmemkind is libmemkind.a: st->depth states saved
 * by --push-state, restored by --pop-state. */
void arg_link_state(const char *arg, bool after_xlinker, struct link_state *st)
{
    const char *p;
    if (after_xlinker)
        p = arg;
    else if (strncmp(arg, "-Wl,", 4) == 0)
        p = arg + 4;
    else
        return;
    while (*p) {
        size_t n = after_xlinker ? strlen(p) : strcspn(p, ",");
        char opt[32];
        if (n < sizeof opt) {
            memcpy(opt, p, n);
            opt[n] = '\0';
            const char *o = opt[0] == '-' && opt[1] == '-' ? opt + 1 : opt;
            if (!strcmp(o, "-Bstatic") || !strcmp(o, "-dn") || !strcmp(o, "-non_shared") ||
                !strcmp(o, "-static"))
                st->bstatic = true;
            else if (!strcmp(o, "-Bdynamic") || !strcmp(o, "-dy") || !strcmp(o, "-call_shared"))
                st->bstatic = false;
            else if (!strcmp(o, "-push-state") && st->depth < LINK_STATE_MAX)
                st->saved[st->depth++] = st->bstatic;
            else if (!strcmp(o, "-pop-state") && st->depth > 0)
                st->bstatic = st->saved[--st->depth];
        }
        p += n;
        if (*p == ',')
            p++;
    }
}

bool arg_is_mpi_library(const char *arg)
{
    if (strncmp(arg, "-lmpi", 5) == 0)
        return true;
    const char *base = strrchr(arg, '/');
    base = base != NULL ? base + 1 : arg;
    return arg[0] != '-' && strncmp(base, "libmpi", 6) == 0 && strstr(base, ".so") != NULL;
}
