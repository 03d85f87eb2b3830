#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_cuda_program.sh: a real CUDA program (saxpy.cu) built with `scorep-cc nvcc` and an
# unmodified build run under scorep-run. Without a GPU (CI, these machines) CUPTI cannot
# subscribe: exactly one warning, and the host side is measured completely.
. "$top_srcdir/test/integration/lib.sh"

if [ ! -e "$top_builddir/.libs/libscorep-rt-cuda.so" ]; then
    echo "SKIP: the CUDA adapter is not built (configure found no CUPTI, or --with-cuda=no)"
    echo "SKIP-NOT-A-PACKAGE: CUDA/CUPTI is not a Debian package the quickstart installs"
    exit 77
fi
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ ! -x "$NVCC" ]; then
    echo "SKIP: nvcc not found (neither on PATH nor in /usr/local/cuda/bin)"
    echo "SKIP-NOT-A-PACKAGE: CUDA is not a Debian package the quickstart installs"
    exit 77
fi
export PATH="$(dirname "$NVCC"):$PATH"

# --- link time: scorep-cc nvcc (host code instrumented through -Xcompiler) ---
scorep_cc nvcc -O2 -o saxpy "$top_srcdir/test/cuda/saxpy.cu"
run_to saxpy.dyn readelf -d saxpy
expect_eq "$(count_lines 'NEEDED.*libscorep-rt-cuda' saxpy.dyn)" 1 "the CUDA adapter is linked"
run_app saxpy env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp ./saxpy
expect_eq "$status" 0 "exit status"
gpu=no
grep -q '^gpu:' saxpy.out && gpu=yes
if [ $gpu = no ]; then
    expect_eq "$(cat saxpy.out)" "no gpu: host side only" "program output"
    expect_eq "$(wc -l <saxpy.err | tr -d ' ')" 1 "exactly one line on stderr"
    expect_grep '^\[scorep-rt\] warning: CUDA: cuptiSubscribe failed \(CUPTI_ERROR_UNKNOWN, 999\)' \
        saxpy.err "the one warning"
fi
expect_eq "$(profile_sum exp main visits)" 1 "main visits"
expect_eq "$(profile_sum exp 'main/fill(float*, int, float)' visits)" 6 "fill visits"
expect_eq "$(profile_sum exp 'main/run_on_gpu(float*, float*, int)' visits)" 1 "run_on_gpu visits"
expect_eq "$(trace_count exp ENTER 0 'fill(float*, int, float)')" 6 "trace: ENTER fill"
expect_eq "$(trace_count exp LEAVE 0 'fill(float*, int, float)')" 6 "trace: LEAVE fill"
expect_eq "$(trace_check_nesting exp)" 0 "trace nests"
# saxpy.cu's own functions are its only instrumented ones: not cudaMalloc<float> of
# cuda_runtime.h, nor nvcc's registration stub (__sti____cudaRegisterAll) and __nv_ helpers
# (the master thread's: GPU locations hold kernels and copies)
profile_dump exp -m visits | awk -F'\t' '$3 == 0 { print $2 }' >paths.txt
# (what scorep-cc excluded, for the log: where nvcc placed its headers on this machine)
run_to saxpy.cmd "$SCOREP_CC" --dry-run nvcc -O2 -o saxpy "$top_srcdir/test/cuda/saxpy.cu"
awk '{ for (i = 1; i <= NF; i++) if ($i ~ /exclude/) print "scorep-cc: " $i }' saxpy.cmd
expect_eq "$(awk '/cudaMalloc<|cudaRegisterAll|cudaUnregisterBinary|__nv_/' paths.txt)" "" \
    "no function of CUDA's headers or nvcc's stubs instrumented"
expect_eq "$(grep -v -E '^(pthread_|cuda|cu[A-Z])|^main/run_on_gpu\(float\*, float\*, int\)/.' paths.txt | tr '\n' ';')" \
    ".;main;main/fill(float*, int, float);main/run_on_gpu(float*, float*, int);" \
    "host call paths (besides the CUDA API and the CUDA runtime's mutexes; . the program root)"
if [ $gpu = no ]; then
    # the CUDA calls failed before reaching a device: no GPU locations
    expect_eq "$(profile_locations exp)" 1 "one location (the master thread)"
