/* SPDX-License-Identifier: BSD-3-Clause */
/* shmem_memory.c: symmetric heap allocations of known sizes on every PE, for
 * SCOREP_SHMEM_MEMORY_RECORDING (test_shmem_memory.sh): the OpenSHMEM 1.4 names and the old
 * ones (shmalloc, shmemalign, shrealloc, shfree), two blocks left allocated (leaks of 300
 * and 1280 bytes per PE). Prints "ok N" on PE 0 after every PE checked its blocks. */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

/* the old names are deprecated in OpenSHMEM 1.4 and declared by shmem-compat.h */
void *shmalloc(size_t size);
void *shmemalign(size_t align, size_t size);
void *shrealloc(void *ptr, size_t size);
void shfree(void *ptr);

static int bad;

static void check(const void *p, size_t align)
{
    bad += p == NULL || ((size_t)p % align) != 0;
}

int main(void)
{
    shmem_init();
    char *a = shmem_malloc(1000);
    check(a, 1);
    char *b = shmem_calloc(10, 30); /* 300 bytes, kept */
    check(b, 1);
    bad += b && b[299] != 0;
    char *c = shmem_align(64, 640);
    check(c, 64);
    memset(c, 7, 640);
    c = shmem_realloc(c, 1280); /* kept */
    check(c, 1);
    bad += c && c[639] != 7;
    shmem_free(a);
    char *d = shmalloc(200);
    check(d, 1);
    char *e = shmemalign(128, 384);
    check(e, 128);
    e = shrealloc(e, 512);
    check(e, 1);
    shfree(d);
    shfree(e);
    static int all_bad;
    shmem_int_atomic_add(&all_bad, bad, 0);
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("ok %d\n", all_bad == 0 ? shmem_n_pes() : -all_bad);
    shmem_finalize();
    return 0;
}
