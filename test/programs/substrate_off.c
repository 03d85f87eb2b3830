/* SPDX-License-Identifier: BSD-3-Clause */
/* substrate_off.c: memory and I/O events while recording is on and off, for the substrate
 * plugin test (one thread). Recording on: malloc 100 (kept), open /dev/null, write 5.
 * Off: malloc 200, write 7, free of the 100 (not delivered; the bytes in use drop to 0).
 * On again: free of the 200 (allocated while off: not tracked, nothing delivered), malloc
 * 300 and free, write 9, close, printf of 9 bytes. So the plugin sees: alloc 100 (in use
 * 100), alloc 300 (300), free 300 (0); a handle created, writes of 5 and 9 bytes, the handle
 * destroyed, and the write of 9 bytes to stdout. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <scorep/SCOREP_User.h>

/* the bytes the writes take from (up to 9; the test counts bytes, not their content) */
static const char buf[16] = "0123456789abcde";
volatile char *keep; /* the compiler may not elide the allocations */

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0); /* stdio allocates no buffer */
    char *p = malloc(100);
    keep = p;
    int fd = open("/dev/null", O_WRONLY);
    ssize_t n = write(fd, buf, 5);
    SCOREP_RECORDING_OFF()
    char *q = malloc(200);
    keep = q;
    n += write(fd, buf, 7);
    free(p);
    SCOREP_RECORDING_ON()
    free(q);
    char *r = malloc(300);
    keep = r;
    memset(r, 1, 300);
    free(r);
    n += write(fd, buf, 9);
    close(fd);
    printf("wrote %zd\n", n);
    return 0;
}
