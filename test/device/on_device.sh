#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# on_device.sh: runs the device check on a GPU machine from a folder made by pack.sh (see
# there): points the build-tree variables of the tests at it, then runs gpu_check.sh and
# test/cuda/test_cuda_program.sh, then bench/run_bench.sh on this CPU. The logs go to $OUT
# (the device tool of our sessions; default ./gpu_out), one per part, and the figures and
# MANIFEST.md files to fig.tar.gz there.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd -P)
dir=${1:-_gpu}
case $dir in /*) ;; *) dir=$top/$dir ;; esac
out=${OUT:-$top/gpu_out}
mkdir -p "$out/fig"
export top_srcdir="$top" top_builddir="$dir/build"
export LD_LIBRARY_PATH="$dir/build/.libs:$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$dir/bin:$PATH:/usr/local/cuda/bin"
export GPU_CHECK_OUT="$out/fig" GPU_CHECK_FLOOR="$dir/build/libfloor.so"
{
    date -u
    nvidia-smi -L
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    nvcc --version | tail -n 2
    uname -r
    nproc
} >"$out/fig/machine.txt" 2>&1
cat "$out/fig/machine.txt"
# ON_DEVICE_PARTS: which of gpu (gpu_check.sh's parts), cuda_program, bench (run_bench.sh),
# mpi_bench, apps (LULESH and CoMD of run_apps_bench.sh), omp (run_omp_bench.sh's gcc part);
# mpi_ab (test/device/mpi_profile_ab.sh: the ping-pong's rows of AB_ROWS, by default also the
# paced ping-pong of session 25, < 160 s) only when named
parts=${ON_DEVICE_PARTS:-gpu cuda_program bench mpi_bench apps omp}
[ "${ON_DEVICE_CPU_BENCH:-1}" = 1 ] || parts=$(echo "$parts" | sed 's/bench mpi_bench apps omp//')
want() { case " $parts " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
# Open MPI of the build machine for the mpi parts (pack.sh), where this machine has none. Its
# libraries in mpilib go first only if its mpirun starts with them: a machine whose image
# has Open MPI's libraries of another build (PMIx 5: "undefined symbol: PMIx_Info_create"
# with ours) runs our mpirun on its own
mpilibs=
if [ -f "$dir/openmpi.tar.gz" ] && [ ! -e /usr/bin/orterun ] && [ "$(id -u)" = 0 ]; then
    tar xzf "$dir/openmpi.tar.gz" -C /
fi
if [ -x /usr/bin/orterun ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    if LD_LIBRARY_PATH="$dir/mpilib:$LD_LIBRARY_PATH" timeout 30 /usr/bin/orterun -np 1 true >/dev/null 2>&1; then
        mpilibs=$dir/mpilib
    elif ! timeout 30 /usr/bin/orterun -np 1 true >"$out/orterun.log" 2>&1; then
        echo "on_device.sh: orterun -np 1 true fails with and without $dir/mpilib:"
        cat "$out/orterun.log"
    fi
    echo "Open MPI: /usr/bin/orterun, libraries ${mpilibs:-of this machine first}" | tee -a "$out/fig/machine.txt"
    export GPU_CHECK_MPI_LIBS="$mpilibs" GPU_CHECK_MPI_PROGRAMS="$dir/build" GPU_CHECK_MPIRUN=/usr/bin/orterun
fi
mpi_path=${mpilibs:+$mpilibs:}
# one part at a time, so that a failure in one leaves the others' figures
export GPU_CHECK_BIN="$out/bin" GPU_CHECK_ROUNDS="${GPU_CHECK_ROUNDS:-5}"
rc=0 rc2=0
want gpu || GPU_CHECK_PARTS=none
for part in ${GPU_CHECK_PARTS:-multistream loop refs threads mpi overhead torch}; do
    [ "$part" != none ] || break
    echo "== gpu_check.sh $part ($(date -u +%T))"
    prc=0
    case $part in multistream) t=120 ;; loop) t=200 ;; *) t=240 ;; esac
    GPU_CHECK_PARTS=$part timeout $t sh "$top/test/device/gpu_check.sh" >"$out/part-$part.log" 2>&1 || prc=$?
    echo "gpu_check.sh $part: exit status $prc ($(date -u +%T))" | tee -a "$out/part-$part.log"
    grep -v '^ok: ' "$out/part-$part.log" | tail -n 25
    [ "$prc" = 0 ] || rc=$prc
done
rm -rf "${out:?}/bin"
if want cuda_program; then
    echo "== test_cuda_program.sh"
    timeout 120 sh "$top/test/cuda/test_cuda_program.sh" >"$out/fig/test_cuda_program.log" 2>&1 || rc2=$?
    echo "test_cuda_program.sh: exit status $rc2" | tee -a "$out/fig/test_cuda_program.log"
    tail -n 15 "$out/fig/test_cuda_program.log"
fi
grep -m 1 'model name' /proc/cpuinfo >>"$out/fig/machine.txt"
# bench_part SCRIPT TIMEOUT LINES [VAR=VALUE...]: bench/SCRIPT on this machine's CPU with the
# programs pack.sh built (BENCH_PROGRAMS), its log in fig/SCRIPT.txt, its last LINES shown
bench_part() {
    _s=$1 _t=$2 _n=$3
    shift 3
    echo "== $_s ($(date -u +%T))"
    _rc=0
    env "$@" BENCH_PROGRAMS="$dir/bench" abs_top_builddir="$dir/build" abs_top_srcdir="$top" \
        timeout "$_t" sh "$top/bench/$_s" >"$out/fig/${_s%.sh}.txt" 2>&1 || _rc=$?
    echo "$_s: exit status $_rc ($(date -u +%T))" | tee -a "$out/fig/${_s%.sh}.txt"
    tail -n "$_n" "$out/fig/${_s%.sh}.txt"
}
# make bench's CPU table; its MPI part with the Open MPI unpacked above; real applications
# (#31: LULESH 2.0 and CoMD, when pack.sh had their sources); OpenMP runtimes for gcc
# programs (fib with tasks)
runs=${BENCH_RUNS:-5}
if want bench && [ -x "$dir/bench/tiny_scorep" ]; then
    bench_part run_bench.sh 300 45 BENCH_RUNS="$runs"
fi
if want mpi_bench && [ -x "$dir/bench/mpi_measured" ] && [ -x /usr/bin/orterun ]; then
    bench_part run_mpi_bench.sh 300 75 LD_LIBRARY_PATH="$mpi_path$LD_LIBRARY_PATH" BENCH_RUNS="$runs"
fi
# the profile's ping-pong against its variants (issue #31, session 24; docs/mpi.md, "The
# profile's ping-pong on Intel")
if want mpi_ab && [ -x "$dir/bench/mpi_measured" ] && [ -x /usr/bin/orterun ]; then
    echo "== mpi_profile_ab.sh ($(date -u +%T))"
    rc7=0
    LD_LIBRARY_PATH="$mpi_path$LD_LIBRARY_PATH" AB_MPIRUN=/usr/bin/orterun AB_KEEP="$out/fig/mpi_ab_runs" \
        timeout 200 sh "$top/test/device/mpi_profile_ab.sh" run "$dir" >"$out/fig/mpi_profile_ab.txt" 2>&1 || rc7=$?
    echo "mpi_profile_ab.sh: exit status $rc7 ($(date -u +%T))" | tee -a "$out/fig/mpi_profile_ab.txt"
    tail -n 40 "$out/fig/mpi_profile_ab.txt"
elif want mpi_ab; then
    echo "== mpi_profile_ab.sh skipped: no $dir/bench/mpi_measured (test/device/pack.sh builds it) or no /usr/bin/orterun"
fi
if want apps && [ -x "$dir/bench/apps_lulesh.plain" ]; then
    bench_part run_apps_bench.sh 300 30 PATH="/usr/bin:$PATH" LD_LIBRARY_PATH="$mpi_path$LD_LIBRARY_PATH" \
        BENCH_RUNS="${APPS_RUNS:-3}" APPS_VARIANTS="${APPS_VARIANTS:-$(cat "$dir/bench/apps_variants")}"
fi
if want omp && [ -x "$dir/bench/omp_pat_gomp" ]; then
    bench_part run_omp_bench.sh 200 30 BENCH_OMP_ONLY=gcc BENCH_RUNS="$runs"
fi
(cd "$out" && tar czf fig.tar.gz fig && rm -rf fig)
[ "$rc" = 0 ] && [ "$rc2" = 0 ]
