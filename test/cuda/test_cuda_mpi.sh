#!/bin/sh
# test_cuda_mpi.sh: the synthetic CUPTI records of cuda_synthetic.c on each of 2 MPI ranks:
# every rank's GPU locations under its process in the trace and the profile, one CUDA window
# per rank whose RMA records name that rank's master thread as remote, definitions clean.
. "$top_srcdir/test/integration/lib.sh"

cuda_lib="$top_builddir/.libs/libscorep-rt-cuda.so"
if [ ! -e "$cuda_lib" ]; then
    echo "SKIP: the CUDA adapter is not built (configure found no CUPTI, or --with-cuda=no)"
    echo "SKIP-NOT-A-PACKAGE: CUDA/CUPTI is not a Debian package the quickstart installs"
    exit 77
fi
[ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: no MPI adapter"; exit 77; }
command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# CUPTI's directory: the adapter's run path names CUDA's lib64
cuda_libdir=$(readelf -d "$cuda_lib" | sed -n 's/.*R[UN]*PATH.*\[\(.*\)\]/\1/p' | tr ':' '\n' |
    while read -r d; do [ -e "$d/libcupti.so" ] && echo "$d" && break; done)
[ -n "$cuda_libdir" ] || fail "no libcupti.so in the run path of $cuda_lib"
cuda_dir=$(dirname "$cuda_libdir")

scorep_cc --nocompiler mpicc -O2 -DWITH_MPI -I"$top_srcdir/src" -I"$top_builddir" \
    -I"$cuda_dir/include" -o syn "$top_srcdir/test/cuda/cuda_synthetic.c" \
    -Wl,--no-as-needed -lscorep-rt-cuda -L"$cuda_libdir" -Wl,-rpath,"$cuda_libdir" -lcupti
run_app syn env SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime \
    SCOREP_CUDA_BUFFER=64k SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k \
    SCOREP_EXPERIMENT_DIRECTORY=exp \
    mpirun -np 2 ./syn
expect_eq "$status" 0 "exit status"
expect_eq "$(cat syn.out)" "synthetic records processed
synthetic records processed" "program output"
if [ ! -e /dev/nvidia0 ]; then
    expect_eq "$(grep -c 'CUDA: cuptiSubscribe failed' syn.err)" 2 "one warning per rank"
fi

# --- trace: locations (id = local index * 2 + rank), windows, events per rank ---
trace_defs exp >defs.txt
expect_eq "$(awk '$1 == "LOCATION" { n = $0; sub(/.*Name: "/, "", n); sub(/".*/, "", n)
    g = $0; sub(/.*Group: "/, "", g); sub(/".*/, "", g); print $2, n, g }' defs.txt | sort -n |
    tr '\n' ';')" \
    "0 Master thread MPI Rank 0;1 Master thread MPI Rank 1;2 CUDA[0:1:7] CUDA[0:1];3 CUDA[0:1:7] CUDA[0:1];4 CUDA[0:1:8] CUDA[0:1];5 CUDA[0:1:8] CUDA[0:1];" \
    "locations and their location groups"
# accelerator groups (one per device and context of each rank) after the processes,
# created by their process; each holds its rank's two streams
expect_eq "$(awk '$1 == "LOCATION_GROUP" { sub(/^LOCATION_GROUP +/, ""); gsub(/ <[0-9]+>/, ""); print }' \
    defs.txt | tr '\n' ';')" \
    "0  Name: \"MPI Rank 0\", Type: PROCESS, Parent: \"node::$(hostname)\", Creator: UNDEFINED;1  Name: \"MPI Rank 1\", Type: PROCESS, Parent: \"node::$(hostname)\", Creator: UNDEFINED;2  Name: \"CUDA[0:1]\", Type: ACCELERATOR, Parent: \"node::$(hostname)\", Creator: \"MPI Rank 0\";3  Name: \"CUDA[0:1]\", Type: ACCELERATOR, Parent: \"node::$(hostname)\", Creator: \"MPI Rank 1\";" \
    "location groups"
expect_eq "$(grep -c 'Group: "CUDA\[0:1\]" <2>' defs.txt) $(grep -c 'Group: "CUDA\[0:1\]" <3>' defs.txt)" \
    "2 2" "two streams in each accelerator group"
expect_eq "$(grep -c '^RMA_WIN .*Name: "CUDA window"' defs.txt)" 2 "one CUDA window per rank"
expect_defs_clean exp "two ranks with GPU locations"
for loc in 2 3; do
    r=$((loc - 2))
    expect_eq "$(trace_events exp | awk -v l=$loc '$2 == l && $1 ~ /^RMA_(GET|PUT)$/' |
        sed 's/.*Window: //' | tr '\n' ';')" \
        "\"CUDA window\" <$r>, Remote: 0 (\"Master thread\" <$r>), Bytes: 4096, Matching: 11;\"CUDA window\" <$r>, Remote: 0 (\"Master thread\" <$r>), Bytes: 4096, Matching: 15;" \
        "rank $r: RMA transfers on its window, remote = its master thread"
    expect_eq "$(trace_count exp ENTER $loc 'vecAdd(float const*, float const*, float*, int)')" 2 \
        "rank $r: kernel enters"
done
expect_eq "$(trace_check_order exp)" 0 "timestamps increase per location"
expect_eq "$(trace_check_nesting exp)" 0 "regions nest"

# --- profile ---
expect_eq "$(profile_dump exp --system | cut -f3- | tr '\t' ' ' | tr '\n' ';')" \
    "MPI Rank 0 Master thread 0;MPI Rank 0 CUDA[0:1:7] 0;MPI Rank 0 CUDA[0:1:8] 0;MPI Rank 1 Master thread 1;MPI Rank 1 CUDA[0:1:7] 1;MPI Rank 1 CUDA[0:1:8] 1;" \
    "system tree"
K="vecAdd(float const*, float const*, float*, int)"
expect_eq "$(profile_values exp "$K" visits | tr '\n' ';')" "1 2;4 2;" "kernel visits per GPU location"
expect_eq "$(profile_values exp "$K" time | tr '\n' ';')" "1 0.0002;4 0.0002;" "kernel time per GPU location"

# --- unmodified under scorep-run: an MPI program annotated with NVTX (the part of the CUDA
# stack that runs without a GPU), every rank's ranges in one profile and trace ---
mpicc -O1 -DWITH_MPI -I"$cuda_dir/include" -o nvtx_mpi "$top_srcdir/test/cuda/nvtx_prog.c" -ldl ||
    fail "build nvtx_prog.c with MPI"
run_app nvmpi env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_nv \
    SCOREP_RUN_LIBDIR="$top_builddir/.libs" mpirun -np 2 "$top_builddir/scorep-run" ./nvtx_mpi
expect_eq "$status" 0 "MPI + NVTX under scorep-run: exit status ($(head -c 300 nvmpi.err))"
expect_eq "$(profile_values exp_nv outer/inner visits | tr '\n' ';')" "0 3;1 3;" \
    "MPI + NVTX: inner ranges on each rank"
expect_eq "$(profile_values exp_nv "solver: iteration" visits | tr '\n' ';')" "0 4;1 4;" \
    "MPI + NVTX: domain ranges on each rank"
expect_eq "$(trace_count exp_nv ENTER 0 inner) $(trace_count exp_nv ENTER 1 inner)" "3 3" \
    "MPI + NVTX: the trace of both ranks"
done_ok
