#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_mpi_bench.sh: MPI part of `make bench`: added one-way latency (8-byte ping-pong,
# 10^5 round trips, 2 ranks; plain, profiling and tracing runs interleaved), blocking and
# with MPI_Isend/MPI_Irecv/MPI_Waitall, and the same pairs to itself in one process (the
# fastest block of 500); where the time of a measured message goes step by step
# (mpi_steps.c); instructions per iteration of one-process loops (callgrind, when
# valgrind is installed): blocking and non-blocking message pairs (completed by MPI_Waitall,
# MPI_Wait, MPI_Test, MPI_Testany, MPI_Waitany, MPI_Waitsome), MPI_Test of a request not
# complete, MPI_Testsome over 64 and 1024 outstanding requests; the memory of 10^5
# outstanding requests; cost of a wrapped trivial call, and the wall time of a short
# 2/4/8/16-rank run with and without measurement.
# The paced ping-pong (mpi_bench paced; docs/mpi.md, "A paced ping-pong"): after each receive
# the program spins until D ns after it, then sends, for D in BENCH_MPI_PACE (default
# "0 500 2000"; empty: none), BENCH_MPI_PACED_N round trips per run (20000), in the same rounds.
# Prints tables with the uninstrumented figure or the floor beside each; asserts nothing.
# BENCH_MPI_LIBDIR_BEFORE=DIR (a directory with the libscorep-rt.so.0 and
# libscorep-rt-mpi.so.0 of another build, e.g. before a change): the ping-pongs, the loops
# to itself and MPI_Comm_rank also run the measured program against those libraries,
# interleaved with the others in every round, and print "before" rows.
# BENCH_SAVE_PROGRAMS / BENCH_PROGRAMS (bench_lib.sh: bench_programs): built here, run on a machine
# without mpicc (test/device/pack.sh and on_device.sh).
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"
[ -n "${BENCH_PROGRAMS:-}" ] || command -v mpicc >/dev/null 2>&1 || { echo "MPI benchmarks skipped: no mpicc"; exit 0; }
[ -e "$builddir/.libs/libscorep-rt-mpi.so" ] || { echo "MPI benchmarks skipped: no MPI adapter"; exit 0; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
cd "$tmp"
# steps: mpi_steps.c, linked with the objects of libscorep-rt-mpi of this build (so that it
# can call the adapter's steps one by one; "Where the time goes" below)
build_programs() {
    step "build plain" mpicc -O2 -o plain "$srcdir/bench/mpi_bench.c"
    step "build measured" "$builddir/scorep-cc" --nocompiler mpicc -O2 -o measured "$srcdir/bench/mpi_bench.c"
    mpi_objs=$(find "$builddir/src" -path '*/.libs/*' -name 'libscorep_rt_mpi_la-*.o' ! -name '*fortran*')
    [ -n "$mpi_objs" ] || die "no objects of libscorep-rt-mpi under $builddir/src"
    # shellcheck disable=SC2086 # the object list is split into words on purpose
    step "build mpi_steps" mpicc -O2 -std=gnu11 -D_GNU_SOURCE -DHAVE_CONFIG_H -I"$srcdir/include" \
        -I"$srcdir/src" -I"$builddir" -o steps "$srcdir/bench/mpi_steps.c" $mpi_objs \
        "$builddir/.libs/libscorep_analysis.a" -L"$builddir/.libs" -lscorep-rt -lopen-trace-format2 \
        -lm -lpthread -Wl,-rpath,"$builddir/.libs"
}
bench_programs "plain measured steps" mpi_ build_programs
[ -x measured ] || die "no mpi_measured in BENCH_PROGRAMS=${BENCH_PROGRAMS:-}: build them with BENCH_SAVE_PROGRAMS first"

wall() { # wall NP BIN ENV...: median wall time of a short run in seconds
    np=$1 bin=$2
    shift 2
    i=0
    while [ $i -lt 3 ]; do
        s=$(date +%s.%N)
        env "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" mpirun -np "$np" "./$bin" short >/dev/null 2>&1
        e=$(date +%s.%N)
        rm -rf "$tmp"/exp*
        echo "$e $s" | awk '{ printf "%.3f\n", $1 - $2 }'
        i=$((i + 1))
    done | median
}

# The ping-pong protocol of issue #18: $runs rounds, each running plain, profiling and
# tracing once (interleaved, so that a change of the machine's load hits all three alike),
# SCOREP_TOTAL_MEMORY=1G so that no flush is timed. Each run reports its mean one-way
# latency over 10^5 round trips and that of its fastest block of 500 round trips.
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
prof_env="SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false SCOREP_TOTAL_MEMORY=1G"
trace_env="SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=1G"
: >"$tmp/pp.plain"
: >"$tmp/pp.prof"
: >"$tmp/pp.trace"
: >"$tmp/nb.plain"
: >"$tmp/nb.prof"
: >"$tmp/nb.trace"
before=${BENCH_MPI_LIBDIR_BEFORE:-}
if [ -n "$before" ]; then
    [ -e "$before/libscorep-rt-mpi.so.0" ] || die "no $before/libscorep-rt-mpi.so.0"
    for v in pp.bprof pp.btrace nb.bprof nb.btrace; do : >"$tmp/$v"; done
fi
pingpong_run() { # pingpong_run MODE BIN OUT ENV...: appends "mean block" of one run to OUT
    _mode=$1 _bin=$2 _out=$3 _np=2
    shift 3
    case $_mode in self*) _np=1 ;; esac # the one-process loops: messages to itself
    env "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" mpirun -np $_np "./$_bin" "$_mode" 100000 \
        >"$tmp/pp.out" 2>/dev/null || die "the $_mode ($_bin $*) failed"
    rm -rf "$tmp"/exp*
    sed -n "s/^$_mode\( one-way\)\{0,1\} ns mean \([0-9.]*\) block \([0-9.]*\)$/\2 \3/p" \
        "$tmp/pp.out" >>"$_out"
}
# the self loops (one process, no peer to wait for: less exposed to preemption than the
# ping-pong on a loaded machine) in the same rounds: files sb.* and snb.*; MPI_Comm_rank
# (10^6 calls on 2 ranks, each run's mean) too, files cr.*, so that its "before" rows are
# interleaved with the others as well
for v in plain prof trace bprof btrace; do : >"$tmp/sb.$v" && : >"$tmp/snb.$v" && : >"$tmp/cr.$v"; done
commrank_run() { # commrank_run BIN OUT ENV...: appends the run's ns per MPI_Comm_rank to OUT
    _bin=$1 _out=$2
    shift 2
    env "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" mpirun -np 2 "./$_bin" commrank 1000000 \
        2>/dev/null | sed -n 's/^commrank ns \([0-9.]*\)$/\1/p' >>"$_out"
    rm -rf "$tmp"/exp*
}
cr_prof_env="SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false"
# the paced ping-pong: files pc.D.VARIANT, each run's "mean block median-trip IQM-trip"; the
# uninstrumented runs' overshoot of the spin (medians and 99th percentiles of both ranks) in
# pc.D.over
pace_list=${BENCH_MPI_PACE-0 500 2000} paced_n=${BENCH_MPI_PACED_N:-20000}
for d in $pace_list; do
    case $d in *[!0-9]*) die "BENCH_MPI_PACE: $d is no number of ns" ;; esac
    for v in plain prof trace over; do : >"$tmp/pc.$d.$v"; done
