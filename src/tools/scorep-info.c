/* SPDX-License-Identifier: BSD-3-Clause */
/* scorep-info.c: tells users what this installation offers: every configuration variable
 * (config-vars [--full]), how it was built (build), Score-P's configure summary
 * (config-summary, which tools read) and the installed library wrappers (libwrap-summary). */
#include "config.h"
#include "base/arch.h"
#include "base/settings.h"

#include <dirent.h>
#include <otf2/OTF2_GeneralDefinitions.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static int usage(FILE *out, int rc)
{
    fprintf(out, "Usage: scorep-info <command> [options]\n"
                 "Commands:\n"
                 "  config-vars [--full]  list the SCOREP_* variables (name, type, default, "
                 "meaning)\n"
                 "  build                 configure options, adapters and library versions\n"
                 "  config-summary        the same facts in the form of Score-P's configure\n"
                 "                        summary (lines \"Key:  value\", e.g. \"Link mode:\")\n"
                 "  libwrap-summary [--build] [NAME]\n"
                 "                        the library wrappers of scorep-libwrap-init found in\n"
                 "                        SCOREP_LIBWRAP_PATH and this installation's prefix\n"
                 "                        (--build: how each was configured)\n"
                 "  --help                this text\n"
                 "  --version             the version\n");
    return rc;
}

/* the default order of the trace reduction steps, from the configuration table */
static const char *reduction_default(void)
{
    for (size_t i = 0; i < scorep_cfg_n_vars; i++)
        if (strcmp(scorep_cfg_vars[i].name, "SCOREP_TRACING_REDUCTION") == 0)
            return scorep_cfg_vars[i].default_value;
    return "?";
}

/* Which compiler instrumentation scorep-cc has, and its default (--instrument=plugin where a
 * plugin is built for the compiler, -finstrument-functions otherwise; options.c). */
static void compiler_info(void)
{
#ifdef SCOREP_INFO_GCC_PLUGIN
    const char *gcc = "GCC plugin (gcc, g++, gfortran, MPI wrappers, nvcc host code)";
#else
    const char *gcc = "no GCC plugin (gcc plugin headers not found)";
#endif
#ifdef SCOREP_INFO_LLVM_PLUGIN_CLANG
    char llvm[96];
    snprintf(llvm, sizeof llvm, "LLVM pass plugin (clang, clang++ %d)",
             SCOREP_INFO_LLVM_PLUGIN_CLANG);
#else
    const char *llvm = "no LLVM pass plugin (llvm-config not found)";
#endif
    printf("  compiler    yes (scorep-cc's default: %s; %s; -finstrument-functions for other "
           "compilers and --instrument=functions; symbols through libdw)\n",
           gcc, llvm);
}

