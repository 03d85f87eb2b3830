#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_memory_hbw.sh: memory recording of memkind's hbwmalloc functions (docs/memory.md):
# test/programs/hbw_alloc.c calls hbw_malloc, hbw_calloc, hbw_realloc, hbw_free,
# hbw_posix_memalign and hbw_posix_memalign_psize with known sizes (its comments give every
# count). Linked by scorep-cc (the adapter before -lmemkind) and, the plain binary, under
# scorep-run: exact visits, ALLOCATION_SIZE, DEALLOCATION_SIZE and bytes_leaked on the
# allocating call paths (test/tools/cube_values.py), Score-P's roles, the Enter events in the
# trace (otf2-print); the same on a machine with high-bandwidth memory (hbw_check_available
# 0) and without (HBW_POLICY_PREFERRED falls back to ordinary memory): both paths run
# everywhere, the HBM one with MEMKIND_HBW_NODES=0 (memkind takes node 0 for HBM). A program
# without memkind does not load it. A program linked with the static libmemkind.a (by path or
# -Wl,-Bstatic -lmemkind): the same records through scorep-cc's link-time wrapping.
. "$top_srcdir/test/integration/lib.sh"

if ! printf '#include <hbwmalloc.h>\nint main(void) { return hbw_check_available() < 0; }\n' |
    gcc -x c -o probe - -lmemkind 2>probe.err; then
    skip_part "libmemkind-dev (hbwmalloc.h, libmemkind)"
    exit 77
fi

CV=cube_values
# cube EXPDIR METRIC: "path value" of the call paths below the program's own functions
# (small, grow, aligned, plain; memkind's own start-up allocations, made in
# hbw_set_policy and hbw_check_available, land on main/malloc and are left out)
cube()
{
    $CV "$1/profile.cubex" "$2" >"$work/.cv" || fail "cube_values.py $1 $2 failed"
    awk -F'\t' '$1 ~ /^main\/(small|grow|aligned|plain)\// { p = $1; sub(/^main\//, "", p); s[p] += $3 }
        END { for (k in s) print k, s[k] }' "$work/.cv" | sort | tr '\n' ';'
}

gcc -O1 -o hbw_plain "$PROGRAMS/hbw_alloc.c" -lmemkind || fail "plain build"
./hbw_plain >plain.out 2>plain.err || fail "plain run: $(cat plain.err)"
case $(cat plain.out) in
"hbm yes done ok") part "high-bandwidth memory present: hbw_* allocate from it" ;;
"hbm no done ok") part "no high-bandwidth memory: HBW_POLICY_PREFERRED falls back to ordinary memory" ;;
*) fail "plain run: unexpected output '$(cat plain.out)'" ;;
esac

alloc='aligned/hbw_posix_memalign 4096;aligned/hbw_posix_memalign_psize 8192;grow/hbw_calloc 1000;grow/hbw_realloc 3000;plain/malloc 500;small/hbw_malloc 3000;'
dealloc='aligned/hbw_free 4096;grow/hbw_free 3000;grow/hbw_realloc 1000;plain/free 500;small/hbw_free 2000;'
leaked='aligned/hbw_posix_memalign_psize 8192;small/hbw_malloc 1000;'

# check NAME [OUTPUT]: the profile and trace of the run NAME (experiment directory NAME);
# its output as the plain run's, or OUTPUT
check()
{
    expect_eq "$status" 0 "$1: exit status"
    expect_eq "$(cat "$1.out")" "${2:-$(cat plain.out)}" "$1: output as without measurement"
    expect_eq "$(cat "$1.err")" "" "$1: nothing on stderr"
    expect_eq "$(cube "$1" ALLOCATION_SIZE)" "$alloc" "$1: ALLOCATION_SIZE per call path"
    expect_eq "$(cube "$1" DEALLOCATION_SIZE)" "$dealloc" \
        "$1: DEALLOCATION_SIZE per call path (hbw_realloc releases the old 1000)"
    expect_eq "$(cube "$1" bytes_leaked)" "$leaked" "$1: bytes_leaked on the allocating call paths"
    expect_eq "$(profile_dump "$1" -m visits | awk -F'\t' '$2 ~ /\/hbw_[a-z_]*$/ { k = $2; sub(/.*\//, "", k); split($4, a, "="); v[k] += a[2] }
        END { for (k in v) printf "%s %s;", k, v[k] }' | tr ';' '\n' | sort | tr '\n' ';')" \
        "hbw_calloc 1;hbw_free 4;hbw_malloc 3;hbw_posix_memalign 1;hbw_posix_memalign_psize 1;hbw_realloc 1;" \
        "$1: visits of every hbw_* region"
    expect_eq "$(for r in hbw_malloc hbw_calloc hbw_realloc hbw_free hbw_posix_memalign hbw_posix_memalign_psize; do
        printf '%s ' "$(trace_count "$1" ENTER '' $r)"; done)" "3 1 1 4 1 1 " "$1: Enter events per hbw_* region in the trace"
    expect_eq "$(trace_check_nesting "$1")" 0 "$1: well-nested trace"
    tar -xOf "$1/profile.cubex" anchor.xml | tr -d '\n' >"$1.anchor"
    for rr in hbw_malloc:allocate hbw_calloc:allocate hbw_realloc:reallocate hbw_free:deallocate \
        hbw_posix_memalign:allocate hbw_posix_memalign_psize:allocate; do
        expect_grep "<name>${rr%%:*}</name><mangled_name>${rr%%:*}</mangled_name><paradigm>memory</paradigm><role>${rr#*:}</role>" \
            "$1.anchor" "$1: ${rr%%:*} is a region of paradigm memory, role ${rr#*:} (Score-P's)"
    done
}

