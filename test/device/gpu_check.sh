#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# gpu_check.sh: the device check of the CUDA adapter (issue 17 item 7), for a machine with an
# NVIDIA GPU. In a configured and built tree:
#
#   top_srcdir=$PWD top_builddir=$PWD/_build sh test/device/gpu_check.sh
#
# (GPU_CHECK_OVERHEAD=0 skips the overhead rounds; GPU_CHECK_OUT=DIR keeps the figures and
# the experiments' MANIFEST.md files there; GPU_CHECK_LAUNCHES=300000 the loop's length.)
# Checks, from the trace and the profile, with counts that follow from the programs' design:
#  1. multistream.cu under scorep-run and linked with scorep-cc nvcc: 3 streams as GPU
#     locations, kernels 12 x scale and 6 x add, 3 copies each way with 6 MiB in all (RMA
#     bytes in the trace), 3 memsets, NVTX ranges setup 1 / streams 1 / streams/stream 3,
#     timestamps increasing and regions nested on every location, nothing lost;
#  2. launches.cu: 300000 launches of an empty kernel + 1 of last with tracing on and
#     SCOREP_TOTAL_MEMORY=16M (the trace flushes): kernel visits exactly 300000 + 1 in the
#     profile and the trace, no record lost;
#  2b. SCOREP_CUDA_ENABLE=kernel,references: only the launch, copy and memset callbacks are
#     enabled (not the runtime domain): 1001 cudaLaunchKernel regions on the host, no other
#     API call, each correlation id once on a launch and once on its kernel;
#  2c. threads_graphs.cu: 4 host threads launching on their own streams (8000 kernels, 2000
#     cudaLaunchKernel per thread) and a captured graph of 3 kernels launched 50 times;
#  2d. mpi_cuda.cu on 2 MPI ranks (when mpirun is there), under scorep-run and linked with
#     scorep --mpp=mpi nvcc: each rank's kernels (10, 20) on its own GPU location, copies,
#     bytes and MPI_Allreduce per rank in one profile and trace;
#  3. torch_loop.py under scorep-run --cuda when PyTorch with CUDA is installed: the NVTX
#     range, at least 20 GEMM-like and 40 kernels in all;
#  4. overhead rounds (printed, asserted nothing): ns per empty-kernel launch and per
#     cudaStreamQuery, plain / CUPTI floor (cupti_floor.c preloaded: same subscriptions,
#     empty handlers) / scorep-rt kernel-only / profile / trace / trace with
#     kernel,references, medians of interleaved rounds. Exit status 77 (skip) without a GPU.
. "$top_srcdir/test/integration/lib.sh"

# GPU_CHECK_DRY=1: build everything and stop before the first run (a machine without a GPU)
if [ "${GPU_CHECK_DRY:-0}" != 1 ] && [ ! -e /dev/nvidia0 ] && ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIP: no NVIDIA GPU on this machine"
    exit 77
fi
[ -e "$top_builddir/.libs/libscorep-rt-cuda.so" ] || fail "the CUDA adapter is not built"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$NVCC" ] || fail "nvcc not found"
export PATH="$(dirname "$NVCC"):$PATH"
CUDA_DIR=$(dirname "$(dirname "$NVCC")")
D="$top_srcdir/test/device"
RUN="$top_builddir/scorep-run"
export SCOREP_RUN_LIBDIR="$top_builddir/.libs"
out=${GPU_CHECK_OUT:-}
[ -z "$out" ] || mkdir -p "$out"

# sum EXP CALLPATH METRIC: the metric of a call path summed over all locations
sum()
{
    profile_values "$1" "$2" "$3" | awk '{ s += $2 } END { printf "%.17g\n", s + 0 }'
}
# no_loss EXP NAME: MANIFEST.md and stderr say nothing was lost
no_loss()
{
    expect_eq "$(grep -c 'activity records lost' "$1/MANIFEST.md" || true)" 0 "$2: nothing lost (MANIFEST.md)"
    expect_eq "$(grep -c 'CUPTI dropped\|records lost' "$2.err" || true)" 0 "$2: nothing lost (stderr)"
    [ -z "$out" ] || cp "$1/MANIFEST.md" "$out/$2.MANIFEST.md"
}

# GPU_CHECK_BIN=DIR keeps the programs built there for the next run (one part at a time)
bin=${GPU_CHECK_BIN:-}
if [ -n "$bin" ] && [ -e "$bin/libfloor.so" ]; then
    cp "$bin/multistream" "$bin/multistream_linked" "$bin/launches" "$bin/threads_graphs" "$bin/libfloor.so" .
