#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tsan_runtime.sh: data races of the runtime itself. Builds scorep-rt with ThreadSanitizer
# (a build directory and prefix of its own), builds the threaded test programs with it
# (-fsanitize=thread as well) and runs them measured as the tests do (profile, trace,
# pthread locks, selective recording, throttling, metrics, substrate plugins, scorep-run);
# prints one line per run and every report, and exits 1 when ThreadSanitizer reported
# anything. Not part of `make check`: a second configure and build of the tree (44 s on 2
# cores) (docs/design.md, "Checking the runtime with ThreadSanitizer").
#
#   sh test/tools/tsan_runtime.sh [BUILDDIR]     (default: _build-tsan in the source tree)
#
# Environment: TSAN_RUNS (a space-separated subset of the run names below), MAKEFLAGS.
# Left out: OpenMP (libgomp is not built for ThreadSanitizer: false reports), MPI and SHMEM
# (their libraries neither), preloading libscorep-rt-memory (its malloc runs before
# ThreadSanitizer is initialised) and sampling with unwinding (libunwind's thread-exit
# destructor locks a mutex after ThreadSanitizer has finished the thread).
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/_build-tsan}
mkdir -p "$build"
build=$(cd "$build" && pwd)
prefix=$build/install
T="-O1 -g -fsanitize=thread -fno-omit-frame-pointer"

echo "tsan_runtime: building the runtime with ThreadSanitizer in $build"
cd "$build"
if [ ! -f Makefile ]; then
    [ -x "$src/configure" ] || (cd "$src" && ./bootstrap)
    "$src/configure" --prefix="$prefix" --with-mpi=no --with-shmem=no --enable-ompt=no \
        --with-cuda=no CFLAGS="$T" LDFLAGS=-fsanitize=thread >configure.log 2>&1 ||
        { tail -20 configure.log; exit 2; }
fi
prefix=$(sed -n 's/^prefix = //p' Makefile) # an existing build keeps its own
make ${MAKEFLAGS:--j2} >make.log 2>&1 && make install >install.log 2>&1 ||
    { tail -20 make.log; exit 2; }
# the test plugins (substrate "count", metric "synth_*")
make ${MAKEFLAGS:--j2} $(grep -o 'test/plugins/lib[a-z_]*\.la' "$src/test/Makefile.inc" | sort -u) \
    >plugins.log 2>&1 || { tail -20 plugins.log; exit 2; }

work=$build/tsan-work
rm -rf "$work"
mkdir -p "$work"
cd "$work"
P=$src/test/programs
# -finstrument-functions: the compiler plugins are built with ThreadSanitizer too here, and
# cc1 cannot load a plugin that needs libtsan
CC="$prefix/bin/scorep-cc --instrument=functions"
cc_prog() # NAME SCOREP-CC-OPTIONS... -- SOURCES/FLAGS...
{
    _n=$1
    shift
    $CC "$@" $T -o "$_n" -lpthread >"$_n.cc" 2>&1 || { cat "$_n.cc"; exit 2; }
}
cc_prog calls "$P/calls.c"
cc_prog metrics "$P/metrics.c"
cc_prog sel --user --nocompiler "$P/selective.c"
cc_prog paths -pthread "$P/throttle_paths.c"
cc_prog uthr --user --nocompiler "$P/user_threads.c"
cc_prog urec --user "$P/user_recording_threads.c"
cc_prog subst "$P/substrate_calls.c"
cc_prog forks "$P/forks.c"
cc_prog sleeper "$P/sleeper.c"
cc_prog exit_busy "$P/exit_busy.c"
cc_prog locks "$src/test/analysis/pthread_locks.c"
cc_prog mem "$P/memory_c.c"
gcc $T -pthread -o plain_locks "$src/test/analysis/pthread_locks.c"
gcc $T -pthread -o plain_calls "$P/calls.c"

