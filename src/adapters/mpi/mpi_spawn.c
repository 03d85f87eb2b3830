/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_spawn.c: MPI_Comm_spawn(_multiple) under scorep-run. Open MPI starts the spawned
 * processes from its daemons with mpirun's environment, which lacks scorep-run's LD_PRELOAD,
 * so they would run unmeasured. When this process was preloaded, the call starts them
 * through env(1) with this process's LD_PRELOAD (and NVTX_INJECTION64_PATH):
 *   command args...  ->  /usr/bin/env LD_PRELOAD=... command args...
 * env execs the command in the same process, which MPI_Init then finds as usual. (The
 * "env" info key would be Open MPI's own way, but it takes MPI_MAX_INFO_VAL, 256, bytes.) */
#include "adapters/mpi/mpi_hooks.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ENV_PROGRAM "/usr/bin/env"

/* the arrays of this thread's latest rewritten spawn: MPI has copied them when the call
 * returns, so the next spawn frees them */
static __thread void *kept;

/* "LD_PRELOAD=..." and "NVTX_INJECTION64_PATH=..." of this process, or NULL when it was
 * not started by scorep-run (the adapter linked into the program: the children are too) */
static int preload_settings(const char *out[2])
{
    const char *p = getenv("LD_PRELOAD");
    if (!p || !strstr(p, "libscorep-rt-mpi") || access(ENV_PROGRAM, X_OK) != 0)
        return 0;
    int n = 0;
    static const char *const names[] = {"LD_PRELOAD", "NVTX_INJECTION64_PATH"};
    extern char **environ;
    for (int k = 0; k < 2; k++)
        for (char **e = environ; e && *e; e++)
            if (strncmp(*e, names[k], strlen(names[k])) == 0 && (*e)[strlen(names[k])] == '=')
                out[n++] = *e;
    return n;
}

static int count_args(char **argv)
{
    int n = 0;
    while (argv && argv[n])
        n++;
    return n;
}

/* env's arguments for one command: the settings, the command, its arguments, NULL, built
 * in block (pointers only: the strings stay the program's and the environment's).
 * command must not look like an assignment or an option of env. */
static char **env_args(char **block, const char **set, int n_set, const char *command, char **argv)
{
    char **a = block;
    for (int k = 0; k < n_set; k++)
        *a++ = (char *)set[k];
    *a++ = (char *)command;
    for (int k = 0; argv && argv[k]; k++)
        *a++ = argv[k];
    *a = NULL;
    return block;
}

static int plain_command(const char *c)
{
    return c && c[0] != '-' && !strchr(c, '=');
}

void scorep_mpi_pre_spawn_env(scorep_mpi_frame *f, const char **command, char ***argv)
{
    (void)f;
    const char *set[2];
    int n_set = preload_settings(set);
    if (!n_set || !plain_command(*command))
        return;
    char **block = malloc((size_t)(n_set + count_args(*argv) + 2) * sizeof *block);
    if (!block)
        return; /* the children run unmeasured, the call goes on */
    free(kept);
    kept = block;
    *argv = env_args(block, set, n_set, *command, *argv);
    *command = ENV_PROGRAM;
}

void scorep_mpi_pre_spawn_multiple_env(scorep_mpi_frame *f, int count, char ***commands,
                                       char ****argvs)
{
    (void)f;
    const char *set[2];
    int n_set = preload_settings(set);
    if (!n_set || count <= 0)
        return;
    size_t words = 2 * (size_t)count; /* the new commands and argv arrays */
    for (int i = 0; i < count; i++) {
        if (!plain_command((*commands)[i]))
            return;
        words += (size_t)(n_set + count_args(*argvs ? (*argvs)[i] : NULL) + 2);
    }
    char **block = malloc(words * sizeof *block);
    if (!block)
        return;
    char **new_commands = block, ***new_argvs = (char ***)(block + count);
    char **at = block + 2 * (size_t)count;
    for (int i = 0; i < count; i++) {
        char **argv = *argvs ? (*argvs)[i] : NULL;
        new_argvs[i] = env_args(at, set, n_set, (*commands)[i], argv);
        at += n_set + count_args(argv) + 2;
        new_commands[i] = (char *)ENV_PROGRAM;
    }
    free(kept);
    kept = block;
    *commands = new_commands;
    *argvs = new_argvs;
}
