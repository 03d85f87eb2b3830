/* SPDX-License-Identifier: BSD-3-Clause */
/* unwind_sites.c: one MPI function and one plain function each called from two lines of one
 * function, for test_unwind_sites.sh (SCOREP_ENABLE_UNWINDING: the trace's calling contexts
 * are per call site, as Score-P's). main -> solve -> exchange calls MPI_Allreduce at SITE_A
 * once and at SITE_B twice per call (US_K calls); main -> pair calls leaf at SITE_C once and
 * at SITE_D twice. The test finds the lines by their marker comments; keep each call on the
 * line of its marker. Run with 2 ranks. */
#include <mpi.h>
#include <stdio.h>

#define US_K 3

__attribute__((noinline)) int leaf(int x)
{
    return x * 3 + 1;
}

__attribute__((noinline)) void exchange(int *v)
{
    int out = 0;
    MPI_Allreduce(v, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* SITE_A */
    *v = out % 1000;
    for (int i = 0; i < 2; i++) {
        MPI_Allreduce(v, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD); /* SITE_B */
        *v = (out + i) % 1000;
    }
}

__attribute__((noinline)) void solve(int *v)
{
    for (int i = 0; i < US_K; i++)
        exchange(v);
}

__attribute__((noinline)) int pair(int x)
{
    x = leaf(x); /* SITE_C */
    for (int i = 0; i < 2; i++)
        x = leaf(x) % 1000; /* SITE_D */
    return x;
}

int main(int argc, char **argv)
{
    int rank = 0, size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "unwind_sites: needs 2 ranks, has %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int v = rank + 1;
    solve(&v);
    printf("rank %d: %d %d\n", rank, v, pair(v));
    MPI_Finalize();
    return 0;
}
