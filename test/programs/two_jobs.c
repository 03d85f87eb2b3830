/* SPDX-License-Identifier: BSD-3-Clause */
/* two_jobs.c: test_experiment_dir.sh runs two of these at once with one
 * SCOREP_EXPERIMENT_DIRECTORY. "two_jobs NAME [GO]": with GO, waits until the file GO
 * exists; then calls alpha() or beta() (NAME) once and prints its name. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void alpha(void)
{
    puts("alpha");
}

static void beta(void)
{
    puts("beta");
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    for (int i = 0; argc > 2 && access(argv[2], F_OK) != 0 && i < 6000; i++)
        usleep(10000); /* 60 s at most */
    if (strcmp(argv[1], "alpha") == 0)
        alpha();
    else
        beta();
    return 0;
}
