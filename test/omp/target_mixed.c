/* SPDX-License-Identifier: BSD-3-Clause */
/* target_mixed.c: the other target constructs on the host device: enter data (x to the
 * device, y allocated there), a target teams region on x and y (present: nothing moves),
 * update from y, exit data (delete: nothing moves), a target nowait region on z[0:16] (128
 * bytes each way) and, from 2 threads, a target region on device(thread) with z[8t:8] (64
 * bytes each way, on devices 0 and 1). Prints the result and the number of devices. */
#include <omp.h>
#include <stdio.h>

#define N 4096
static double x[N], y[N], z[16];

int main(void)
{
    for (int i = 0; i < N; i++)
        x[i] = i;
#pragma omp target enter data map(to : x[0 : N]) map(alloc : y[0 : N]) /* ENTER */
#pragma omp target teams distribute parallel for num_teams(2) num_threads(2) /* TEAMS */
    for (int i = 0; i < N; i++)
        y[i] = x[i] + 1;
#pragma omp target update from(y[0 : N]) /* UPDATE */
#pragma omp target exit data map(delete : x[0 : N], y[0 : N]) /* EXIT */
#pragma omp target nowait map(tofrom : z[0 : 16]) /* NOWAIT */
    for (int i = 0; i < 16; i++)
        z[i] += 1;
#pragma omp taskwait
#pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
#pragma omp target device(t) map(tofrom : z[8 * t : 8]) /* DEVICE */
        for (int i = 0; i < 8; i++)
            z[8 * t + i] += 1;
    }
    double s = 0;
    for (int i = 0; i < 16; i++)
        s += z[i];
    printf("y %.0f z %.0f devices %d\n", y[0] + y[N - 1], s, omp_get_num_devices() >= 2 ? 2 : 1);
    return 0;
}
