#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# build.sh: builds the libFuzzer targets of test/fuzz with clang (-fsanitize=fuzzer,address,
# undefined): each harness with the sources it exercises, compiled here with coverage (the
# build tree's objects are gcc's, without it). Used by test_fuzz.sh and `make fuzz`.
# usage: build.sh SRCDIR BUILDDIR OUTDIR TARGET...   (targets: cube otf2 filter selective config)
# Exit status 77 when clang has no libFuzzer.
set -eu
src=$1 build=$2 out=$3
shift 3
CLANG=${FUZZ_CC:-clang}
command -v "$CLANG" >/dev/null 2>&1 || { echo "build.sh: no $CLANG"; exit 77; }
mkdir -p "$out"
probe="$out/.probe"
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n * 0; }\n' \
    >"$probe.c"
"$CLANG" -fsanitize=fuzzer,address,undefined -o "$probe" "$probe.c" 2>"$probe.err" ||
    { echo "build.sh: $CLANG has no libFuzzer: $(head -c 300 "$probe.err")"; exit 77; }
# -fno-sanitize-recover: undefined behaviour stops the run like a crash, so that it is found
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -std=gnu11
 -D_GNU_SOURCE -DHAVE_CONFIG_H -I$src/include -I$src/src -I$build"
# stale BIN FILE...: BIN is missing or older than a FILE, a header of src/ or include/, or this
# script
stale()
{
    _bin=$1
    shift
    [ -x "$_bin" ] && [ ! "$src/test/fuzz/build.sh" -nt "$_bin" ] || return 0
    for _f in "$@"; do
        [ ! "$_f" -nt "$_bin" ] || return 0
    done
    [ -n "$(find "$src/src" "$src/include" -name '*.h' -newer "$_bin" | head -n 1)" ]
}
for target in "$@"; do
    case $target in
    cube)
        srcs="src/cube/cube_reader.c src/cube/cube_tar.c src/cube/cube_xml.c src/cube/cube_error.c
 src/cube/cube_enum.c src/cube/cube_anchor.c src/cube/cube_engine.c src/cube/cube_plan.c
 src/cube/cube_writer.c"
        libs="-lz -lm -lpthread" ;;
    otf2)
        srcs="src/tools/trace_model.c src/trace/otf2_read_guard.c src/trace/otf2_defs_load.c
 src/analysis/an_load_otf2.c src/analysis/an_calltree.c src/analysis/an_task_load.c"
        libs="-lopen-trace-format2 -lm" ;;
    filter)
        srcs="src/filter/filter.c" libs="" ;;
    selective)
        srcs="src/adapters/user/selective_file.c" libs="" ;;
    config)
        srcs="src/config/config_parse.c src/config/config_table.c src/config/config_help.c
 src/config/config_unknown.c src/base/settings.c"
        libs="" ;;
    *)
        echo "build.sh: unknown target $target" >&2
        exit 2 ;;
    esac
    files="$src/test/fuzz/fuzz_$target.c"
    for s in $srcs; do files="$files $src/$s"; done
    # shellcheck disable=SC2086
    stale "$out/fuzz_$target" $files || continue
    # shellcheck disable=SC2086
    "$CLANG" $flags -DFUZZ_OTF2_TEMPLATE="\"$src/test/fuzz/otf2_template\"" \
        -o "$out/fuzz_$target" $files $libs
done
