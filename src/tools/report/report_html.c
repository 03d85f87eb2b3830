/* SPDX-License-Identifier: BSD-3-Clause */
/* report_html.c: assembles report.html: the page template of share/report with its style
 * sheet, script and the JSON data block inlined, so the page opens without a network. */
#include "report.h"
#include "report_assets.h"

#include <string.h>

/* Writes tmpl up to the marker "<!--@NAME@-->", returns what follows it (NULL: no marker). */
static const char *copy_until(FILE *out, const char *tmpl, const char *marker)
{
    const char *m = strstr(tmpl, marker);
    if (m == NULL)
        return NULL;
    fwrite(tmpl, 1, (size_t)(m - tmpl), out);
    return m + strlen(marker);
}

static int write_data(FILE *out, const report_expdir *x, char *err, size_t errlen)
{
    fputs("<script type=\"application/json\" id=\"report-data\">{\"version\":1", out);
    if (report_write_expdir(out, x) != 0)
        return -1;
    int prc = x->profile ? report_write_profile(out, x->profile, err, errlen) : 0;
    if (prc == -2 && x->trace) /* nothing of it written: the trace alone, as without one */
        fprintf(stderr, "scorep-report: warning: %s; the report shows the trace\n", err);
    else if (prc != 0)
        return -1;
    if (x->trace && report_write_trace(out, x->trace, err, errlen) != 0)
        return -1;
    if (x->scout && report_write_waits(out, x->scout, err, errlen) != 0)
        return -1;
    if (x->taskgraph && report_write_taskgraph(out, x->taskgraph, err, errlen) != 0)
        return -1;
    int io = x->trace ? report_write_io(out, x->trace, err, errlen) : 0;
    if (io == 0)
        io = report_write_io_summary(out, x->dir, err, errlen);
    if (io < 0)
        return -1;
    fputs("}</script>", out);
    return 0;
}

int report_write_html(FILE *out, const report_expdir *x, char *err, size_t errlen)
{
    const char *t = report_asset_html;
    t = copy_until(out, t, "<!--@STYLE@-->");
    if (t != NULL) {
        fprintf(out, "<style>\n%s</style>", report_asset_css);
        t = copy_until(out, t, "<!--@DATA@-->");
    }
    if (t != NULL) {
        if (write_data(out, x, err, errlen) != 0)
            return -1;
        t = copy_until(out, t, "<!--@SCRIPT@-->");
    }
    if (t == NULL) {
        snprintf(err, errlen, "the built-in page template lacks a marker (build error)");
        return -1;
    }
    fprintf(out, "<script>\n%s</script>", report_asset_js);
    fputs(t, out);
    return 0;
}
