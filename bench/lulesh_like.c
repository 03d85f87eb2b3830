/* SPDX-License-Identifier: BSD-3-Clause */
/* lulesh_like.c: the call-heavy benchmark of issue #9. A LULESH-shaped time-step loop over a
 * mesh whose element kernels are tiny, non-inlined calls: 4 x elements x steps of them
 * (10^8 by default). Prints "kernel_calls <n>", "loop_s <seconds>" and a checksum. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The mesh state: one value per element of each field (structure of arrays as in LULESH). */
struct mesh {
    long n;
    double *x, *v, *f, *e, *p;
};

volatile double bench_sink;

/* The kernels are what the compiler would inline; noinline keeps them separate calls as in
 * a build whose kernels live in other translation units, noclone keeps their names. */
__attribute__((noinline, noclone)) double calc_elem_force(double x, double p)
{
    return -p * x * 0.5;
}

__attribute__((noinline, noclone)) double calc_elem_velocity(double v, double f, double dt)
{
    return v + f * dt;
}

__attribute__((noinline, noclone)) double calc_elem_volume(double x, double v, double dt)
{
    return x + v * dt;
}

__attribute__((noinline, noclone)) double calc_elem_energy(double e, double p, double dx)
{
    return e - p * dx + 1e-9;
}

__attribute__((noinline)) static void lagrange_nodal(struct mesh *m, double dt)
{
    for (long i = 0; i < m->n; i++) {
        m->f[i] = calc_elem_force(m->x[i], m->p[i]);
        m->v[i] = calc_elem_velocity(m->v[i], m->f[i], dt);
    }
}

__attribute__((noinline)) static void lagrange_elements(struct mesh *m, double dt)
{
    for (long i = 0; i < m->n; i++) {
        double x = calc_elem_volume(m->x[i], m->v[i], dt);
        m->e[i] = calc_elem_energy(m->e[i], m->p[i], x - m->x[i]);
        m->x[i] = x;
        m->p[i] = 0.4 * m->e[i] / (x > 1e-6 ? x : 1e-6);
    }
}

__attribute__((noinline)) static double calc_time_constraints(const struct mesh *m)
{
    double vmax = 1e-12;
    for (long i = 0; i < m->n; i++)
        vmax = m->v[i] > vmax ? m->v[i] : (-m->v[i] > vmax ? -m->v[i] : vmax);
    double dt = 1e-3 / vmax;
    return dt < 1e-4 ? dt : 1e-4;
}

static int mesh_init(struct mesh *m, long n)
{
    m->n = n;
    double **fields[] = {&m->x, &m->v, &m->f, &m->e, &m->p};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        *fields[k] = calloc((size_t)n, sizeof(double));
        if (!*fields[k])
            return -1;
    }
    for (long i = 0; i < n; i++) {
        m->x[i] = 1.0 + (double)(i % 7) * 0.01;
        m->e[i] = i == 0 ? 1e3 : 1e-3; /* Sedov-like: energy deposited in one element */
        m->p[i] = 0.4 * m->e[i] / m->x[i];
    }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    long steps = argc > 1 ? atol(argv[1]) : 1000;
    long elems = argc > 2 ? atol(argv[2]) : 25000;
    if (steps <= 0 || elems <= 0) {
        fprintf(stderr, "usage: lulesh_like [STEPS [ELEMENTS]] (positive numbers)\n");
        return 2;
    }
    struct mesh m;
    if (mesh_init(&m, elems) != 0) {
        fprintf(stderr, "lulesh_like: out of memory for %ld elements\n", elems);
        return 1;
    }
    double t0 = now_s();
    for (long s = 0; s < steps; s++) {
        double dt = calc_time_constraints(&m);
        lagrange_nodal(&m, dt);
        lagrange_elements(&m, dt);
    }
    double t1 = now_s();
    double sum = 0;
    for (long i = 0; i < elems; i++)
        sum += m.e[i];
    bench_sink = sum;
    printf("kernel_calls %ld\nloop_s %.6f\nchecksum %.6g\n", 4 * steps * elems, t1 - t0, sum);
    return 0;
}