else
    "$NVCC" -O2 -I"$CUDA_DIR/include" -o multistream "$D/multistream.cu" -ldl || fail "nvcc multistream"
    scorep_cc nvcc -O2 -I"$CUDA_DIR/include" -o multistream_linked "$D/multistream.cu" -ldl
    "$NVCC" -O2 -o launches "$D/launches.cu" || fail "nvcc launches"
    "$NVCC" -O2 -o threads_graphs "$D/threads_graphs.cu" -lpthread || fail "nvcc threads_graphs"
    # CUPTI lies in lib64 or extras/CUPTI depending on how CUDA was installed; GPU_CHECK_FLOOR
    # names a libfloor.so built elsewhere (test/device/pack.sh) where neither holds cupti.h
    if ! cc -O2 -shared -fPIC -I"$CUDA_DIR/include" -I"$CUDA_DIR/extras/CUPTI/include" -o libfloor.so \
        "$D/cupti_floor.c" -L"$CUDA_DIR/lib64" -L"$CUDA_DIR/extras/CUPTI/lib64" \
        -Wl,-rpath,"$CUDA_DIR/lib64" -lcupti; then
        [ -n "${GPU_CHECK_FLOOR:-}" ] || fail "build cupti_floor.c (set GPU_CHECK_FLOOR to a libfloor.so)"
        cp "$GPU_CHECK_FLOOR" libfloor.so
    fi
    [ -z "$bin" ] || { mkdir -p "$bin" && cp multistream multistream_linked launches threads_graphs libfloor.so "$bin/"; }
fi
# GPU_CHECK_PARTS: which of multistream, loop, refs, threads, mpi, torch and overhead to run
# (default: all)
parts=" ${GPU_CHECK_PARTS:-multistream loop refs threads mpi torch overhead} "
want() { case $parts in *" $1 "*) return 0 ;; esac; return 1; }

if [ "${GPU_CHECK_DRY:-0}" = 1 ]; then
    ls -l multistream multistream_linked launches threads_graphs libfloor.so
    done_ok
    exit 0
fi

# --- 1. multistream ---
check_multistream()
{
    _e=$1
    _n=$2
    expect_eq "$status" 0 "$_n: exit status ($(cat "$_n.out") $(head -c 300 "$_n.err"))"
    expect_eq "$(cat "$_n.out")" "multistream ok" "$_n: results"
    expect_eq "$(sum "$_e" "scale(float*, int, float)" visits)" 12 "$_n: scale visits"
    expect_eq "$(sum "$_e" "add(float*, int, float)" visits)" 6 "$_n: add visits"
    expect_eq "$(profile_values "$_e" "scale(float*, int, float)" visits | wc -l | tr -d ' ')" 3 \
        "$_n: scale on 3 stream locations"
    expect_eq "$(sum "$_e" "memcpy HtoD" visits) $(sum "$_e" "memcpy DtoH" visits)" "3 3" "$_n: copies"
    expect_eq "$(sum "$_e" memset visits)" 3 "$_n: memsets"
    _p=${3:-} # linked with scorep-cc nvcc: the ranges lie under main
    expect_eq "$(sum "$_e" "${_p}setup" visits) $(sum "$_e" "${_p}streams" visits) $(sum "$_e" "${_p}streams/stream" visits)" \
        "1 1 3" "$_n: NVTX ranges"
    no_loss "$_e" "$_n"
}
if want multistream; then
    run_app ms env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_ms "$RUN" ./multistream
    check_multistream exp_ms ms
    expect_eq "$(trace_events exp_ms | awk '$1 == "RMA_GET" { sub(/.*Bytes: /, ""); sub(/,.*/, ""); s += $0 } END { print s + 0 }')" \
        6291456 "ms: bytes host to device in the trace (1 + 2 + 3 MiB)"
    expect_eq "$(trace_events exp_ms | awk '$1 == "RMA_PUT" { sub(/.*Bytes: /, ""); sub(/,.*/, ""); s += $0 } END { print s + 0 }')" \
        6291456 "ms: bytes device to host in the trace"
    expect_eq "$(trace_count exp_ms ENTER "" "scale(float*, int, float)")" 12 "ms: scale enters in the trace"
    expect_eq "$(trace_check_order exp_ms)" 0 "ms: timestamps increase per location"
    expect_eq "$(trace_check_nesting exp_ms)" 0 "ms: regions nest"
    run_app msl env SCOREP_EXPERIMENT_DIRECTORY=exp_msl ./multistream_linked
    check_multistream exp_msl msl main/
