#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# shellcheck disable=SC2086 # $cc is split on purpose: CC may carry options (gcc -m64)
# run_libwrap_bench.sh: part of `make bench`: the cost of a call of a wrapped library function
# (scorep-libwrap-init; docs/libwrap.md) against the plain call (bench/libwrap_bench.c) and a
# user region (bench/user_region_bench.c): link-time wrapping, the same function excluded by
# SCOREP_FILTERING_FILE (a check only), run-time wrapping under scorep-run; the same for a C++
# member function (bench/libwrap_bench_cxx.cc, -x c++) when libclang's bindings are there. Profiling; the
# fastest of BENCH_RUNS runs of BENCH_PAIRS calls on the thread's CPU clock. Asserts nothing.
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

cc=${CC:-gcc}
runs=${BENCH_RUNS:-5}
pairs=${BENCH_PAIRS:-10000000}
cd "$tmp"
echo "building the library-wrapping benchmark in $tmp ..." >&2
mkdir lib
step "libwrap_bench library" $cc -O2 -fPIC -shared -DLWB_LIBRARY -o lib/liblwb.so "$bench/libwrap_bench.c"
echo 'int lwb_work(long i);' >lwb.h
step "plain program" $cc -O2 -o plain "$bench/libwrap_bench.c" -Llib -Wl,-rpath,"$tmp/lib" -llwb
export SCOREP_LIBWRAP_TEMPLATES="$srcdir/share/libwrap" SCOREP_LIBWRAP_SCOREP_CC="$builddir/scorep-cc"
step "scorep-libwrap-init" "$builddir/scorep-libwrap-init" --name=lwb -x c --cppflags="-I$tmp" \
    --ldflags="-L$tmp/lib" --libs=-llwb --prefix="$tmp/prefix" wd
echo '#include "lwb.h"' >>wd/libwrap.h
step "make install of the wrapper" make -C wd install
export SCOREP_LIBWRAP_PATH="$tmp/prefix"
step "link-time wrapped program" "$builddir/scorep-cc" --nocompiler --libwrap=lwb $cc -O2 -o linked \
    "$bench/libwrap_bench.c" -Llib -Wl,-rpath,"$tmp/lib" -llwb
step "user region program" "$builddir/scorep-cc" --user --nocompiler $cc -O2 -o user \
    "$bench/user_region_bench.c"
# the region name is Score-P's, lwb_work(long): a MANGLED rule matches the symbol
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE MANGLED lwb_work\nSCOREP_REGION_NAMES_END\n' >excl.filter
cxx=false
if python3 "$srcdir/share/libwrap/libwrap-gen.py" --probe-cxx 2>/dev/null; then
    cxx=true
    mkdir cxxinc
    printf 'namespace lwbx {\nstruct Acc {\n    int mask;\n    int work(long i) const;\n};\n}\n' >cxxinc/lwbx.h
    step "C++ library" g++ -O2 -fPIC -shared -DLWB_LIBRARY -Icxxinc -o lib/liblwbx.so "$bench/libwrap_bench_cxx.cc"
    step "C++ plain program" g++ -O2 -Icxxinc -o cxxplain "$bench/libwrap_bench_cxx.cc" -Llib -Wl,-rpath,"$tmp/lib" -llwbx
    step "scorep-libwrap-init -x c++" "$builddir/scorep-libwrap-init" --name=lwbx -x c++ --cppflags="-I$tmp/cxxinc" \
        --ldflags="-L$tmp/lib" --libs=-llwbx --prefix="$tmp/prefix" wdx
    echo '#include "lwbx.h"' >>wdx/libwrap.h
    step "make install of the C++ wrapper" make -C wdx install
    step "C++ link-time wrapped program" "$builddir/scorep-cc" --nocompiler --libwrap=lwbx g++ -O2 -Icxxinc \
        -o cxxlinked "$bench/libwrap_bench_cxx.cc" -Llib -Wl,-rpath,"$tmp/lib" -llwbx
fi

echo "running ($runs x $pairs calls each) ..." >&2
plain=$(fastest ns_per_call ./plain)
linked=$(fastest ns_per_call ./linked)
filtered=$(fastest ns_per_call SCOREP_FILTERING_FILE=excl.filter ./linked)
runtime=$(fastest ns_per_call SCOREP_RUN_LIBDIR="$builddir/.libs" SCOREP_LIBWRAP_ENABLE=lwb "$builddir/scorep-run" ./plain)
user=$(fastest ns_per_pair ./user)
if $cxx; then
    cxxplain=$(fastest ns_per_call ./cxxplain)
    cxxlinked=$(fastest ns_per_call ./cxxlinked)
    cxxruntime=$(fastest ns_per_call SCOREP_RUN_LIBDIR="$builddir/.libs" SCOREP_LIBWRAP_ENABLE=lwbx "$builddir/scorep-run" ./cxxplain)
fi
row() { # row LABEL NS [BASE]
    printf '%-62s %8s %8s\n' "$1" "$2" "$(echo "$2 ${3:-$plain}" | awk '{ printf "%.1f", $1 - $2 }')"
}
echo
echo "Wrapped library call (a one-statement function of a shared library), ns per call"
echo "(fastest of $runs runs x $pairs), profiling"
printf '%-62s %8s %8s\n' "variant" "ns" "added"
row "plain call, no wrapper" "$plain"
row "link time (scorep-cc --libwrap): enter and leave" "$linked"
row "link time, excluded by SCOREP_FILTERING_FILE: a check" "$filtered"
row "run time (scorep-run, SCOREP_LIBWRAP_ENABLE): enter and leave" "$runtime"
printf '%-62s %8s\n' "for comparison: a user region (BEGIN/END, no call inside)" "$user"
if $cxx; then
    echo
    echo "Wrapped C++ member function (lwbx::Acc::work(long) const, -x c++), ns per call"
    printf '%-62s %8s %8s\n' "variant" "ns" "added"
    row "plain call, no wrapper" "$cxxplain" "$cxxplain"
    row "link time (scorep-cc --libwrap, -Wl,--wrap of the symbol)" "$cxxlinked" "$cxxplain"
    row "run time (scorep-run, SCOREP_LIBWRAP_ENABLE)" "$cxxruntime" "$cxxplain"
else
    echo "(the C++ case needs libclang's Python bindings, python3-clang-14: skipped)"
fi