done
paced_run() { # paced_run D BIN VARIANT ENV...
    _d=$1 _bin=$2 _v=$3
    shift 3
    env "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" mpirun -np 2 "./$_bin" paced "$paced_n" "$_d" \
        >"$tmp/pc.out" 2>/dev/null || die "the paced ping-pong ($_bin $_d $*) failed"
    rm -rf "$tmp"/exp*
    sed -n 's/^paced one-way ns mean \([0-9.]*\) block \([0-9.]*\) median \([0-9.]*\) iqm \([0-9.]*\) min [0-9.]*$/\1 \2 \3 \4/p' \
        "$tmp/pc.out" >>"$tmp/pc.$_d.$_v"
    [ "$_v" != plain ] ||
        sed -n 's/^paced pace ns [0-9]* ticks\/ns [0-9.]* overshoot ns median \(.*\) p99 \(.*\)$/\1 \2/p' \
            "$tmp/pc.out" >>"$tmp/pc.$_d.over"
}
cr_trace_env="SCOREP_ENABLE_PROFILING=false SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=200M"
i=0
while [ $i -lt "$runs" ]; do
    for m in pingpong nbpingpong self selfnb; do
        o=$tmp/pp
        case $m in nbpingpong) o=$tmp/nb ;; self) o=$tmp/sb ;; selfnb) o=$tmp/snb ;; esac
        pingpong_run $m plain "$o.plain" X=1
        # shellcheck disable=SC2086 # the settings are split into words on purpose
        pingpong_run $m measured "$o.prof" $prof_env
        # shellcheck disable=SC2086
        pingpong_run $m measured "$o.trace" $trace_env
        if [ -n "$before" ]; then # the program's RUNPATH yields to LD_LIBRARY_PATH
            # shellcheck disable=SC2086
            pingpong_run $m measured "$o.bprof" $prof_env LD_LIBRARY_PATH="$before"
            # shellcheck disable=SC2086
            pingpong_run $m measured "$o.btrace" $trace_env LD_LIBRARY_PATH="$before"
        fi
    done
    for d in $pace_list; do
        paced_run "$d" plain plain X=1
        # shellcheck disable=SC2086 # the settings are split into words on purpose
        paced_run "$d" measured prof $prof_env
        # shellcheck disable=SC2086
        paced_run "$d" measured trace $trace_env
    done
    commrank_run plain "$tmp/cr.plain" X=1
    # shellcheck disable=SC2086 # the settings are split into words on purpose
    commrank_run measured "$tmp/cr.prof" $cr_prof_env
    # shellcheck disable=SC2086
    commrank_run measured "$tmp/cr.trace" $cr_trace_env
    if [ -n "$before" ]; then
        # shellcheck disable=SC2086
        commrank_run measured "$tmp/cr.bprof" $cr_prof_env LD_LIBRARY_PATH="$before"
        # shellcheck disable=SC2086
        commrank_run measured "$tmp/cr.btrace" $cr_trace_env LD_LIBRARY_PATH="$before"
    fi
    i=$((i + 1))
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
col() { awk -v c="$2" '{ print $c }' "$1"; } # col FILE N: the N-th number of every run
pp_plain=$(col "$tmp/pp.plain" 1 | minimum)
pp_prof=$(col "$tmp/pp.prof" 1 | minimum)
pp_trace=$(col "$tmp/pp.trace" 1 | minimum)
pm_plain=$(col "$tmp/pp.plain" 1 | median)
pm_prof=$(col "$tmp/pp.prof" 1 | median)
pm_trace=$(col "$tmp/pp.trace" 1 | median)
pb_plain=$(col "$tmp/pp.plain" 2 | minimum)
pb_prof=$(col "$tmp/pp.prof" 2 | minimum)
pb_trace=$(col "$tmp/pp.trace" 2 | minimum)
nm_plain=$(col "$tmp/nb.plain" 1 | median)
nm_prof=$(col "$tmp/nb.prof" 1 | median)
nm_trace=$(col "$tmp/nb.trace" 1 | median)
nb_plain=$(col "$tmp/nb.plain" 2 | minimum)
nb_prof=$(col "$tmp/nb.prof" 2 | minimum)
nb_trace=$(col "$tmp/nb.trace" 2 | minimum)
cr_plain=$(median <"$tmp/cr.plain")
cr_prof=$(median <"$tmp/cr.prof")
cr_trace=$(median <"$tmp/cr.trace")

