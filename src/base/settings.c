/* SPDX-License-Identifier: BSD-3-Clause */
/* settings.c: the table of SCOREP_* variables this runtime understands (settings.h). */
#include "base/mpi_groups.h"
#include "base/settings.h"
#include "base/cuda_features.h"

scorep_runtime_config scorep_cfg;

static const scorep_cfg_choice timers[] = {
    {"tsc", 0}, {"clock_gettime", 1}, {"gettimeofday", 2}, {NULL, 0}};
static const scorep_cfg_choice formats[] = {{"none", SCOREP_PROFILING_FORMAT_NONE},
                                            {"cube4", SCOREP_PROFILING_FORMAT_CUBE4},
                                            {"default", SCOREP_PROFILING_FORMAT_CUBE4},
                                            {NULL, 0}};
static const scorep_cfg_choice cube_writers[] = {{"auto", SCOREP_CUBE_WRITER_AUTO},
                                                 {"gather", SCOREP_CUBE_WRITER_GATHER},
                                                 {"parallel", SCOREP_CUBE_WRITER_PARALLEL},
                                                 {NULL, 0}};

/* Score-P's names "none/0", "subtree/1", ...: either spelling */
static const scorep_cfg_choice clustering_modes[] = {
    {"none", 0},           {"0", 0}, {"subtree", 1},    {"1", 1},
    {"subtree_visits", 2}, {"2", 2}, {"mpi", 3},        {"3", 3},
    {"mpi_visits", 4},     {"4", 4}, {"mpi_visits_all", 5}, {"5", 5},
    {NULL, 0}};

const scorep_cfg_choice scorep_mpi_group_choices[] = {
    {"all", SCOREP_MPI_GROUPS_ALL},      {"cg", SCOREP_MPI_G_CG},
    {"coll", SCOREP_MPI_G_COLL},         {"default", SCOREP_MPI_GROUPS_DEFAULT},
    {"env", SCOREP_MPI_G_ENV},           {"err", SCOREP_MPI_G_ERR},
    {"ext", SCOREP_MPI_G_EXT},           {"io", SCOREP_MPI_G_IO},
    {"p2p", SCOREP_MPI_G_P2P},           {"misc", SCOREP_MPI_G_MISC},
    {"perf", SCOREP_MPI_G_PERF},         {"rma", SCOREP_MPI_G_RMA},
    {"spawn", SCOREP_MPI_G_SPAWN},       {"topo", SCOREP_MPI_G_TOPO},
    {"type", SCOREP_MPI_G_TYPE},         {"xnonblock", SCOREP_MPI_G_XNONBLOCK},
    {"xreqtest", SCOREP_MPI_G_XREQTEST}, {NULL, 0}};

const scorep_cfg_choice scorep_cuda_feature_choices[] = {
    {"runtime", SCOREP_CUDA_FEATURE_RUNTIME_API},
    {"driver", SCOREP_CUDA_FEATURE_DRIVER_API},
    {"kernel", SCOREP_CUDA_FEATURE_KERNEL},
    {"kernel_serial", SCOREP_CUDA_FEATURE_KERNEL_SERIAL},
    {"kernel_callsite", SCOREP_CUDA_FEATURE_KERNEL_CALLSITE},
    {"kernel_counter", SCOREP_CUDA_FEATURE_KERNEL_COUNTER},
    {"memcpy", SCOREP_CUDA_FEATURE_MEMCPY},
    {"sync", SCOREP_CUDA_FEATURE_SYNC},
    {"idle", SCOREP_CUDA_FEATURE_IDLE},
    {"pure_idle", SCOREP_CUDA_FEATURE_PURE_IDLE},
    {"gpumemusage", SCOREP_CUDA_FEATURE_GPUMEMUSAGE},
    {"references", SCOREP_CUDA_FEATURE_REFERENCES},
    {"flushatexit", SCOREP_CUDA_FEATURE_FLUSHATEXIT},
    {"dontflushatexit", SCOREP_CUDA_FEATURE_DONTFLUSHATEXIT},
    {"default", SCOREP_CUDA_FEATURES_DEFAULT},
    {"yes", SCOREP_CUDA_FEATURES_DEFAULT},
    {"1", SCOREP_CUDA_FEATURES_DEFAULT},
    {NULL, 0}};

