/* SPDX-License-Identifier: BSD-3-Clause */
/* io_wide.c: the I/O calls wrapped in session 22, for test_io_wide.sh: the wide-character
 * stdio functions, opendir/fdopendir/readdir/readdir64/closedir and flock, each called a
 * known number of times with known characters (the comments give every count; a wide
 * character counts sizeof(wchar_t) = 4 bytes, docs/io.md). Expects the directory "d" (made
 * by the test) and "AB 5\n" on stdin; stdout is a wide stream. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <wchar.h>

static int vwrite(FILE *f, const wchar_t *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfwprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

static int vread(FILE *f, const wchar_t *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfwscanf(f, fmt, ap);
    va_end(ap);
    return n;
}

static void die(const char *what)
{
    perror(what);
    exit(1);
}

int main(void)
{
    if (!setlocale(LC_ALL, "C.UTF-8"))
        die("setlocale C.UTF-8");

    /* writes to w.txt: 4 characters (16 bytes), fputws 6 (24), fputws_unlocked 3 (12),
     * fwprintf "42 \u00e9t\u00e9\n" 7 (28), vfwprintf "v7\n" 3 (12): 92 bytes counted; the
     * file gets 25 (UTF-8: each \u00e9 is 2 bytes) */
    FILE *w = fopen("w.txt", "w");
    if (!w)
        die("fopen w.txt");
    fputwc(L'a', w);
    putwc(L'b', w);
    fputwc_unlocked(L'c', w);
    putwc_unlocked(L'd', w);
    fputws(L"hello\n", w);
    fputws_unlocked(L"xy\n", w);
    fwprintf(w, L"%d %ls\n", 42, L"\u00e9t\u00e9");
    vwrite(w, L"v%d\n", 7);
    fclose(w);

    /* reads back: fgetwc 5 times (a, d after ungetwc, the two newlines, WEOF: 16 bytes),
     * getwc, fgetwc_unlocked, getwc_unlocked 1 each (4 bytes each), fgetws "hello\n" (24),
     * fgetws_unlocked "xy\n" (12), fwscanf and vfwscanf (sizes unknown) */
    FILE *r = fopen("w.txt", "r");
    if (!r)
        die("fopen w.txt for reading");
    wchar_t s[64], t[64];
    wint_t c[4];
    c[0] = fgetwc(r);
    c[1] = getwc(r);
    c[2] = fgetwc_unlocked(r);
    c[3] = getwc_unlocked(r);
    ungetwc(c[3], r);
    wint_t again = fgetwc(r);
    /* a length the compiler does not know: with _FORTIFY_SOURCE the calls become
     * __fgetws_chk and __fgetws_unlocked_chk */
    volatile int len = 64;
    if (!fgetws(s, len, r) || !fgetws_unlocked(t, len, r))
        die("fgetws");
    int n42 = 0, n7 = 0;
    wchar_t word[16];
    int got = fwscanf(r, L"%d %15ls", &n42, word);
    wint_t nl1 = fgetwc(r);
    got += vread(r, L"v%d", &n7);
    wint_t nl2 = fgetwc(r);
    wint_t end = fgetwc(r);
    fclose(r);

    /* directories: "d" holds a1, name_of_ten, twenty_characters_xx (and . and ..): opendir,
     * readdir 6 times (5 entries, then the end), once more at the end, closedir; the same through
     * an open descriptor, fdopendir and readdir64 */
    int entries = 0, entries64 = 0;
    DIR *d = opendir("d");
    if (!d)
        die("opendir d");
    errno = 0;
    while (readdir(d))
        entries++;
    int dir_errno = errno;
    /* at the end once more, with errno set: readdir leaves it alone, and so must its wrapper
     * (7 readdir calls) */
    errno = ERANGE;
    int keep = !readdir(d) && errno == ERANGE;
    closedir(d);
    int dfd = open("d", O_RDONLY | O_DIRECTORY);
    DIR *d2 = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d2)
        die("fdopendir d");
    while (readdir64(d2))
        entries64++;
    closedir(d2);

    /* flock: shared, release, exclusive; another descriptor's LOCK_SH|LOCK_NB fails (a
     * try), release, its LOCK_EX|LOCK_NB succeeds; an invalid descriptor fails (no lock
     * record): 7 calls */
    int fd = open("lk", O_CREAT | O_RDWR, 0644);
    int fd2 = open("lk", O_RDONLY);
    if (fd < 0 || fd2 < 0)
        die("open lk");
    int l1 = flock(fd, LOCK_SH);
    int l2 = flock(fd, LOCK_UN);
    int l3 = flock(fd, LOCK_EX);
    int l4 = flock(fd2, LOCK_SH | LOCK_NB);
    int e4 = errno == EWOULDBLOCK;
    int l5 = flock(fd, LOCK_UN);
    int l6 = flock(fd2, LOCK_EX | LOCK_NB);
    int l7 = flock(-1, LOCK_EX);
    close(fd2);
    close(fd);

    /* stdin "AB 5\n": getwchar, getwchar_unlocked (4 bytes each), wscanf */
    wint_t a = getwchar();
    wint_t b = getwchar_unlocked();
    int five = 0;
    int got5 = wscanf(L"%d", &five);

    /* stdout: putwchar, putwchar_unlocked (4 bytes each), wprintf */
    putwchar(L'<');
    putwchar_unlocked(L'>');
    wprintf(L" %lc%lc%lc%lc%lc %ls %ls %d %d %d %d %d %d | dir %d %d %d %d | flock %d %d %d %d %d "
            L"%d %d "
            L"%d | in %lc%lc %d %d\n",
            (wint_t)c[0], (wint_t)c[1], (wint_t)c[2], (wint_t)c[3], again,
            wcschr(s, L'\n') ? L"s" : L"-", word, n42, n7, got, nl1 == L'\n' && nl2 == L'\n',
            end == WEOF, (int)wcslen(t), entries, entries64, dir_errno, keep, l1, l2, l3, l4, e4,
            l5, l6, l7, a, b, five, got5);
    return 0;
}
