/* an_metrics.h: the metrics of scout.cubex: Scalasca's pattern hierarchy with Scalasca's
 * unique names, display names and descriptions (scout's Patterns_gen.cpp, Scalasca 2.0), so
 * that Cube and Scalasca users read them unchanged. */
#ifndef SCOREP_AN_METRICS_H
#define SCOREP_AN_METRICS_H

typedef enum {
    M_TIME,
    M_EXECUTION,
    M_MPI,
    M_MPI_INIT_EXIT,
    M_MPI_SYNCHRONIZATION,
    M_MPI_SYNC_COLLECTIVE,
    M_MPI_BARRIER_WAIT,
    M_MPI_BARRIER_COMPLETION,
    M_MPI_COMMUNICATION,
    M_MPI_POINT2POINT,
    M_MPI_LATESENDER,
    M_MPI_LATESENDER_WO,
    M_MPI_LSWO_DIFFERENT,
    M_MPI_LSWO_SAME,
    M_MPI_LATERECEIVER,
    M_MPI_COLLECTIVE,
    M_MPI_EARLYREDUCE,
    M_MPI_EARLYSCAN,
    M_MPI_LATEBROADCAST,
    M_MPI_WAIT_NXN,
    M_MPI_NXN_COMPLETION,
    M_OMP,
    M_OMP_SYNCHRONIZATION,
    M_OMP_BARRIER,
    M_OMP_EBARRIER,
    M_OMP_EBARRIER_WAIT,
    M_OMP_IBARRIER,
    M_OMP_IBARRIER_WAIT,
    M_OMP_CRITICAL,
    M_OMP_LOCK_API,
    M_OVERHEAD,
    M_OMP_IDLE_THREADS,
    M_OMP_LIMITED_PARALLELISM,
    M_VISITS,
    M_SYNCS,
    M_SYNCS_P2P,
    M_SYNCS_SEND,
    M_SYNCS_RECV,
    M_SYNCS_COLL,
    M_COMMS,
    M_COMMS_P2P,
    M_COMMS_SEND,
    M_MPI_CLR_COUNT,
    M_COMMS_RECV,
    M_MPI_CLS_COUNT,
    M_MPI_CLSWO_COUNT,
    M_COMMS_COLL,
    M_COMMS_CXCH,
    M_COMMS_CSRC,
    M_COMMS_CDST,
    M_BYTES,
    M_BYTES_P2P,
    M_BYTES_SENT,
    M_BYTES_RCVD,
    M_BYTES_COLL,
    M_BYTES_COUT,
    M_BYTES_CIN,
    M_CRITICAL_PATH,
    M_CRITICAL_PATH_IMBALANCE,
    M_DELAY,
    M_DELAY_MPI,
    M_DELAY_P2P,
    M_DELAY_LATESENDER_AGGREGATE,
    M_DELAY_LATESENDER,
    M_DELAY_LATERECEIVER_AGGREGATE,
    M_DELAY_LATERECEIVER,
    M_NONWAIT_TIME, /* internal (not written): time minus waiting time, for the imbalance */
    M_COUNT
} an_metric;

typedef struct {
    const char *uniq, *disp, *descr, *unit;
    int parent;   /* an_metric, -1 for a root */
    int count;    /* 1: an integer count (UINT64 in the report), 0: seconds */
    int internal; /* 1: computed for other metrics, not written */
} an_metric_info;

extern const an_metric_info an_metrics[M_COUNT];

#endif
