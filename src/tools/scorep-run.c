/* SPDX-License-Identifier: BSD-3-Clause */
/* scorep-run.c: measures an unmodified, dynamically linked program by preloading the
 * runtime (and the MPI adapter when the program uses MPI, the SHMEM adapter when it uses
 * OpenSHMEM). Works under mpirun and oshrun:
 *     mpirun -np 4 scorep-run ./app args */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

static int usage(FILE *out, int rc)
{
    fprintf(out,
            "Usage: scorep-run [options] [--] program [args...]\n"
            "Runs program with the scorep-rt measurement preloaded (LD_PRELOAD).\n"
            "Options:\n"
            "  --mpi         preload the MPI adapter (default: when the program links libmpi,\n"
            "                or runs under mpirun: an interpreter such as python3 loads\n"
            "                libmpi only later, through mpi4py)\n"
            "  --no-mpi      do not preload the MPI adapter\n"
            "  --cuda        preload the CUDA adapter (default: when the program uses CUDA)\n"
            "  --no-cuda     do not preload the CUDA adapter\n"
            "  --shmem       preload the OpenSHMEM adapter (default: when the program loads\n"
            "                liboshmem; its libmpi then does not count: a program that calls\n"
            "                MPI as well needs --mpi)\n"
            "  --no-shmem    do not preload the OpenSHMEM adapter\n"
            "  --io=LIST     record I/O calls: posix (POSIX and ISO C I/O, as in Score-P),\n"
            "                isoc (ISO C only), mpiio (MPI-IO: always with the MPI adapter),\n"
            "                none; comma-separated (docs/io.md)\n"
            "  --memory      preload the memory adapter (malloc, free, new, delete; default:\n"
            "                when SCOREP_MEMORY_RECORDING is true)\n"
            "  --no-memory   do not preload the memory adapter\n"
            "  --openmp-runtime=libgomp|libomp\n"
            "                a program on GNU libgomp: record its GOMP_* calls\n"
            "                (libscorep-rt-gomp, the default), or run it on LLVM's libomp and\n"
            "                record through OMPT (docs/openmp.md)\n"
            "  --verbose     print what is preloaded\n"
            "  --version     print the version\n"
            "  --help        this text\n"
            "Measurement settings come from the SCOREP_* environment variables\n"
            "(scorep-info config-vars). Statically linked programs cannot be measured this way:\n"
            "rebuild them with scorep-cc.\n");
    return rc;
}

/* Does the program load a library whose name contains one of `names` (NULL-terminated)?
 * Asks the dynamic loader, as ldd does. */
static int loads_library(const char *prog, const char *const *names)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "LD_TRACE_LOADED_OBJECTS=1 LD_PRELOAD= '%s' 2>/dev/null", prog);
    if (strchr(prog, '\''))
        return 0;
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    char line[4096];
    int found = 0;
    while (fgets(line, sizeof line, p))
        for (const char *const *n = names; *n; n++)
            found |= strstr(line, *n) != NULL;
    pclose(p);
    return found;
}

/* Score-P's true values of a boolean variable */
static int env_true(const char *name)
{
    const char *v = getenv(name);
    return v && (strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0 ||
                 strcasecmp(v, "on") == 0 || strcmp(v, "1") == 0);
}

static int uses_mpi(const char *prog)
{
    static const char *const libs[] = {"libmpi.so", "libmpi_mpifh.so", "libmpi_usempi", NULL};
    return loads_library(prog, libs);
}

/* Started by an MPI launcher (the variables scorep-python and the Cube writer look at)?
 * Then the program may load libmpi later: python3 with mpi4py, a shell script around an MPI
 * program. Without the adapter each rank would measure itself as a serial program, all
 * into the same experiment directory. A program that never calls MPI_Init is measured as
 * without it. */
