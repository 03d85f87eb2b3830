/* SPDX-License-Identifier: BSD-3-Clause */
/* score_filter_gen.c: scorep-score -g (score_filter_gen.h). The heuristic is Score-P's:
 * a USR (or, on request, COM) region whose max_buf is at least bufferpercent% of the
 * run's max_buf, whose time per visit is at most timepervisit us, with at least `visits`
 * visits and bufferabsolute MiB of buffer. Communication, OpenMP, SHMEM, CUDA, pthread
 * and measurement regions are never listed (they are not USR/COM), nor MEASUREMENT OFF. */
#include "tools/score/score_filter_gen.h"
#include "tools/score/score_print.h"
#include "base/atomic_file.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void score_gen_defaults(score_gen_params *g)
{
    *g = (score_gen_params){1.0, 1.0, 0, 0.0, true, false};
}

static int parse_number(const char *v, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (*v == '\0' || *end != '\0' || errno != 0 || d < lo || d > hi)
        return -1;
    *out = d;
    return 0;
}

static int parse_type(const char *v, score_gen_params *g)
{
    if (strcmp(v, "usr") != 0 && strcmp(v, "com") != 0 && strcmp(v, "both") != 0)
        return -1;
    g->usr = strcmp(v, "com") != 0;
    g->com = strcmp(v, "usr") != 0;
    return 0;
}

/* One "key=value" item, already lower-cased and without blanks. */
static int parse_item(const char *key, const char *v, score_gen_params *g, char *err, size_t len)
{
    double d;
    if (strcmp(key, "bufferpercent") == 0 && parse_number(v, 0, 100, &g->buffer_percent) == 0)
        return 0;
    if (strcmp(key, "timepervisit") == 0 && parse_number(v, 0, 1e300, &g->time_per_visit) == 0)
        return 0;
    if (strcmp(key, "bufferabsolute") == 0 && parse_number(v, 0, 1e300, &g->buffer_absolute) == 0)
        return 0;
    if (strcmp(key, "visits") == 0 && strspn(v, "0123456789") == strlen(v) && *v &&
        parse_number(v, 0, 1.8e19, &d) == 0) {
        g->min_visits = strtoull(v, NULL, 10);
        return 0;
    }
    if (strcmp(key, "type") == 0 && parse_type(v, g) == 0)
        return 0;
    bool known = strcmp(key, "bufferpercent") == 0 || strcmp(key, "timepervisit") == 0 ||
                 strcmp(key, "bufferabsolute") == 0 || strcmp(key, "visits") == 0 ||
                 strcmp(key, "type") == 0;
    if (known)
        snprintf(err, len, "-g: invalid value '%s' for %s (%s)", v, key,
                 strcmp(key, "type") == 0            ? "usr, com or both"
                 : strcmp(key, "bufferpercent") == 0 ? "a number from 0 to 100"
                 : strcmp(key, "visits") == 0        ? "a non-negative integer"
                                                     : "a non-negative number");
    else
        snprintf(err, len,
                 "-g: unknown parameter '%s' (bufferpercent, timepervisit, visits, "
                 "bufferabsolute, type)",
                 key);
    return -1;
}