#define V(n, t, tgt, def, ch, brief, help)                                                         \
    {                                                                                              \
        "SCOREP_" n, SCOREP_CFG_##t, tgt, def, ch, brief, help                                     \
    }
const scorep_cfg_var scorep_cfg_vars[] = {
    V("ENABLE_PROFILING", BOOL, &scorep_cfg.enable_profiling, "true", NULL,
      "Write a call-path profile (profile.cubex)", "Records visits and time per call path."),
    V("ENABLE_TRACING", BOOL, &scorep_cfg.enable_tracing, "false", NULL,
      "Write an event trace (traces.otf2)", "Records every event into the in-memory buffer."),
    V("ENABLE_ANALYSIS", BOOL, &scorep_cfg.enable_analysis, "false", NULL,
      "Analyse the wait states at MPI_Finalize (scout.cubex)",
      "With tracing in an MPI program: the in-memory traces are analysed over the program's "
      "MPI before they are written (docs/analysis.md)."),
    V("ANALYSIS_TRACE_FILE", BOOL, &scorep_cfg.analysis_trace_file, "true", NULL,
      "Write traces.otf2 when the analysis runs in situ",
      "false: only the analysis report (and the profile) is written, no trace file."),
    V("VERBOSE", BOOL, &scorep_cfg.verbose, "false", NULL, "Print progress messages", ""),
    V("TOTAL_MEMORY", SIZE, &scorep_cfg.total_memory, "16000k", NULL, "Trace memory per process",
      "When it is used up, the trace of the thread that needed more is reduced in the order "
      "of SCOREP_TRACING_REDUCTION, and stops only when nothing is left to reduce (the trace "
      "gets markers, the profile keeps counting)."),
    V("PAGE_SIZE", SIZE, &scorep_cfg.page_size, "8k", NULL,
      "Allocation granule inside SCOREP_TOTAL_MEMORY", ""),
    V("EXPERIMENT_DIRECTORY", PATH, &scorep_cfg.experiment_directory, "", NULL,
      "Name of the experiment directory",
      "Empty: scorep-YYYYMMDD_HHMM_<unique> in the working directory."),
    V("OVERWRITE_EXPERIMENT_DIRECTORY", BOOL, &scorep_cfg.overwrite_experiment_directory, "true",
      NULL, "Rename an existing experiment directory aside",
      "false: an existing directory of the same name is a fatal error."),
    V("MACHINE_NAME", STRING, &scorep_cfg.machine_name, "Linux", NULL,
      "Name of the root of the system tree", ""),
    V("NODE_NAME", STRING, &scorep_cfg.node_name, "", NULL,
      "Name of this node in the system tree (default: the host name)",
      "A scorep-rt extension, used by tests to place processes on different nodes."),
    V("EXECUTABLE", PATH, &scorep_cfg.executable, "", NULL,
      "Executable, when /proc/self/exe is unusable", ""),
    V("ENABLE_SYSTEM_TREE_SEQUENCE_DEFINITIONS", BOOL, &scorep_cfg.system_tree_sequence, "true",
      NULL, "Build the system tree as sequence definitions",
      "Subtrees of equal shape are stored once with a copy count (constant size on regular "
      "machines); false uses the plain method. Both give the same tree in the output."),
    V("TIMER", OPTION, &scorep_cfg.timer, "tsc", timers, "Timer used for timestamps",
      "tsc falls back to clock_gettime when the TSC is not invariant."),
    V("PROFILING_MAX_CALLPATH_DEPTH", NUMBER, &scorep_cfg.max_callpath_depth, "100", NULL,
      "Deepest call path kept in the profile",
      "Deeper calls are folded into the node at the maximum depth."),
    V("PROFILING_BASE_NAME", STRING, &scorep_cfg.profiling_base_name, "profile", NULL,
      "Profile file name without extension", ""),
    V("PROFILING_FORMAT", OPTION, &scorep_cfg.profiling_format, "default", formats,
      "Profile output format", "none writes no profile; default is cube4."),
    V("PROFILING_CUBE_WRITER", OPTION, &scorep_cfg.profiling_cube_writer, "auto", cube_writers,
      "How the processes write profile.cubex",
      "A scorep-rt extension (docs/scale.md). parallel: every process writes its locations' "
      "slice of every row at its offset (uncompressed; memory per process independent of the "
      "number of processes); gather: rank 0 collects everything and writes compressed rows; "
      "auto: gather for one process, parallel for more."),
    V("PROFILING_ENABLE_CLUSTERING", BOOL, &scorep_cfg.profiling_enable_clustering, "true", NULL,
      "Enable clustering",
      "The instances of one dynamic region (SCOREP_USER_REGION_TYPE_DYNAMIC) are merged into "
      "at most SCOREP_PROFILING_CLUSTER_COUNT clusters of similar iterations "
      "(docs/profile-clustering.md); false keeps one call path per instance."),
    V("PROFILING_CLUSTER_COUNT", SIZE, &scorep_cfg.profiling_cluster_count, "64", NULL,
      "Maximum cluster count for iteration clustering", ""),
    V("PROFILING_CLUSTERING_MODE", OPTION, &scorep_cfg.profiling_clustering_mode, "subtree",
      clustering_modes,
      "Specifies the level of strictness when comparing call trees for equivalence",
      "none/0: no structural similarity required; subtree/1: the sub-trees' structure must "
      "match; subtree_visits/2: structure and visits must match; mpi/3: the structure of the "
      "call paths to MPI calls must match; mpi_visits/4: as mpi, and the MPI calls' visits; "
      "mpi_visits_all/5: as mpi, and the visits of all nodes on call paths to MPI calls."),
    V("PROFILING_CLUSTERED_REGION", STRING, &scorep_cfg.profiling_clustered_region, "", NULL,
      "Name of the clustered region",
      "Only one dynamic region is clustered: by default the first one entered; this names "
      "another."),
    V("FILTERING_FILE", PATH, &scorep_cfg.filtering_file, "", NULL, "Run-time filter file",
      "Score-P filter file syntax; a syntax error stops the program at start."),
    V("SELECTIVE_CONFIG_FILE", PATH, &scorep_cfg.selective_config_file, "", NULL,
      "A file name which configures selective recording",
      "As in Score-P: one user region per line, optionally followed by the instances to record "
      "(N, N:M, N:; counted from 0; separated by commas or blanks). Recording starts off and "
      "is on inside the selected instances (docs/user-guide.md, Selective recording). A file "
      "that cannot be read or has a syntax error is not applied: the whole run is recorded."),
    V("MPI_ENABLE_GROUPS", SET, &scorep_cfg.mpi_groups, "default", scorep_mpi_group_choices,
      "MPI function groups to record",
      "default = cg,coll,env,io,p2p,rma,topo; all = every group but xnonblock. A disabled "
      "group costs one branch per call."),
    V("MPI_MAX_COMMUNICATORS", NUMBER, &scorep_cfg.mpi_max_comms, "50", NULL,
      "Accepted for Score-P compatibility; scorep-rt has no limit",
      "Any other value than the default is said once at start, as having no effect."),
    V("MPI_MAX_WINDOWS", NUMBER, &scorep_cfg.mpi_max_windows, "50", NULL,
      "Accepted for Score-P compatibility; scorep-rt has no limit",
      "Any other value than the default is said once at start, as having no effect."),
    V("MPI_MAX_GROUPS", NUMBER, &scorep_cfg.mpi_max_groups, "50", NULL,
      "Accepted for Score-P compatibility; scorep-rt has no limit",
      "Any other value than the default is said once at start, as having no effect."),
    V("MPI_MEMORY_RECORDING", BOOL, &scorep_cfg.mpi_memory_recording, "false", NULL,
      "Record MPI_Alloc_mem and MPI_Free_mem (docs/memory.md)",
      "Their sizes per call path, leaks, and the counter 'Process memory usage (MPI)'.\n"
      "As in Score-P, only while the misc group is recorded (SCOREP_MPI_ENABLE_GROUPS)."),
    V("MPI_TIME_LOCAL_CALLS", BOOL, &scorep_cfg.mpi_time_local_calls, "false", NULL,
      "Read the timer at the Enter and the Leave of MPI's local calls (docs/mpi.md)",
      "MPI_Comm_rank, MPI_Comm_size, MPI_Type_size, MPI_Get_count and the other calls\n"
      "marked 'local' in mpi_functions.spec: by default one reading stamps the Enter\n"
      "and the Leave (one tick later), and the call's own time goes to its caller;\n"
      "true times them as any other call (as Score-P does), at one more reading each."),
    V("MEMORY_RECORDING", BOOL, &scorep_cfg.memory_recording, "false", NULL,
      "Record malloc, free, C++ new and delete and their kin (docs/memory.md)",
      "Needs the memory adapter libscorep-rt-memory: linked by scorep-cc --memory,\n"
      "preloaded by scorep-run. Sizes per call path, leaks, and the trace counter\n"
      "'Process memory usage'."),
    /* user library wrapping (docs/libwrap.md): read by scorep-run, which preloads the wrappers */
    V("LIBWRAP_PATH", STRING, &scorep_cfg.libwrap_path, "", NULL,
      "Where to look for user library wrappers (colon-separated prefixes)",
      "Each prefix is one of scorep-libwrap-init --prefix: the wrapper NAME is\n"
      "PREFIX/lib/libscorep_libwrap_NAME.so; scorep-rt's installation is searched last.\n"
      "Also searched by scorep-cc --libwrap=NAME (PREFIX/share/scorep/NAME.libwrap)."),
    V("LIBWRAP_ENABLE", STRING, &scorep_cfg.libwrap_enable, "", NULL,
      "User library wrappers to enable at run time",
      "Wrapper names (searched in SCOREP_LIBWRAP_PATH) or full paths of wrapper\n"
      "libraries, separated by SCOREP_LIBWRAP_ENABLE_SEP. scorep-run preloads them."),
    V("LIBWRAP_ENABLE_SEP", STRING, &scorep_cfg.libwrap_enable_sep, ",", NULL,
      "Separators of SCOREP_LIBWRAP_ENABLE", ""),
    V("SHMEM_MEMORY_RECORDING", BOOL, &scorep_cfg.shmem_memory_recording, "false", NULL,
      "Record the allocations of the SHMEM symmetric heap (docs/memory.md)",
      "shmem_malloc, shmem_calloc, shmem_align, shmem_realloc, shmem_free and the old\n"
      "shmalloc, shmemalign, shrealloc, shfree: sizes per call path, leaks, and the\n"
      "trace counter 'Process memory usage (SHMEM)'."),
    /* CUDA adapter (libscorep-rt-cuda); docs/cuda.md */
    V("CUDA_ENABLE", SET, &scorep_cfg.cuda_enable, "yes", scorep_cuda_feature_choices,
      "CUDA measurement features",
      "runtime, driver: API calls as regions; kernel, memcpy: GPU activities on GPU locations; "
      "sync: synchronisation calls flush the activity buffers; the buffers are flushed at "
      "exit unless dontflushatexit (flushatexit: accepted, changes nothing); kernel_serial: "
      "kernels serialised (CUPTI's KERNEL activity); kernel_callsite: parameter "
      "\"callsite id\" (call stack hash) on launch and kernel; "
      "default/yes = "
      "runtime,kernel,memcpy,sync,flushatexit; no = nothing. kernel_counter: launch "
      "configuration as metrics; idle, pure_idle: COMPUTE IDLE / GPU IDLE regions; gpumemusage: "
      "CUDA memory usage metric; references: correlation ids in the trace. Used only when the "
      "program runs with the CUDA adapter (scorep-cc nvcc, scorep-run)."),
    V("CUDA_BUFFER", SIZE, &scorep_cfg.cuda_buffer, "1M", NULL,
      "Memory for CUPTI activity records allocated at start",
      "The pool grows beyond it by chunks when CUPTI asks for a buffer and none is free, up to "
      "SCOREP_CUDA_BUFFER_MAX; its peak is reported (verbose, and MANIFEST.md when it grew)."),
    V("CUDA_BUFFER_CHUNK", SIZE, &scorep_cfg.cuda_buffer_chunk, "8k", NULL,
      "Size of one CUPTI activity buffer (chunk of SCOREP_CUDA_BUFFER)", ""),
    V("CUDA_BUFFER_MAX", SIZE, &scorep_cfg.cuda_buffer_max, "256M", NULL,
      "Cap of the CUPTI activity buffer pool (a scorep-rt extension)",
      "Only past it does CUPTI drop records; then the trace gets a marker and MANIFEST.md a "
      "line with the number dropped."),
    V("CUDA_FLUSH_PERIOD", NUMBER, &scorep_cfg.cuda_flush_period, "100", NULL,
      "Period in ms of CUPTI's own flushes of activity buffers (cuptiActivityFlushPeriod; "
      "0: CUPTI's default, a scorep-rt extension)", ""),
    V("TRACING_REDUCTION", STRING, &scorep_cfg.tracing_reduction,
      "min_duration,depth,noncomm,flush", NULL,
      "Order of the trace reduction steps when SCOREP_TOTAL_MEMORY runs out",
      "A scorep-rt extension. Comma-separated steps, each at most once, tried in this order "
      "until a page is free: min_duration (raise the minimum duration from 1us by doubling "
      "up to 1s and remove the shorter calls), depth (drop the deepest call level, one at a "
      "time, down to depth 1), noncomm (drop compiler and user calls that enclose no "
      "communication), flush (write the buffer to disk, as Score-P does, and go on; complete "
      "trace, BufferFlush events, disturbed timings; steps after it are never reached; the "
      "default ends with it, so communication is never lost). MPI, "
      "OpenMP and thread events and their calls are never dropped. "
      "When no step frees a page the trace of that thread stops. none: stop at once. Each "
      "step is recorded as an OTF2 marker and listed in MANIFEST.md. The profile is never "
      "reduced."),
    V("TRACING_MIN_DURATION", STRING, &scorep_cfg.tracing_min_duration, "0", NULL,
      "Shortest compiler/user call kept in the trace (e.g. 10us)",
      "A scorep-rt extension. A call shorter than this that encloses no communication is "
      "removed from the trace at its leave; the profile still counts it. Units ns, us, ms, "
      "s (no unit: ns); 0 keeps every call."),
    V("THROTTLING", BOOL, &scorep_cfg.throttling, "true", NULL,
      "Throttle tiny compiler-instrumented functions",
      "A scorep-rt extension (after TAU). A compiler-instrumented function whose call path "
      "reaches SCOREP_THROTTLING_CALLS visits with a mean time below SCOREP_THROTTLING_MEAN "
      "is no longer timed or traced; its further calls are only counted, in the profile "
      "node scorep_throttled_from_visit=N below it (N: the first visit not measured), and "
      "their time counts as the caller's. User and library (MPI, OpenMP) regions are never "
      "throttled. Needs profiling (the decision uses the profile's statistics)."),
    V("THROTTLING_CALLS", NUMBER, &scorep_cfg.throttling_calls, "100000", NULL,
      "Visits of a call path before throttling is decided", ""),
    V("THROTTLING_MEAN", STRING, &scorep_cfg.throttling_mean, "10us", NULL,
      "Mean time per call below which a function is throttled",
      "Units ns, us, ms, s (no unit: ns)."),
    V("CHECKPOINT_INTERVAL", NUMBER, &scorep_cfg.checkpoint_interval, "0", NULL,
      "Seconds between checkpoints of each process's profile (0: none)",
      "A scorep-rt extension. Every so many seconds a thread of the measurement writes each "
      "process's profile as it stands into EXPDIR/rescue (rank-local, no communication), so "
      "that a process killed by SIGKILL (the OOM killer, a hard time limit) leaves its data "
      "up to the last checkpoint; scorep-recover EXPDIR makes profile.cubex from it. The "
      "trace is not checkpointed."),
    /* sampling (src/sampling) */
    V("ENABLE_UNWINDING", BOOL, &scorep_cfg.enable_unwinding, "false", NULL,
      "Record calling contexts: sampling with libunwind",
      "Required for SCOREP_SAMPLING_EVENTS. The trace then has calling-context events "
      "instead of Enter/Leave (docs/sampling.md)."),
    V("TRACING_CONVERT_CALLING_CONTEXT_EVENTS", BOOL, &scorep_cfg.tracing_convert_calling_context,
      "false", NULL, "Write calling contexts to the trace as Enter/Leave records",
      "Only with SCOREP_ENABLE_UNWINDING. Every calling-context event (instrumented or "
      "sampled) becomes the Leave and Enter records that take the previous event's call "
      "stack to its own, at its time; samples themselves leave no record. For tools that "
      "do not read OTF2's calling-context records; the trace grows, and samples' counts "
      "are then only in the profile (docs/sampling.md)."),
    V("SAMPLING_EVENTS", STRING, &scorep_cfg.sampling_events, "timer@10000", NULL,
      "Interrupt sources of sampling: <event>[@<period>], separated by SCOREP_SAMPLING_SEP",
      "timer@<us of thread CPU time>, perf_task_clock@<ns>, perf_cpu_clock@<ns>, "
      "perf_page_faults@<n>, perf_cycles@<n>, perf_instructions@<n>; empty: no sampling."),
    V("SAMPLING_SEP", STRING, &scorep_cfg.sampling_sep, ",", NULL,
      "Separator of the entries of SCOREP_SAMPLING_EVENTS", ""),
    V("METRIC_PAPI", STRING, &scorep_cfg.metric_papi, "", NULL, "PAPI events recorded per thread",
      "Preset or native names (papi_avail -a, papi_native_avail), e.g. "
      "perf::TASK-CLOCK,PAPI_TOT_INS; a leading ! records the absolute value. An event "
      "that cannot be counted is reported and left out."),
    V("METRIC_PAPI_PER_PROCESS", STRING, &scorep_cfg.metric_papi_per_process, "", NULL,
      "PAPI events recorded on the first thread of each process", ""),
    V("METRIC_PAPI_SEP", STRING, &scorep_cfg.metric_papi_sep, ",", NULL,
      "Separator of the PAPI event lists", ""),
    V("METRIC_PERF", STRING, &scorep_cfg.metric_perf, "", NULL,
      "perf events recorded per thread (perf_event_open)",
      "perf's names, e.g. task-clock,page-faults,context-switches,cycles; :u or :k for user "
      "or kernel mode only (default both, where the kernel allows it). An event that cannot "
      "be counted is reported and left out."),
    V("METRIC_PERF_PER_PROCESS", STRING, &scorep_cfg.metric_perf_per_process, "", NULL,
      "perf events recorded on the first thread of each process", ""),
    V("METRIC_PERF_SEP", STRING, &scorep_cfg.metric_perf_sep, ",", NULL,
      "Separator of the perf event lists", ""),
    V("METRIC_RUSAGE", STRING, &scorep_cfg.metric_rusage, "", NULL,
      "Resource usage (getrusage) fields recorded per thread",
      "all, or names such as ru_utime, ru_stime, ru_minflt, ru_majflt, ru_nvcsw, ru_nivcsw."),
    V("METRIC_RUSAGE_PER_PROCESS", STRING, &scorep_cfg.metric_rusage_per_process, "", NULL,
      "Resource usage fields of the whole process, recorded on its first thread", ""),
    V("METRIC_RUSAGE_SEP", STRING, &scorep_cfg.metric_rusage_sep, ",", NULL,
      "Separator of the resource usage lists", ""),
    V("METRIC_PLUGINS", STRING, &scorep_cfg.metric_plugins, "", NULL,
      "Metric plugins to load (lib<name>.so)",
      "Each plugin's metrics are named in SCOREP_METRIC_<NAME> (upper case)."),
    V("METRIC_PLUGINS_SEP", STRING, &scorep_cfg.metric_plugins_sep, ",", NULL,
      "Separator of the plugin list and of SCOREP_METRIC_<NAME>", ""),
    /* substrate plugins (src/substrates); docs/substrate-plugins.md */
    V("SUBSTRATE_PLUGINS", STRING, &scorep_cfg.substrate_plugins, "", NULL,
      "Substrate plugins to load (libscorep_substrate_<name>.so)",
      "Each receives the measurement's events through Score-P's substrate plugin interface "
      "(scorep/SCOREP_SubstratePlugins.h); see docs/substrate-plugins.md for the events "
      "scorep-rt delivers."),
    V("SUBSTRATE_PLUGINS_SEP", STRING, &scorep_cfg.substrate_plugins_sep, ",", NULL,
      "Separator of the substrate plugin list", ""),
    /* I/O adapter (libscorep-rt-io-posix, libscorep-rt-io-isoc); docs/io.md */
    V("IO_POSIX", BOOL, &scorep_cfg.io_posix, "true", NULL, "POSIX I/O and ISO C I/O recording",
      "Used only when the program was linked with scorep-cc --io=posix/isoc or runs under "
      "scorep-run --io=...: then its I/O calls are regions of paradigm io with I/O records in "
      "the trace. false switches that off without relinking. (Score-P's default is false: "
      "there the variable enables run-time wrapping.)"),
};
const size_t scorep_cfg_n_vars = sizeof scorep_cfg_vars / sizeof scorep_cfg_vars[0];
