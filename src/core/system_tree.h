/* SPDX-License-Identifier: BSD-3-Clause */
/* system_tree.h: where this process sits: machine -> node -> process (-> its locations). */
#ifndef SCOREP_SYSTEM_TREE_H
#define SCOREP_SYSTEM_TREE_H

const char *scorep_machine_name(void); /* SCOREP_MACHINE_NAME */
const char *scorep_node_name(void);    /* SCOREP_NODE_NAME or the host name */
const char *scorep_process_name(void); /* "Process" (later: "MPI Rank N") */

#endif