int score_gen_parse(const char *arg, score_gen_params *g, char *err, size_t errlen)
{
    char *s = malloc(strlen(arg) + 1), *o = s;
    if (s == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (const char *p = arg; *p; p++) /* Score-P forgives case and blanks */
        if (!isspace((unsigned char)*p))
            *o++ = (char)tolower((unsigned char)*p);
    *o = '\0';
    int rc = 0;
    for (char *save = NULL, *item = strtok_r(s, ",", &save); rc == 0 && item;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (eq == NULL) {
            snprintf(err, errlen, "-g: '%s' is not key=value", item);
            rc = -1;
        } else {
            *eq = '\0';
            rc = parse_item(item, eq + 1, g, err, errlen);
        }
    }
    free(s);
    return rc;
}

bool score_gen_candidate(const score_model *m, const score_row *w, const score_gen_params *g)
{
    if (w->visits == 0 || m->max_buf == 0 || w->flt == SCORE_FLT_YES ||
        strcmp(w->name, "MEASUREMENT OFF") == 0)
        return false;
    if (!((g->usr && w->type == SCORE_USR) || (g->com && w->type == SCORE_COM)))
        return false;
    double percent = 100.0 * (double)w->max_buf / (double)m->max_buf;
    double mib = (double)w->max_buf / (1024.0 * 1024.0);
    return percent >= g->buffer_percent && score_time_per_visit(w) <= g->time_per_visit &&
           w->visits >= g->min_visits && mib >= g->buffer_absolute;
}

/* Longest directory prefix shared by all region files that are paths ('' when there is
 * none); artificial regions name no directory (THREADS) and are left out. */
static size_t common_dir_prefix(const score_model *m, const char **first)
{
    size_t n = 0;
    *first = NULL;
    for (int i = 0; i < m->n_rows; i++) {
        const char *f = m->regions[i].file;
        if (f == NULL || strchr(f, '/') == NULL)
            continue;
        if (*first == NULL) {
            *first = f;
            n = strlen(f);
        }
        size_t k = 0;
        while (k < n && f[k] == (*first)[k])
            k++;
        n = k;
    }
    while (n > 0 && (*first)[n - 1] != '/')
        n--;
    return n;
}

/* Score-P's escaping of a name for the filter parser: blanks and fnmatch's specials. */
static void put_clean(FILE *f, const char *name)
{
    for (const char *p = name; *p; p++) {
        if (strchr(" []*!", *p))
            fputc('\\', f);
        fputc(*p, f);
    }
}

static void put_header(FILE *f, const score_gen_params *g, const char *prefix, size_t plen)
{
    fprintf(f,
            "# Initial filter file, starting point for further adaptation.\n#\n"
            "# Considerations:\n#  - check possible wildcard options\n"
            "#  - check selected functions for relevancy\n"
            "#    (w.r.t. your knowledge of the application)\n#\n"
            "# Generated with the following parameters:\n"
            "#  - A region has to use at least %g%% of the estimated trace buffer.\n"
            "#  - A region has to have a time/visits value of less than %g us.\n",
            g->buffer_percent, g->time_per_visit);
    if (g->min_visits > 0)
        fprintf(f, "#  - A region has to have at least %llu visits.\n",
                (unsigned long long)g->min_visits);
    if (g->buffer_absolute > 0)
        fprintf(f, "#  - A region has to use at least %gM of memory.\n", g->buffer_absolute);
    fprintf(f, "#  - A region that is of type %s.\n",
            g->usr && g->com ? "COM or USR"
            : g->usr         ? "USR"
                             : "COM");
    fprintf(f,
            "#\n# The file contains comments for each region providing additional information\n"
            "# regarding the respective region.\n# The common prefix for the files is:\n"
            "# '%.*s'\n#\n# Please refer to the Score-P user guide for more options on "
            "filtering.\nSCOREP_REGION_NAMES_BEGIN\n  EXCLUDE\n",
            (int)plen, prefix ? prefix : "");
}

static void put_entry(FILE *f, const score_model *m, const score_row *w, const score_widths *wd,
                      size_t plen)
{
    char b1[40], b2[40];
    double total = m->groups[SCORE_ALL].excl;
    fprintf(f,
            "    # type=%3s max_buf=%*s visits=%*s, time=%*.2fs (%5.1f%%), time/visit= %7.2fus\n"
            "    # name='%s'\n    # file='%s'\n    MANGLED ",
            score_type_name(w->type), wd->buf, score_grouped(w->max_buf, b1), wd->visits,
            score_grouped(w->visits, b2), wd->time, w->excl,
            total > 0 ? 100.0 * w->excl / total : 0.0, score_time_per_visit(w), w->name,
            strlen(w->file) >= plen ? w->file + plen : w->file);
    put_clean(f, w->mangled);
    fputs("\n\n", f);
}

static void put_entries(FILE *f, const score_model *m, const score_gen_params *g, size_t plen,
                        const char *filter_path, score_sort sort)
{
    score_row *rows = malloc(((size_t)m->n_rows + 1) * sizeof *rows);
    if (rows == NULL)
        return;
    memcpy(rows, m->regions, (size_t)m->n_rows * sizeof *rows);
    score_sort_rows(rows, (size_t)m->n_rows, sort);
    score_widths wd = score_table_widths(m);
    for (int i = 0; i < m->n_rows; i++)
        if (score_gen_candidate(m, &rows[i], g))
            put_entry(f, m, &rows[i], &wd, plen);
    if (filter_path) {
        fprintf(
            f,
            "\n\n    #==========================================================================\n"
            "    # Regions directly included from filter file provided by `-f`:\n"
            "    # '%s'\n\n",
            filter_path);
        for (int i = 0; i < m->n_rows; i++) {
            if (rows[i].flt != SCORE_FLT_YES)
                continue;
            fprintf(f, "    # name='%s'\n    # file='%s'\n    MANGLED ", rows[i].name,
                    strlen(rows[i].file) >= plen ? rows[i].file + plen : rows[i].file);
            put_clean(f, rows[i].mangled);
            fputs("\n\n", f);
        }
    }
    free(rows);
}

/* An existing file is moved to initial_scorep_<mtime>.filter (Score-P keeps it too). */
static int move_aside(char *moved, size_t len, char *err, size_t errlen)
{
    struct stat st;
    moved[0] = '\0';
    if (lstat(SCORE_FILTER_FILE, &st) != 0)
        return 0;
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", localtime(&st.st_mtime));
    for (int i = 0; i < 1000; i++) {
        snprintf(moved, len, "initial_scorep_%s%s%.0d.filter", stamp, i ? "_" : "", i);
        if (access(moved, F_OK) != 0)
            break;
    }
    if (rename(SCORE_FILTER_FILE, moved) == 0)
        return 0;
    snprintf(err, errlen, "cannot move the existing %s to %s: %s", SCORE_FILTER_FILE, moved,
             strerror(errno));
    return -1;
}

int score_gen_write(const score_model *m, const score_gen_params *g, const char *filter_path,
                    int sort, char *moved, size_t movedlen, char *err, size_t errlen)
{
    scorep_atomic_file af;
    err[0] = '\0';
    moved[0] = '\0';
    if (scorep_atomic_open(&af, SCORE_FILTER_FILE, SCOREP_ATOMIC_REMOVE_ON_SIGNAL, err,
                           errlen) != 0)
        return -1;
    const char *first;
    size_t plen = common_dir_prefix(m, &first);
    put_header(af.fp, g, first, plen);
    put_entries(af.fp, m, g, plen, filter_path, (score_sort)sort);
    fputs("SCOREP_REGION_NAMES_END\n", af.fp);
    /* the existing file is moved aside only once the new one is written completely */
    if (fflush(af.fp) != 0 || ferror(af.fp)) {
        snprintf(err, errlen, "%s: cannot write: %s", SCORE_FILTER_FILE, strerror(errno));
        scorep_atomic_abort(&af);
        return -1;
    }
    if (move_aside(moved, movedlen, err, errlen) != 0) {
        scorep_atomic_abort(&af);
        return -1;
    }
    return scorep_atomic_commit(&af, err, errlen);
}
