/* otf2_read_guard.c: OTF2 read sessions whose errors are kept, not printed (the trace
 * readers of the tools, the report and the analysis share it). */
#include "trace/otf2_read_guard.h"

#include <malloc.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char first_error[256];
static OTF2_ErrorCallback previous;

static OTF2_ErrorCode keep_error(void *u, const char *file, uint64_t line, const char *func,
                                 OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)u;
    (void)file;
    (void)line;
    (void)func;
    if (!first_error[0]) {
        int n = snprintf(first_error, sizeof first_error, "%s", OTF2_Error_GetDescription(code));
        if (fmt && *fmt && n > 0 && (size_t)n + 3 < sizeof first_error) {
            strcat(first_error, ": ");
            vsnprintf(first_error + n + 2, sizeof first_error - (size_t)n - 2, fmt, va);
        }
    }
    return code;
}

void otf2_read_guard_begin(void)
{
    first_error[0] = '\0';
    /* OTF2 3.0 reads a truncated chunk's header from its chunk buffer past the bytes the file
     * had: on zeroed memory it reports "no chunk header", on reused heap memory (after a
     * program freed large blocks, glibc serves 1 MiB from the heap) it may take garbage for a
     * header and read forever. A fixed mmap threshold keeps the chunk buffers fresh, zeroed
     * pages from the kernel. */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    previous = OTF2_Error_RegisterCallback(keep_error, NULL);
}

void otf2_read_guard_end(void)
{
    OTF2_Error_RegisterCallback(previous, NULL);
}

const char *otf2_read_guard_error(void)
{
    return first_error;
}

void otf2_read_guard_clear(void)
{
    first_error[0] = '\0';
}
