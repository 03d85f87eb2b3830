/* runtime_config.c: the table of SCOREP_* variables this runtime understands. */
#include "core/mpi_groups.h"
#include "core/runtime.h"

scorep_runtime_config scorep_cfg;

static const scorep_cfg_choice timers[] = {
    {"tsc", 0}, {"clock_gettime", 1}, {"gettimeofday", 2}, {NULL, 0}};
static const scorep_cfg_choice formats[] = {{"none", SCOREP_PROFILING_FORMAT_NONE},
                                            {"cube4", SCOREP_PROFILING_FORMAT_CUBE4},
                                            {"default", SCOREP_PROFILING_FORMAT_CUBE4},
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

#define V(n, t, tgt, def, ch, brief, help)                                                         \
    {                                                                                              \
        "SCOREP_" n, SCOREP_CFG_##t, tgt, def, ch, brief, help                                     \
    }
const scorep_cfg_var scorep_cfg_vars[] = {
    V("ENABLE_PROFILING", BOOL, &scorep_cfg.enable_profiling, "true", NULL,
      "Write a call-path profile (profile.cubex)", "Records visits and time per call path."),
    V("ENABLE_TRACING", BOOL, &scorep_cfg.enable_tracing, "false", NULL,
      "Write an event trace (traces.otf2)", "Records every event into the in-memory buffer."),
    V("VERBOSE", BOOL, &scorep_cfg.verbose, "false", NULL, "Print progress messages", ""),
    V("TOTAL_MEMORY", SIZE, &scorep_cfg.total_memory, "16000k", NULL, "Trace memory per process",
      "When it is used up, tracing stops for the thread that needed more (the trace gets a "
      "marker, the profile keeps counting)."),
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
    V("FILTERING_FILE", PATH, &scorep_cfg.filtering_file, "", NULL, "Run-time filter file",
      "Score-P filter file syntax; a syntax error stops the program at start."),
    V("MPI_ENABLE_GROUPS", SET, &scorep_cfg.mpi_groups, "default", scorep_mpi_group_choices,
      "MPI function groups to record",
      "default = cg,coll,env,io,p2p,rma,topo; all = every group but xnonblock. A disabled "
      "group costs one branch per call."),
    V("MPI_MAX_COMMUNICATORS", NUMBER, &scorep_cfg.mpi_max_comms, "50", NULL,
      "Accepted for Score-P compatibility; scorep-rt has no limit", ""),
    V("MPI_MAX_WINDOWS", NUMBER, &scorep_cfg.mpi_max_windows, "50", NULL,
      "Accepted for Score-P compatibility; scorep-rt has no limit", ""),
    V("MPI_MAX_GROUPS", NUMBER, &scorep_cfg.mpi_max_groups, "50", NULL,
      "Accepted for Score-P compatibility; scorep-rt has no limit", ""),
    V("MPI_MEMORY_RECORDING", BOOL, &scorep_cfg.mpi_memory_recording, "false", NULL,
      "Accepted for Score-P compatibility; allocation tracking is not implemented yet", ""),
    V("METRIC_PAPI", STRING, &scorep_cfg.metric_papi, "", NULL, "PAPI events recorded per thread",
      "Preset or native names (papi_avail -a, papi_native_avail), e.g. "
      "perf::TASK-CLOCK,PAPI_TOT_INS; a leading ! records the absolute value. An event "
      "that cannot be counted is reported and left out."),
    V("METRIC_PAPI_PER_PROCESS", STRING, &scorep_cfg.metric_papi_per_process, "", NULL,
      "PAPI events recorded on the first thread of each process", ""),
    V("METRIC_PAPI_SEP", STRING, &scorep_cfg.metric_papi_sep, ",", NULL,
      "Separator of the PAPI event lists", ""),
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
};
const size_t scorep_cfg_n_vars = sizeof scorep_cfg_vars / sizeof scorep_cfg_vars[0];