fi

# --- 2. 300000 launches, tracing, a small SCOREP_TOTAL_MEMORY ---
N=${GPU_CHECK_LAUNCHES:-300000}
if want loop; then
    run_app loop env SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=16M SCOREP_VERBOSE=true \
        SCOREP_EXPERIMENT_DIRECTORY=exp_loop "$RUN" ./launches launches "$N"
    expect_eq "$status" 0 "loop: exit status ($(head -c 300 loop.err))"
    expect_eq "$(sum exp_loop "empty()" visits) $(sum exp_loop "last()" visits)" "$N 1" \
        "loop: kernel visits in the profile"
    expect_eq "$(trace_count exp_loop ENTER "" "empty()") $(trace_count exp_loop ENTER "" "last()")" "$N 1" \
        "loop: kernel enters in the trace"
    no_loss exp_loop loop
    grep 'CUDA: .* activity buffers' loop.err || true
    [ -z "$out" ] || grep 'CUDA: \|flush' loop.err >"$out/loop.log" || true
fi

# callsite_pairs EXP: "HOST GPU VALUES BAD": the "callsite id" parameters on the master
# thread (launches) and on GPU streams (kernels), the distinct values on the host, and the
# kernels whose value is not that of a launch with the kernel's host stub (nvcc's host
# function of the kernel's name, a region when linked with scorep-cc nvcc) in its call path
callsite_pairs()
{
    trace_events "$1" | awk '
        $1 == "ENTER" || $1 == "LEAVE" { n = $0; sub(/^.*Region: "/, "", n); sub(/" <[0-9]+>$/, "", n)
            if ($1 == "ENTER") st[$2, ++d[$2]] = n; else d[$2]--; next }
        $1 == "PARAMETER_UINT64" && /"callsite id"/ { v = $NF
            if ($2 == 0) { p = ""; for (i = 1; i <= d[$2]; i++) p = p "/" st[$2, i]
                if (!(v in host)) { host[v] = p; nv++ }; nh++ }
            else { k[++nk] = st[$2, d[$2]]; kv[nk] = v } }
        END { for (i = 1; i <= nk; i++) if (index(host[kv[i]] "/", "/" k[i] "/") == 0) bad++
              print nh + 0, nk + 0, nv + 0, bad + 0 }'
}

