/* SPDX-License-Identifier: BSD-3-Clause */
/* io_edge.c: edge cases of I/O recording for test_io.sh: a descriptor opened before the
 * measurement (fd 3, given by the shell), fork and exec, and a program that closes its
 * standard output and keeps writing to it. Exit status 0 when every call behaved as without
 * measurement (the results go to edge.txt, the standard output is closed). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    char buf[64];
    ssize_t pre = read(3, buf, sizeof buf); /* input.txt, opened by the shell: 11 bytes */
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("child.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644);
        ssize_t n = write(fd, "from child\n", 11);
        close(fd);
        if (n != 11)
            _exit(3);
        execl("/bin/sh", "sh", "-c", "echo exec >exec.txt", (char *)NULL);
        _exit(4);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    int out = open("edge.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    close(1);
    errno = 0;
    ssize_t w = write(1, "lost\n", 5); /* -1, EBADF */
    int e = errno;
    int p = printf("also lost\n");
    int f = fflush(stdout); /* EOF: the descriptor is closed */
    dprintf(out, "pre %zd child %d w %zd %s printf %d fflush %d\n", pre,
            WIFEXITED(st) ? WEXITSTATUS(st) : -1, w, e == EBADF ? "EBADF" : "?", p, f);
    close(out);
    return 0;
}