else
    # the GPU side (saxpy.cu's design): one saxpy kernel on one stream location, two copies
    # host to device and one back, 3 x 256 KiB in the trace's RMA records, 4 API regions
    K='saxpy(int, float, float const*, float*)'
    expect_eq "$(profile_values exp "$K" visits | awk '{ print $2 }')" 1 "GPU: saxpy visits"
    expect_eq "$(profile_values exp 'memcpy HtoD' visits | awk '{ s += $2 } END { print s }')" 2 \
        "GPU: copies host to device"
    expect_eq "$(profile_values exp 'memcpy DtoH' visits | awk '{ s += $2 } END { print s }')" 1 \
        "GPU: copies device to host"
    expect_eq "$(trace_events exp | awk '$1 == "RMA_GET" || $1 == "RMA_PUT" { sub(/.*Bytes: /, ""); sub(/,.*/, ""); s += $0 } END { print s }')" \
        786432 "GPU: bytes copied (3 x 65536 floats)"
    expect_eq "$(profile_sum exp 'main/run_on_gpu(float*, float*, int)/cudaMalloc' visits)" 2 \
        "GPU: cudaMalloc visits"
    expect_eq "$(trace_check_order exp)" 0 "GPU: timestamps increase per location"
    expect_eq "$(grep -c 'activity records lost' exp/MANIFEST.md || true)" 0 "GPU: nothing lost"
fi

# The host code went through the GCC plugin (#20, scorep-cc's default for nvcc where it is
# built): region descriptors and the inline check, no -finstrument-functions hook; with
# --filter the plugin leaves fill uninstrumented (objdump) and the profile without it.
if [ -f "$SCOREP_CC_GCC_PLUGIN" ]; then
    expect_eq "$(count_out ' U scorep_plugin_enter$' nm saxpy) $(count_out ' U __cyg_profile_func_enter$' nm saxpy)" \
        "1 0" "host code instrumented by the GCC plugin, no hook"
    printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE fill*\nSCOREP_REGION_NAMES_END\n' >fill.flt
    scorep_cc --filter=fill.flt nvcc -O2 -o saxpy_f "$top_srcdir/test/cuda/saxpy.cu"
    expect_eq "$(disasm_fn saxpy_f _Z4fillPfif | grep -c -E 'call.*(scorep_|__cyg_)')" 0 \
        "compile-time filter: fill calls no runtime function"
    # (with the CUDA headers' inline functions that -O2 inlined into it)
    expect_ge "$(disasm_fn saxpy_f _Z10run_on_gpuPfS_i | grep -c 'call.*<scorep_plugin_enter')" 1 \
        "compile-time filter: run_on_gpu stays instrumented"
    run_app saxpy_f env SCOREP_EXPERIMENT_DIRECTORY=exp_f ./saxpy_f
    expect_eq "$status" 0 "filtered: exit status"
    expect_eq "$(profile_sum exp_f 'main/fill(float*, int, float)' visits)" 0 "filtered: no fill"
    expect_eq "$(profile_sum exp_f 'main/run_on_gpu(float*, float*, int)' visits)" 1 \
        "filtered: run_on_gpu visits"
else
    skip_part "the GCC plugin (gcc-12-plugin-dev)"
fi

# --- preload: an unmodified nvcc build under scorep-run ---
"$NVCC" -O2 -o saxpy_plain "$top_srcdir/test/cuda/saxpy.cu" || fail "nvcc build"
run_app plain env SCOREP_EXPERIMENT_DIRECTORY=exp2 SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
    "$top_builddir/scorep-run" --verbose ./saxpy_plain
expect_eq "$status" 0 "scorep-run exit status"
expect_grep "^scorep-run: LD_PRELOAD=.*/libscorep-rt.so:.*/libscorep-rt-cuda.so " plain.err \
    "scorep-run preloads the CUDA adapter (the program links the CUDA runtime statically)"
if [ $gpu = no ]; then
    expect_eq "$(grep -c 'warning' plain.err)" 1 "exactly one warning under scorep-run"
    expect_grep 'CUDA: cuptiSubscribe failed' plain.err "the one warning under scorep-run"
fi
# the unmodified program has no instrumented functions, and no GPU gives no CUDA regions
expect_grep '^SCOREP_CUDA_ENABLE=' exp2/scorep.cfg "the experiment records the CUDA settings"
run_app plain2 env SCOREP_EXPERIMENT_DIRECTORY=exp3 SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
    "$top_builddir/scorep-run" --verbose --no-cuda ./saxpy_plain
expect_eq "$(grep -c 'libscorep-rt-cuda' plain2.err)" 0 "--no-cuda preloads no CUDA adapter"
expect_eq "$(grep -c 'warning' plain2.err)" 0 "no warning without the CUDA adapter"
done_ok
