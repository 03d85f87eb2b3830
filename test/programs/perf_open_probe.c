/* SPDX-License-Identifier: BSD-3-Clause */
/* perf_open_probe.c: asks the kernel, without the runtime, whether this process may open a
 * sampling perf event of its own thread as the runtime's sampling does (user mode only, a
 * sample period): the tests of SCOREP_SAMPLING_EVENTS choose their path from this answer,
 * not from perf_event_paranoid and the user id, whose meaning differs between kernels
 * (Debian's 3 refuses everything to users, the mainline kernel treats 3 as 2) and
 * capabilities (root in a container without CAP_PERFMON).
 * Usage: perf_open_probe task_clock|cycles PERIOD; prints "ok" or "refused: <reason>". */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    if (argc != 3) {
        fprintf(stderr, "usage: %s task_clock|cycles PERIOD\n", argv[0]);
        return 2;
    }
    if (strcmp(argv[1], "task_clock") == 0) {
        a.type = PERF_TYPE_SOFTWARE;
        a.config = PERF_COUNT_SW_TASK_CLOCK;
    } else if (strcmp(argv[1], "cycles") == 0) {
        a.type = PERF_TYPE_HARDWARE;
        a.config = PERF_COUNT_HW_CPU_CYCLES;
    } else {
        fprintf(stderr, "%s: unknown event '%s'\n", argv[0], argv[1]);
        return 2;
    }
    a.sample_period = strtoull(argv[2], NULL, 10);
    a.disabled = 1;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.wakeup_events = 1;
    long fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0UL);
    if (fd < 0) {
        printf("refused: %s\n", strerror(errno));
        return 0;
    }
    close((int)fd);
    printf("ok\n");
    return 0;
}