added() { echo "$1 $2" | awk '{ printf "%+.1f", $1 - $2 }'; }
echo
echo "MPI point-to-point (Open MPI, shared memory, 2 ranks on $(nproc) cores): 8-byte ping-pong,"
echo "10^5 round trips per run, $runs interleaved rounds; load average $load_before before, $load_after after"
printf '%-40s %12s %12s %12s\n' "" uninstr. profiling tracing
printf '%-40s %12s %12s %12s\n' "one-way latency, min of runs [ns]" "$pp_plain" "$pp_prof" "$pp_trace"
printf '%-40s %12s %12s %12s\n' "  added per message [ns]" "-" \
    "$(added "$pp_prof" "$pp_plain")" "$(added "$pp_trace" "$pp_plain")"
printf '%-40s %12s %12s %12s\n' "  target (issue #18) [ns]" "-" "<= +50" "<= +80"
printf '%-40s %12s %12s %12s\n' "one-way latency, median of runs [ns]" "$pm_plain" "$pm_prof" "$pm_trace"
printf '%-40s %12s %12s %12s\n' "fastest block of 500 round trips [ns]" "$pb_plain" "$pb_prof" "$pb_trace"
printf '%-40s %12s %12s %12s\n' "  added per message [ns]" "-" \
    "$(added "$pb_prof" "$pb_plain")" "$(added "$pb_trace" "$pb_plain")"