# ---- linked: scorep-cc puts the memory adapter before -lmemkind
scorep_cc gcc -O1 -o hbw "$PROGRAMS/hbw_alloc.c" -lmemkind
expect_eq "$(readelf -d hbw | awk '/NEEDED/ && /libscorep-rt-memory|libmemkind/ { gsub(/[][]/, "", $NF); sub(/\.so.*/, "", $NF); printf "%s ", $NF }')" \
    "libscorep-rt-memory libmemkind " "linked: the memory adapter comes before libmemkind"
run_app linked env SCOREP_MEMORY_RECORDING=true SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=linked ./hbw
check linked
# the Enter of hbw_posix_memalign_psize carries the size asked for (ALLOCATION_SIZE)
otf2-print linked/traces.otf2 >linked.print || fail "otf2-print linked"
expect_eq "$(awk '/^ENTER/ && /"hbw_posix_memalign_psize"/ { getline; print }' linked.print |
    grep -c '("ALLOCATION_SIZE" <[0-9]*>; UINT64; 8192)')" 1 \
    "linked: ALLOCATION_SIZE 8192 on the Enter of hbw_posix_memalign_psize"

# scorep-score: the hbw_* regions are of type MEMORY; hbw_realloc's estimate holds realloc's
# two attribute records more than an allocation's (2 x 24 bytes per visit)
"$SCOREP_SCORE" -r linked/profile.cubex >score.txt || fail "scorep-score linked"
expect_eq "$(awk '$NF ~ /^hbw_/ { print $1, $3, $NF }' score.txt | sort | tr '\n' ';')" \
    "MEMORY 1 hbw_calloc;MEMORY 1 hbw_posix_memalign;MEMORY 1 hbw_posix_memalign_psize;MEMORY 1 hbw_realloc;MEMORY 3 hbw_malloc;MEMORY 4 hbw_free;" \
    "scorep-score: the hbw_* regions, type MEMORY, visits"
expect_eq "$(awk '$NF == "hbw_realloc" { r = $2 } $NF == "hbw_calloc" { c = $2 } END { gsub(/,/, "", r); gsub(/,/, "", c); print r - c }' score.txt)" 48 \
    "scorep-score: hbw_realloc's trace estimate counts realloc's 4 attributes"

# ---- the other path: memkind takes the NUMA nodes MEMKIND_HBW_NODES names for its
# high-bandwidth memory, so with node 0 the program finds HBM (hbw_check_available 0) and
# binds its blocks there, on any machine; the same records
run_app hbm env MEMKIND_HBW_NODES=0 SCOREP_MEMORY_RECORDING=true SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=hbm ./hbw
check hbm "hbm yes done ok"

# ---- recording off: nothing recorded, the calls forwarded
run_app off env SCOREP_EXPERIMENT_DIRECTORY=off ./hbw
expect_eq "$(cat off.out)" "$(cat plain.out)" "off: output unchanged"
expect_eq "$(profile_dump off | awk -F'\t' '$2 ~ /\/hbw_/' | wc -l | tr -d ' ')" 0 "off: no hbw_* regions"

# ---- scorep-run: the plain binary (gcc's -finstrument-functions), the adapter preloaded
gcc -O1 -finstrument-functions -o hbw_fi "$PROGRAMS/hbw_alloc.c" -lmemkind || fail "fi build"
run_app run env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_MEMORY_RECORDING=true \
    SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=run "$top_builddir/scorep-run" --memory ./hbw_fi
check run

