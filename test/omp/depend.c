/* SPDX-License-Identifier: BSD-3-Clause */
/* depend.c: a diamond of tasks with depend clauses, created in a single region of 2 threads:
 * A (100 ms, out: a) -> B (200 ms, in: a, out: b) and C (50 ms, in: a, out: c) -> D (100 ms,
 * in: b, c); then one task with 64 depend items (an iterator over m[64]), and one task
 * construct run 3 times (30, 60, 90 ms: the profile's count, minimum and maximum). Prints the
 * addresses of a, b, c and m so that the test checks the trace's depend items against them,
 * and each task's own duration (a sleep may overrun its design on a loaded machine).
 * test_omp_depend.sh finds the constructs by the markers in comments. */
#include <stdio.h>
#include <time.h>

static double took[7]; /* seconds: the diamond's tasks, then the 3 repeats; each written by
                        * its task only */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void work(int which, int ms)
{
    double t0 = now();
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
    took[which] = now() - t0;
}

void task_a(void) { work(0, 100); }
void task_b(void) { work(1, 200); }
void task_c(void) { work(2, 50); }
void task_d(void) { work(3, 100); }

int main(void)
{
    int a = 0, b = 0, c = 0, m[64] = {0};
    printf("a=%p b=%p c=%p m=%p\n", (void *)&a, (void *)&b, (void *)&c, (void *)m);
#pragma omp parallel num_threads(2) shared(a, b, c, m) /* PAR */
    {
#pragma omp single
        {
#pragma omp task depend(out : a) /* A */
            task_a();
#pragma omp task depend(in : a) depend(out : b) /* B */
            task_b();
#pragma omp task depend(in : a) depend(out : c) /* C */
            task_c();
#pragma omp task depend(in : b, c) /* D */
            task_d();
#pragma omp taskwait
#pragma omp task depend(iterator(i = 0 : 64), inout : m[i]) /* MANY */
            m[0]++;
            for (int k = 1; k <= 3; k++) {
#pragma omp task firstprivate(k) /* REPEAT */
                work(3 + k, 30 * k);
            }
        }
    }
    printf("A=%.6f B=%.6f C=%.6f D=%.6f\n", took[0], took[1], took[2], took[3]);
    printf("R1=%.6f R2=%.6f R3=%.6f\n", took[4], took[5], took[6]);
    return 0;
}
