/* SPDX-License-Identifier: BSD-3-Clause */
/* settings.h: the effective configuration (the SCOREP_* variables of the table in
 * base/settings.c). The runtime fills it at init; every layer reads it. */
#ifndef SCOREP_BASE_SETTINGS_H
#define SCOREP_BASE_SETTINGS_H

#include "config/config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    bool enable_profiling, enable_tracing, verbose;
    bool enable_analysis, analysis_trace_file; /* in-situ wait-state analysis (src/analysis) */
    uint64_t total_memory, page_size;
    char *experiment_directory;
    bool overwrite_experiment_directory;
    char *machine_name, *node_name, *executable;
    bool system_tree_sequence;
    uint64_t timer;
    uint64_t max_callpath_depth;
    char *profiling_base_name;
    uint64_t profiling_format;
    uint64_t profiling_cube_writer; /* SCOREP_PROFILING_CUBE_WRITER (profile_cube.c) */
    /* iteration clustering of dynamic regions (profile/profile_cluster.c) */
    bool profiling_enable_clustering;
    uint64_t profiling_cluster_count, profiling_clustering_mode;
    char *profiling_clustered_region;
    char *filtering_file;
    char *selective_config_file; /* SCOREP_SELECTIVE_CONFIG_FILE (adapters/user/user_selective.c) */
    uint64_t mpi_groups; /* SCOREP_MPI_ENABLE_GROUPS, bits of base/mpi_groups.h */
    uint64_t mpi_max_comms, mpi_max_windows, mpi_max_groups; /* accepted; no limit applies */
    bool mpi_memory_recording;
    bool mpi_time_local_calls;
    bool memory_recording; /* SCOREP_MEMORY_RECORDING (src/adapters/memory) */
    bool shmem_memory_recording; /* SCOREP_SHMEM_MEMORY_RECORDING (src/adapters/shmem) */
    /* SCOREP_LIBWRAP_PATH, _ENABLE, _ENABLE_SEP: used by scorep-run (docs/libwrap.md) */
    char *libwrap_path, *libwrap_enable, *libwrap_enable_sep;
    uint64_t cuda_enable, cuda_buffer, cuda_buffer_chunk, cuda_buffer_max,
        cuda_flush_period; /* CUDA adapter (cuda_features.h) */
    char *tracing_reduction;    /* SCOREP_TRACING_REDUCTION: order of the reduction steps */
    char *tracing_min_duration; /* SCOREP_TRACING_MIN_DURATION: shortest traced call */
    bool throttling;            /* SCOREP_THROTTLING: throttle compiler regions */
    uint64_t throttling_calls;  /* SCOREP_THROTTLING_CALLS */
    char *throttling_mean;      /* SCOREP_THROTTLING_MEAN: a duration */
    bool enable_unwinding;      /* src/sampling */
    bool tracing_convert_calling_context; /* SCOREP_TRACING_CONVERT_CALLING_CONTEXT_EVENTS */
    char *sampling_events, *sampling_sep; /* src/sampling */
    /* metric sources (src/metrics) */
    char *metric_papi, *metric_papi_per_process, *metric_papi_sep;
    char *metric_perf, *metric_perf_per_process, *metric_perf_sep;
    char *metric_rusage, *metric_rusage_per_process, *metric_rusage_sep;
    char *metric_plugins, *metric_plugins_sep;
    char *substrate_plugins, *substrate_plugins_sep;
    bool io_posix; /* SCOREP_IO_POSIX: POSIX and ISO C I/O (src/adapters/io) */
    uint64_t checkpoint_interval; /* SCOREP_CHECKPOINT_INTERVAL: seconds, 0 off (rescue.c) */
} scorep_runtime_config;

enum { SCOREP_PROFILING_FORMAT_NONE, SCOREP_PROFILING_FORMAT_CUBE4 };
enum { SCOREP_CUBE_WRITER_AUTO, SCOREP_CUBE_WRITER_GATHER, SCOREP_CUBE_WRITER_PARALLEL };

extern scorep_runtime_config scorep_cfg;
extern const scorep_cfg_var scorep_cfg_vars[];
extern const size_t scorep_cfg_n_vars;

#endif
