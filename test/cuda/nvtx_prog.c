/* SPDX-License-Identifier: BSD-3-Clause */
/* nvtx_prog.c: NVTX annotations with known counts (test_nvtx.sh): pushed ranges nested in a
 * pushed range, started/ended ranges, marks, a wide-string range, a named domain with ASCII
 * and registered messages, and an Ex range with a wide message. NVTX is header-only
 * (nvtx3): without an injection every call is a no-op. With -DWITH_MPI the same on each
 * rank of an MPI run (test_cuda_mpi.sh). */
#include <nvtx3/nvToolsExt.h>

#ifdef WITH_MPI
#include <mpi.h>
#endif
#include <stdio.h>

/* noinline: a call path node of its own (the plugins leave a function inlined everywhere out) */
__attribute__((noinline)) static void domain_ranges(void)
{
    nvtxDomainHandle_t d = nvtxDomainCreateA("solver");
    nvtxStringHandle_t reg = nvtxDomainRegisterStringA(d, "registered step");
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = "iteration";
    for (int i = 0; i < 4; i++) {
        nvtxDomainRangePushEx(d, &a);
        nvtxDomainRangePop(d);
    }
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = reg;
    nvtxDomainRangePushEx(d, &a);
    nvtxDomainRangePop(d);
    nvtxDomainDestroy(d);
}

int main(int argc, char **argv)
{
#ifdef WITH_MPI
    MPI_Init(&argc, &argv);
#else
    (void)argc;
    (void)argv;
#endif
    nvtxRangePushA("outer");
    for (int i = 0; i < 3; i++) {
        nvtxRangePushA("inner");
        nvtxMarkA("tick");
        nvtxRangePop();
    }
    nvtxRangePop();
    for (int i = 0; i < 2; i++) {
        nvtxRangeId_t r = nvtxRangeStartA("started");
        nvtxRangeEnd(r);
    }
    nvtxRangePushW(L"wide \u03c0");
    nvtxRangePop();
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_UNICODE;
    a.message.unicode = L"ex wide";
    nvtxRangePushEx(&a);
    nvtxRangePop();
    domain_ranges();
#ifdef WITH_MPI
    MPI_Finalize();
#endif
    puts("nvtx done");
    return 0;
}