static int launched_by_mpirun(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

/* SHMEM (#11): Open MPI's liboshmem */
static int uses_shmem(const char *prog)
{
    static const char *const libs[] = {"liboshmem.so", NULL};
    return loads_library(prog, libs);
}

#ifdef HAVE_OMPT
/* GNU libgomp has no OMPT interface: libscorep-rt-gomp wraps its GOMP_* entry points, or
 * LLVM's libomp, preloaded ahead of it, provides them and OMPT (only in a build with OMPT). */
static int uses_libgomp(const char *prog)
{
    static const char *const libs[] = {"libgomp.so", NULL};
    return loads_library(prog, libs);
}

/* OpenMP target offload (clang -fopenmp-targets=): LLVM's libomptarget */
static int uses_omptarget(const char *prog)
{
    static const char *const libs[] = {"libomptarget.so", NULL};
    return loads_library(prog, libs);
}
#endif

/* Does the program use CUDA? nvcc links the CUDA runtime statically by default, so the
 * loader's list does not show it: look for the section of embedded GPU code (.nv_fatbin)
 * or a dynamic CUDA runtime or driver in the file itself. */
static int uses_cuda(const char *prog)
{
    int fd = open(prog, O_RDONLY);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || sb.st_size == 0) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    const char *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return 0;
    size_t n = (size_t)sb.st_size;
    int cuda = memmem(p, n, ".nv_fatbin", 10) || memmem(p, n, "libcudart.so", 12) ||
               memmem(p, n, "libcuda.so", 10);
    munmap((void *)p, n);
    return cuda;
}

static const char *find_program(const char *name, char *buf, size_t len)
{
    if (strchr(name, '/'))
        return name;
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        snprintf(buf, len, "%.*s/%s", (int)n, path, name);
        if (access(buf, X_OK) == 0)
            return buf;
        path = end ? end + 1 : NULL;
    }
    return name;
}

/* --io=LIST -> bit 1 POSIX, bit 2 ISO C; -1 for an unknown word */
static int parse_io(const char *list)
{
    int io = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (strncmp(w, "runtime:", 8) == 0 || strncmp(w, "linktime:", 9) == 0)
            w = strchr(w, ':') + 1;
        if (strcmp(w, "none") == 0)
            io = 0;
        else if (strcmp(w, "posix") == 0)
            io |= 3;
        else if (strcmp(w, "isoc") == 0)
            io |= 2;
        else if (strcmp(w, "mpiio") != 0 && strcmp(w, "mpi-io") != 0)
            return -1;
    }
    return io;
}

/* SCOREP_LIBWRAP_ENABLE: the user library wrappers (scorep-libwrap-init; docs/libwrap.md),
 * names looked up as PREFIX/lib/libscorep_libwrap_NAME.so in the prefixes of
 * SCOREP_LIBWRAP_PATH, then in scorep-rt's libdir, or paths of such libraries (or of their
 * NAME.libwrap files), separated by the characters of SCOREP_LIBWRAP_ENABLE_SEP (","). They
 * are appended to the preloads after the runtime: their definitions come before the wrapped
 * library's, which the wrappers find with dlsym(RTLD_NEXT). */
