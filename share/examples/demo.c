/* demo.c: the bundled example: a small heat-diffusion solver whose rows are split over
 * worker threads, with user regions for its phases and a parameter for the step size. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <scorep/SCOREP_User.h>

enum { N = 256, WORKERS = 4, STEPS = 60 };

typedef struct {
    double *cur, *next;
    int row_begin, row_end;
} slice;

static double stencil(const double *g, int i, int j)
{
    return 0.25 * (g[(i - 1) * N + j] + g[(i + 1) * N + j] + g[i * N + j - 1] + g[i * N + j + 1]);
}

static void relax_rows(const slice *s)
{
    for (int i = s->row_begin; i < s->row_end; i++)
        for (int j = 1; j < N - 1; j++)
            s->next[i * N + j] = stencil(s->cur, i, j);
}

static void *worker(void *arg)
{
    relax_rows(arg);
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

static void step(double *cur, double *next)
{
    pthread_t t[WORKERS];
    slice s[WORKERS];
    int rows = (N - 2) / WORKERS;
    for (int w = 0; w < WORKERS; w++) {
        s[w] = (slice){cur, next, 1 + w * rows, w == WORKERS - 1 ? N - 1 : 1 + (w + 1) * rows};
        pthread_create(&t[w], NULL, worker, &s[w]);
    }
    for (int w = 0; w < WORKERS; w++)
        pthread_join(t[w], NULL);
}

static void write_summary(const double *g, double r)
{
    printf("centre temperature %.6f, last residual %.3e\n", g[(N / 2) * N + N / 2], r);
}

int main(void)
{
    SCOREP_USER_REGION_DEFINE(solve)
    SCOREP_USER_METRIC_LOCAL(res_metric)
    SCOREP_USER_METRIC_INIT(res_metric, "residual", "K^2", SCOREP_USER_METRIC_TYPE_DOUBLE,
                            SCOREP_USER_METRIC_CONTEXT_GLOBAL)
    double *a = malloc(sizeof(double) * N * N), *b = malloc(sizeof(double) * N * N);
    if (!a || !b)
        return 1;
    SCOREP_USER_REGION_BY_NAME_BEGIN("setup", SCOREP_USER_REGION_TYPE_COMMON)
    init_grid(a);
    init_grid(b);
    SCOREP_USER_REGION_BY_NAME_END("setup")
    double r = 0;
    SCOREP_USER_REGION_BEGIN(solve, "solve", SCOREP_USER_REGION_TYPE_PHASE)
    SCOREP_USER_PARAMETER_INT64("steps", STEPS)
    for (int it = 0; it < STEPS; it++) {
        step(a, b);
        if (it % 10 == 9) {
            r = residual(a, b);
            SCOREP_USER_METRIC_DOUBLE(res_metric, r)
        }
        double *t = a;
        a = b;
        b = t;
    }
    SCOREP_USER_REGION_END(solve)
    write_summary(a, r);
    free(a);
    free(b);
    return 0;
}