# --- 2b. references without runtime: only the launch/copy/memset callbacks enabled ---
if want refs; then
    run_app refs env SCOREP_ENABLE_TRACING=true SCOREP_CUDA_ENABLE=kernel,references SCOREP_VERBOSE=true \
        SCOREP_EXPERIMENT_DIRECTORY=exp_refs "$RUN" ./launches launches 1000
    expect_eq "$status" 0 "refs: exit status ($(head -c 300 refs.err))"
    expect_ge "$(sed -n 's/.*references without runtime: \([0-9]*\) runtime API callbacks enabled.*/\1/p' refs.err)" 1 \
        "refs: launch, copy and memset callbacks enabled, not the domain"
    # launches.cu: 1000 launches of empty (the warm-up included) + 1 of last, each a
    # cudaLaunchKernel on the host with its correlation id, as its kernel on the GPU
    expect_eq "$(trace_count exp_refs ENTER 0 cudaLaunchKernel)" 1001 "refs: the launches on the host"
    expect_eq "$(trace_count exp_refs ENTER 0 cudaDeviceSynchronize) $(trace_count exp_refs ENTER 0 cudaFree)" \
        "0 0" "refs: no other API call recorded"
    expect_eq "$(trace_count exp_refs PARAMETER_UINT64 0) $(trace_events exp_refs | awk '$1 == "PARAMETER_UINT64" && $2 != 0' | wc -l | tr -d ' ')" \
        "1001 1001" "refs: a correlation id on each launch and on each kernel"
    expect_eq "$(trace_events exp_refs | awk '$1 == "PARAMETER_UINT64" { sub(/.*Value: /, ""); n[$0]++ } END { for (k in n) if (n[k] != 2) bad++; print bad + 0 }')" \
        0 "refs: each id exactly twice (launch and kernel)"
    expect_eq "$(trace_count exp_refs ENTER "" "empty()") $(trace_count exp_refs ENTER "" "last()")" "1000 1" \
        "refs: the kernels on the GPU"
    no_loss exp_refs refs
    # kernel_callsite (first run on a GPU 2026-11-30; the synthetic test_cuda_activity.sh
    # checks the values too): without runtime only the kernel launch callbacks; the uninstrumented loop
    # launches from one call path, so one id on 1001 launches and 1001 kernels
    run_app cs env SCOREP_ENABLE_TRACING=true SCOREP_CUDA_ENABLE=kernel_callsite SCOREP_VERBOSE=true \
        SCOREP_EXPERIMENT_DIRECTORY=exp_cs "$RUN" ./launches launches 1000
    expect_eq "$status" 0 "callsite: exit status ($(head -c 300 cs.err))"
    expect_ge "$(sed -n 's/.*kernel_callsite without runtime: \([0-9]*\) runtime API callbacks enabled.*/\1/p' cs.err)" 1 \
        "callsite: the kernel launch callbacks enabled, not the domain"
    expect_eq "$(trace_count exp_cs ENTER 0 cudaLaunchKernel)" 1001 "callsite: the launches on the host"
    expect_eq "$(callsite_pairs exp_cs | cut -d' ' -f1-3)" "1001 1001 1" \
        "callsite: an id on each launch and each kernel, one value (one call path)"
    expect_grep 'kernel_callsite: 1001 kernels with their launch' cs.err "callsite: every kernel found its launch"
    expect_eq "$(grep -c kernel_callsite exp_cs/MANIFEST.md || true)" 0 "callsite: no kernel without an id"
    no_loss exp_cs cs
    # linked with scorep-cc nvcc: main/scale(...)/cudaLaunchKernel and main/add(...)/...: two
    # call paths, each kernel with the id of the launches under its own host stub
    run_app csl env SCOREP_ENABLE_TRACING=true SCOREP_CUDA_ENABLE=yes,kernel_callsite \
        SCOREP_EXPERIMENT_DIRECTORY=exp_csl ./multistream_linked
    expect_eq "$status $(cat csl.out)" "0 multistream ok" "callsite linked: exit status ($(head -c 300 csl.err))"
    expect_eq "$(callsite_pairs exp_csl)" "18 18 2 0" \
        "callsite linked: 18 launches and 18 kernels, two ids, each kernel's that of its own launches"
    no_loss exp_csl csl
    # kernel alone: no callback, no sync flush; the flush at exit delivers the records
    run_app konly env SCOREP_CUDA_ENABLE=kernel SCOREP_EXPERIMENT_DIRECTORY=exp_konly \
        "$RUN" ./launches launches 1000
    expect_eq "$status $(sum exp_konly "empty()" visits) $(sum exp_konly "last()" visits)" "0 1000 1" \
        "kernel only: exit status, kernel visits (flushed at exit)"
    no_loss exp_konly konly
    # kernel_serial: CUPTI's KERNEL activity (kernels serialised), the same visits
    run_app kser env SCOREP_CUDA_ENABLE=kernel_serial SCOREP_EXPERIMENT_DIRECTORY=exp_kser \
        "$RUN" ./launches launches 1000
    expect_eq "$status $(sum exp_kser "empty()" visits) $(sum exp_kser "last()" visits)" "0 1000 1" \
        "kernel_serial: exit status, kernel visits"
    no_loss exp_kser kser
fi

# --- 2c. 4 host threads launching on their own streams, and a CUDA graph ---
if want threads; then
    run_app tg env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_tg "$RUN" ./threads_graphs
    expect_eq "$status $(cat tg.out)" "0 threads_graphs ok" "threads: exit status and results ($(head -c 300 tg.err))"
    expect_eq "$(sum exp_tg "work(int*)" visits)" 8000 "threads: work kernels"
    expect_eq "$(profile_values exp_tg "work(int*)" visits | awk '{ print $2 }' | sort -n | tr '\n' ' ')" \
        "2000 2000 2000 2000 " "threads: work on 4 stream locations"
    expect_eq "$(sum exp_tg "g1(int*)" visits) $(sum exp_tg "g2(int*)" visits) $(sum exp_tg "g3(int*)" visits)" \
        "50 50 50" "threads: the graph's kernels"
    # the 3 launches while capturing on the main thread, 2000 on each worker thread
    # (per location, whatever the call path above the call: a worker thread's root region)
    profile_dump exp_tg -m visits >tg.txt
    expect_eq "$(awk -F'\t' '$2 ~ /(^|\/)cudaLaunchKernel$/ { split($4, kv, "="); n[$3] += kv[2] }
        END { for (l in n) print n[l] }' tg.txt | sort -n | tr '\n' ' ')" \
        "3 2000 2000 2000 2000 " "threads: cudaLaunchKernel per host thread ($(grep cudaLaunchKernel tg.txt | cut -f2,3 | tr '\t\n' ' ;'))"
    expect_eq "$(sum exp_tg cudaGraphLaunch visits)" 50 "threads: cudaGraphLaunch"
    expect_eq "$(trace_count exp_tg ENTER "" "work(int*)")" 8000 "threads: work in the trace"
    expect_eq "$(trace_check_order exp_tg)" 0 "threads: timestamps increase per location"
    expect_eq "$(trace_check_nesting exp_tg)" 0 "threads: regions nest"
    no_loss exp_tg tg