printf '%-40s %12s %12s %12s\n' "Isend/Irecv/Waitall: median of runs" "$nm_plain" "$nm_prof" "$nm_trace"
printf '%-40s %12s %12s %12s\n' "  fastest block of 500 round trips" "$nb_plain" "$nb_prof" "$nb_trace"
printf '%-40s %12s %12s %12s\n' "  added per message [ns]" "-" \
    "$(added "$nb_prof" "$nb_plain")" "$(added "$nb_trace" "$nb_plain")"
for v in sb snb; do # the self loops: the fastest block of all runs, ns per iteration
    _l="MPI_Send + MPI_Recv to itself, fastest"
    [ $v = sb ] || _l="Irecv/Isend/Waitall to itself, fastest"
    _p=$(col "$tmp/$v.plain" 2 | minimum)
    _f=$(col "$tmp/$v.prof" 2 | minimum)
    _t=$(col "$tmp/$v.trace" 2 | minimum)
    printf '%-40s %12s %12s %12s\n' "$_l" "$_p" "$_f" "$_t"
    printf '%-40s %12s %12s %12s\n' "  added per iteration [ns]" "-" "$(added "$_f" "$_p")" "$(added "$_t" "$_p")"
done
for d in $pace_list; do # the paced ping-pong: each run's interquartile mean round trip (halved), min of runs
    _p=$(col "$tmp/pc.$d.plain" 4 | minimum)
    _f=$(col "$tmp/pc.$d.prof" 4 | minimum)
    _t=$(col "$tmp/pc.$d.trace" 4 | minimum)
    printf '%-40s %12s %12s %12s\n' "paced $d ns: trip IQM / 2, min [ns]" "$_p" "$_f" "$_t"
    printf '%-40s %12s %12s %12s\n' "  added per message [ns]" "-" "$(added "$_f" "$_p")" "$(added "$_t" "$_p")"
    _p=$(col "$tmp/pc.$d.plain" 2 | minimum)
    _f=$(col "$tmp/pc.$d.prof" 2 | minimum)
    _t=$(col "$tmp/pc.$d.trace" 2 | minimum)
    printf '%-40s %12s %12s %12s\n' "  fastest block, added [ns]" "$_p" "$(added "$_f" "$_p")" "$(added "$_t" "$_p")"
    printf '%-40s %12s\n' "  spin's overshoot, median / p99 [ns]" \
        "$(awk '{ m += $1 + $2; p = $3 > p ? $3 : p; p = $4 > p ? $4 : p } END { if (NR) printf "%.1f / %.1f", m / (2 * NR), p; else print "nan" }' "$tmp/pc.$d.over")"