# ---- memkind's static library (a path to libmemkind.a, or -lmemkind after -Wl,-Bstatic): the
# executable defines hbw_* itself, so scorep-cc wraps the program's calls at link time
# (-Wl,--wrap=hbw_*, libscorep-rt-hbw-wrap.a): the same records as with the shared library
mk_a=$(gcc -print-file-name=libmemkind.a)
# what libmemkind.a needs (pkg-config --static --libs memkind); Debian ships no libdaxctl.so
mk_deps="-lnuma -lpthread -ldl -lhwloc -l:libdaxctl.so.1"
if [ -f "$mk_a" ]; then
    part "static libmemkind.a: the program's hbw_* calls wrapped at link time"
    scorep_cc gcc -O1 -o hbw_static "$PROGRAMS/hbw_alloc.c" "$mk_a" $mk_deps
    scorep_cc gcc -O1 -o hbw_bstatic "$PROGRAMS/hbw_alloc.c" -Wl,--push-state,-Bstatic -lmemkind \
        -Wl,--pop-state $mk_deps
    for b in hbw_static hbw_bstatic; do
        readelf -d $b >$b.dynamic || fail "readelf -d $b"
        nm $b >$b.nm || fail "nm $b"
        expect_eq "$(awk '/NEEDED/ && /libmemkind/ { n++ } END { print n + 0 }' $b.dynamic)" 0 \
            "$b: libmemkind linked statically"
        expect_eq "$(awk '$2 == "T" && ($3 == "hbw_malloc" || $3 == "__wrap_hbw_free") { print $3 }' $b.nm |
            sort | tr '\n' ' ')" "__wrap_hbw_free hbw_malloc " \
            "$b: memkind's hbw_malloc in the executable, the program's calls wrapped"
        run_app ${b}_exp env SCOREP_MEMORY_RECORDING=true SCOREP_ENABLE_TRACING=true \
            SCOREP_EXPERIMENT_DIRECTORY=${b}_exp ./$b
        check ${b}_exp
    done
    # -lmemkind after a -Bstatic that was popped again is the shared library: not wrapped
    scorep_cc gcc -O1 -o hbw_popped "$PROGRAMS/hbw_alloc.c" -Wl,--push-state,-Bstatic \
        -Wl,--pop-state -lmemkind
    nm hbw_popped >hbw_popped.nm || fail "nm hbw_popped"
    expect_eq "$(awk '$3 ~ /^__wrap_hbw_/ { n++ } END { print n + 0 }' hbw_popped.nm)" 0 \
        "-Bstatic popped before -lmemkind: the shared library, no wrappers"
else
    skip_part_here "static libmemkind.a" "libmemkind-dev of this system ships no libmemkind.a"
fi

# ---- a program without memkind: the adapter (which defines hbw_*) does not load libmemkind
printf '#include <stdlib.h>\nint main(void) { free(malloc(10)); return 0; }\n' >nomk.c
scorep_cc gcc -O1 -o nomk nomk.c
run_app nomk env SCOREP_MEMORY_RECORDING=true SCOREP_EXPERIMENT_DIRECTORY=nomk_exp ./nomk
expect_eq "$status" 0 "without memkind: exit status"
expect_eq "$(count_out libmemkind loaded_objects ./nomk) $(count_out libscorep-rt-memory loaded_objects ./nomk)" "0 1" \
    "without memkind: the adapter is loaded, libmemkind is not"
# ---- bad input: a program that calls hbw_* and was linked without libmemkind (the
# adapter's definitions satisfied the linker): the calls fail with ENOSYS, one warning says
# why, nothing else changes
cat >nolib.c <<'EOF'
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
void *hbw_malloc(size_t n);
void hbw_free(void *p);
int hbw_posix_memalign(void **p, size_t align, size_t n);
int main(void)
{
    void *p = hbw_malloc(10);
    int e = errno, rc = hbw_posix_memalign(&p, 64, 64);
    hbw_free(p);
    printf("%d %d %d\n", p == NULL, e == ENOSYS, rc == ENOSYS);
    return 0;
}
EOF
scorep_cc gcc -O1 -o nolib nolib.c
run_app nolib env SCOREP_MEMORY_RECORDING=true SCOREP_EXPERIMENT_DIRECTORY=nolib_exp ./nolib
expect_eq "$status $(cat nolib.out)" "0 1 1 1" "without libmemkind: hbw_* fail with ENOSYS"
expect_eq "$(cat nolib.err)" "[scorep-rt] warning: memory recording: the program calls memkind's hbw_* but libmemkind is not loaded (link it with -lmemkind): hbw_* allocations fail with ENOSYS" \
    "without libmemkind: one warning"
done_ok
