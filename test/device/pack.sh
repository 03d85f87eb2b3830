#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# pack.sh: packs what gpu_check.sh needs from this machine's build into one folder that can
# travel to a GPU machine which has CUDA but none of our Debian packages (no OTF2, PAPI,
# libdw, Open MPI): the build tree's programs and libraries, copies of the libraries they
# need (ldd's view), otf2-print, libcupti, and the CPU benchmark's programs. Run on the build machine, in a built tree:
#
#   sh test/device/pack.sh [DIR]          (default: _gpu, ignored through .git/info/exclude)
#
# and on the GPU machine, in a copy of the source tree holding DIR:
#
#   sh test/device/on_device.sh [DIR]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd -P)
dir=${1:-_gpu}
b=${top_builddir:-$top/_build}
[ -e "$b/.libs/libscorep-rt-cuda.so" ] || { echo "pack.sh: no CUDA adapter in $b/.libs: build with CUPTI first" >&2; exit 1; }
case $dir in /*) ;; *) dir=$top/$dir ;; esac
rm -rf "$dir"
mkdir -p "$dir/build/.libs" "$dir/build/test/tools" "$dir/lib" "$dir/mpilib" "$dir/bin"
for p in scorep-cc scorep-run scorep-info scorep-score; do
    cp "$b/$p" "$dir/build/"
done
ln -s scorep-cc "$dir/build/scorep" # Score-P's instrumenter command (--mpp=mpi)
cp "$b/test/tools/profile_check" "$dir/build/test/tools/"
# scorep-cube-dump links Open MPI (the distributed Cube engine): its libraries go to mpilib,
# seen by it alone, so that the measured programs (PyTorch) keep the machine's own
cp "$b/scorep-cube-dump" "$dir/build/scorep-cube-dump.bin"
cat >"$dir/build/scorep-cube-dump" <<'EOS'
#!/bin/sh
# wrapper made by test/device/pack.sh: scorep-cube-dump with its Open MPI libraries
d=$(dirname "$0")
LD_LIBRARY_PATH="$d/../mpilib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$d/scorep-cube-dump.bin" "$@"
EOS
chmod +x "$dir/build/scorep-cube-dump"
(cd "$b/.libs" && cp -a libscorep-rt.so* libscorep-rt-cuda.so* libscorep-rt-nvtx.so* libscorep-rt-mpi.so* \
    libscorep-rt-memory.so* libscorep-rt-io-posix.so* libscorep-rt-io-isoc.so* libscorep-rt-gomp.so* \
    "$dir/build/.libs/")
rm -f "$dir"/build/.libs/*T
cp "$(command -v otf2-print)" "$dir/bin/"
# the libraries of our libraries and programs, except the C and C++ runtimes (the GPU
# machine's own are newer) and what the CUDA driver brings
deps()
{
    ldd "$@" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | sort -u |
        grep -v -E '^(libc|libm|libdl|librt|libutil|libpthread|libstdc\+\+|libgcc_s|libcuda|libscorep-rt[-a-z]*)\.so' ||
        [ $? = 1 ] # grep: every library filtered out
}
deps "$b"/.libs/libscorep-rt.so.0 "$b"/.libs/libscorep-rt-cuda.so.0 "$b"/.libs/libscorep-rt-nvtx.so.0 \
    "$b/scorep-info" "$b/test/tools/profile_check" "$dir/bin/otf2-print" >"$dir/lib.list"
deps "$b/scorep-cube-dump" >"$dir/mpilib.list"
while read -r n f; do cp -L "$f" "$dir/lib/$n"; done <"$dir/lib.list"
while read -r n f; do
    grep -q "^$n " "$dir/lib.list" || cp -L "$f" "$dir/mpilib/$n"
done <"$dir/mpilib.list"
# the CUPTI floor of the overhead rounds, built here too in case the GPU machine has no cupti.h
cc -O2 -shared -fPIC -I/usr/local/cuda/include -o "$dir/build/libfloor.so" \
    "$top/test/device/cupti_floor.c" -L/usr/local/cuda/lib64 -lcupti
# Open MPI for gpu_check.sh's mpi part, where the GPU machine has none: its files at their
# absolute paths (on_device.sh unpacks them into /), the libraries its components load in
# mpilib, and the MPI + CUDA programs built here
if command -v mpicc >/dev/null && [ -x /usr/bin/orterun ]; then
    tar czf "$dir/openmpi.tar.gz" -C / usr/lib/x86_64-linux-gnu/openmpi usr/share/openmpi \
        usr/lib/x86_64-linux-gnu/pmix2 usr/bin/orted usr/bin/orterun etc/openmpi
    for f in /usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/*.so /usr/lib/x86_64-linux-gnu/pmix2/lib/pmix/*.so \
        /usr/bin/orted /usr/bin/orterun; do
        deps "$f"
    done | sort -u | while read -r n f; do
        [ -e "$dir/lib/$n" ] || cp -L "$f" "$dir/mpilib/$n"
    done
    ln -sf /usr/bin/orterun "$dir/bin/mpirun"
    mpi="$(mpicc --showme:compile) $(mpicc --showme:link)"
    PATH="/usr/local/cuda/bin:$PATH" nvcc -O2 -o "$dir/build/mpi_cuda" "$top/test/device/mpi_cuda.cu" $mpi
    PATH="/usr/local/cuda/bin:$PATH" SCOREP_CC_LIBDIR="$b/.libs" SCOREP_CC_INCLUDEDIR="$top/include" \
        "$dir/build/scorep" --mpp=mpi nvcc -O2 -o "$dir/build/mpi_cuda_linked" "$top/test/device/mpi_cuda.cu" $mpi
fi
# the CPU benchmark's programs (bench/run_bench.sh), built here: the GPU machine's compilers
# differ (the GCC plugin is built for this GCC); on_device.sh runs them with BENCH_PROGRAMS
BENCH_SAVE_PROGRAMS="$dir/bench" abs_top_builddir="$b" abs_top_srcdir="$top" sh "$top/bench/run_bench.sh"
if command -v mpicc >/dev/null && [ -e "$b/.libs/libscorep-rt-mpi.so" ]; then
    BENCH_SAVE_PROGRAMS="$dir/bench" abs_top_builddir="$b" abs_top_srcdir="$top" sh "$top/bench/run_mpi_bench.sh"
fi
# real applications (#31) when LULESH_SRC / COMD_SRC name checkouts (bench/run_apps_bench.sh;
# APPS_VARIANTS, default "plain default functions"), and run_omp_bench.sh's gcc part (fib)
apps_variants=${APPS_VARIANTS:-plain default functions}
echo "$apps_variants" >"$dir/bench/apps_variants"
if [ -n "${LULESH_SRC:-}${COMD_SRC:-}" ]; then
    APPS_VARIANTS=$apps_variants BENCH_SAVE_PROGRAMS="$dir/bench" abs_top_builddir="$b" abs_top_srcdir="$top" \
        sh "$top/bench/run_apps_bench.sh"
fi
if command -v clang >/dev/null; then
    BENCH_OMP_ONLY=gcc BENCH_SAVE_PROGRAMS="$dir/bench" abs_top_builddir="$b" abs_top_srcdir="$top" \
        sh "$top/bench/run_omp_bench.sh"
fi
# what the benchmark programs load beyond the libraries above (libgomp, libomp, libstdc++'s
# neighbours), into lib
for f in "$dir"/bench/*; do
    [ -x "$f" ] && [ -f "$f" ] && deps "$f"
done | sort -u | while read -r n f; do
    [ -e "$dir/lib/$n" ] || [ -e "$dir/mpilib/$n" ] || cp -L "$f" "$dir/lib/$n"
done
du -sh "$dir"
