/* SPDX-License-Identifier: BSD-3-Clause */
/* tasks.c: explicit tasks in teams of 4 threads. One thread creates a chain of 20 tasks
 * linked by dependences (each reads the previous one's output), then 10 tasks that each
 * create 2 child tasks and wait for them, then waits for all: every one of these 50 tasks
 * calls task_body() once. Then, in another region, one task that sleeps 60 ms. */
#include <omp.h>
#include <stdio.h>
#include <unistd.h>

static int chain[21];

void task_body(int i)
{
    (void)i;
}

void sleeper(void)
{
    usleep(60000);
}

/* its own function: gcc gives a second parallel construct in one function no line entry */
void sleeping_task(void)
{
#pragma omp parallel num_threads(4) /* PAR_SLEEP */
    {
#pragma omp single /* SINGLE_SLEEP */
        {
#pragma omp task /* SLEEP_TASK */
            sleeper();
        }
    }
}

int main(void)
{
    int ok = 1;
    omp_set_dynamic(0);
#pragma omp parallel num_threads(4) /* PAR */
    {
#pragma omp single /* SINGLE */
        {
            for (int i = 1; i <= 20; i++) {
#pragma omp task depend(in : chain[i - 1]) depend(out : chain[i]) /* CHAIN */
                {
                    task_body(i);
                    chain[i] = chain[i - 1] + 1;
                }
            }
            for (int i = 0; i < 10; i++) {
#pragma omp task /* PARENT */
                {
                    task_body(100 + i);
                    for (int k = 0; k < 2; k++) {
#pragma omp task /* CHILD */
                        task_body(200 + k);
                    }
#pragma omp taskwait /* CHILD_WAIT */
                }
            }
#pragma omp taskwait /* ALL_WAIT */
            ok = chain[20] == 20;
        }
    }
    sleeping_task();
    printf("chain %s\n", ok ? "ok" : "broken");
    return !ok;
}
