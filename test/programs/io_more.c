/* SPDX-License-Identifier: BSD-3-Clause */
/* io_more.c: the I/O calls added to the wrappers after io_mixed.c, each a known number of
 * times with known bytes, for test_io_more.sh (the counts are in the comments; stdin must be
 * a file holding "7 8\nxy"). Output: "ok!" (putchar), then one line of what the calls
 * returned (printf).
 *
 * posix_part (m.dat): fcntl F_GETFL, F_SETFL O_APPEND (1 status change), F_DUPFD from 10 and
 *   F_DUPFD_CLOEXEC from 20 (2 duplications), fcntl on fd 99 (EBADF); dprintf 7 bytes on the first,
 *   dprintf 5 bytes on the first descriptor, vdprintf 3 bytes on the second duplicate (3 writes, 15 bytes);
 *   syncfs (1 flush), sync (1 flush of the proxy handle); stat, lstat, fstat, fstatat once
 *   each; gone.dat and gone2.dat created and deleted (unlink, unlinkat: 2 deletions), unlink
 *   of a missing file (ENOENT, no deletion).
 * isoc_part (c.txt): fputc 3 and putc 2 (5 writes of 1 byte); fgetc 5 (4 bytes and EOF),
 *   getc 2 (2 bytes), ungetc 1; putchar 4 on stdout ("ok!\n"); n.txt: fprintf of 13 bytes,
 *   fscanf 3 (the last one at the end: EOF) and vfscanf 1, all reads of unknown size;
 *   stdin: scanf 1 and vscanf 1 (unknown size), getchar 2 (2 bytes); remove of n.txt (1
 *   deletion, ISO C).
 * aio_part (a.dat): aio_write 100 (completed by aio_error, then aio_return), aio_read 100
 *   at 0 (completed by aio_return), aio_fsync (a flush, completed by aio_error), lio_listio
 *   LIO_WAIT of a write of 50 and a read of 100 (blocking), aio_cancel of nothing
 *   (AIO_ALLDONE); on a pipe, whose reads wait for data: two aio_read of 10 on the read
 *   end, the second cancelled while the first waits (1 IoOperationCancelled), aio_error of
 *   the first (1 IoOperationTest), lio_listio LIO_NOWAIT of a third read of 10 (queued
 *   behind the first: issued), putchar of a newline, a write of 20 bytes, the first read completed by aio_error
 *   and the third by aio_return, 10 bytes each.
 *   aio_suspend waits every time (it is a region only). */
#define _GNU_SOURCE /* syncfs */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int my_vdprintf(int fd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vdprintf(fd, fmt, ap);
    va_end(ap);
    return n;
}

static int my_vfscanf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfscanf(f, fmt, ap);
    va_end(ap);
    return n;
}

static int my_vscanf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vscanf(fmt, ap);
    va_end(ap);
    return n;
}

static char out[512];
static size_t len;
#define SAY(...) (len += (size_t)snprintf(out + len, sizeof out - len, __VA_ARGS__))

static void posix_part(void)
{
    int fd = open("m.dat", O_CREAT | O_RDWR | O_TRUNC, 0644);
    int fl = fcntl(fd, F_GETFL);
    int set = fcntl(fd, F_SETFL, fl | O_APPEND);
    int fd10 = fcntl(fd, F_DUPFD, 10);
    int fd20 = fcntl(fd, F_DUPFD_CLOEXEC, 20);
    errno = 0;
    int bad = fcntl(99, F_GETFL);
    SAY("fcntl %d %d %d %d %d %s ", (fl & O_ACCMODE) == O_RDWR, set, fd10 >= 10, fd20 >= 20, bad,
        errno == EBADF ? "EBADF" : "?");
    int a = dprintf(fd10, "%d-%s\n", 42, "abc");
    int b = dprintf(fd, "%05d", 7);
    int c = my_vdprintf(fd20, "%s", "xyz");
    SAY("dprintf %d %d %d ", a, b, c);
    SAY("syncfs %d ", syncfs(fd));
    sync();
    struct stat st;
    int s1 = stat("m.dat", &st), s2 = lstat("m.dat", &st), s3 = fstat(fd, &st);
    int s4 = fstatat(AT_FDCWD, "m.dat", &st, 0);
    SAY("stat %d %d %d %d %ld ", s1, s2, s3, s4, (long)st.st_size);
    close(fd20);
    close(fd10);
    close(fd);
    close(open("gone.dat", O_CREAT | O_WRONLY, 0644));
    close(open("gone2.dat", O_CREAT | O_WRONLY, 0644));
    int u1 = unlink("gone.dat"), u2 = unlinkat(AT_FDCWD, "gone2.dat", 0);
    errno = 0;
    int u3 = unlink("missing.dat");
    SAY("unlink %d %d %d %s ", u1, u2, u3, errno == ENOENT ? "ENOENT" : "?");
}

