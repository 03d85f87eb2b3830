/* SPDX-License-Identifier: BSD-3-Clause */
// xray_tool.cc: issue #20's XRay experiment (bench/run_compilers_bench.sh), not a scorep-rt
// feature: a minimal XRay "tool" that patches every sled at start and unpatches a function
// after XRAY_TOOL_CALLS (default 100000, SCOREP_THROTTLING_CALLS' default) entries, as a
// throttling through XRay would. What it measures: the cost of an XRay build whose hot
// functions are unpatched (the state a throttled or filtered function would be in), against
// the LLVM pass plugin's throttled check. Unpatched functions are no longer seen at all, so
// their further visits are lost: the tool prints how many entries it saw. Built with
// -DXRAY_TOOL_NO_PATCH it patches nothing: the floor of an XRay build.
#include <xray/xray_interface.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

namespace
{
const int32_t max_ids = 1 << 16;
uint64_t entries[max_ids];
uint64_t limit = 100000;
uint64_t seen;

void handler(int32_t id, XRayEntryType type)
{
    if (type != XRayEntryType::ENTRY || id < 0 || id >= max_ids)
        return;
    seen++;
    if (++entries[id] == limit)
        __xray_unpatch_function(id);
}

struct tool {
    tool()
    {
        const char *v = getenv("XRAY_TOOL_CALLS");
        if (v != nullptr && atol(v) > 0)
            limit = (uint64_t)atol(v);
        __xray_set_handler(handler);
#ifndef XRAY_TOOL_NO_PATCH // the floor: sleds never patched
        __xray_patch();
#endif
    }
    ~tool()
    {
        fprintf(stderr, "xray_tool: %llu entries seen\n", (unsigned long long)seen);
    }
} the_tool;
} // namespace
