/* SPDX-License-Identifier: BSD-3-Clause */
/* profile_check_cases.c: writes one consistent Cube4 profile and copies of it with one
 * deliberate inconsistency each, for test_profile_check.sh (profile_check must reject them). */
#include "cube/cube.h"

#include <stdio.h>
#include <string.h>

enum { MAIN, FOO, PARAM_N, PARAM_PHASE, BAR, THREADS, WORKER, OUTER, INNER };

typedef struct {
    int visits, time, min, max;
} metric_ids;

typedef struct {
    int cnode, location;
    uint64_t visits;
    double time, min, max; /* time inclusive */
} row;

/* The good profile: main (loc 0) with foo, foo's parameter n=1 and under it phase=warm; a
 * pthread-like THREADS root with worker on loc 1; bar exists but was never visited. Nested
 * OpenMP teams: main/outer/inner; loc 0 forks both; loc 2 ran once in an outer team of 1 s
 * (its own inner team of 0.5 s inside) and then 4 times in inner teams of 1 s forked by other
 * threads, which are below outer, the fork's call path, on loc 2 too: outer there has 5 s in 1
 * visit of at most 1 s (as in Score-P), main 5 s in none. */
static const row good[] = {
    {MAIN, 0, 1, 20, 20, 20},         {FOO, 0, 2, 6, 2, 4},       {PARAM_N, 0, 2, 4, 1, 3},
    {PARAM_PHASE, 0, 2, 1, 0.5, 0.5}, {THREADS, 1, 1, 5, 5, 5},   {WORKER, 1, 1, 4, 4, 4},
    {OUTER, 0, 1, 3, 3, 3},           {INNER, 0, 5, 2, 0.4, 0.4}, {MAIN, 2, 0, 5, 0, 0},
    {OUTER, 2, 1, 5, 1, 1},           {INNER, 2, 5, 4.5, 0.5, 1},
};

static void define(cube_writer *w, metric_ids *m)
{
    m->visits =
        cube_writer_metric(w, -1, "visits", "Visits", CUBE_DTYPE_UINT64, "occ", "", CUBE_EXCLUSIVE);
    m->time =
        cube_writer_metric(w, -1, "time", "Time", CUBE_DTYPE_DOUBLE, "sec", "", CUBE_INCLUSIVE);
    m->min = cube_writer_metric(w, -1, "min_time", "Minimum Inclusive Time", CUBE_DTYPE_MINDOUBLE,
                                "sec", "", CUBE_EXCLUSIVE);
    m->max = cube_writer_metric(w, -1, "max_time", "Maximum Inclusive Time", CUBE_DTYPE_MAXDOUBLE,
                                "sec", "", CUBE_EXCLUSIVE);
    int r_main = cube_writer_region(w, "main", "main", "compiler", "function", "a.c", 1, 9, "");
    int r_foo = cube_writer_region(w, "foo", "foo", "compiler", "function", "a.c", 2, 3, "");
    int r_bar = cube_writer_region(w, "bar", "bar", "compiler", "function", "a.c", 4, 5, "");
    int r_thr =
        cube_writer_region(w, "THREADS", "THREADS", "measurement", "artificial", "", -1, -1, "");
    int r_wrk = cube_writer_region(w, "worker", "worker", "compiler", "function", "a.c", 6, 7, "");
    int r_out = cube_writer_region(w, "!$omp parallel @a.c:8", "!$omp parallel @a.c:8", "openmp",
                                   "code", "a.c", 8, 8, "");
    int r_in = cube_writer_region(w, "!$omp parallel @a.c:9", "!$omp parallel @a.c:9", "openmp",
                                  "parallel", "a.c", 9, 9, "");
    cube_writer_cnode(w, -1, r_main);
    cube_writer_cnode(w, MAIN, r_foo);
    cube_writer_cnode_param_int(w, FOO, r_foo, "n", 1);
    cube_writer_cnode_param_string(w, PARAM_N, r_foo, "phase", "warm");
    cube_writer_cnode(w, MAIN, r_bar);
    cube_writer_cnode(w, -1, r_thr);
    cube_writer_cnode(w, THREADS, r_wrk);
    cube_writer_cnode(w, MAIN, r_out);
    cube_writer_cnode(w, OUTER, r_in);
    int st = cube_writer_stnode(w, -1, "machine", "machine");
    int lg = cube_writer_locgroup(w, st, "process 0", 0, "process");
    cube_writer_location(w, lg, "thread 0", 0, "thread");
    cube_writer_location(w, lg, "thread 1", 1, "thread");
    cube_writer_location(w, lg, "thread 2", 2, "thread");
}

static void set_row(cube_writer *w, const metric_ids *m, const row *x)
{
    cube_writer_set_u64(w, m->visits, x->cnode, x->location, x->visits);
    cube_writer_set_double(w, m->time, x->cnode, x->location, x->time);
    cube_writer_set_double(w, m->min, x->cnode, x->location, x->min);
    cube_writer_set_double(w, m->max, x->cnode, x->location, x->max);
}

/* Each case changes the good profile by one row (cnode < 0: no change). */
static const struct {
    const char *name;
    row change;
} cases[] = {
    {"good", {-1, 0, 0, 0, 0, 0}},
    {"negative_exclusive", {MAIN, 0, 1, 8, 8, 8}},        /* main's 8 s < foo's 6 s + 3 s */
    {"time_without_visits", {BAR, 0, 0, 0.5, 0, 0}},      /* bar has time, never visited */
    {"min_above_max", {FOO, 0, 2, 6, 3.5, 3}},            /* min 3.5 > max 3 */
    {"thread_root_visits", {THREADS, 1, 2, 5, 2.5, 2.5}}, /* a thread counted twice */
    {"parameter_visits", {PARAM_N, 0, 3, 4, 1, 3}},       /* n set 3 times in 2 visits of foo */
    {"parameter_no_visits", {PARAM_N, 0, 0, 4, 0, 0}},    /* n's node without visits */
    {"max_below_own_time", {OUTER, 2, 1, 5, 0.25, 0.25}}, /* its own visit: 0.5 s at least */
    {"max_below_time", {FOO, 0, 2, 6, 2, 2.5}},           /* 2 visits, 6 s, none above 2.5 s */
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: profile_check_cases DIR\n");
        return 2;
    }
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cube_writer *w = cube_writer_new();
        metric_ids m;
        char path[4096], err[512];
        if (!w)
            return 1;
        define(w, &m);
        for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
            if (good[i].cnode != cases[c].change.cnode ||
                good[i].location != cases[c].change.location)
                set_row(w, &m, &good[i]);
        if (cases[c].change.cnode >= 0)
            set_row(w, &m, &cases[c].change);
        snprintf(path, sizeof path, "%s/%s.cubex", argv[1], cases[c].name);
        int rc = cube_writer_write(w, path, false, err, sizeof err);
        cube_writer_free(w);
        if (rc != 0) {
            fprintf(stderr, "profile_check_cases: %s: %s\n", path, err);
            return 1;
        }
    }
    return 0;
}
