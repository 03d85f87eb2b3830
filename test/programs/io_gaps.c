/* SPDX-License-Identifier: BSD-3-Clause */
/* io_gaps.c: the I/O calls wrapped in session 21 (docs/io.md), each a known number of times
 * with known bytes, for test_io_gaps.sh. stdin must be a file holding "line one\nrest\n".
 * Output: one line of what the calls returned (printf), then a newline (putchar_unlocked).
 *
 * Most calls go through volatile function pointers, so that gcc calls them as written at
 * every optimization level (it turns fputs_unlocked of a constant into fwrite_unlocked, and
 * from -O1 on <stdio.h> inlines the character functions); fgets_unlocked and fread_unlocked
 * are called directly with sizes gcc cannot see, so that -D_FORTIFY_SOURCE=2 makes them
 * __fgets_unlocked_chk and __fread_unlocked_chk.
 *
 * posix_part (v.dat): pwritev2 of 4+6 bytes at 0, pwritev64 of 5 at 10, preadv2 of 4+4 at 0
 *   (8), preadv64 of 20 at 8 (7: the file has 15), preadv64v2 of 3 at 12 (3), pwritev64v2 of 2
 *   at 15 (file: 17 bytes): 3 writes of 17 bytes, 3 reads of 18.
 *   lockf F_LOCK, F_TEST, F_ULOCK, F_TLOCK, F_ULOCK and lockf64 F_LOCK, F_ULOCK on it: 3
 *   acquisitions and 3 releases (F_TEST: none); lockf F_TLOCK on a read-only descriptor of
 *   v.dat fails (EBADF): 1 try. select and pselect with a zero timeout once each; statx of
 *   v.dat once (size 17); opendir/closedir of "." (opendir's handle, since session 22, which
 *   closedir destroys) and fdopendir/closedir of a descriptor open() gave for "." (closedir
 *   destroys its handle).
 * isoc_part (s.txt, fopen "w+"): fputc_unlocked 'a', putc_unlocked 'b', fputs_unlocked "cdef\n",
 *   fwrite_unlocked "ghijk\n" (4 writes, 13 bytes), fflush_unlocked (1 flush); flockfile,
 *   ftrylockfile (recursive: acquired), a thread's ftrylockfile (busy: 1 try), funlockfile
 *   twice: 2 acquisitions, 2 releases, 1 try; rewind (seek to 0); fgetpos at 0;
 *   fgetc_unlocked 'a', getc_unlocked 'b', fgets_unlocked of 16 ("cdef\n": 5 bytes, 15
 *   requested), fread_unlocked of 4 (4) and of 10 (2: "k\n"), fgetc_unlocked at the end (EOF,
 *   0 bytes); fsetpos back to 0 (seek, offset 0); getc_unlocked twice (2 bytes); fgetpos64
 *   at 2, fsetpos64 to it (seek, offset 2): 8 reads of 15 bytes.
 * stdin: gets "line one" (9 bytes: the line and its newline), getchar_unlocked 'r' (1 byte).
 * inline_part (big.txt, a 4096-byte buffer of the program's): 10000 characters written with
 *   <stdio.h>'s putc_unlocked and read back with getc_unlocked until EOF. At -O1 and above
 *   these are inline: __overflow is called at the first character (it sets the buffer up,
 *   writes nothing) and when the buffer is full (characters 4097 and 8193: 4096 bytes each),
 *   fclose writes the last 1808 bytes (unrecorded: fclose is no write); __uflow at every
 *   refill (4096, 4096, 1808 bytes) and at the end of the file (0 bytes). At -O0 they are
 *   calls: 10000 putc_unlocked and 10001 getc_unlocked (the last at EOF). */
#define _GNU_SOURCE /* preadv2, statx, fdopendir, the _unlocked functions */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* C11 removed gets; glibc still exports it for old binaries */
extern char *gets(char *s);

static int (*volatile p_fputc_unlocked)(int, FILE *) = fputc_unlocked;
static int (*volatile p_putc_unlocked)(int, FILE *) = putc_unlocked;
static int (*volatile p_fputs_unlocked)(const char *, FILE *) = fputs_unlocked;
static size_t (*volatile p_fwrite_unlocked)(const void *, size_t, size_t, FILE *) = fwrite_unlocked;
static int (*volatile p_fflush_unlocked)(FILE *) = fflush_unlocked;
static int (*volatile p_fgetc_unlocked)(FILE *) = fgetc_unlocked;
static int (*volatile p_getc_unlocked)(FILE *) = getc_unlocked;
static int (*volatile p_getchar_unlocked)(void) = getchar_unlocked;
static int (*volatile p_putchar_unlocked)(int) = putchar_unlocked;
static volatile int sixteen = 16;
static volatile size_t four = 4, ten = 10;

static char out[512];
static size_t len;
#define SAY(...) (len += (size_t)snprintf(out + len, sizeof out - len, __VA_ARGS__))