static int build_info(void)
{
    printf("scorep-rt %s\n", PACKAGE_VERSION);
    printf("configure arguments: %s\n", SCOREP_CONFIGURE_ARGS);
    printf("installation: bin=%s lib=%s include=%s\n", SCOREP_BINDIR, SCOREP_LIBDIR,
           SCOREP_INCLUDEDIR);
    printf("adapters:\n");
    compiler_info();
    printf("  user        yes (SCOREP_User.h, Fortran SCOREP_User.inc; rewind discards the "
           "thread's trace events since the point; dynamic regions with Score-P's iteration "
           "clustering; selective recording, SCOREP_SELECTIVE_CONFIG_FILE; no user "
           "topologies)\n");
    printf("  pthread     yes (pthread_create/join, the program's mutex and condition-variable "
           "calls with lock events)\n");
    printf("  memory      yes (libscorep-rt-memory: linked by scorep-cc unless --nomemory, "
           "preloaded by scorep-run --memory; recording with SCOREP_MEMORY_RECORDING)\n");
    printf("  io          yes (libscorep-rt-io-posix, -isoc: POSIX, ISO C and POSIX AIO calls; "
           "scorep-cc --io, scorep-run --io)\n");
#ifdef HAVE_PYTHON_MODULE
    printf("  python      yes (the module scorep: scorep-python, python3 -m scorep; Python calls "
           "as regions module:function through a C profile hook; docs/python.md)\n");
#else
    printf("  python      no (configure found no Python headers: python3-dev)\n");
#endif
#ifdef HAVE_MPI
    printf("  mpi         yes (libscorep-rt-mpi: PMPI wrappers of MPI-3.1, link time and "
           "scorep-run)\n");
#else
    printf("  mpi         no (configure found no mpicc)\n");
#endif
#ifdef HAVE_OMPT
    printf("  openmp      yes (OMPT tool; gcc programs run on LLVM libomp)\n");
    printf("  omptarget   yes (libscorep-rt-omptarget: clang's target offload through LLVM "
           "libomptarget, linked by scorep-cc for -fopenmp-targets=, preloaded by scorep-run; "
           "docs/openmp.md)\n");
#else
    printf("  openmp      no (omp-tools.h not found)\n");
#endif
#ifdef HAVE_SHMEM
    printf("  shmem       yes (libscorep-rt-shmem: pshmem wrappers of Open MPI's oshmem, link "
           "time and scorep-run)\n");
#else
    printf("  shmem       no (configure found no oshcc/oshrun)\n");
#endif
#ifdef HAVE_CUDA
    printf("  cuda        yes (libscorep-rt-cuda: CUPTI callbacks and activities, scorep-cc nvcc "
           "and scorep-run; SCOREP_CUDA_ENABLE, docs/cuda.md)\n");
    printf("  nvtx        yes (libscorep-rt-nvtx: NVTX ranges and marks as user regions; "
           "programs built by scorep-cc load it at their first NVTX call, scorep-run names it "
           "in NVTX_INJECTION64_PATH)\n");
#else
    printf(
        "  cuda        no (configure found no cupti.h and lib64/libcupti.so; --with-cuda=DIR)\n");
    printf("  nvtx        no (built with the CUDA adapter)\n");
#endif
    printf("metrics:\n");
    printf("  rusage      yes (SCOREP_METRIC_RUSAGE)\n");
    printf("  papi        yes (SCOREP_METRIC_PAPI, _PER_PROCESS: one event set per thread and "
           "component; events PAPI cannot count are reported and left out)\n");
    printf("  perf        yes (SCOREP_METRIC_PERF, perf_event_open; also PAPI's perf:: "
           "software events where PAPI's perf_event component is disabled)\n");
    printf("  plugins     yes (SCOREP_METRIC_PLUGINS, Score-P plugin interface version 1; "
           "shipped: cputime, meminfo)\n");
    printf("output:\n");
    printf("  profile     Cube4 (.cubex), own writer\n");
    printf("  trace       OTF2 %d.%d.%d\n", OTF2_VERSION_MAJOR, OTF2_VERSION_MINOR,
           OTF2_VERSION_BUGFIX);
    /* base/arch.h: a build with CPPFLAGS=-DSCOREP_PORTABLE=1 runs the C versions on x86-64 */
    printf("hot paths:    %s\n",
           SCOREP_ASM_X86_64
               ? "x86-64 assembly (rdtsc where the TSC is invariant, one-instruction marks, the "
                 "plugins' throttle count at a thread-pointer offset)"
               : "portable C (clock_gettime timer, C marks, the plugins' throttle "
                 "count by slot index)");
    printf("libraries:\n");
    printf("  zlib        %s\n", zlibVersion());
    printf("differences from Score-P:\n");
    printf("  - unrecognised words in boolean variables are an error, not false\n");
    printf("  - SCOREP_NODE_NAME names this process's node in the system tree\n");
    printf("  - no limits on MPI communicators, groups, windows (SCOREP_MPI_MAX_COMMUNICATORS, "
           "_GROUPS, _WINDOWS: a value other than the default is reported as having no "
           "effect)\n");
    printf("  - OTF2 attributes mpi_message_id, mpi_probe_*, mpi_message_handle "
           "(docs/mpi.md)\n");
    const char *steps = reduction_default();
    printf("  - when SCOREP_TOTAL_MEMORY is used up, the thread's trace is reduced in the order "
           "of SCOREP_TRACING_REDUCTION (default %s)%s; the profile is never reduced\n",
           steps,
           strstr(steps, "flush") ? ", flush writing the buffer to disk as Score-P does"
                                  : ", and recording stops when nothing is left to reduce");
    printf("  - throttling (SCOREP_THROTTLING, on by default for compiler-instrumented "
           "functions, off for user and library regions): after SCOREP_THROTTLING_CALLS visits "
           "of a call path with a mean below SCOREP_THROTTLING_MEAN the function is only "
           "counted (profile node scorep_throttled_from_visit=N), not timed or traced; code "
           "instrumented by scorep-cc's GCC plugin (gcc's default) then counts it inline, "
           "without a call (63 such functions per process)\n");
    printf("  - an unknown PAPI event or rusage field, or an unusable metric plugin, is a "
           "warning, not an abort\n");
    printf("  - metrics: one OTF2 metric class per metric; asynchronous plugins are read at "
           "the end (docs/metrics.md)\n");
    return 0;
}