fi

# --- 2d. MPI + CUDA: 2 ranks, each with its GPU locations, in one profile and trace ---
# check_mpi EXP NAME ENTERS: mpi_cuda.cu's design (rank r: 10 (r + 1) kernels, a copy each
# way of 1 MiB, one MPI_Allreduce); ENTERS of rank_kernel in the trace: 30 on the GPUs, and
# linked 30 more on the hosts (nvcc's host stub of the kernel, of the same name, instrumented)
check_mpi()
{
    expect_eq "$status $(cat "$2.out")" "0 mpi_cuda ok" "$2: exit status and results ($(head -c 300 "$2.err"))"
    expect_eq "$(profile_values "$1" "rank_kernel(int*, int)" visits | awk '{ print $2 }' | sort -n | tr '\n' ' ')" \
        "10 20 " "$2: rank_kernel on one GPU location per rank"
    expect_eq "$(sum "$1" "memcpy HtoD" visits) $(sum "$1" "memcpy DtoH" visits)" "2 2" "$2: copies"
    profile_dump "$1" -m visits >"$2.txt"
    expect_eq "$(awk -F'\t' '$2 ~ /(^|\/)MPI_Allreduce$/ { split($4, kv, "="); n[$3] += kv[2] }
        END { for (l in n) print n[l] }' "$2.txt" | tr '\n' ' ')" "1 1 " "$2: MPI_Allreduce on each rank"
    expect_eq "$(trace_count "$1" ENTER "" "rank_kernel(int*, int)")" "$3" "$2: kernels in the trace"
    grep 'rank_kernel' "$2.txt" | cut -f2,3,4 # the call paths, for the log
    expect_eq "$(trace_events "$1" | awk '$1 == "RMA_GET" { sub(/.*Bytes: /, ""); sub(/,.*/, ""); s += $0 } END { print s + 0 }')" \
        2097152 "$2: bytes host to device in the trace (2 x 1 MiB)"
    expect_eq "$(trace_check_order "$1") $(trace_check_nesting "$1")" "0 0" "$2: ordered and nested"
    no_loss "$1" "$2"
}
if want mpi; then
    mpirun=${GPU_CHECK_MPIRUN:-$(command -v mpirun || true)}
    if [ -z "$mpirun" ]; then
        echo "SKIP-PART-NOT-A-PACKAGE: mpi: no mpirun on this machine"
    else
        # GPU_CHECK_MPI_PROGRAMS: mpi_cuda and mpi_cuda_linked built elsewhere (pack.sh)
        if [ -n "${GPU_CHECK_MPI_PROGRAMS:-}" ]; then
            cp "$GPU_CHECK_MPI_PROGRAMS/mpi_cuda" "$GPU_CHECK_MPI_PROGRAMS/mpi_cuda_linked" .
        else
            mpi="$(mpicc --showme:compile) $(mpicc --showme:link)" || fail "mpicc --showme"
            "$NVCC" -O2 -o mpi_cuda "$D/mpi_cuda.cu" $mpi || fail "nvcc mpi_cuda"
            "$top_builddir/scorep-cc" --version >/dev/null
            ln -sf "$top_builddir/scorep-cc" scorep
            ./scorep --mpp=mpi nvcc -O2 -o mpi_cuda_linked "$D/mpi_cuda.cu" $mpi || fail "scorep nvcc mpi_cuda"
        fi
        mlibs=${GPU_CHECK_MPI_LIBS:+$GPU_CHECK_MPI_LIBS:}
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        run_app mc env LD_LIBRARY_PATH="$mlibs$LD_LIBRARY_PATH" SCOREP_ENABLE_TRACING=true \
            SCOREP_EXPERIMENT_DIRECTORY=exp_mc "$mpirun" -np 2 "$RUN" ./mpi_cuda
        check_mpi exp_mc mc 30
        run_app mcl env LD_LIBRARY_PATH="$mlibs$LD_LIBRARY_PATH" SCOREP_ENABLE_TRACING=true \
            SCOREP_EXPERIMENT_DIRECTORY=exp_mcl "$mpirun" -np 2 ./mpi_cuda_linked
        check_mpi exp_mcl mcl 60
        expect_eq "$(awk -F'\t' '$2 == "main/rank_kernel(int*, int)" { split($4, kv, "="); s += kv[2] } END { print s + 0 }' mcl.txt)" \
            30 "mcl: the kernels' host stubs under main"
    fi
