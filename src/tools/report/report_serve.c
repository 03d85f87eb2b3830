/* SPDX-License-Identifier: BSD-3-Clause */
/* report_serve.c: scorep-report --serve (issue #19): rank 0 serves a page on 127.0.0.1 from
 * which a browser explores a profile lazily: the call tree opens one level at a time (the
 * page's links name the call paths to show expanded), a call path's values per location,
 * and the regions with the most exclusive time. Every value comes from the distributed
 * Cube engine (src/cube/cube_engine.h), so under mpirun each process holds only its share
 * of the call paths; pages are rendered on the server (plain HTML, no script), which keeps
 * the page usable without JavaScript and testable with chromium --dump-dom.
 *
 *   GET /?open=C1,C2,...&metric=M   the call tree with the call paths C1, C2, ... expanded
 *   GET /locations?cnode=C&metric=M  the inclusive and exclusive value on every location
 *   GET /top?metric=M&n=N            the N regions with the most exclusive value of M
 *   GET /quit                        stops serving (tests, scripts) */
#include "report.h"
#include "cube/cube_engine.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct {
    cube_engine *e;
    const cube_reader *r;
    int metric;          /* the page's metric (default: time) */
    char *open;          /* per cnode: expanded */
    int *kid_off, *kids; /* children of each cnode in id order; roots under n_cnodes */
    FILE *out;
    bool failed; /* the engine lost a process: the server stops */
} page;

static void html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

static const char *cnode_name(const cube_reader *r, int c, char *buf, size_t len)
{
    const cube_cnode *n = &r->cnodes[c];
    if (n->param_name == NULL)
        return r->regions[n->region].name;
    if (n->param_string)
        snprintf(buf, len, "%s=%s", n->param_name, n->param_string);
    else
        snprintf(buf, len, "%s=%" PRId64, n->param_name, n->param_int);
    return buf;
}

/* The value of (metric, c) in a view summed over the locations, formatted. */
static void value_text(page *p, int metric, int c, cube_view view, char *buf, size_t len)
{
    uint64_t v = 0;
    if (cube_engine_value(p->e, metric, c, view, false, &v) != 0) {
        p->failed = true;
        snprintf(buf, len, "?");
        return;
    }
    cube_format_value(buf, len, p->r->metrics[metric].dtype, v);
}

static int build_children(page *p)
{
    int n = p->r->n_cnodes;
    p->kid_off = calloc((size_t)n + 3, sizeof(int));
    p->kids = malloc(((size_t)n + 1) * sizeof(int));
    if (!p->kid_off || !p->kids)
        return -1;
    for (int c = 0; c < n; c++) {
        int par = p->r->cnodes[c].parent;
        p->kid_off[(par < 0 ? n : par) + 2]++;
    }
    for (int k = 0; k <= n; k++)
        p->kid_off[k + 2] += p->kid_off[k + 1];
    for (int c = 0; c < n; c++) {
        int par = p->r->cnodes[c].parent;
        p->kids[p->kid_off[(par < 0 ? n : par) + 1]++] = c;
    }
    return 0;
}

/* One call path: its name, inclusive and exclusive value, a link that toggles it, its
 * children when it is open. Recursion depth = open depth (the user clicked each level). */
static void tree_node(page *p, int c)
{
    char buf[256], incl[64], excl[64];
    int nk = p->kid_off[c + 1] - p->kid_off[c];
    const char *name = cnode_name(p->r, c, buf, sizeof buf);
    value_text(p, p->metric, c, CUBE_VIEW_INCLUSIVE, incl, sizeof incl);
    value_text(p, p->metric, c, CUBE_VIEW_EXCLUSIVE, excl, sizeof excl);
    fprintf(p->out,
            "<li class=\"cnode\" data-cnode=\"%d\" data-open=\"%d\" data-children=\"%d\" "
            "data-incl=\"%s\" data-excl=\"%s\" data-name=\"",
            c, p->open[c], nk, incl, excl);
    html_text(p->out, name);
    fputs("\">", p->out);
    if (nk > 0) { /* the link opens c, or closes it: the open list with or without c */
        fprintf(p->out, "<a class=\"toggle\" href=\"/?metric=%d&amp;open=", p->metric);
        bool first = true;
        for (int k = 0; k < p->r->n_cnodes; k++)
            if (p->open[k] && k != c) {
                fprintf(p->out, "%s%d", first ? "" : ",", k);
                first = false;
            }
        if (!p->open[c])
            fprintf(p->out, "%s%d", first ? "" : ",", c);
        fprintf(p->out, "\">%s</a> ", p->open[c] ? "&#9662;" : "&#9656;");
    }
    html_text(p->out, name);
    fprintf(p->out,
            " <span class=\"incl\">%s</span> <span class=\"excl\">(%s)</span> "
            "<a href=\"/locations?metric=%d&amp;cnode=%d\">per location</a>",
            incl, excl, p->metric, c);
    if (p->open[c] && nk > 0 && !p->failed) {
        fputs("<ul>", p->out);
        for (int i = p->kid_off[c]; i < p->kid_off[c + 1] && !p->failed; i++)
            tree_node(p, p->kids[i]);
        fputs("</ul>", p->out);
    }
    fputs("</li>\n", p->out);
}