/* One line of Score-P's configure summary (AFS_SUMMARY: the key and its colon padded to 28
 * columns after the indent). */
static void summary(const char *key, const char *value)
{
    char k[64];
    snprintf(k, sizeof k, "%s:", key);
    printf("    %-28s%s\n", k, value);
}

/* config-summary: Score-P prints its configure summary here; tools read lines of it (Score-P's
 * Python bindings check "Link mode:" for shared=yes). */
static int config_summary(void)
{
    char head[96], otf2[64];
    printf("Configure command:\n  configure %s\n\n", SCOREP_CONFIGURE_ARGS);
    printf("Configuration summary:\n");
    snprintf(head, sizeof head, "Score-P %s (scorep-rt %s):", SCOREP_INTERFACE_VERSION,
             PACKAGE_VERSION);
    printf("  %s\n", head);
    summary("Link mode", "static=no, shared=yes");
    summary("Pthread support", "yes");
#ifdef HAVE_MPI
    summary("MPI support", "yes");
#else
    summary("MPI support", "no");
#endif
#ifdef HAVE_SHMEM
    summary("SHMEM support", "yes");
#else
    summary("SHMEM support", "no");
#endif
#ifdef HAVE_OMPT
    summary("OpenMP support", "yes, using OMPT");
#else
    summary("OpenMP support", "no");
#endif
#ifdef HAVE_CUDA
    summary("CUDA support", "yes");
#else
    summary("CUDA support", "no");
#endif
#ifdef HAVE_PYTHON_MODULE
    summary("Python module", "yes (scorep-config --python-path, scorep-python)");
#else
    summary("Python module", "no");
#endif
    summary("PAPI support", "yes");
    summary("metric perf support", "yes");
    snprintf(otf2, sizeof otf2, "yes, using external OTF2 %d.%d.%d", OTF2_VERSION_MAJOR,
             OTF2_VERSION_MINOR, OTF2_VERSION_BUGFIX);
    summary("otf2 support", otf2);
    summary("cubew support", "no, scorep-rt writes Cube4 itself");
    return ferror(stdout) || fflush(stdout) != 0 ? 1 : 0;
}

/* ------------------------------------------------------------ libwrap-summary */
/* Score-P's command of that name: for each wrapper (P/share/scorep/NAME.libwrap, P from
 * SCOREP_LIBWRAP_PATH then the prefix, as scorep-cc --libwrap looks them up) its name, display
 * name and prefix, with --build also its NAME.summary (the scorep-libwrap-init command). */
enum { LW_INVALID = 2, LW_NOT_FOUND = 3 }; /* Score-P's exit codes */

static int lw_display(const char *prefix, const char *dir, const char *name, int build)
{
    char path[8192], line[8192], display[8192] = "", lwname[8192] = "";
    snprintf(path, sizeof path, "%s/%s.libwrap", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "scorep-info: cannot read %s\n", path);
        return LW_INVALID;
    }
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strncmp(line, "LIBWRAP_NAME=", 13) == 0)
            snprintf(lwname, sizeof lwname, "%s", line + 13);
        else if (strncmp(line, "LIBWRAP_DISPLAY_NAME=", 21) == 0)
            snprintf(display, sizeof display, "%s", line + 21);
    }
    fclose(f);
    printf("%s\n", name);
    if (!*lwname) {
        fflush(stdout); /* the name, then why it is unusable */
        fprintf(stderr,
                "scorep-info: no LIBWRAP_NAME in %s: the library wrapper %s is probably corrupt "
                "(run make install in its scorep-libwrap-init directory again)\n",
                path, name);
        return LW_INVALID;
    }
    printf("  Display name:\n    %s\n  Prefix:\n    %s\n", *display ? display : lwname, prefix);
    if (build) {
        snprintf(path, sizeof path, "%s/%s.summary", dir, name);
        if (!(f = fopen(path, "r"))) {
            fflush(stdout);
            fprintf(stderr, "scorep-info: cannot read %s: the library wrapper %s is probably corrupt\n",
                    path, name);
            return LW_INVALID;
        }
        while (fgets(line, sizeof line, f))
            printf("  %s", line);
        fclose(f);
    }
    printf("\n");
    return 0;
}

