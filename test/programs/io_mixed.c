/* SPDX-License-Identifier: BSD-3-Clause */
/* io_mixed.c: a known pattern of POSIX and ISO C I/O for test_io.sh (every byte count below
 * is asserted there). Runs in the current directory; prints a summary on stdout. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static char buf[4096];

static long posix_part(void)
{
    long total = 0;
    int fd = open("p.dat", O_CREAT | O_WRONLY | O_TRUNC, 0644);
    for (int i = 0; i < 7; i++) /* 7 x 512 = 3584 */
        total += write(fd, buf, 512);
    lseek(fd, 1024, SEEK_SET);
    total += write(fd, buf, 100); /* 8 writes, 3684 bytes */
    struct iovec iov[2] = {{buf, 10}, {buf, 20}};
    total += writev(fd, iov, 2); /* 30 */
    int fd2 = dup(fd);
    total += write(fd2, buf, 8); /* 9 writes, 3692 bytes; the file is 3584 long */
    close(fd2);
    close(fd);
    fd = open("p.dat", O_RDONLY);
    ssize_t n;
    while ((n = read(fd, buf, 1000)) > 0) /* 1000, 1000, 1000, 584, then 0: 5 reads */
        total += n;
    total += pread(fd, buf, 100, 0);    /* 100 */
    total += pread(fd, buf, 100, 3500); /* 84 */
    close(fd);
    return total;
}

static long isoc_part(void)
{
    long total = 0;
    FILE *f = fopen("c.txt", "w");
    total += (long)fwrite(buf, 8, 25, f) * 8; /* 200 */
    fputs("hello\n", f);                      /* 6 */
    fprintf(f, "%05d\n", 42);                 /* 6 */
    fseek(f, 0, SEEK_SET);
    total += (long)fwrite(buf, 1, 10, f); /* 10: 222 written, the file is 212 long */
    fflush(f);
    fclose(f);
    f = fopen("c.txt", "r");
    char line[100];
    if (fgets(line, sizeof line, f)) /* 99 (no newline in the first 99 bytes) */
        total += (long)strlen(line);
    total += (long)fread(buf, 1, 1000, f); /* 113 */
    fclose(f);
    return total;
}

int main(void)
{
    memset(buf, 'x', sizeof buf);
    long p = posix_part();
    long c = isoc_part();
    errno = 0;
    ssize_t bad = write(1000, buf, 8); /* not open: -1, EBADF */
    printf("posix %ld isoc %ld bad %zd %s\n", p, c, bad, errno == EBADF ? "EBADF" : "?");
    return 0;
}