static void posix_part(void)
{
    int fd = open("v.dat", O_CREAT | O_RDWR | O_TRUNC, 0644);
    char a[] = "abcd", b[] = "efghij", c[] = "klmno", d[] = "pq", r1[4], r2[4], r3[20], r4[3];
    struct iovec w2[2] = {{a, 4}, {b, 6}}, w1[1] = {{c, 5}}, w3[1] = {{d, 2}};
    struct iovec rv2[2] = {{r1, 4}, {r2, 4}}, rv1[1] = {{r3, 20}}, rv3[1] = {{r4, 3}};
    ssize_t n1 = pwritev2(fd, w2, 2, 0, 0);
    ssize_t n2 = pwritev64(fd, w1, 1, 10);
    ssize_t n3 = preadv2(fd, rv2, 2, 0, 0);
    ssize_t n4 = preadv64(fd, rv1, 1, 8);
    ssize_t n5 = preadv64v2(fd, rv3, 1, 12, 0);
    ssize_t n6 = pwritev64v2(fd, w3, 1, 15, 0);
    SAY("pv %zd %zd %zd %zd %zd %zd %.4s%.4s ", n1, n2, n3, n4, n5, n6, r1, r2);

    int l1 = lockf(fd, F_LOCK, 0);
    int l2 = lockf(fd, F_TEST, 0);
    int l3 = lockf(fd, F_ULOCK, 0);
    int l4 = lockf(fd, F_TLOCK, 0);
    int l5 = lockf(fd, F_ULOCK, 0);
    int l6 = lockf64(fd, F_LOCK, 0);
    int l7 = lockf64(fd, F_ULOCK, 0);
    int ro = open("v.dat", O_RDONLY);
    errno = 0;
    int l8 = lockf(ro, F_TLOCK, 0);
    SAY("lk %d %d %d %d %d %d %d %d %s ", l1, l2, l3, l4, l5, l6, l7, l8,
        errno == EBADF ? "EBADF" : "?");

    struct timeval tv = {0, 0};
    struct timespec ts = {0, 0};
    int s1 = select(0, NULL, NULL, NULL, &tv);
    int s2 = pselect(0, NULL, NULL, NULL, &ts, NULL);
    struct statx stx;
    int sx = statx(AT_FDCWD, "v.dat", 0, STATX_SIZE, &stx);
    SAY("sel %d %d statx %d %llu ", s1, s2, sx, (unsigned long long)stx.stx_size);

    DIR *d1 = opendir(".");
    int c1 = closedir(d1);
    int dfd = open(".", O_RDONLY | O_DIRECTORY);
    DIR *d2 = fdopendir(dfd);
    int c2 = closedir(d2);
    SAY("dir %d %d ", c1, c2);
    close(ro);
    close(fd);
}

static FILE *shared;
static int busy = -1;

static void *try_from_thread(void *arg)
{
    (void)arg;
    busy = ftrylockfile(shared); /* main holds the lock: nonzero */
    return NULL;
}

static void isoc_part(void)
{
    FILE *f = fopen("s.txt", "w+");
    p_fputc_unlocked('a', f);
    p_putc_unlocked('b', f);
    p_fputs_unlocked("cdef\n", f);
    p_fwrite_unlocked("ghijk\n", 1, 6, f);
    int fl = p_fflush_unlocked(f);

    shared = f;
    flockfile(f);
    int t1 = ftrylockfile(f);
    pthread_t th;
    pthread_create(&th, NULL, try_from_thread, NULL);
    pthread_join(th, NULL);
    funlockfile(f);
    funlockfile(f);
    SAY("| fl %d tl %d %d ", fl, t1, busy != 0);

    rewind(f);
    fpos_t p0;
    int g0 = fgetpos(f, &p0);
    char s[32] = "", r[32] = "";
    int ca = p_fgetc_unlocked(f);
    int cb = p_getc_unlocked(f);
    char *line = fgets_unlocked(s, sixteen, f);
    size_t k1 = fread_unlocked(r, 1, four, f);
    size_t k2 = fread_unlocked(r + 4, 1, ten, f);
    int end = p_fgetc_unlocked(f);
    int g1 = fsetpos(f, &p0);
    int cc = p_getc_unlocked(f);
    int cd = p_getc_unlocked(f);
    fpos64_t p2;
    int g2 = fgetpos64(f, &p2);
    int g3 = fsetpos64(f, &p2);
    r[5] = '\0';
    SAY("s %c%c %zu %s %zu %zu %d %c%c pos %d %d %d %d ", ca, cb, line ? strlen(line) : 0, r, k1,
        k2, end == EOF, cc, cd, g0, g1, g2, g3);
    fclose(f);

    char in[64];
    char *got = gets(in);
    int ch = p_getchar_unlocked();
    SAY("| in [%s] %c ", got ? in : "?", ch);
}

static char wbuf[4096], rbuf[4096];

static void inline_part(void)
{
    FILE *f = fopen("big.txt", "w");
    setvbuf(f, wbuf, _IOFBF, sizeof wbuf);
    for (int i = 0; i < 10000; i++)
        putc_unlocked('a' + i % 26, f);
    fclose(f);
    f = fopen("big.txt", "r");
    setvbuf(f, rbuf, _IOFBF, sizeof rbuf);
    long n = 0, sum = 0;
    int c;
    while ((c = getc_unlocked(f)) != EOF) {
        n++;
        sum += c;
    }
    fclose(f);
    SAY("| big %ld %ld", n, sum);
}

int main(void)
{
    posix_part();
    isoc_part();
    inline_part();
    fputs(out, stdout);
    p_putchar_unlocked('\n');
    return 0;
}
