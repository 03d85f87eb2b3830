/* SPDX-License-Identifier: BSD-3-Clause */
/* argv.c: growing argument vectors of the instrumenter, their shell-quoted printing (--dry-run,
 * --verbose) and running them as child processes. */
#include "tools/instrumenter/argv.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *instr_prog = "scorep-cc";

void instr_die_nomem(void)
{
    fprintf(stderr, "%s: out of memory\n", instr_prog);
    exit(1);
}

void argv_push(struct argv_buf *a, const char *arg)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? 2 * a->cap : 32;
        a->v = realloc(a->v, a->cap * sizeof *a->v);
        if (a->v == NULL)
            instr_die_nomem();
    }
    a->v[a->n] = strdup(arg);
    if (a->v[a->n] == NULL)
        instr_die_nomem();
    a->v[++a->n] = NULL;
}

void argv_push_list(struct argv_buf *a, const char *const *list)
{
    for (; *list != NULL; list++)
        argv_push(a, *list);
}

void argv_push_joined(struct argv_buf *a, const char *prefix, const char *value)
{
    char *s;
    if (asprintf(&s, "%s%s", prefix, value) < 0)
        instr_die_nomem();
    argv_push(a, s);
    free(s);
}

void argv_push_words(struct argv_buf *a, const char *text)
{
    static const char blanks[] = " \t\n";
    while (text != NULL && *text != '\0') {
        text += strspn(text, blanks);
        size_t len = strcspn(text, blanks);
        if (len == 0)
            break;
        char *word = strndup(text, len);
        if (word == NULL)
            instr_die_nomem();
        argv_push(a, word);
        free(word);
        text += len;
    }
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

void argv_print(FILE *out, char *const *argv)
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

void argv_exec(char *const *argv)
{
    execvp(argv[0], argv);
    fprintf(stderr, "%s: cannot run '%s': %s\n", instr_prog, argv[0], strerror(errno));
    _exit(127);
}

/* Interrupts go to the child (same process group); the instrumenter outlives them so that
 * it can remove its temporary files. */
int argv_run(char *const *argv)
{
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old_int, old_quit;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    pid_t pid = fork();
    if (pid == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        argv_exec(argv);
    }
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        continue;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    if (pid < 0) {
        fprintf(stderr, "%s: cannot start '%s': %s\n", instr_prog, argv[0], strerror(errno));
        return 1;
    }
    return exit_status(status);
}

/* The output of a query (clang -dumpversion, nvcc --dryrun): the child's descriptor fd goes
 * to a pipe, its other output to /dev/null. Reads to the end (a full buffer keeps the
 * first size - 1 bytes); -1 when it cannot run or exits other than 0. */
ssize_t argv_capture(char *const *argv, int fd, char *buf, size_t size)
{
    int p[2];
    if (size == 0 || pipe(p) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, fd == 1 ? 2 : 1);
        dup2(p[1], fd);
        close(p[0]);
        close(p[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    size_t len = 0;
    for (;;) {
        char sink[512];
        bool room = len + 1 < size;
        ssize_t n = pid > 0 ? read(p[0], room ? buf + len : sink, room ? size - 1 - len : sizeof sink)
                            : 0;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        if (room)
            len += (size_t)n;
    }
    close(p[0]);
    buf[len] = '\0';
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        continue;
    return pid > 0 && exit_status(status) == 0 ? (ssize_t)len : -1;
}
