/* substrate_more.c: OpenMP and user-API events for the substrate plugin test: 2 parallel
 * regions of 2 threads, each thread calls leaf once (leaf: 4 calls); 3 int parameters;
 * recording switched off around one more call of leaf (not delivered). */
#include <omp.h>
#include <stdio.h>
#include <scorep/SCOREP_User.h>

volatile int sink;

__attribute__((noinline)) void leaf(int i)
{
    sink += i;
}

int main(void)
{
    for (int r = 0; r < 2; r++) {
#pragma omp parallel num_threads(2)
        leaf(omp_get_thread_num());
    }
    for (int i = 0; i < 3; i++) {
        SCOREP_USER_PARAMETER_INT64("i", i)
    }
    SCOREP_RECORDING_OFF()
    leaf(9);
    SCOREP_RECORDING_ON()
    printf("sink %d\n", sink);
    return 0;
}