fi

# --- 3. PyTorch ---
if ! want torch; then
    :
elif python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
    run_app torch env SCOREP_EXPERIMENT_DIRECTORY=exp_torch "$RUN" --cuda python3 "$D/torch_loop.py"
    expect_eq "$status $(tail -n 1 torch.out)" "0 torch ok" "torch: exit status and output"
    expect_eq "$(sum exp_torch "torch loop" visits)" 1 "torch: the NVTX range"
    profile_dump exp_torch -m visits >torch.txt
    gemm=$(awk -F'\t' 'tolower($2) ~ /gemm|cutlass|sm[0-9]+_xmma/ { split($4, kv, "="); s += kv[2] } END { print s + 0 }' torch.txt)
    all=$(awk -F'\t' '$3 != 0 { split($4, kv, "="); s += kv[2] } END { print s + 0 }' torch.txt)
    expect_eq "$([ "$gemm" -ge 20 ] && [ "$all" -ge 40 ] && echo yes)" yes \
        "torch: GEMM kernels ($gemm) >= 20 and GPU visits ($all) >= 40"
    no_loss exp_torch torch
else
    echo "SKIP-PART: PyTorch with CUDA not installed: torch_loop.py not run"
fi

# --- 4. overhead rounds ---
if [ "${GPU_CHECK_OVERHEAD:-1}" = 1 ] && want overhead; then
    rounds=${GPU_CHECK_ROUNDS:-3}
    : >rounds.txt
    for r in $(seq "$rounds"); do
        for v in plain floor kernel profile trace refs; do
            for op in "launches 50000" "query 200000"; do
                case $v in
                plain) x=$(./launches $op) ;;
                floor) x=$(env LD_PRELOAD="$PWD/libfloor.so" ./launches $op) ;;
                kernel) x=$(env SCOREP_CUDA_ENABLE=kernel SCOREP_EXPERIMENT_DIRECTORY=ov_${v}_$r \
                    SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=true "$RUN" ./launches $op 2>/dev/null) ;;
                profile) x=$(env SCOREP_EXPERIMENT_DIRECTORY=ov_$v SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=true \
                    "$RUN" ./launches $op 2>/dev/null) ;;
                trace) x=$(env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=ov_$v \
                    SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=true "$RUN" ./launches $op 2>/dev/null) ;;
                refs) x=$(env SCOREP_ENABLE_TRACING=true SCOREP_CUDA_ENABLE=kernel,references \
                    SCOREP_EXPERIMENT_DIRECTORY=ov_$v SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=true \
                    "$RUN" ./launches $op 2>/dev/null) ;;
                esac
                echo "$v ${op% *} $x" >>rounds.txt
            done
        done
    done
    median() { awk -v v="$1" -v o="$2" '$1 == v && $2 == o { print $3 }' rounds.txt | sort -n |
        awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.1f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
    {
        printf 'ns per operation, medians of %s interleaved rounds (%s)\n' "$rounds" "$(nvidia-smi -L 2>/dev/null | head -n 1)"
        printf '%-22s %10s %10s %14s %10s %10s %16s\n' operation plain "CUPTI floor" "kernel only" profile trace \
            "kernel,references"
        for op in launches query; do
            label="empty-kernel launch"
            [ $op = query ] && label="cudaStreamQuery"
            printf '%-22s %10s %10s %14s %10s %10s %16s\n' "$label" "$(median plain $op)" "$(median floor $op)" \
                "$(median kernel $op)" "$(median profile $op)" "$(median trace $op)" "$(median refs $op)"
        done
        f=$(median floor launches)
        t=$(median trace launches)
        echo "trace vs floor per launch: $(echo "$t $f" | awk '{ printf "%+.1f%%", ($1 / $2 - 1) * 100 }') (goal: within 10%)"
    } | tee overhead.txt
    [ -z "$out" ] || cp overhead.txt rounds.txt "$out/"
fi
done_ok