done
printf '%-40s %12s %12s %12s\n' "MPI_Comm_rank, median of runs [ns/call]" "$cr_plain" "$cr_prof" "$cr_trace"
printf '%-40s %12s %12s %12s\n' "  added per call [ns]" "-" \
    "$(added "$cr_prof" "$cr_plain")" "$(added "$cr_trace" "$cr_plain")"
if [ -n "$before" ]; then
    b_cr_prof=$(median <"$tmp/cr.bprof")
    b_cr_trace=$(median <"$tmp/cr.btrace")
    brow() { # brow LABEL FILE-PROF FILE-TRACE COLUMN REDUCE PLAIN: a row of the libraries before
        _p=$(col "$2" "$4" | $5)
        _t=$(col "$3" "$4" | $5)
        printf '%-40s %12s %12s %12s\n' "$1" "-" "$_p ($(added "$_p" "$6"))" "$_t ($(added "$_t" "$6"))"
    }
    echo "before ($before), ns (added):"
    brow "one-way latency, min of runs" "$tmp/pp.bprof" "$tmp/pp.btrace" 1 minimum "$pp_plain"
    brow "fastest block of 500 round trips" "$tmp/pp.bprof" "$tmp/pp.btrace" 2 minimum "$pb_plain"
    brow "Isend/Irecv/Waitall: fastest block" "$tmp/nb.bprof" "$tmp/nb.btrace" 2 minimum "$nb_plain"
    brow "Send + Recv to itself, fastest" "$tmp/sb.bprof" "$tmp/sb.btrace" 2 minimum \
        "$(col "$tmp/sb.plain" 2 | minimum)"
    brow "Irecv/Isend/Waitall to itself, fastest" "$tmp/snb.bprof" "$tmp/snb.btrace" 2 minimum \
        "$(col "$tmp/snb.plain" 2 | minimum)"
    printf '%-40s %12s %12s %12s\n' "MPI_Comm_rank, median of runs" "-" \
        "$b_cr_prof ($(added "$b_cr_prof" "$cr_plain"))" "$b_cr_trace ($(added "$b_cr_trace" "$cr_plain"))"
fi

# Where the time goes: mpi_steps.c (built above), one process, profiling and tracing.
steps_run() { # steps_run OUT ENV...
    _out=$1
    shift
    env "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" mpirun -np 1 ./steps >"$_out" 2>"$tmp/steps.err" ||
        die "mpi_steps failed: $(cat "$tmp/steps.err")"
    rm -rf "$tmp"/exp*
}
# shellcheck disable=SC2086
steps_run "$tmp/steps.prof" $prof_env
# shellcheck disable=SC2086
steps_run "$tmp/steps.trace" $trace_env
sv() { sed -n "s/^step $2 //p" "$1"; } # sv FILE NAME: the step's ns
srow() { # srow LABEL NAME [FLOOR]
    printf '%-46s %10s %10s %10s\n' "$1" "$(sv "$tmp/steps.prof" "$2")" "$(sv "$tmp/steps.trace" "$2")" "${3:-}"
}
echo
echo "Where the time of a measured message goes: one process, ns per step, fastest of 50 rounds"
echo "of 5000 (bench/mpi_steps.c); in the ping-pong, the receiver's post-receive work, its Leave,"
echo "the Enter of its send and the pre-send work lie on the path of each message"
printf '%-46s %10s %10s %10s\n' step profiling tracing floor
srow "timer read (rdtsc)" timer_read
srow "location lookup (TLS)" location_tls
srow "Enter + Leave of an MPI call (2 timer reads)" enter_leave \
    "$(sv "$tmp/steps.prof" timer_read | awk '{ printf "%.1f", 2 * $1 }')"
