/* SPDX-License-Identifier: BSD-3-Clause */
/* compilers.h: the compiler drivers the instrumenter knows (gcc, clang, gfortran, the MPI and
 * OpenSHMEM wrappers, nvcc) and what their arguments mean to it. */
#ifndef SCOREP_INSTRUMENTER_COMPILERS_H
#define SCOREP_INSTRUMENTER_COMPILERS_H

#include <stdbool.h>
#include <stddef.h>

/* The plugin that instruments a driver's code by default (scorep-cc --instrument=plugin): the
 * GCC plugin for the GNU drivers (gfortran and nvcc's host code included), the LLVM pass
 * plugin for clang/clang++. */
enum compiler_plugin { PLUGIN_GCC, PLUGIN_LLVM };

/* One kind of compiler driver. Adding a driver (mpicc, nvcc, ...) means adding a row, and for
 * drivers that pass host flags differently, its own flag lists. */
struct compiler_kind {
    const char *name;              /* driver base name without target prefix or version */
    const char *c_driver;          /* C driver of the same family: compiles the filter reference */
    const char *const *instrument; /* flags that make the compiler call the runtime's hooks */
    const char *const *debug;      /* line information for file:line, added without -g */
    bool mpi;                      /* an MPI wrapper: also link the MPI adapter */
    bool shmem;                    /* an OpenSHMEM wrapper: also link the SHMEM adapter */
    bool fortran;                  /* a Fortran driver: --user may need -cpp */
    bool cuda; /* nvcc: host flags through -Xcompiler/-Xlinker; links the CUDA adapter */
    enum compiler_plugin plugin;
};

/* Finds the kind of a compiler command: [dir/][target-]name[-version]. Fills the C driver of
 * the same family with the same directory, target prefix and version. */
const struct compiler_kind *compiler_find(const char *command, char *c_driver, size_t size);
bool compiler_is_clang(const struct compiler_kind *kind);
/* An MPI or OpenSHMEM wrapper's kind when it runs clang (OMPI_CC=clang, MPICH_CC=clang, or a
 * wrapper built for clang): clang's line-table flags and the LLVM plugin, whose code clang can
 * load (the GCC plugin's it cannot). */
const struct compiler_kind *compiler_llvm_backed(const struct compiler_kind *kind);

/* Whether a first argument names an input file, so that the compiler defaults to gcc. */
bool arg_is_input_file(const char *arg);
/* Steps that produce no program or shared library, so the runtime is not linked. */
bool args_stop_before_link(int argc, char **argv);
/* Invocations that only ask the compiler something (gcc -v, gcc --version). */
bool args_are_query(int argc, char **argv);
bool args_any(int argc, char **argv, bool (*pred)(const char *));
bool arg_sets_debug_level(const char *arg);
bool arg_is_static(const char *arg);
bool arg_is_language(const char *arg);
bool arg_is_abi(const char *arg);
bool arg_is_openmp(const char *arg);
bool arg_is_openmp_offload(const char *arg);
/* Fortran sources that gfortran compiles without the C preprocessor. */
bool arg_is_unpreprocessed_fortran(const char *arg);
/* Source files (inputs that are compiled, not only linked). */
bool arg_is_source(const char *arg);
/* nvcc's choice of another host compiler (-ccbin, --compiler-bindir). */
bool arg_is_nvcc_ccbin(const char *arg);
bool arg_is_mpi_library(const char *arg);
/* -lmemkind or a path of libmemkind.so: memkind's hbw_* functions (docs/memory.md) */
bool arg_is_memkind_library(const char *arg);
bool arg_is_memkind_archive(const char *arg);
/* the linker's -Bstatic state along the command (arg_link_state) */
#define LINK_STATE_MAX 16
struct link_state {
    bool bstatic;
    int depth;
    bool saved[LINK_STATE_MAX];
};
void arg_link_state(const char *arg, bool after_xlinker, struct link_state *st);

#endif
