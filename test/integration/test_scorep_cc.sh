#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_scorep_cc.sh: checks the exact commands scorep-cc builds (--dry-run), its errors, and real
# compiles and links against a stand-in libscorep-rt.so built here.
set -u
: "${top_builddir:?run through make check}" "${top_srcdir:?run through make check}"

wrap="$top_builddir/scorep-cc"
work=$(mktemp -d "${TMPDIR:-/tmp}/test_scorep_cc.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
work=$(cd "$work" && pwd -P)
export TMPDIR="$work/tmp"
mkdir "$TMPDIR"
failures=0

fail() {
    printf 'FAIL: %s\n' "$*" >&2
    failures=$((failures + 1))
}

# check NAME WANT_OUTPUT WANT_STATUS COMMAND...: stdout and stderr together must equal WANT.
check() {
    name=$1 want=$2 want_rc=$3
    shift 3
    got=$("$@" 2>&1)
    rc=$?
    [ "$got" = "$want" ] || fail "$name: got
$got
want
$want"
    [ "$rc" = "$want_rc" ] || fail "$name: exit status $rc, want $want_rc"
}

# --- exact commands, with fixed include and library directories ---
export SCOREP_CC_INCLUDEDIR=/inc SCOREP_CC_LIBDIR=/lib
# the memory adapter is linked by default, as Score-P's instrumenter does (docs/memory.md)
# and, where the NVTX adapter is built, NVTX's static injection point, whole (docs/cuda.md)
inj=
[ ! -e "$top_builddir/.libs/libscorep-rt-nvtx.so" ] ||
    inj=' -Wl,--whole-archive -lscorep-rt-nvtx-inject -Wl,--no-whole-archive'
link="-L/lib -Wl,-rpath,/lib -Wl,--push-state,--no-as-needed -lscorep-rt-memory -Wl,--pop-state$inj -lscorep-rt"
# the filter reference object (--filter): a dry run creates no temporary directory and shows
# the directory's mkdtemp pattern as it is (command.c, prepare_filter_ref)
filter_ref="$TMPDIR/scorep-cc.XXXXXX/scorep_cc_filter"
export_filter='-Wl,--export-dynamic-symbol=scorep_cc_filter_file'
# the GCC plugin of --filter (compile-time filtering), when configure found gcc's plugin headers:
# the build's, or TEST_GCC_PLUGIN, the plugin for the machine a cross gcc runs on (as lib.sh)
export SCOREP_CC_GCC_PLUGIN="${TEST_GCC_PLUGIN:-$top_builddir/.libs/scorep_filter_gcc.so}"
# the commands below are -finstrument-functions' (--instrument=plugin is checked at the end)
export SCOREP_CC_INSTRUMENT=functions
if "$wrap" --help | grep -q 'not built here'; then
    plugin_args() { :; }
else
    plugin_args() { printf " -fplugin=%s '-fplugin-arg-scorep_filter_gcc-filter=%s'" "$SCOREP_CC_GCC_PLUGIN" "$1"; }
fi

check "compile only" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 -c foo.c -o foo.o" 0 \
    "$wrap" --dry-run gcc -c foo.c -o foo.o
check "link" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 foo.o bar.o -o app $link" 0 \
    "$wrap" --dry-run gcc foo.o bar.o -o app
check "sources" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 -O2 a.c b.c -o app -lm $link" 0 \
    "$wrap" --dry-run gcc -O2 a.c b.c -o app -lm
check "shared" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 -shared -fPIC -o libx.so x.c $link" 0 \
    "$wrap" --dry-run gcc -shared -fPIC -o libx.so x.c
for stop in -S -E -M -MM; do
    check "stop $stop" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 $stop foo.c" 0 \
        "$wrap" --dry-run gcc $stop foo.c
done
check "g++" "g++ -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 -std=c++17 -c x.cc" 0 \
    "$wrap" --dry-run g++ -std=c++17 -c x.cc
check "clang" "clang -finstrument-functions -I/inc -g1 -fdebug-info-for-profiling -c x.c" 0 \
    "$wrap" --dry-run clang -c x.c
check "clang++ versioned" \
    "/usr/bin/clang++-14 -finstrument-functions -I/inc -g1 -fdebug-info-for-profiling x.cc -o x $link" 0 \
    "$wrap" --dry-run /usr/bin/clang++-14 x.cc -o x
check "gfortran" "gfortran -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 -c x.f90" 0 \
    "$wrap" --dry-run gfortran -c x.f90
check "default source" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 foo.c -o app $link" 0 \
    "$wrap" --dry-run foo.c -o app
check "default option" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 -c foo.c" 0 \
    "$wrap" --dry-run -c foo.c
check "user" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -DSCOREP_USER_ENABLE -g1 -c foo.c" 0 \
    "$wrap" --dry-run --user gcc -c foo.c
check "nocompiler" "gcc -I/inc -c foo.c" 0 "$wrap" --nocompiler --dry-run gcc -c foo.c
check "nocompiler user link" "gcc -I/inc -DSCOREP_USER_ENABLE foo.o -o app $link" 0 \
    "$wrap" --nocompiler --user --dry-run gcc foo.o -o app
check "user -g" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g -O2 -c foo.c" 0 \
    "$wrap" --dry-run gcc -g -O2 -c foo.c
check "user -ggdb3" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -c -ggdb3 foo.c" 0 \
    "$wrap" --dry-run gcc -c -ggdb3 foo.c
check "user -g0" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g0 -c foo.c" 0 \
    "$wrap" --dry-run gcc -g0 -c foo.c
check "-gsplit-dwarf sets no level" \
    "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 -gsplit-dwarf -c foo.c" 0 \
    "$wrap" --dry-run gcc -gsplit-dwarf -c foo.c
check "quoting" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 '-DMSG=\"a b\"' foo.c -o 'my app' $link" 0 \
    "$wrap" --dry-run gcc '-DMSG="a b"' foo.c -o 'my app'
check "query" "gcc --version" 0 "$wrap" --dry-run gcc --version

# --filter: gcc and g++ load the plugin that leaves excluded functions uninstrumented; at link
# time a generated filter reference object defines the file's path for the run-time filter.
filter="$work/my filter.flt"
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE twice\nSCOREP_REGION_NAMES_END\n' >"$filter"
check "filter compile" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1$(plugin_args "$filter") -c foo.c" 0 \
    "$wrap" --dry-run --filter="$filter" gcc -c foo.c
check "filter link" "gcc -c -fPIC -o $filter_ref.o $filter_ref.c
gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1$(plugin_args "$filter") foo.o -o app $filter_ref.o $export_filter $link" 0 \
    "$wrap" --dry-run --filter "$filter" gcc foo.o -o app
check "filter g++" "gcc-12 -c -fPIC -m32 -o $filter_ref.o $filter_ref.c
g++-12 -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1$(plugin_args "$filter") -m32 -x c++ a.cc -o app -x none $filter_ref.o $export_filter $link" \
    0 "$wrap" --dry-run --filter="$filter" g++-12 -m32 -x c++ a.cc -o app
check "filter mpicxx" "mpicxx -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1$(plugin_args "$filter") -c a.cc" 0 \
    "$wrap" --dry-run --filter="$filter" mpicxx -c a.cc
# with -finstrument-functions no plugin: clang has no gcc plugins, gfortran calls none before
# it adds the hooks (their plugin mode filters: checked at the end)
check "filter clang" "clang -finstrument-functions -I/inc -g1 -fdebug-info-for-profiling -c x.c" 0 \
    "$wrap" --dry-run --filter="$filter" clang -c x.c
check "filter gfortran" "gfortran -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 -c x.f90" 0 \
    "$wrap" --dry-run --filter="$filter" gfortran -c x.f90
check "filter nocompiler" "gcc -I/inc -c foo.c" 0 \
    "$wrap" --dry-run --nocompiler --filter="$filter" gcc -c foo.c
check "filter clang++" "/opt/bin/clang-14 -c -fPIC -o $filter_ref.o $filter_ref.c
/opt/bin/clang++-14 -finstrument-functions -I/inc -g1 -fdebug-info-for-profiling -shared -o libx.so x.o $filter_ref.o $export_filter $link" \
    0 "$wrap" --dry-run --filter="$filter" /opt/bin/clang++-14 -shared -o libx.so x.o

# --- errors ---
check "unknown option" "scorep-cc: unknown option '--x'; see scorep-cc --help" 1 \
    "$wrap" --x gcc -c foo.c
check "missing filter" \
    "scorep-cc: cannot read filter file '$work/none.flt': No such file or directory" 1 \
    "$wrap" --filter="$work/none.flt" gcc -c foo.c
check "filter without file" "scorep-cc: --filter needs a file name; see scorep-cc --help" 1 \
    "$wrap" --filter
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE x\n' >"$work/open.flt"
check "filter syntax" "scorep-cc: bad filter file: $work/open.flt:1: SCOREP_REGION_NAMES_BEGIN without SCOREP_REGION_NAMES_END before the end of the file" 1 \
    "$wrap" --filter="$work/open.flt" clang -c foo.c
check "filter is a directory" "scorep-cc: cannot read filter file '$work': not a regular file" 1 \
    "$wrap" --filter="$work" gcc -c foo.c
check "static" "scorep-cc: static executables (-static) are not supported: the measurement runtime libscorep-rt is a shared library" \
    1 "$wrap" --dry-run gcc -static foo.c -o app
check "static compile" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 -static -c foo.c" 0 \
    "$wrap" --dry-run gcc -static -c foo.c
check "unsupported compiler" \
    "scorep-cc: unsupported compiler 'icc' (supported: gcc, cc, g++, c++, clang, clang++, gfortran, nvcc); see scorep-cc --help" \
    1 "$wrap" --dry-run icc -c foo.c
check "no compiler" "scorep-cc: no compiler command given; see scorep-cc --help" 1 "$wrap" --user
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$top_builddir/config.h")
check "version" "scorep-cc (scorep-rt) $version" 0 "$wrap" --version
"$wrap" --help | grep -q '^Usage: scorep-cc \[options\] <compiler>' || fail "help"

# --- real compiles and links against a stand-in runtime ---
export SCOREP_CC_INCLUDEDIR="$top_srcdir/include" SCOREP_CC_LIBDIR="$work/rt"
mkdir "$work/rt" "$work/b"
cd "$work/b" || exit 99
cat >fake_rt.c <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
static int enters, exits;
void __cyg_profile_func_enter(void *fn, void *site) { (void)fn; (void)site; enters++; }
void __cyg_profile_func_exit(void *fn, void *site) { (void)fn; (void)site; exits++; }
__attribute__((destructor)) static void report(void)
{
    const char *filter = dlsym(RTLD_DEFAULT, "scorep_cc_filter_file");
    printf("fake-rt: enters=%d exits=%d filter=%s\n", enters, exits, filter ? filter : "(none)");
}
EOF
gcc -shared -fPIC -o "$work/rt/libscorep-rt.so" fake_rt.c -ldl || exit 99
# and the memory adapter, which scorep-cc links by default: an empty stand-in
echo 'int scorep_fake_memory_adapter;' >fake_memory.c
gcc -shared -fPIC -o "$work/rt/libscorep-rt-memory.so" fake_memory.c || exit 99
# and NVTX's static injection point, linked whole: an empty stand-in
echo 'int scorep_fake_nvtx_inject;' >fake_inject.c
gcc -c -fPIC -o fake_inject.o fake_inject.c && ar rcs "$work/rt/libscorep-rt-nvtx-inject.a" fake_inject.o ||
    exit 99
cat >twice.c <<'EOF'
int twice(int x) { return 2 * x; }
EOF
cat >main.c <<'EOF'
#include <stdio.h>
int twice(int x);
int main(void) { printf("result=%d\n", twice(twice(3))); return 0; }
EOF

has_hook() { nm "$1" | grep -q ' U __cyg_profile_func_enter$'; }
"$wrap" gcc -c twice.c -o twice.o || fail "gcc -c"
has_hook twice.o || fail "gcc object lacks __cyg_profile_func_enter"
"$wrap" --nocompiler gcc -c twice.c -o plain.o || fail "gcc --nocompiler -c"
has_hook plain.o && fail "--nocompiler object references __cyg_profile_func_enter"
if command -v clang >/dev/null; then
    "$wrap" clang -c twice.c -o twice_clang.o || fail "clang -c"
    has_hook twice_clang.o || fail "clang object lacks __cyg_profile_func_enter"
    "$wrap" --nocompiler clang -c twice.c -o plain_clang.o || fail "clang --nocompiler -c"
    has_hook plain_clang.o && fail "clang --nocompiler object references __cyg_profile_func_enter"
fi
ar rcs libtwice.a twice.o || fail "ar"
"$wrap" gcc -c main.c || fail "gcc -c main.c"
"$wrap" gcc main.o -L. -ltwice -o app || fail "link with a static library"
check "run" "result=12
fake-rt: enters=3 exits=3 filter=(none)" 0 ./app
readelf -d app | grep -q 'NEEDED.*\[libscorep-rt\.so\]' || fail "app does not need libscorep-rt.so"
nm -D app | grep -q ' scorep_cc_filter_file$' && fail "filter symbol without --filter"

# The wrapped compiler's status is scorep-cc's, with and without a filter reference object.
gcc -c missing.c 2>/dev/null
want_rc=$?
"$wrap" gcc -c missing.c 2>/dev/null
[ $? = "$want_rc" ] || fail "exit status of a failing compile"
"$wrap" --filter="$filter" gcc missing.c -o x 2>/dev/null
[ $? = "$want_rc" ] || fail "exit status of a failing link with --filter"

"$wrap" --verbose --filter="$filter" gcc main.o -L. -ltwice -o app_f 2>verbose.txt ||
    fail "link with --filter"
[ "$(wc -l <verbose.txt)" = 2 ] && grep -q "^gcc -c -fPIC -o $TMPDIR/scorep-cc\.[^/]*/scorep_cc_filter\.o " verbose.txt &&
    tail -n 1 verbose.txt | grep -q "^gcc .* -Wl,-rpath,$work/rt -Wl,--push-state,--no-as-needed -lscorep-rt-memory -Wl,--pop-state$inj -lscorep-rt$" ||
    fail "--verbose output: $(cat verbose.txt)"
check "run with filter" "result=12
fake-rt: enters=3 exits=3 filter=$filter" 0 ./app_f
nm -D app_f | grep -q ' scorep_cc_filter_file$' || fail "app_f lacks the dynamic filter symbol"
[ -z "$(ls "$TMPDIR")" ] || fail "temporary files left: $(ls "$TMPDIR")"

"$wrap" --filter="$filter" gcc -shared -fPIC -o libtwice.so twice.c || fail "shared library"
nm -D libtwice.so | grep -q ' scorep_cc_filter_file$' || fail "libtwice.so lacks the filter symbol"
# the filter excludes twice, its only function: with the plugin, it calls no hook, so the
# linker (--as-needed) leaves libscorep-rt out
if [ -n "$(plugin_args x)" ]; then
    nm -D libtwice.so | grep -q '__cyg_profile_func_enter' && fail "filtered libtwice.so calls the hook"
    readelf -d libtwice.so | grep -q 'NEEDED.*\[libscorep-rt\.so\]' &&
        fail "filtered libtwice.so needs libscorep-rt.so"
else
    readelf -d libtwice.so | grep -q 'NEEDED.*\[libscorep-rt\.so\]' ||
        fail "libtwice.so does not need libscorep-rt.so"
fi

cat >main.cc <<'EOF'
#include <cstdio>
static int square(int x) { return x * x; }
int main() { std::printf("result=%d\n", square(5)); return 0; }
EOF
"$wrap" g++ main.cc -o app_cxx || fail "g++ link"
check "run g++" "result=25
fake-rt: enters=2 exits=2 filter=(none)" 0 ./app_cxx
if command -v clang >/dev/null; then
    "$wrap" --filter="$filter" clang main.c twice.c -o app_clang || fail "clang link"
    check "run clang" "result=12
fake-rt: enters=3 exits=3 filter=$filter" 0 ./app_clang
fi

# --- --instrument (#9): the plugin's own instrumentation instead of -finstrument-functions ---
unset SCOREP_CC_INSTRUMENT
export SCOREP_CC_INCLUDEDIR=/inc SCOREP_CC_LIBDIR=/lib
if [ -n "$(plugin_args x)" ]; then
    pl="-fplugin=$SCOREP_CC_GCC_PLUGIN -fplugin-arg-scorep_filter_gcc-instrument -fplugin-arg-scorep_filter_gcc-exclude-file=/nvtx3/"
    check "instrument=plugin" "gcc $pl -I/inc -g1 -c foo.c" 0 \
        "$wrap" --dry-run --instrument=plugin gcc -c foo.c
    check "default: plugin when installed" "g++ $pl -I/inc -g1 -c x.cc" 0 \
        "$wrap" --dry-run g++ -c x.cc
    check "instrument=plugin, mpicc" "mpicc $pl -I/inc -g1 -c x.c" 0 \
        "$wrap" --dry-run mpicc -c x.c
    check "instrument=plugin with filter" \
        "gcc $pl -I/inc -g1 '-fplugin-arg-scorep_filter_gcc-filter=$filter' -c foo.c" 0 \
        "$wrap" --dry-run --instrument=plugin --filter="$filter" gcc -c foo.c
    # #31: the plugin's defaults (after inlining, its threshold) need no argument
    check "instrument-inlined, instrument-threshold" \
        "gcc -fplugin=$SCOREP_CC_GCC_PLUGIN -fplugin-arg-scorep_filter_gcc-instrument -fplugin-arg-scorep_filter_gcc-inlined -fplugin-arg-scorep_filter_gcc-threshold=7 -fplugin-arg-scorep_filter_gcc-exclude-file=/nvtx3/ -I/inc -g1 -c foo.c" 0 \
        "$wrap" --dry-run --instrument-inlined --instrument-threshold=7 gcc -c foo.c
    check "SCOREP_CC_INSTRUMENT_THRESHOLD, SCOREP_CC_INSTRUMENT_INLINED" \
        "gcc -fplugin=$SCOREP_CC_GCC_PLUGIN -fplugin-arg-scorep_filter_gcc-instrument -fplugin-arg-scorep_filter_gcc-inlined -fplugin-arg-scorep_filter_gcc-threshold=0 -fplugin-arg-scorep_filter_gcc-exclude-file=/nvtx3/ -I/inc -g1 -c foo.c" 0 \
        env SCOREP_CC_INSTRUMENT_THRESHOLD=0 SCOREP_CC_INSTRUMENT_INLINED=yes "$wrap" --dry-run gcc -c foo.c
    check "bad SCOREP_CC_INSTRUMENT_THRESHOLD" \
        "scorep-cc: SCOREP_CC_INSTRUMENT_THRESHOLD=-1: expected a number" 1 \
        env SCOREP_CC_INSTRUMENT_THRESHOLD=-1 "$wrap" --dry-run gcc -c foo.c
    check "default: functions without the plugin file" \
        "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 -c foo.c" 0 \
        env SCOREP_CC_GCC_PLUGIN=/nonexistent/p.so "$wrap" --dry-run gcc -c foo.c
fi
check "instrument=functions" "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 -c foo.c" 0 \
    "$wrap" --dry-run --instrument=functions gcc -c foo.c
# The LLVM pass plugin (#20): clang and clang++ of the LLVM version it was built for keep
# -finstrument-functions (the plugin takes over the functions clang marks for the hooks).
lp="$top_builddir/.libs/scorep_llvm_plugin.so"
export SCOREP_CC_LLVM_PLUGIN="$lp"
mkdir -p "$work/fakebin"
printf '#!/bin/sh\necho 99.0.1\n' >"$work/fakebin/clang-99"
chmod +x "$work/fakebin/clang-99"
if [ -f "$lp" ]; then
    check "default clang: LLVM plugin" \
        "clang -finstrument-functions -fpass-plugin=$lp -I/inc -g1 -fdebug-info-for-profiling -c x.c" 0 \
        "$wrap" --dry-run clang -c x.c
    check "clang++ with filter: -mllvm after -fplugin" \
        "clang++ -finstrument-functions -fpass-plugin=$lp -I/inc -g1 -fdebug-info-for-profiling -fplugin=$lp -mllvm '-scorep-filter=$filter' -c x.cc" 0 \
        "$wrap" --dry-run --filter="$filter" clang++ -c x.cc
    check "clang: the plugin's options after one -fplugin" \
        "clang -finstrument-functions -fpass-plugin=$lp -I/inc -g1 -fdebug-info-for-profiling -fplugin=$lp -mllvm '-scorep-filter=$filter' -mllvm -scorep-instrument-inlined -mllvm -scorep-instrument-threshold=0 -c x.c" 0 \
        "$wrap" --dry-run --filter="$filter" --instrument-inlined --instrument-threshold=0 clang -c x.c
    check "clang link with the plugin's options: no -mllvm" \
        "clang -finstrument-functions -fpass-plugin=$lp -I/inc -g1 -fdebug-info-for-profiling x.o -o app $link" 0 \
        "$wrap" --dry-run --instrument-threshold=0 clang x.o -o app
    check "clang link with filter: no -mllvm" "clang -c -fPIC -o $filter_ref.o $filter_ref.c
clang -finstrument-functions -fpass-plugin=$lp -I/inc -g1 -fdebug-info-for-profiling x.o -o app $filter_ref.o $export_filter $link" 0 \
        "$wrap" --dry-run --filter="$filter" clang x.o -o app
    major=$(clang -dumpversion | sed 's/\..*//')
    check "clang of another LLVM version: functions, one line why" \
        "scorep-cc: the LLVM plugin was built for clang $major, this is clang 99: using -finstrument-functions (slower: see --instrument)
$work/fakebin/clang-99 -finstrument-functions -I/inc -g1 -fdebug-info-for-profiling -c x.c" 0 \
        "$wrap" --dry-run "$work/fakebin/clang-99" -c x.c
    check "instrument=plugin, clang of another LLVM version" \
        "scorep-cc: --instrument=plugin: the LLVM plugin was built for clang $major, this is clang 99; use --instrument=functions" 1 \
        "$wrap" --dry-run --instrument=plugin "$work/fakebin/clang-99" -c x.c
else
    check "default clang without the LLVM plugin: functions, one line why" \
        "scorep-cc: scorep-rt was built without the LLVM headers of this clang (Debian: llvm-N-dev; reconfigure): using -finstrument-functions (slower: see --instrument)
clang -finstrument-functions -I/inc -g1 -fdebug-info-for-profiling -c x.c" 0 \
        "$wrap" --dry-run clang -c x.c
    check "instrument=plugin, clang without the LLVM plugin" \
        "scorep-cc: --instrument=plugin: scorep-rt was built without the LLVM headers of this clang (Debian: llvm-N-dev; reconfigure); use --instrument=functions" 1 \
        "$wrap" --dry-run --instrument=plugin clang -c x.c
fi
check "clang link: no line about the plugin" \
    "clang -finstrument-functions -I/inc -g1 -fdebug-info-for-profiling x.o -o app $link" 0 \
    env SCOREP_CC_LLVM_PLUGIN=/nonexistent/p.so "$wrap" --dry-run clang x.o -o app
# gfortran and nvcc's host code through the GCC plugin (#20), with its compile-time filter
if [ -n "$(plugin_args x)" ]; then
    check "default gfortran: GCC plugin" "gfortran $pl -I/inc -g1 -c x.f90" 0 \
        "$wrap" --dry-run gfortran -c x.f90
    check "gfortran with filter" \
        "mpif90 $pl -I/inc -g1 '-fplugin-arg-scorep_filter_gcc-filter=$filter' -c x.F90" 0 \
        "$wrap" --dry-run --filter="$filter" mpif90 -c x.F90
    # the CUDA toolkit's headers are left out as the nvcc on PATH places them: a toolkit at
    # $work/cuda, reached through the link $work/cuda-link (the path as written and resolved)
    mkdir -p "$work/cuda/bin"
    printf '#!/bin/sh\n' >"$work/cuda/bin/nvcc"
    chmod +x "$work/cuda/bin/nvcc"
    ln -s cuda "$work/cuda-link"
    xpl="-Xcompiler -fplugin=$SCOREP_CC_GCC_PLUGIN -Xcompiler -fplugin-arg-scorep_filter_gcc-instrument"
    for f in /nvtx3/ .cudafe1.stub.c "$work/cuda-link/include/" "$work/cuda-link/targets/" \
        "$work/cuda-link/bin/../targets/" "$work/cuda/include/" "$work/cuda/targets/"; do
        xpl="$xpl -Xcompiler -fplugin-arg-scorep_filter_gcc-exclude-file=$f"
    done
    xpl="$xpl -Xcompiler -fplugin-arg-scorep_filter_gcc-exclude-function=__nv_"
    check "default nvcc: GCC plugin through -Xcompiler, CUDA's and NVTX's headers left out" \
        "nvcc $xpl -I/inc -Xcompiler -g1 -Xcompiler '-fplugin-arg-scorep_filter_gcc-filter=$filter' -c x.cu" 0 \
        env PATH="$work/cuda-link/bin:$PATH" "$wrap" --dry-run --filter="$filter" nvcc -c x.cu
    # a real nvcc says where its headers are (--dryrun: nvcc.profile's INCLUDES and
    # SYSTEM_INCLUDES), wherever the toolkit lies: those directories, as written and
    # simplified, and no guess from PATH (directories that do not exist: no realpath)
    mkdir -p "$work/cuda-dry/bin"
    {
        printf '#!/bin/sh\n[ "$1" = --dryrun ] || exit 0\n'
        printf 'echo %s >&2\n' "'#\$ _HERE_=$work/cuda-dry/bin'" \
            "'#\$ INCLUDES=\"-I$work/cuda-dry/bin/../targets/x86_64-linux/include\"  '" \
            "'#\$ SYSTEM_INCLUDES=\"-isystem\" \"$work/cccl/include\"  '"
    } >"$work/cuda-dry/bin/nvcc"
    chmod +x "$work/cuda-dry/bin/nvcc"
    xpl="-Xcompiler -fplugin=$SCOREP_CC_GCC_PLUGIN -Xcompiler -fplugin-arg-scorep_filter_gcc-instrument"
    for f in /nvtx3/ .cudafe1.stub.c "$work/cuda-dry/bin/../targets/x86_64-linux/include/" \
        "$work/cuda-dry/targets/x86_64-linux/include/" "$work/cccl/include/"; do
        xpl="$xpl -Xcompiler -fplugin-arg-scorep_filter_gcc-exclude-file=$f"
    done
    xpl="$xpl -Xcompiler -fplugin-arg-scorep_filter_gcc-exclude-function=__nv_"
    check "default nvcc: the header directories nvcc --dryrun names left out" \
        "nvcc $xpl -I/inc -Xcompiler -g1 -c x.cu" 0 \
        env PATH="$work/cuda-dry/bin:$PATH" "$wrap" --dry-run nvcc -c x.cu
    check "nvcc -ccbin: functions" "nvcc -Xcompiler -finstrument-functions -I/inc -Xcompiler -g1 -ccbin g++-11 -c x.cu" 0 \
        "$wrap" --dry-run nvcc -ccbin g++-11 -c x.cu
    check "instrument=plugin, nvcc -ccbin" \
        "scorep-cc: --instrument=plugin: nvcc's host compiler is chosen with -ccbin, the GCC plugin fits the gcc it was built for only; use --instrument=functions" 1 \
        "$wrap" --dry-run --instrument=plugin nvcc -ccbin g++-11 -c x.cu
else
    check "instrument=plugin, gfortran without the GCC plugin" \
        "scorep-cc: --instrument=plugin: scorep-rt was built without gcc's plugin headers (Debian: gcc-N-plugin-dev); use --instrument=functions" 1 \
        "$wrap" --dry-run --instrument=plugin gfortran -c x.f90
fi
check "instrument=functions, gfortran" "gfortran -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 -c x.f90" 0 \
    "$wrap" --dry-run --instrument=functions gfortran -c x.f90
check "instrument=bad" "scorep-cc: --instrument=calls: expected plugin or functions" 1 \
    "$wrap" --dry-run --instrument=calls gcc -c x.c

[ "$failures" = 0 ] || {
    echo "test_scorep_cc: $failures failure(s)" >&2
    exit 1
}
exit 0
