/* metric_read_cost.c: the cost of one raw counter read without the runtime, to compare with
 * the per-event cost of the metric sources: "ns_per_read <value>".
 * usage: metric_read_cost rusage|thread_cpu|papi:EVENT N */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

volatile long long sink_out; /* keeps the reads */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int papi_set(const char *event)
{
    int es = PAPI_NULL, code;
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT ||
        PAPI_event_name_to_code(event, &code) != PAPI_OK || PAPI_create_eventset(&es) != PAPI_OK ||
        PAPI_add_event(es, code) != PAPI_OK || PAPI_start(es) != PAPI_OK)
        return -1;
    return es;
}

int main(int argc, char **argv)
{
    const char *kind = argc > 1 ? argv[1] : "rusage";
    long n = argc > 2 ? atol(argv[2]) : 1000000L;
    int es = strncmp(kind, "papi:", 5) == 0 ? papi_set(kind + 5) : 0;
    if (es < 0) {
        printf("ns_per_read n/a\n");
        return 0;
    }
    long long sink = 0, v[1];
    struct rusage r;
    struct timespec t;
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        if (kind[0] == 'r') {
            getrusage(RUSAGE_THREAD, &r);
            sink += r.ru_minflt;
        } else if (kind[0] == 't') {
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
            sink += t.tv_nsec;
        } else {
            PAPI_read(es, v);
            sink += v[0];
        }
    }
    double t1 = now_ns();
    printf("ns_per_read %.3f\n", (t1 - t0) / (double)n);
    sink_out = sink;
    return 0;
}