static int lw_is_anchor(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 8 && strcmp(e->d_name + n - 8, ".libwrap") == 0;
}

static int libwrap_summary(int argc, char **argv)
{
    int build = 0, i = 2;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--build") != 0) {
            fprintf(stderr, "scorep-info: invalid option for libwrap-summary: '%s'\n", argv[i]);
            return 1;
        }
        build = 1;
    }
    if (argc - i > 1) {
        fprintf(stderr, "scorep-info: libwrap-summary takes one wrapper name, not '%s'\n",
                argv[i + 1]);
        return 1;
    }
    const char *want = i < argc ? argv[i] : NULL;
    const char *env = getenv("SCOREP_LIBWRAP_PATH");
    char paths[16384], seen[16384] = ":";
    snprintf(paths, sizeof paths, "%s%s%s", env ? env : "", env && *env ? ":" : "",
             SCOREP_PREFIX);
    int found = 0;
    for (char *save = NULL, *p = strtok_r(paths, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
        char key[8192], dir[8192];
        snprintf(key, sizeof key, ":%s:", p);
        if (strstr(seen, key)) /* a prefix named twice is listed once */
            continue;
        if (strlen(seen) + strlen(p) + 2 < sizeof seen)
            strcat(strcat(seen, p), ":");
        snprintf(dir, sizeof dir, "%s/share/scorep", p);
        if (want) {
            char anchor[16384];
            snprintf(anchor, sizeof anchor, "%s/%s.libwrap", dir, want);
            if (access(anchor, R_OK) == 0)
                return lw_display(p, dir, want, build);
            continue;
        }
        struct dirent **list;
        int n = scandir(dir, &list, lw_is_anchor, alphasort), rc = 0;
        for (int k = 0; k < n; k++) {
            char name[512];
            snprintf(name, sizeof name, "%.*s", (int)(strlen(list[k]->d_name) - 8),
                     list[k]->d_name);
            if (rc == 0 && (rc = lw_display(p, dir, name, build)) == 0)
                found++;
            free(list[k]);
        }
        if (n >= 0)
            free(list);
        if (rc != 0)
            return rc;
    }
    if (want) {
        fprintf(stderr, "scorep-info: could not find library wrapper '%s' (SCOREP_LIBWRAP_PATH: %s)\n",
                want, env && *env ? env : "not set");
        return LW_NOT_FOUND;
    }
    if (!found)
        fprintf(stderr, "scorep-info: warning: no library wrappers available; please check "
                        "SCOREP_LIBWRAP_PATH\n");
    return ferror(stdout) || fflush(stdout) != 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage(stderr, 1);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return usage(stdout, 0);
    if (strcmp(argv[1], "--version") == 0) {
        printf("scorep-info (scorep-rt) %s\n", PACKAGE_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "config-vars") == 0) {
        int full = argc > 2 && strcmp(argv[2], "--full") == 0;
        if (argc > 2 && !full) {
            fprintf(stderr, "scorep-info: unknown option '%s' for config-vars\n", argv[2]);
            return 1;
        }
        scorep_cfg_print_help(scorep_cfg_vars, scorep_cfg_n_vars, full, stdout);
        return 0;
    }
    if (strcmp(argv[1], "build") == 0)
        return build_info();
    if (strcmp(argv[1], "config-summary") == 0)
        return config_summary();
    if (strcmp(argv[1], "libwrap-summary") == 0)
        return libwrap_summary(argc, argv);
    fprintf(stderr, "scorep-info: unknown command '%s'; see scorep-info --help\n", argv[1]);
    return 1;
}
