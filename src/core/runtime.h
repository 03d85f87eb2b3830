/* runtime.h: measurement life cycle (init at load or first event, finalize at exit or on
 * SIGINT/SIGTERM), the effective configuration, and the runtime's messages. */
#ifndef SCOREP_RUNTIME_H
#define SCOREP_RUNTIME_H

#include "config/config.h"
#include "buffer/buffer.h"
#include "filter/filter.h"
#include "profile/profile.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    bool enable_profiling, enable_tracing, verbose;
    uint64_t total_memory, page_size;
    char *experiment_directory;
    bool overwrite_experiment_directory;
    char *machine_name, *node_name, *executable;
    bool system_tree_sequence;
    uint64_t timer;
    uint64_t max_callpath_depth;
    char *profiling_base_name;
    uint64_t profiling_format;
    char *filtering_file;
    uint64_t mpi_groups; /* SCOREP_MPI_ENABLE_GROUPS, bits of core/mpi_groups.h */
    uint64_t mpi_max_comms, mpi_max_windows, mpi_max_groups; /* accepted; no limit applies */
    bool mpi_memory_recording;
    uint64_t cuda_enable, cuda_buffer, cuda_buffer_chunk; /* CUDA adapter (cuda_features.h) */
    char *tracing_reduction;    /* SCOREP_TRACING_REDUCTION: order of the reduction steps */
    char *tracing_min_duration; /* SCOREP_TRACING_MIN_DURATION: shortest traced call */
    bool throttling;            /* SCOREP_THROTTLING: throttle compiler regions */
    uint64_t throttling_calls;  /* SCOREP_THROTTLING_CALLS */
    char *throttling_mean;      /* SCOREP_THROTTLING_MEAN: a duration */
    bool enable_unwinding;      /* src/sampling */
    char *sampling_events, *sampling_sep; /* src/sampling */
    /* metric sources (src/metrics) */
    char *metric_papi, *metric_papi_per_process, *metric_papi_sep;
    char *metric_perf, *metric_perf_per_process, *metric_perf_sep;
    char *metric_rusage, *metric_rusage_per_process, *metric_rusage_sep;
    char *metric_plugins, *metric_plugins_sep;
    bool io_posix; /* SCOREP_IO_POSIX: POSIX and ISO C I/O (src/adapters/io) */
} scorep_runtime_config;

enum { SCOREP_PROFILING_FORMAT_NONE, SCOREP_PROFILING_FORMAT_CUBE4 };

extern scorep_runtime_config scorep_cfg;
extern const scorep_cfg_var scorep_cfg_vars[];
extern const size_t scorep_cfg_n_vars;

/* The filter in effect (NULL when none). Read-only after init. */
extern scorep_filter *scorep_active_filter;

/* Gives a new location's trace buffer the configured reduction steps and thresholds. */
void scorep_runtime_setup_buffer(scorep_buffer *b);
/* Gives a new location's profile the throttling thresholds. */
void scorep_runtime_setup_profile(scorep_profile *p);
/* Parses a duration ("0", "10us", "2.5ms", "1s", "500ns"; no unit: ns) into ns. 0 or -1. */
int scorep_parse_duration(const char *s, double *ns);

/* Initialises the measurement once (thread-safe). Returns 1 when active. */
int scorep_runtime_init(void);
/* Adapters with their own buffers (CUDA activity records) register a function that
 * finalize calls first, while the locations can still take events. 0 or -1 (table full). */
int scorep_runtime_at_finalize(void (*fn)(void));
/* Writes all results; status is the program's exit status. Runs once. */
void scorep_runtime_finalize(int status);
/* The experiment directory (absolute path) once init has chosen it. */
const char *scorep_experiment_dir(void);
const char *scorep_program_name(void);
uint64_t scorep_program_begin_ts(void);

void scorep_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void scorep_warn_once(const char *msg);
void scorep_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints the message and exits with status 1 (bad configuration at start-up). */
void scorep_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* MPI runs: called by scorep_mpi_after_init once the ipc backend is MPI: rank 0 creates
 * the experiment directory and tells the others. */
void scorep_runtime_mpi_ready(void);
/* The collective finalize of an MPI run (from MPI_Finalize). */
void scorep_runtime_finalize_mpi(void);
/* true when the MPI adapter library is part of the program */
int scorep_runtime_mpi_mode(void);

/* Writers, called by finalize (profile_cube.c, trace_otf2.c), collective over the ipc
 * backend. 0 or -1 (message printed). */
struct scorep_unified_s;
int scorep_profile_write_cube(const char *path, const struct scorep_unified_s *u);
int scorep_trace_write_otf2(const char *dir, int exit_status, const struct scorep_unified_s *u);
/* Rank 0 after the trace is written: a Markdown section on what the trace lacks
 * (reductions, stops, rewinds), or NULL when it is complete. */
const char *scorep_trace_notes(void);

#endif
