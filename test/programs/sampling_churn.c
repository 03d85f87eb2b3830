/* sampling_churn.c: starts and joins 300 short threads one after another; with a sampling
 * source per thread, the sources of ended threads must be released. */
#include <pthread.h>
#include <stdio.h>

static volatile double sink;

static void *work(void *arg)
{
    (void)arg;
    for (int i = 0; i < 20000; i++)
        sink += i * 1e-9;
    return NULL;
}

int main(void)
{
    for (int i = 0; i < 300; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, work, NULL) != 0 || pthread_join(t, NULL) != 0) {
            printf("thread %d failed\n", i);
            return 1;
        }
    }
    printf("done\n");
    return 0;
}
