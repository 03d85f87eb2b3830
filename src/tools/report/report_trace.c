/* report_trace.c: the report's data from traces.otf2. NOT YET DONE: the timeline and the
 * per-pair message matrix come with the trace reader (src/tools/trace_model); until then the
 * report says that the trace is not read. */
#include "report.h"

int report_write_trace(FILE *out, const char *path, char *err, size_t errlen)
{
    (void)path;
    (void)err;
    (void)errlen;
    json_key(out, "trace_note", false);
    json_string(out, "scorep-report does not read traces yet");
    return 0;
}