export LD_LIBRARY_PATH="$build/test/plugins/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# halt_on_error=0: all reports; exitcode 66 when there was one
export TSAN_OPTIONS="halt_on_error=0 exitcode=66 history_size=5"
RT=$prefix/lib/libscorep-rt.so
reports=0
# run NAME PRELOAD VAR=VALUE... PROGRAM ARGS...: the program linked with scorep-cc runs
# with libscorep-rt preloaded, ahead of libtsan: otherwise ThreadSanitizer's pthread_create
# calls the runtime's, whose thread start runs before ThreadSanitizer knows the thread
run()
{
    _n=$1 _pre=$2
    shift 2
    case " ${TSAN_RUNS:-$_n} " in *" $_n "*) ;; *) return 0 ;; esac
    _rc=0
    timeout 300 env LD_PRELOAD="$_pre" SCOREP_EXPERIMENT_DIRECTORY="e_$_n" "$@" \
        >"$_n.out" 2>"$_n.err" || _rc=$?
    _r=$(grep -c 'WARNING: ThreadSanitizer' "$_n.err" || true)
    printf '%-14s exit %-3s reports %s\n' "$_n" "$_rc" "$_r"
    if [ "$_r" != 0 ]; then
        grep -A25 'WARNING: ThreadSanitizer' "$_n.err" | grep -E 'WARNING|#[0-3] |Location|SUMMARY'
        reports=$((reports + _r))
    elif [ "$_rc" = 66 ] || [ "$_rc" -ge 124 ]; then
        head -5 "$_n.err"
        reports=$((reports + 1))
    fi
}
run calls_p "$RT" ./calls
run calls_t "$RT" SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=100M ./calls
run mem "$RT" SCOREP_MEMORY_RECORDING=true SCOREP_ENABLE_TRACING=true ./mem
run rusage "$RT" SCOREP_ENABLE_TRACING=true SCOREP_METRIC_RUSAGE=ru_utime,ru_stime \
    SCOREP_METRIC_RUSAGE_PER_PROCESS=ru_nvcsw ./metrics 100 20 2 0
run perf "$RT" SCOREP_ENABLE_TRACING=true SCOREP_METRIC_PERF=task-clock,page-faults ./metrics 100 20 2 0
run plugin_sync "$RT" SCOREP_ENABLE_TRACING=true SCOREP_METRIC_PLUGINS=synth_sync \
    SCOREP_METRIC_SYNTH_SYNC=events ./metrics 100 20 2 0
run plugin_async "$RT" SCOREP_METRIC_PLUGINS=synth_async ./metrics 100 20 2 0
printf 'foo 2:3\nbar\n' >sel.cfg
run selective "$RT" SCOREP_ENABLE_TRACING=true SCOREP_SELECTIVE_CONFIG_FILE=sel.cfg ./sel
run throttle "$RT" SCOREP_THROTTLING=true SCOREP_THROTTLING_CALLS=1000 SCOREP_THROTTLING_MEAN=40us \
    SCOREP_ENABLE_TRACING=true ./paths
run user_threads "$RT" SCOREP_ENABLE_TRACING=true ./uthr
run user_recording "$RT" SCOREP_ENABLE_TRACING=true ./urec
run substrate "$RT" SCOREP_SUBSTRATE_PLUGINS=count SUBSTRATE_COUNT_OUT="$work/c.count" ./subst
run forks "$RT" SCOREP_ENABLE_TRACING=true ./forks
run exit_thread "$RT" SCOREP_ENABLE_TRACING=true ./sleeper exit
run exit_busy_p "$RT" ./exit_busy 200
run exit_busy_t "$RT" SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=50M ./exit_busy 200
run locks "$RT" SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime ./locks 0.05
run run_locks "" SCOREP_RUN_LIBDIR="$prefix/lib" SCOREP_ENABLE_TRACING=true \
    "$prefix/bin/scorep-run" ./plain_locks 0.05
run run_calls "" SCOREP_RUN_LIBDIR="$prefix/lib" "$prefix/bin/scorep-run" ./plain_calls
run sampling "$RT" SCOREP_ENABLE_UNWINDING=false SCOREP_SAMPLING_EVENTS=timer@1000 ./calls
if [ "$reports" != 0 ]; then
    echo "tsan_runtime: $reports reports (outputs in $work)"
    exit 1
fi
echo "tsan_runtime: no data race reported"