static int add_libwraps(char *rt, size_t size, const char *libdir)
{
    const char *enable = getenv("SCOREP_LIBWRAP_ENABLE");
    const char *sep = getenv("SCOREP_LIBWRAP_ENABLE_SEP");
    const char *path = getenv("SCOREP_LIBWRAP_PATH");
    char list[4096];
    if (!enable || !*enable)
        return 0;
    if (!sep || !*sep)
        sep = ",";
    snprintf(list, sizeof list, "%s", enable);
    for (char *save = NULL, *w = strtok_r(list, sep, &save); w; w = strtok_r(NULL, sep, &save)) {
        char lib[4096] = "";
        size_t wl = strlen(w);
        if (strchr(w, '/') && wl > 8 && strcmp(w + wl - 8, ".libwrap") == 0) {
            /* PREFIX/share/scorep/NAME.libwrap -> PREFIX/lib/libscorep_libwrap_NAME.so */
            char prefix[4096];
            snprintf(prefix, sizeof prefix, "%s", w);
            char *name = strrchr(prefix, '/');
            *name++ = '\0';
            name[strlen(name) - 8] = '\0';
            char *up = strrchr(prefix, '/');
            if (up)
                *up = '\0';
            up = strrchr(prefix, '/');
            if (up)
                *up = '\0';
            snprintf(lib, sizeof lib, "%.3800s/lib/libscorep_libwrap_%.200s.so", prefix, name);
        } else if (strchr(w, '/')) {
            snprintf(lib, sizeof lib, "%s", w);
        } else {
            char dirs[4096];
            snprintf(dirs, sizeof dirs, "%s", path ? path : "");
            for (char *s2 = NULL, *d = strtok_r(dirs, ":", &s2); d; d = strtok_r(NULL, ":", &s2)) {
                snprintf(lib, sizeof lib, "%.3800s/lib/libscorep_libwrap_%.200s.so", d, w);
                if (access(lib, R_OK) == 0)
                    break;
                lib[0] = '\0';
            }
            if (!lib[0])
                snprintf(lib, sizeof lib, "%.3800s/libscorep_libwrap_%.200s.so", libdir, w);
        }
        if (access(lib, R_OK) != 0) {
            fprintf(stderr,
                    "scorep-run: SCOREP_LIBWRAP_ENABLE: library wrapper '%s' not found (%s is "
                    "missing; searched SCOREP_LIBWRAP_PATH (%s) and %s); build it with "
                    "scorep-libwrap-init and make install, and set SCOREP_LIBWRAP_PATH to its "
                    "--prefix\n",
                    w, lib, path && *path ? path : "not set", libdir);
            return 1;
        }
        size_t len = strlen(rt);
        if (len + 1 + strlen(lib) >= size) {
            fprintf(stderr, "scorep-run: SCOREP_LIBWRAP_ENABLE: too many wrappers\n");
            return 1;
        }
        snprintf(rt + len, size - len, ":%s", lib);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int mpi = -1, cuda = -1, shmem = -1, memory = -1, verbose = 0, io = 0, i = 1;
    const char *omp_runtime = "libgomp";
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (strcmp(argv[i], "--mpi") == 0) {
            mpi = 1;
        } else if (strcmp(argv[i], "--no-mpi") == 0) {
            mpi = 0;
        } else if (strcmp(argv[i], "--cuda") == 0) {
            cuda = 1;
        } else if (strcmp(argv[i], "--no-cuda") == 0) {
            cuda = 0;
        } else if (strcmp(argv[i], "--shmem") == 0) {
            shmem = 1;
        } else if (strcmp(argv[i], "--no-shmem") == 0) {
            shmem = 0;
        } else if (strncmp(argv[i], "--io=", 5) == 0) {
            io = parse_io(argv[i] + 5);
            if (io < 0) {
                fprintf(stderr, "scorep-run: %s: unknown I/O paradigm (posix, isoc, mpiio, none)\n",
                        argv[i]);
                return 1;
            }
        } else if (strcmp(argv[i], "--memory") == 0) {
            memory = 1;
        } else if (strcmp(argv[i], "--no-memory") == 0) {
            memory = 0;
        } else if (strncmp(argv[i], "--openmp-runtime=", 17) == 0) {
            omp_runtime = argv[i] + 17;
            if (strcmp(omp_runtime, "libgomp") != 0 && strcmp(omp_runtime, "libomp") != 0) {
                fprintf(stderr, "scorep-run: %s: expected libgomp or libomp\n", argv[i]);
                return 1;
            }
        } else if (strcmp(argv[i], "--verbose") == 0) {
            verbose = 1;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            return usage(stdout, 0);
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("scorep-run (scorep-rt) %s\n", PACKAGE_VERSION);
            return 0;
        } else {
            fprintf(stderr, "scorep-run: unknown option '%s'; see scorep-run --help\n", argv[i]);
            return 1;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "scorep-run: no program given; see scorep-run --help\n");
        return 1;
    }
    const char *libdir = getenv("SCOREP_RUN_LIBDIR") ? getenv("SCOREP_RUN_LIBDIR") : SCOREP_LIBDIR;
    char found[4096];
    const char *prog = find_program(argv[i], found, sizeof found);
    if (shmem < 0)
        shmem = uses_shmem(prog);
    if (mpi < 0) { /* liboshmem loads libmpi itself */
        char ad[4096];
        snprintf(ad, sizeof ad, "%s/libscorep-rt-mpi.so", libdir);
        mpi = !shmem && (uses_mpi(prog) || (launched_by_mpirun() && access(ad, R_OK) == 0));
    }
    if (cuda < 0)
        cuda = uses_cuda(prog);
    char preload[8192], rt[4096];
    snprintf(rt, sizeof rt, "%s/libscorep-rt.so", libdir);
    if (access(rt, R_OK) != 0) {
        fprintf(stderr, "scorep-run: the runtime '%s' is missing; check the installation\n", rt);
        return 1;
    }
    if (cuda) { /* after the runtime, which it needs */
        size_t len = strlen(rt);
        snprintf(rt + len, sizeof rt - len, ":%s/libscorep-rt-cuda.so", libdir);
        if (access(rt + len + 1, R_OK) != 0) {
            fprintf(stderr,
                    "scorep-run: the program uses CUDA but the CUDA adapter '%s' is "
                    "missing (scorep-rt was built without CUPTI); use --no-cuda\n",
                    rt + len + 1);
            return 1;
        }
    }
    if (memory < 0)
        memory = env_true("SCOREP_MEMORY_RECORDING");
    if (memory) { /* after the runtime, which it needs; before libc, as every preload */
        size_t len = strlen(rt);
        snprintf(rt + len, sizeof rt - len, ":%s/libscorep-rt-memory.so", libdir);
        if (access(rt + len + 1, R_OK) != 0) {
            fprintf(stderr, "scorep-run: the memory adapter '%s' is missing; check the "
                            "installation\n",
                    rt + len + 1);
            return 1;
        }
    }
#ifdef HAVE_OMPT
    if (uses_omptarget(prog)) { /* after the runtime it needs; ahead of libomptarget */
        size_t len = strlen(rt);
        snprintf(rt + len, sizeof rt - len, ":%s/libscorep-rt-omptarget.so", libdir);
    }
    int gomp = uses_libgomp(prog);
    if (gomp && strcmp(omp_runtime, "libgomp") == 0) { /* preloaded: ahead of libgomp */
        size_t len = strlen(rt);
        snprintf(rt + len, sizeof rt - len, ":%s/libscorep-rt-gomp.so", libdir);
        gomp = 0;
    }
#endif
    for (int k = 0; k < 2; k++) { /* the I/O wrappers, after the runtime they need */
        static const char *const libs[] = {"libscorep-rt-io-posix.so", "libscorep-rt-io-isoc.so"};
        size_t len = strlen(rt);
        if (io & (1 << k))
            snprintf(rt + len, sizeof rt - len, ":%s/%s", libdir, libs[k]);
    }
    if (add_libwraps(rt, sizeof rt, libdir) != 0)
        return 1;
    const char *old = getenv("LD_PRELOAD");
    /* the MPI adapter first: its MPI_* wrappers must win over libmpi's */
    snprintf(preload, sizeof preload, "%s%s%s%s%s", mpi ? libdir : "",
             mpi ? "/libscorep-rt-mpi.so:" : "", rt, old && *old ? ":" : "", old ? old : "");
    if (shmem) { /* first: its shmem_* wrappers must win over liboshmem's */
        char with[sizeof preload + 4200];
        int n = snprintf(with, sizeof with, "%s/libscorep-rt-shmem.so:%s", libdir, preload);
        if (n > 0 && (size_t)n < sizeof preload)
            memcpy(preload, with, (size_t)n + 1);
    }
#if defined(HAVE_OMPT) && defined(SCOREP_LIBOMP_SO)
    if (gomp) { /* first: its GOMP_* entry points must win over libgomp's */
        char omp[sizeof preload + sizeof SCOREP_LIBOMP_SO];
        int n = snprintf(omp, sizeof omp, "%s:%s", SCOREP_LIBOMP_SO, preload);
        if (n > 0 && (size_t)n < sizeof preload)
            memcpy(preload, omp, (size_t)n + 1);
    }
#endif
    setenv("LD_PRELOAD", preload, 1);
    /* NVTX ranges (any program annotated with NVTX, with or without a GPU): NVTX loads the
     * library named here at the program's first NVTX call; a path the user set wins */
    char nvtx[4096];
    snprintf(nvtx, sizeof nvtx, "%s/libscorep-rt-nvtx.so", libdir);
    if (!getenv("NVTX_INJECTION64_PATH") && access(nvtx, R_OK) == 0)
        setenv("NVTX_INJECTION64_PATH", nvtx, 1);
    if (verbose)
        fprintf(stderr, "scorep-run: LD_PRELOAD=%s %s\n", preload, prog);
    execvp(argv[i], argv + i);
    fprintf(stderr, "scorep-run: cannot run '%s': ", argv[i]);
    perror(NULL);
    return 127;
}
