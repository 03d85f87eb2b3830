/* SPDX-License-Identifier: BSD-3-Clause */
/* nvtx_inject.c: NVTX's static injection point, linked by scorep-cc into every program it
 * links (libscorep-rt-nvtx-inject.a, whole), so that a program using NVTX records its ranges
 * without scorep-run and without NVTX_INJECTION64_PATH.
 *
 * NVTX is header-only: every translation unit that uses it holds a weak, zero
 * InitializeInjectionNvtx2_fnptr, and NVTX's loader calls it at the first NVTX call when no
 * NVTX_INJECTION64_PATH names a library (nvtx3/nvtxDetail/nvtxInit.h, "static injection").
 * This file gives the symbol its strong definition. Only then, at the program's first NVTX
 * call, the NVTX adapter (libscorep-rt-nvtx, beside libscorep-rt) is loaded and attached: a
 * program that never calls NVTX loads nothing and pays nothing; this pointer is never read. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVTX_ADAPTER "libscorep-rt-nvtx.so.0"

typedef const void *(*nvtx_get_export_table)(unsigned int);
typedef int (*nvtx_init_fn)(nvtx_get_export_table);

/* a function of libscorep-rt, which every program scorep-cc links has: its directory holds
 * the adapter (the installation's lib or the build tree's .libs) */
extern int scorep_runtime_at_finalize(void (*fn)(void));

/* the adapter beside libscorep-rt, by full path (the program's run path may not name it) */
static void *open_adapter(void)
{
    Dl_info info;
    char path[PATH_MAX];
    if (dladdr((void *)scorep_runtime_at_finalize, &info) && info.dli_fname &&
        strrchr(info.dli_fname, '/')) {
        int dir = (int)(strrchr(info.dli_fname, '/') - info.dli_fname);
        int n = snprintf(path, sizeof path, "%.*s/%s", dir, info.dli_fname, NVTX_ADAPTER);
        if (n > 0 && (size_t)n < sizeof path) {
            void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
            if (h)
                return h;
        }
    }
    return dlopen(NVTX_ADAPTER, RTLD_NOW | RTLD_GLOBAL);
}

/* NVTX's loader calls this once, at the program's first NVTX call */
static int load_adapter(nvtx_get_export_table get)
{
    /* the adapter's constructor names itself in NVTX_INJECTION64_PATH (for programs it is
     * linked into); here NVTX has already chosen, and the program's children must not
     * inherit a variable the user did not set */
    int had_variable = getenv("NVTX_INJECTION64_PATH") != NULL;
    void *h = open_adapter();
    if (!had_variable)
        unsetenv("NVTX_INJECTION64_PATH");
    if (!h) {
        fprintf(stderr, "[scorep-rt] NVTX: cannot load %s (%s): the program's NVTX ranges "
                        "are not recorded\n", NVTX_ADAPTER, dlerror());
        return 0; /* NVTX makes its calls no-ops */
    }
    nvtx_init_fn init = (nvtx_init_fn)dlsym(h, "InitializeInjectionNvtx2");
    return init ? init(get) : 0;
}

/* the strong definition NVTX's weak one binds to (C linkage, as nvtxInit.h declares it) */
nvtx_init_fn InitializeInjectionNvtx2_fnptr = load_adapter;
