/* SPDX-License-Identifier: BSD-3-Clause */
/* zapp.c: a zlib user for test_libwrap.sh (a real system library's header): crc32 5 times,
 * compress, uncompress and zlibVersion once each. */
#include <stdio.h>
#include <string.h>
#include <zlib.h>

int main(void)
{
    static unsigned char src[4096], dst[8192], back[4096];
    memset(src, 'a', sizeof src);
    unsigned long crc = 0;
    for (int i = 0; i < 5; i++)
        crc = crc32(crc, src, sizeof src);
    uLongf dlen = sizeof dst, blen = sizeof back;
    if (compress(dst, &dlen, src, sizeof src) != Z_OK)
        return 1;
    if (uncompress(back, &blen, dst, dlen) != Z_OK || blen != sizeof src ||
        memcmp(src, back, sizeof src) != 0)
        return 2;
    printf("zlib %s crc %lu compressed %lu\n", zlibVersion(), crc, (unsigned long)dlen);
    return 0;
}
