/* SPDX-License-Identifier: BSD-3-Clause */
/* demo.c: the bundled example: a small heat-diffusion solver whose rows are split over a
 * pool of worker threads, with user regions for its phases, a parameter and a metric. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <scorep/SCOREP_User.h>

enum { N = 256, WORKERS = 4, STEPS = 200 };

typedef struct {
    double *grid[2];
    int row_begin, row_end;
} slice;

static pthread_barrier_t step_done;

static void relax_row(const double *cur, double *next, int i)
{
    for (int j = 1; j < N - 1; j++)
        next[i * N + j] = 0.25 * (cur[(i - 1) * N + j] + cur[(i + 1) * N + j] + cur[i * N + j - 1] +
                                  cur[i * N + j + 1]);
}

static void relax_slice(const slice *s, int it)
{
    const double *cur = s->grid[it % 2];
    double *next = s->grid[(it + 1) % 2];
    for (int i = s->row_begin; i < s->row_end; i++)
        relax_row(cur, next, i);
}

static void *worker(void *arg)
{
    for (int it = 0; it < STEPS; it++) {
        relax_slice(arg, it);
        pthread_barrier_wait(&step_done); /* all rows of this step are done */
        pthread_barrier_wait(&step_done); /* the main thread has looked at them */
    }
    return NULL;
}

static void init_grid(double *g)
{
    memset(g, 0, sizeof(double) * N * N);
    for (int j = 0; j < N; j++)
        g[j] = 100.0; /* hot top edge */
}

static double residual(const double *a, const double *b)
{
    double r = 0;
    for (int k = 0; k < N * N; k++)
        r += (a[k] - b[k]) * (a[k] - b[k]);
    return r;
}

static double mean(const double *g)
{
    double s = 0;
    for (int k = 0; k < N * N; k++)
        s += g[k];
    return s / (N * N);
}

int main(void)
{
    SCOREP_USER_REGION_DEFINE(solve)
    SCOREP_USER_METRIC_LOCAL(res_metric)
    SCOREP_USER_METRIC_INIT(res_metric, "residual", "K^2", SCOREP_USER_METRIC_TYPE_DOUBLE,
                            SCOREP_USER_METRIC_CONTEXT_GLOBAL)
    double *g[2] = {malloc(sizeof(double) * N * N), malloc(sizeof(double) * N * N)};
    if (!g[0] || !g[1])
        return 1;
    SCOREP_USER_REGION_BY_NAME_BEGIN("setup", SCOREP_USER_REGION_TYPE_COMMON)
    init_grid(g[0]);
    init_grid(g[1]);
    pthread_barrier_init(&step_done, NULL, WORKERS + 1);
    SCOREP_USER_REGION_BY_NAME_END("setup")

    SCOREP_USER_REGION_BEGIN(solve, "solve", SCOREP_USER_REGION_TYPE_PHASE)
    SCOREP_USER_PARAMETER_INT64("steps", STEPS)
    pthread_t t[WORKERS];
    slice s[WORKERS];
    int rows = (N - 2) / WORKERS;
    for (int w = 0; w < WORKERS; w++) {
        s[w] = (slice){{g[0], g[1]}, 1 + w * rows, w == WORKERS - 1 ? N - 1 : 1 + (w + 1) * rows};
        pthread_create(&t[w], NULL, worker, &s[w]);
    }
    double r = 0;
    for (int it = 0; it < STEPS; it++) {
        pthread_barrier_wait(&step_done);
        if (it % 20 == 19) {
            r = residual(g[0], g[1]);
            SCOREP_USER_METRIC_DOUBLE(res_metric, r)
        }
        pthread_barrier_wait(&step_done);
    }
    for (int w = 0; w < WORKERS; w++)
        pthread_join(t[w], NULL);
    SCOREP_USER_REGION_END(solve)

    printf("mean temperature %.6f, last residual %.3e\n", mean(g[STEPS % 2]), r);
    pthread_barrier_destroy(&step_done);
    free(g[0]);
    free(g[1]);
    return 0;
}
