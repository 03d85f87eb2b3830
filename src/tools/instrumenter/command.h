/* SPDX-License-Identifier: BSD-3-Clause */
/* command.h: what one instrumenter invocation does: the selections made by the options
 * (scorep-cc's or Score-P's), and the compiler command built from them. */
#ifndef SCOREP_INSTRUMENTER_COMMAND_H
#define SCOREP_INSTRUMENTER_COMMAND_H

#include <limits.h>
#include <stdbool.h>

#include "tools/instrumenter/argv.h"
#include "tools/instrumenter/compilers.h"
#include "tools/instrumenter/libwrap.h"

/* Score-P's --mpp= and --thread= paradigms; AUTO: decided by the compiler and its arguments
 * (mpicc: mpi, oshcc: shmem, -fopenmp: omp), as Score-P's instrumenter detects them. */
enum instr_mpp { MPP_AUTO, MPP_NONE, MPP_MPI, MPP_SHMEM };
enum instr_thread { THREAD_AUTO, THREAD_NONE, THREAD_PTHREAD, THREAD_OMP };

struct instr_options {
    bool user, nocompiler, dry_run, keep_files;
    bool nomemory; /* --nomemory: do not link the memory adapter libscorep-rt-memory,
                    * which is linked by default (as Score-P's instrumenter does) */
    int cuda;      /* --cuda 1, --nocuda -1, neither 0 (nvcc links the CUDA adapter) */
    int verbosity; /* 0 quiet, 1 print the commands on stderr, 2 also the selections */
    enum instr_mpp mpp;
    enum instr_thread thread;
    const char *filter;     /* as given on the command line */
    const char *instrument; /* --instrument=plugin|functions; NULL: SCOREP_CC_INSTRUMENT */
    /* #31, the plugins only: --instrument-inlined (or SCOREP_CC_INSTRUMENT_INLINED=yes):
     * instrument before inlining; --instrument-threshold=N (NULL:
     * SCOREP_CC_INSTRUMENT_THRESHOLD, else the plugin's default) */
    bool instrument_inlined;
    const char *instrument_threshold;
    unsigned io;            /* --io=...: INSTR_IO_* bits */
    const char *omp_runtime; /* --openmp-runtime=libgomp|libomp (gcc); NULL:
                              * SCOREP_CC_OPENMP_RUNTIME, else libgomp */
    struct instr_libwraps libwraps; /* --libwrap=... (libwrap.h) */
};

/* --io=posix,isoc,mpiio (Score-P's "posix" is POSIX and ISO C I/O) */
enum { INSTR_IO_POSIX = 1, INSTR_IO_ISOC = 2, INSTR_IO_MPIIO = 4 };

/* Everything one invocation needs. */
struct job {
    struct instr_options opt;
    const struct compiler_kind *kind;
    const char *compiler;
    char c_driver[PATH_MAX];
    int nargs; /* the user's compiler arguments, after any SCOREP_WRAPPER_COMPILER_FLAGS */
    char **args;
    bool link;
    char *filter_path; /* absolute, when a filter is given */
    char tmpdir[PATH_MAX];
    char filter_ref_src[PATH_MAX + 32], filter_ref_obj[PATH_MAX + 32];
};

/* Sets the compiler of a job; an unknown compiler is an error (message and exit 1). */
void instr_set_compiler(struct job *job, const char *compiler);
void instr_unsupported_compiler(const char *compiler) __attribute__((noreturn));
void instr_no_compiler(void) __attribute__((noreturn));

/* The installed directories, or the SCOREP_CC_* variables that replace them (tests). */
const char *instr_includedir(void);
const char *instr_libdir(void);

/* The paradigms after auto-detection. */
enum instr_mpp instr_mpp_of(const struct job *job);
enum instr_thread instr_thread_of(const struct job *job);
/* What a link step adds, in this order: -L and -rpath of the runtime, its libraries (the
 * adapters of the paradigms first), -L and -rpath of LLVM's libomp (gcc with OpenMP). */
void instr_push_runtime_ldflags(struct argv_buf *cmd, bool nvcc);
void instr_push_libs(struct argv_buf *cmd, enum instr_mpp mpp, bool cuda, bool nvcc,
                     bool memory);
/* the I/O wrapper libraries of --io (before the runtime, which they need) */
void instr_push_io_libs(struct argv_buf *cmd, unsigned io, bool nvcc);
/* the target-offload adapter, for a link with -fopenmp-targets= (a build with OMPT) */
void instr_push_omptarget(struct argv_buf *cmd, int nargs, char **args);
/* gcc with OpenMP: libscorep-rt-gomp ahead of libgomp (runtime "libgomp", the default), or
 * LLVM's libomp in libgomp's place ("libomp"); nothing for clang (libomp, OMPT). */
void instr_push_libomp(struct argv_buf *cmd, enum instr_thread thread, bool clang,
                       const char *omp_runtime);
/* The OpenMP runtime a gcc program is to run on: "libgomp" or "libomp"; exits on another
 * name in SCOREP_CC_OPENMP_RUNTIME. */
const char *instr_omp_runtime(const struct instr_options *opt);

/* The flags that instrument the job's compiler: a plugin's (--instrument=plugin, the default
 * where it is installed) or -finstrument-functions; none with --nocompiler. */
void instr_push_instrumentation(const struct job *job, struct argv_buf *cmd);

/* --instrument-threshold=N: N is a decimal number of statements (0: no threshold) */
bool instr_threshold_valid(const char *n);

/* Runs the job: checks the filter, builds the commands, prints and/or runs them; returns the
 * exit status for main. */
int instr_run_job(struct job *job);

#endif