srow "communicator lookup" comm_lookup
srow "message id, send (tracing only)" msgid_send
srow "message id, receive (tracing only)" msgid_recv
srow "bytes of a send (count x cached type size)" bytes_send
srow "bytes of a receive (status)" bytes_recv
srow "receive succeeded? (error class)" recv_ok
srow "MpiSend event (profile bytes / trace record)" event_send
srow "MpiRecv event" event_recv
srow "MPI_Send wrapper work without PMPI" pre_send "$(sv "$tmp/steps.prof" enter_leave)"
srow "MPI_Recv wrapper work without PMPI" post_recv "$(sv "$tmp/steps.prof" enter_leave)"
srow "MPI_Comm_rank, PMPI" commrank_plain
srow "MPI_Comm_rank, wrapped" commrank_wrapped "$(sv "$tmp/steps.prof" commrank_plain)"
srow "MPI_Send + MPI_Recv to itself, PMPI" pair_plain
srow "MPI_Send + MPI_Recv to itself, wrapped" pair_wrapped "$(sv "$tmp/steps.prof" pair_plain)"
pair_added() { # pair_added PLAIN WRAPPED: the added ns, profiling and tracing
    printf '%-46s %10s %10s\n' "  added per pair" \
        "$(added "$(sv "$tmp/steps.prof" "$2")" "$(sv "$tmp/steps.prof" "$1")")" \
        "$(added "$(sv "$tmp/steps.trace" "$2")" "$(sv "$tmp/steps.trace" "$1")")"
}
pair_added pair_plain pair_wrapped
srow "MPI_Irecv + MPI_Isend + MPI_Waitall, PMPI" nb_pair_plain
srow "MPI_Irecv + MPI_Isend + MPI_Waitall, wrapped" nb_pair_wrapped "$(sv "$tmp/steps.prof" nb_pair_plain)"
pair_added nb_pair_plain nb_pair_wrapped
echo "Not per message: OTF2 attribute lists (message ids, probes) are built when the trace is"
echo "written; the reduction's communication mark is one store per MPI record (in the record"
echo "rows); metrics are read at Enter/Leave only when SCOREP_METRIC_* asks for them."