static void page_head(page *p, const char *title)
{
    fprintf(p->out, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>");
    html_text(p->out, title);
    fprintf(p->out,
            "</title><style>body{font-family:sans-serif}ul{list-style:none}"
            ".incl{font-weight:bold}</style></head><body data-status=\"ok\">"
            "<p><a href=\"/?metric=%d\">call tree</a> | <a href=\"/top?metric=%d\">top "
            "regions</a> | metric: ",
            p->metric, p->metric);
    for (int m = 0; m < p->r->n_metrics; m++)
        if (cube_engine_has_metric(p->e, m)) {
            fprintf(p->out, "<a href=\"/?metric=%d\">", m);
            html_text(p->out, p->r->metrics[m].uniq_name);
            fputs("</a> ", p->out);
        }
    fputs("</p>\n", p->out);
}

/* query value of key in q ("a=1&b=2"), copied into buf; NULL when absent */
static const char *query(const char *q, const char *key, char *buf, size_t len)
{
    size_t k = strlen(key);
    for (const char *s = q; s && *s;) {
        if (strncmp(s, key, k) == 0 && s[k] == '=') {
            size_t n = strcspn(s + k + 1, "&");
            if (n >= len)
                n = len - 1;
            memcpy(buf, s + k + 1, n);
            buf[n] = '\0';
            return buf;
        }
        s = strchr(s, '&');
        s = s ? s + 1 : NULL;
    }
    return NULL;
}

static int parse_int(const char *s, int lo, int hi, int dflt)
{
    char *end;
    long v = s ? strtol(s, &end, 10) : dflt;
    return s && (*end || end == s) ? -1 : v < lo || v > hi ? -1 : (int)v;
}

static int page_tree(page *p, const char *q)
{
    char open_buf[8192] = "";
    memset(p->open, 0, (size_t)p->r->n_cnodes);
    query(q, "open", open_buf, sizeof open_buf);
    for (char *save = NULL, *t = strtok_r(open_buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        int c = parse_int(t, 0, p->r->n_cnodes - 1, -1);
        if (c < 0)
            return -1;
        p->open[c] = 1;
    }
    page_head(p, "call tree");
    fputs("<h1>Call tree: ", p->out);
    html_text(p->out, p->r->metrics[p->metric].uniq_name);
    fputs(" (inclusive, exclusive in brackets, summed over all locations)</h1><ul id=\"tree\">",
          p->out);
    int n = p->r->n_cnodes;
    for (int i = p->kid_off[n]; i < p->kid_off[n + 1] && !p->failed; i++)
        tree_node(p, p->kids[i]);
    fputs("</ul></body></html>\n", p->out);
    return 0;
}

static int page_locations(page *p, const char *q)
{
    char buf[32], name[256];
    int c = parse_int(query(q, "cnode", buf, sizeof buf), 0, p->r->n_cnodes - 1, -1);
    if (c < 0)
        return -1;
    size_t L = (size_t)p->r->n_locations;
    uint64_t *incl = malloc((L + 1) * sizeof *incl), *excl = malloc((L + 1) * sizeof *excl);
    int rc = incl && excl &&
                     cube_engine_value(p->e, p->metric, c, CUBE_VIEW_INCLUSIVE, true, incl) == 0 &&
                     cube_engine_value(p->e, p->metric, c, CUBE_VIEW_EXCLUSIVE, true, excl) == 0
                 ? 0
                 : -1;
    if (rc == 0) {
        page_head(p, "per location");
        fputs("<h1>", p->out);
        html_text(p->out, cnode_name(p->r, c, name, sizeof name));
        fputs(": per location</h1><table id=\"locations\"><tr><th>location</th><th>process</th>"
              "<th>inclusive</th><th>exclusive</th></tr>\n",
              p->out);
        cube_dtype t = p->r->metrics[p->metric].dtype;
        for (size_t l = 0; l < L; l++) {
            char a[64], b[64];
            const cube_location *loc = &p->r->locations[l];
            cube_format_value(a, sizeof a, t, incl[l]);
            cube_format_value(b, sizeof b, t, excl[l]);
            fprintf(p->out,
                    "<tr class=\"loc\" data-location=\"%zu\" data-incl=\"%s\" "
                    "data-excl=\"%s\"><td>",
                    l, a, b);
            html_text(p->out, loc->name);
            fputs("</td><td>", p->out);
            html_text(p->out, p->r->locgroups[loc->locgroup].name);
            fprintf(p->out, "</td><td>%s</td><td>%s</td></tr>\n", a, b);
        }
        fputs("</table></body></html>\n", p->out);
    } else {
        p->failed = true;
    }
    free(incl);
    free(excl);
    return rc;
}

typedef struct {
    int region;
    double value;
} region_value;

static int by_value(const void *a, const void *b)
{
    const region_value *x = a, *y = b;
    return x->value < y->value ? 1 : x->value > y->value ? -1 : x->region - y->region;
}

/* Exclusive value per region: every call path asked once (aggregated by its owner). */
static int page_top(page *p, const char *q)
{
    char buf[32];
    int n = parse_int(query(q, "n", buf, sizeof buf), 1, 100000, 10);
    if (n < 0)
        return -1;
    region_value *v = calloc((size_t)p->r->n_regions + 1, sizeof *v);
    if (v == NULL)
        return -1;
    for (int g = 0; g < p->r->n_regions; g++)
        v[g].region = g;
    cube_dtype t = p->r->metrics[p->metric].dtype;
    for (int c = 0; c < p->r->n_cnodes && !p->failed; c++) {
        uint64_t x = 0;
        if (cube_engine_value(p->e, p->metric, c, CUBE_VIEW_EXCLUSIVE, false, &x) != 0)
            p->failed = true;
        v[p->r->cnodes[c].region].value += cube_value_to_double(t, x);
    }
    qsort(v, (size_t)p->r->n_regions, sizeof *v, by_value);
    page_head(p, "top regions");
    fputs("<h1>Regions by exclusive ", p->out);
    html_text(p->out, p->r->metrics[p->metric].uniq_name);
    fputs("</h1><ol id=\"top\">\n", p->out);
    for (int i = 0; i < n && i < p->r->n_regions; i++) {
        fprintf(p->out, "<li class=\"top\" data-value=\"%.9g\" data-name=\"", v[i].value);
        html_text(p->out, p->r->regions[v[i].region].name);
        fputs("\">", p->out);
        html_text(p->out, p->r->regions[v[i].region].name);
        fprintf(p->out, " %.9g</li>\n", v[i].value);
    }
    fputs("</ol></body></html>\n", p->out);
    free(v);
    return 0;
}

static void respond(int fd, int status, const char *type, const char *body, size_t len)
{
    char head[256];
    int n = snprintf(head, sizeof head,
                     "HTTP/1.0 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                     "Cache-Control: no-store\r\nConnection: close\r\n\r\n",
                     status,
                     status == 200   ? "OK"
                     : status == 404 ? "Not Found"
                                     : "Bad Request",
                     type, len);
    if (write(fd, head, (size_t)n) == n && len)
        (void)!write(fd, body, len);
}

/* One request on fd; 1 when the client asked to quit. */
static int handle(page *p, int fd)
{
    char req[8192];
    ssize_t got = 0, k;
    while (got < (ssize_t)sizeof req - 1 && (k = read(fd, req + got, sizeof req - 1 - got)) > 0) {
        got += k;
        req[got] = '\0';
        if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n"))
            break;
    }
    if (got <= 0)
        return 0; /* a connection closed without a request (a browser's spare one) */
    req[got] = '\0';
    char path[4096] = "";
    if (sscanf(req, "GET %4095s", path) != 1) {
        respond(fd, 400, "text/plain", "bad request\n", 12);
        return 0;
    }
    char *q = strchr(path, '?');
    if (q)
        *q++ = '\0';
    if (strcmp(path, "/quit") == 0) {
        respond(fd, 200, "text/plain", "bye\n", 4);
        return 1;
    }
    char mbuf[32];
    int m = parse_int(query(q, "metric", mbuf, sizeof mbuf), 0, p->r->n_metrics - 1, p->metric);
    char *body = NULL;
    size_t len = 0;
    p->out = open_memstream(&body, &len);
    int rc = -1;
    if (p->out && m >= 0 && cube_engine_has_metric(p->e, m)) {
        int keep = p->metric;
        p->metric = m;
        rc = !strcmp(path, "/")            ? page_tree(p, q)
             : !strcmp(path, "/locations") ? page_locations(p, q)
             : !strcmp(path, "/top")       ? page_top(p, q)
                                           : -2;
        p->metric = keep;
    }
    if (p->out)
        fclose(p->out);
    if (rc == 0 && !p->failed)
        respond(fd, 200, "text/html; charset=utf-8", body, len);
    else if (rc == -2)
        respond(fd, 404, "text/plain", "no such page\n", 13);
    else
        respond(fd, 400, "text/plain", "bad query\n", 10);
    free(body);
    return p->failed ? 1 : 0;
}

int report_serve(cube_engine *e, int port, char *err, size_t errlen)
{
    page p = {e, cube_engine_defs(e), 0, NULL, NULL, NULL, NULL, false};
    int time = cube_reader_metric_by_name(p.r, "time");
    p.metric = time >= 0 && cube_engine_has_metric(e, time) ? time : 0;
    while (p.metric < p.r->n_metrics && !cube_engine_has_metric(e, p.metric))
        p.metric++;
    p.open = calloc((size_t)p.r->n_cnodes + 1, 1);
    signal(SIGPIPE, SIG_IGN); /* a browser that goes away must not end the server */
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1, rc = -1;
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* localhost only: no one else may ask */
    socklen_t alen = sizeof a;
    if (p.open == NULL || build_children(&p) != 0 || s < 0 ||
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 16) != 0 ||
        getsockname(s, (struct sockaddr *)&a, &alen) != 0) {
        snprintf(err, errlen, "cannot serve on 127.0.0.1:%d: %s", port, strerror(errno));
    } else {
        printf("scorep-report: serving http://127.0.0.1:%d/ (GET /quit stops)\n",
               ntohs(a.sin_port));
        fflush(stdout);
        /* browsers open connections ahead of time and leave them idle: wait for the one
         * that has a request instead of reading the first accepted */
        enum { MAX_CLIENTS = 64 };
        struct pollfd fds[MAX_CLIENTS + 1];
        int n = 1;
        fds[0] = (struct pollfd){s, POLLIN, 0};
        for (int quit = 0; !quit;) {
            if (poll(fds, (nfds_t)n, -1) < 0) {
                if (errno == EINTR)
                    continue;
                snprintf(err, errlen, "poll: %s", strerror(errno));
                break;
            }
            for (int i = n - 1; i >= 1 && !quit; i--)
                if (fds[i].revents) {
                    quit = handle(&p, fds[i].fd);
                    close(fds[i].fd);
                    fds[i] = fds[--n];
                }
            if (fds[0].revents & POLLIN) {
                int c = accept(s, NULL, NULL);
                if (c >= 0 && n <= MAX_CLIENTS)
                    fds[n++] = (struct pollfd){c, POLLIN, 0};
                else if (c >= 0)
                    close(c);
            }
        }
        for (int i = 1; i < n; i++)
            close(fds[i].fd);
        rc = p.failed ? -1 : 0;
        if (p.failed)
            snprintf(err, errlen, "a process of the engine failed");
    }
    if (s >= 0)
        close(s);
    free(p.open);
    free(p.kid_off);
    free(p.kids);
    return rc;
}
