#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_shmem_memory.sh: SCOREP_SHMEM_MEMORY_RECORDING with real oshrun (2 PEs):
# test/shmem/shmem_memory.c allocates known sizes on the symmetric heap with the OpenSHMEM
# 1.4 names and the old ones. Checks per PE: ALLOCATION_SIZE, DEALLOCATION_SIZE and
# bytes_leaked per call path (test/tools/cube_values.py), the trace counter "Process memory
# usage (SHMEM)" after every call, Score-P's attributes (ALLOCATION_SIZE on an allocation's
# Enter, DEALLOCATION_SIZE on a release's Leave) and the regions' roles (otf2-print); off
# by default. Skipped (77) when the SHMEM adapter was not built.
. "$top_srcdir/test/integration/lib.sh"
CV=cube_values # (lib.sh: call paths below the program root)

[ -e "$top_builddir/.libs/libscorep-rt-shmem.so" ] ||
    { echo "SKIP: the SHMEM adapter was not built"; exit 77; }
command -v oshrun >/dev/null 2>&1 || { echo "SKIP: no oshrun"; exit 77; }
# oshmem segfaults in shmem_finalize without this (reference/environment.md)
export OMPI_MCA_osc='^rdma' OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

"$SCOREP_CC" oshcc -o shm "$top_srcdir/test/shmem/shmem_memory.c" >cc.out 2>&1 ||
    fail "scorep-cc oshcc shmem_memory.c: $(head -c 300 cc.out)"

# run NAME [VAR=VALUE...]: 2 PEs, traced
run()
{
    _n=$1
    shift
    status=0
    env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$work/$_n" "$@" \
        timeout 300 oshrun --oversubscribe -np 2 ./shm >"$_n.out" 2>"$_n.err" || status=$?
}

run on SCOREP_SHMEM_MEMORY_RECORDING=true
expect_eq "$status $(cat on.out)" "0 ok 2" "on: exit status, every block as asked for on both PEs"
# "path PE value" of a metric, sorted
cv() { $CV on/profile.cubex "$1" | awk -F'\t' '{ print $1, $2, $3 }' | sort | tr '\n' ';'; }
per_pe()
{
    for _e in "$@"; do echo "main/${_e% *} 0 ${_e#* }"; echo "main/${_e% *} 1 ${_e#* }"; done |
        sort | tr '\n' ';'
}
expect_eq "$(cv ALLOCATION_SIZE)" \
    "$(per_pe 'shmem_malloc 1000' 'shmem_calloc 300' 'shmem_align 640' 'shmem_realloc 1280' \
        'shmalloc 200' 'shmemalign 384' 'shrealloc 512')" \
    "profile: ALLOCATION_SIZE per call path and PE (calloc: 10 x 30; realloc: the new size)"
expect_eq "$(cv DEALLOCATION_SIZE)" \
    "$(per_pe 'shmem_realloc 640' 'shmem_free 1000' 'shrealloc 384' 'shfree 712')" \
    "profile: DEALLOCATION_SIZE (realloc releases the old size; shfree 200 + 512)"
expect_eq "$(cv bytes_leaked)" "$(per_pe 'shmem_calloc 300' 'shmem_realloc 1280')" \
    "profile: the two blocks never freed are leaks of the call paths that allocated them"

# trace: the counter after every call on each PE: 1000, +300, +640, +1280-640, -1000, +200,
# +384, +512-384, -200, -512
otf2-print on/traces.otf2 >on.print || fail "otf2-print on"
for pe in 0 1; do
    expect_eq "$(awk -v pe=$pe '$1 == "METRIC" && $2 == pe && /"Process memory usage \(SHMEM\)"/ {
            v = $NF; sub(/\)$/, "", v); printf "%s ", v }' on.print)" \
        "1000 1300 1940 2580 1580 1780 2164 2292 2092 1580 " "trace: PE $pe's SHMEM memory in use"
done
otf2-print -G on/traces.otf2 >on.defs || fail "otf2-print -G on"
expect_grep 'METRIC_MEMBER .*"Process memory usage \(SHMEM\)".*Mode: ABSOLUTE_NEXT, Value Type: UINT64.*Unit: "bytes"' \
    on.defs "trace: the counter's definition"
for r in shmem_malloc:ALLOCATE shmem_realloc:REALLOCATE shmem_free:DEALLOCATE shfree:DEALLOCATE; do
    expect_grep "REGION .*Name: \"${r%:*}\" .*Role: ${r#*:}," on.defs "trace: ${r%:*} has role ${r#*:}"
done
# "ENTER|LEAVE region attr=value" of the calls that carry attributes, location 0
awk '$1 ~ /^(ENTER|LEAVE)$/ { ev = ""; if ($2 == 0) { split($0, q, "\""); ev = $1 " " q[2] }; next }
     /ADDITIONAL ATTRIBUTES:/ && ev != "" { s = $0; sub(/.*ADDITIONAL ATTRIBUTES: /, "", s)
         gsub(/\(|\)|"| <[0-9]+>|; UINT64/, "", s); gsub(/; /, "=", s); print ev, s }
     !/^ / { ev = "" }' on.print >on.attrs
expect_eq "$(cat on.attrs)" "ENTER shmem_malloc ALLOCATION_SIZE=1000
ENTER shmem_calloc ALLOCATION_SIZE=300
ENTER shmem_align ALLOCATION_SIZE=640
ENTER shmem_realloc ALLOCATION_SIZE=1280
LEAVE shmem_realloc DEALLOCATION_SIZE=640
LEAVE shmem_free DEALLOCATION_SIZE=1000
ENTER shmalloc ALLOCATION_SIZE=200
ENTER shmemalign ALLOCATION_SIZE=384
ENTER shrealloc ALLOCATION_SIZE=512
LEAVE shrealloc DEALLOCATION_SIZE=384
LEAVE shfree DEALLOCATION_SIZE=200
LEAVE shfree DEALLOCATION_SIZE=512" "trace: Score-P's attributes on PE 0"

# off by default: the calls are regions, nothing else
run off
expect_eq "$status $(cat off.out)" "0 ok 2" "off: exit status and output"
tar -xOf off/profile.cubex anchor.xml >off.anchor || fail "tar off/profile.cubex"
expect_eq "$(count_lines 'ALLOCATION_SIZE' off.anchor)" 0 "off: no memory metrics in the profile"
otf2-print off/traces.otf2 >off.print || fail "otf2-print off"
expect_eq "$(count_lines 'ADDITIONAL ATTRIBUTES|Process memory usage' off.print)" 0 \
    "off: no attributes, no counter"
expect_eq "$(trace_count off ENTER 0 shmem_malloc)" 1 "off: shmem_malloc still a region"
done_ok