# Instructions per iteration (callgrind: repeatable on a loaded machine), one process sending
# to itself: the difference of two runs of N1 and N2 iterations, counted inside the loop's
# function only (--toggle-collect), divided by N2 - N1.
if command -v valgrind >/dev/null 2>&1; then
    cg() { # cg BIN FUNCTION MODE N1 N2 K ENV...: instructions per iteration
        _bin=$1 _fn=$2 _mode=$3 _n1=$4 _n2=$5 _k=$6
        shift 6
        for _n in "$_n1" "$_n2"; do
            env "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" valgrind --tool=callgrind \
                --collect-atstart=no --toggle-collect="$_fn" --callgrind-out-file="$tmp/cg.out" \
                "./$_bin" "$_mode" "$_n" "$_k" >"$tmp/cg.log" 2>&1 || die "callgrind $_bin $_mode failed"
            rm -rf "$tmp"/exp*
            sed -n 's/^summary: //p' "$tmp/cg.out"
        done | awk -v d=$((_n2 - _n1)) 'NR == 1 { a = $1 } NR == 2 { printf "%.0f\n", ($1 - a) / d }'
    }
    cgrow() { # cgrow LABEL FUNCTION MODE N1 N2 K
        _p=$(cg plain "$2" "$3" "$4" "$5" "$6" X=1)
        # shellcheck disable=SC2086
        _f=$(cg measured "$2" "$3" "$4" "$5" "$6" $prof_env)
        # shellcheck disable=SC2086
        _t=$(cg measured "$2" "$3" "$4" "$5" "$6" $trace_env)
        printf '%-44s %10s %10s %10s %10s %10s\n' "$1" "$_p" "$_f" "$_t" \
            "$(added "$_f" "$_p" | sed 's/\.0$//')" "$(added "$_t" "$_p" | sed 's/\.0$//')"
    }
    echo
    echo "Instructions per iteration (callgrind), one process, messages to itself, 8 bytes"
    printf '%-44s %10s %10s %10s %10s %10s\n' "" uninstr. profiling tracing "added pr." "added tr."
    cgrow "MPI_Send + MPI_Recv" self_blocking self 2000 12000 0
    cgrow "MPI_Irecv + MPI_Isend + MPI_Waitall" self_nonblocking selfnb 2000 12000 0
    cgrow "MPI_Irecv + MPI_Isend + 2 x MPI_Wait" self_wait selfwait 2000 12000 0
    cgrow "MPI_Irecv + MPI_Isend + 2 x MPI_Test" self_test selftest 2000 12000 0
    cgrow "MPI_Irecv + MPI_Isend + 2 x MPI_Testany" self_testany selftestany 2000 12000 0
    cgrow "MPI_Irecv + MPI_Isend + 2 x MPI_Waitany" self_waitany selfwaitany 2000 12000 0
    cgrow "MPI_Irecv + MPI_Isend + MPI_Waitsome" self_waitsome selfwaitsome 2000 12000 0
    cgrow "MPI_Test, 1 request, not complete" test_pending testpend 2000 12000 0
    cgrow "MPI_Testsome, 64 requests outstanding" poll poll 200 1200 64
    cgrow "MPI_Testsome, 1024 requests outstanding" poll poll 20 120 1024
else
    echo "callgrind figures skipped: no valgrind"
fi

# Memory of 10^5 outstanding receives: peak resident size of the process, plain and measured
hwm() { # hwm BIN K ENV...: the peak kB the program reports with K receives outstanding
    _bin=$1 _k=$2
    shift 2
    env "$@" SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" mpirun -np 1 "./$_bin" outstanding "$_k" \
        2>/dev/null | sed -n "s/^outstanding $_k peak_kB //p"
    rm -rf "$tmp"/exp*
}
hwm_row() { # hwm_row LABEL K: the peak memory of plain and profiling runs
    _p=$(hwm plain "$2" X=1)
    # shellcheck disable=SC2086 # the settings are split into words on purpose
    _f=$(hwm measured "$2" $prof_env)
    printf '%-44s %10s %10s %10s\n' "$1" "$_p" "$_f" "$(echo "$_f $_p" | awk '{ print $1 - $2 }')"
}
echo
echo "Receives outstanding at once (one process): peak resident memory (VmHWM) [kB]"
printf '%-44s %10s %10s %10s\n' "" uninstr. profiling added
hwm_row "1 receive outstanding" 1
hwm_row "10^5 receives outstanding" 100000
echo "the request table's part is the difference of the two 'added' figures (docs/mpi.md,"
echo "\"Request table\": 104-byte records and 16-byte slots)"

echo
printf '%-10s %14s %14s %14s %14s\n' ranks "uninstr. [s]" "profiling [s]" "tracing [s]" "extra (tr.) [s]"
for np in 2 4 8 16; do
    a=$(wall $np plain X=1)
    b=$(wall $np measured SCOREP_ENABLE_TRACING=false)
    c=$(wall $np measured SCOREP_ENABLE_TRACING=true)
    printf '%-10s %14s %14s %14s %14s\n' "$np" "$a" "$b" "$c" "$(echo "$c $a" | awk '{ printf "%.3f", $1 - $2 }')"
done
echo "targets (issue #3): <= 150 ns added per one-way message, <= 60 ns per trivial wrapped call,"
echo "<= 0.1 s extra for 16 ranks. Score-P 4.0: +400-600 ns/message, +116-155 ns/MPI_Comm_rank."
