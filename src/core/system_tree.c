/* SPDX-License-Identifier: BSD-3-Clause */
/* system_tree.c: names of this process's place in the system tree. */
#include "core/system_tree.h"
#include "base/settings.h"

#include <unistd.h>

const char *scorep_machine_name(void)
{
    return scorep_cfg.machine_name && *scorep_cfg.machine_name ? scorep_cfg.machine_name : "Linux";
}

const char *scorep_node_name(void)
{
    static char host[256];
    if (scorep_cfg.node_name && *scorep_cfg.node_name)
        return scorep_cfg.node_name;
    if (!host[0] && gethostname(host, sizeof host - 1) != 0)
        return "localhost";
    return host;
}

const char *scorep_process_name(void)
{
    return "Process";
}