static void isoc_part(void)
{
    FILE *f = fopen("c.txt", "w+");
    fputc('a', f), fputc('b', f), fputc('c', f);
    putc('d', f), putc('e', f);
    rewind(f);
    char r[8];
    r[0] = (char)fgetc(f);
    r[1] = (char)fgetc(f);
    r[2] = (char)getc(f);
    r[3] = (char)getc(f);
    int u = ungetc(r[3], f);
    r[4] = (char)fgetc(f);
    r[5] = (char)fgetc(f);
    int eof = fgetc(f);
    r[6] = '\0';
    fclose(f);
    SAY("chars %s %c %d ", r, u, eof);
    putchar('o'), putchar('k'), putchar('!'), putchar('\n');
    f = fopen("n.txt", "w+");
    fprintf(f, "%d %d %s %d\n", 12, 34, "abc", 56);
    rewind(f);
    int x = 0, y = 0, z = 0, w = 0;
    char s[8] = "";
    int n1 = fscanf(f, "%d %d", &x, &y);
    int n2 = my_vfscanf(f, "%7s", s);
    int n3 = fscanf(f, "%d", &z);
    int n4 = fscanf(f, "%d", &w);
    fclose(f);
    SAY("fscanf %d %d %d %d %d %d %s %d ", n1, n2, n3, n4, x, y, s, z);
    int v1 = 0, v2 = 0;
    int m1 = scanf("%d", &v1);
    int m2 = my_vscanf("%d", &v2);
    int g1 = getchar(), g2 = getchar();
    SAY("scanf %d %d %d %d %d %c ", m1, m2, v1, v2, g1, g2);
    SAY("remove %d ", remove("n.txt"));
}

/* waits until cb is done (aio_suspend returns 0 once the one listed request completed) */
static void wait_for(const struct aiocb *cb)
{
    const struct aiocb *list[1] = {cb};
    while (aio_suspend(list, 1, NULL) != 0)
        ;
}

static void aio_part(void)
{
    static char wbuf[100], rbuf[100], lbuf[100], pbuf[3][10];
    memset(wbuf, 'w', sizeof wbuf);
    int fd = open("a.dat", O_CREAT | O_RDWR | O_TRUNC, 0644);
    struct aiocb cb;
    memset(&cb, 0, sizeof cb);
    cb.aio_fildes = fd, cb.aio_buf = wbuf, cb.aio_nbytes = 100, cb.aio_offset = 0;
    int q1 = aio_write(&cb);
    wait_for(&cb);
    int e1 = aio_error(&cb);
    long r1 = (long)aio_return(&cb);
    cb.aio_buf = rbuf;
    int q2 = aio_read(&cb);
    wait_for(&cb);
    long r2 = (long)aio_return(&cb);
    int q3 = aio_fsync(O_SYNC, &cb);
    wait_for(&cb);
    int e3 = aio_error(&cb);
    long r3 = (long)aio_return(&cb);
    SAY("aio %d %d %ld %d %ld %d %d %ld ", q1, e1, r1, q2, r2, q3, e3, r3);
    struct aiocb lw, lr;
    memset(&lw, 0, sizeof lw);
    memset(&lr, 0, sizeof lr);
    lw.aio_fildes = fd, lw.aio_buf = wbuf, lw.aio_nbytes = 50, lw.aio_offset = 100;
    lw.aio_lio_opcode = LIO_WRITE;
    lr.aio_fildes = fd, lr.aio_buf = lbuf, lr.aio_nbytes = 100, lr.aio_offset = 0;
    lr.aio_lio_opcode = LIO_READ;
    struct aiocb *list[2] = {&lw, &lr};
    int l1 = lio_listio(LIO_WAIT, list, 2, NULL);
    long lw1 = (long)aio_return(&lw), lr1 = (long)aio_return(&lr);
    int c0 = aio_cancel(fd, NULL);
    SAY("lio %d %ld %ld %d ", l1, lw1, lr1, c0 == AIO_ALLDONE);
    close(fd);
    /* on a pipe, whose reads wait for data: what is in progress is known */
    int p[2];
    if (pipe(p) != 0)
        return;
    struct aiocb pr[3];
    memset(pr, 0, sizeof pr);
    for (int i = 0; i < 3; i++)
        pr[i].aio_fildes = p[0], pr[i].aio_buf = pbuf[i], pr[i].aio_nbytes = 10;
    pr[2].aio_lio_opcode = LIO_READ;
    aio_read(&pr[0]);
    aio_read(&pr[1]); /* queued behind the first, which waits for data */
    int c1 = aio_cancel(p[0], &pr[1]);
    int pin = aio_error(&pr[0]); /* no data yet: in progress */
    struct aiocb *plist[1] = {&pr[2]};
    int l2 = lio_listio(LIO_NOWAIT, plist, 1, NULL); /* queued behind the first too */
    putchar('\n');                                   /* ISO C I/O beside the requests */
    ssize_t pw = write(p[1], "0123456789abcdefghij", 20);
    wait_for(&pr[0]);
    int pe0 = aio_error(&pr[0]), pe1 = aio_error(&pr[1]);
    long pr0 = (long)aio_return(&pr[0]);
    wait_for(&pr[2]);
    long pr2 = (long)aio_return(&pr[2]);
    SAY("pipe %d %d %d %ld %d %d %ld %ld", c1 == AIO_CANCELED, pin == EINPROGRESS, l2, (long)pw,
        pe0, pe1 == ECANCELED, pr0, pr2);
    close(p[0]);
    close(p[1]);
}

int main(void)
{
    posix_part();
    isoc_part();
    aio_part();
    printf("%s\n", out);
    return 0;
}
