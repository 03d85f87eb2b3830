#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_memory_recording.sh: SCOREP_MEMORY_RECORDING (malloc & co., C++ new/delete) and
# SCOREP_MPI_MEMORY_RECORDING (MPI_Alloc_mem): programs with known allocations and leaks
# give exact ALLOCATION_SIZE, DEALLOCATION_SIZE and bytes_leaked on the allocating call
# paths, read from the Cube file by test/tools/cube_values.py (a reader written from the
# format description, independent of the project's Cube library), and the trace counter
# "Process memory usage" read back with otf2-print; the programs' output is unchanged.
. "$top_srcdir/test/integration/lib.sh"
CV=cube_values # (lib.sh: call paths below the program root)

# cube EXPDIR METRIC: "path location value" lines, location ids replaced by the thread's
# place (main thread 0, others summed as 'T'), sorted
cube()
{
    $CV "$1/profile.cubex" "$2" >"$work/.cv" || fail "cube_values.py $1 $2 failed"
    awk -F'\t' '{ l = $2 == 0 ? 0 : "T"; s[$1 " " l] += $3 } END { for (k in s) print k, s[k] }' \
        "$work/.cv" | sort
}

scorep_cc --memory gcc -O1 -o mem "$PROGRAMS/memory_c.c" -lpthread
gcc -O1 -o mem_plain "$PROGRAMS/memory_c.c" -lpthread || fail "plain build"
./mem_plain >plain.out || fail "plain run"

# ---- C: every allocation function, realloc, strdup through libc, two threads
run_app c env SCOREP_MEMORY_RECORDING=true SCOREP_ENABLE_TRACING=true SCOREP_VERBOSE=true \
    SCOREP_EXPERIMENT_DIRECTORY=c ./mem
expect_eq "$status" 0 "C: exit status"
expect_eq "$(cat c.out)" "$(cat plain.out)" "C: output as without measurement"
expect_eq "$(cube c ALLOCATION_SIZE | tr '\n' ';')" \
"THREADS/worker/malloc T 9472;main/aligned/aligned_alloc 0 128;main/aligned/memalign 0 96;\
main/aligned/posix_memalign 0 256;main/aligned/valloc 0 200;main/churn/malloc 0 1000;\
main/dup/malloc 0 9;main/grow/calloc 0 300;main/grow/realloc 0 700;main/leak_malloc/malloc 0 1000;" \
    "C: ALLOCATION_SIZE per call path"
expect_eq "$(cube c DEALLOCATION_SIZE | tr '\n' ';')" \
"THREADS/worker/free T 1024;main/aligned/free 0 328;main/churn/free 0 1000;main/grow/free 0 200;\
main/grow/realloc 0 800;" "C: DEALLOCATION_SIZE per call path (realloc frees the old size)"
expect_eq "$(cube c bytes_leaked | tr '\n' ';')" \
"THREADS/worker/malloc T 8192;main/aligned/memalign 0 96;main/aligned/posix_memalign 0 256;\
main/dup/malloc 0 9;main/leak_malloc/malloc 0 1000;" \
    "C: bytes_leaked on the allocating call paths (strdup's malloc on dup)"
expect_eq "$(cube c maximum_heap_memory_allocated | grep -E '^main/(leak_malloc|churn|grow)/' | tr '\n' ';')" \
"main/churn/malloc 0 1100;main/grow/calloc 0 1300;main/grow/realloc 0 1500;main/leak_malloc/malloc 0 1000;" \
    "C: maximum_heap_memory_allocated: the peak of the process heap at each call path"
expect_grep 'memory recording: 9553 bytes in 6 blocks leaked' c.err "C: the leak total (verbose)"
tar -xOf c/profile.cubex anchor.xml | tr -d '\n' >anchor.xml
expect_grep '<uniq_name>maximum_heap_memory_allocated</uniq_name><dtype>MAXDOUBLE</dtype><uom>bytes</uom>' \
    anchor.xml "cube: maximum_heap_memory_allocated aggregates as a maximum"
expect_grep '<name>malloc</name><mangled_name>malloc</mangled_name><paradigm>memory</paradigm><role>allocate</role>' \
    anchor.xml "cube: malloc is a region of paradigm memory, role allocate"
# trace: the regions, and the counter on the main thread (its values are deterministic)
expect_eq "$(trace_count c ENTER '' malloc) $(trace_count c ENTER '' free) $(trace_count c ENTER '' realloc)" \
    "18 15 2" "trace: 18 malloc, 15 free (none after a thread's end), 2 realloc calls"
expect_eq "$(trace_check_nesting c)" 0 "trace: properly nested"
expect_eq "$(trace_events c | awk '$1 == "METRIC" && $2 == 0 && /"Process memory usage"/ {
        v = $NF; sub(/\)$/, "", v); printf "%s ", v }')" \
    "1000 1100 1000 1100 1000 1100 1000 1100 1000 1100 1000 1100 1000 1100 1000 1100 1000 1100 1000 1100 1000 1300 1500 1200 1000 1256 1384 1256 1352 1552 1352 1361 " \
    "trace: bytes in use after every call of the main thread"
"$SCOREP_SCORE" -r c/profile.cubex >score.txt || fail "scorep-score c"
expect_eq "$(awk '$1 == "MEMORY" && $NF == "MEMORY" { print $3 }' score.txt)" 40 \
    "scorep-score: the memory calls are their own group MEMORY (40 calls)"
expect_eq "$(awk '$NF == "malloc" { print $1 }' score.txt)" MEMORY "scorep-score: malloc is of type MEMORY"
trace_defs c >defs.txt
expect_grep 'METRIC_MEMBER .*"Process memory usage".*Mode: ABSOLUTE_NEXT, Value Type: UINT64.*Unit: "bytes"' \
    defs.txt "trace: the counter's definition"
expect_no_grep 'REGION .*"operator new' defs.txt "trace: no C++ regions in a C program"

# ---- 4 threads, 80000 blocks, half of them freed by another thread: the profile's totals
# equal the program's own count
scorep_cc --memory gcc -O1 -o stress "$PROGRAMS/memory_stress.c" -lpthread
run_app s env SCOREP_MEMORY_RECORDING=true SCOREP_EXPERIMENT_DIRECTORY=s ./stress
expect_eq "$status" 0 "stress: exit status"
for m in ALLOCATION_SIZE DEALLOCATION_SIZE bytes_leaked; do
    $CV s/profile.cubex $m >s.$m || fail "cube_values s $m"
done
expect_eq "allocated $(awk -F'\t' '{ s += $3 } END { print s }' s.ALLOCATION_SIZE) \
freed $(awk -F'\t' '{ s += $3 } END { print s }' s.DEALLOCATION_SIZE) \
leaked $(awk -F'\t' '{ s += $3 } END { print s }' s.bytes_leaked)" "$(cat s.out)" \
    "stress: bytes allocated, freed and leaked as the program counted them"
expect_eq "$(cut -f1 s.bytes_leaked | sort -u)" "THREADS/worker/malloc" "stress: the leaks' call path"

# ---- off by default: the same binary records no allocation
run_app off env SCOREP_EXPERIMENT_DIRECTORY=off ./mem
expect_eq "$(cat off.out)" "$(cat plain.out)" "off: output unchanged"
expect_eq "$(profile_dump off | awk -F'\t' '$2 ~ /\/(malloc|free)$/' | wc -l | tr -d ' ')" 0 \
    "off: no memory regions without SCOREP_MEMORY_RECORDING"

# ---- scorep-run: the plain binary (compiler instrumentation by gcc only), preloaded
gcc -O1 -finstrument-functions -o mem_fi "$PROGRAMS/memory_c.c" -lpthread || fail "fi build"
run_app r env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_MEMORY_RECORDING=true \
    SCOREP_EXPERIMENT_DIRECTORY=r "$top_builddir/scorep-run" ./mem_fi
expect_eq "$status" 0 "scorep-run: exit status"
expect_eq "$(cat r.out)" "$(cat plain.out)" "scorep-run: output unchanged"
expect_eq "$(cube r bytes_leaked | tr '\n' ';')" "$(cube c bytes_leaked | tr '\n' ';')" \
    "scorep-run: the same leaks as the linked build"

# ---- the default, as Score-P's instrumenter: the adapter is linked (it forwards while
# SCOREP_MEMORY_RECORDING is unset, the "off" case above) and records when asked
scorep_cc gcc -O1 -o mem_default "$PROGRAMS/memory_c.c" -lpthread
expect_eq "$(count_out libscorep-rt-memory loaded_objects ./mem_default)" 1 "default: the adapter is linked"
run_app d env SCOREP_MEMORY_RECORDING=true SCOREP_EXPERIMENT_DIRECTORY=d ./mem_default
expect_eq "$status $(cat d.out)" "0 $(cat plain.out)" "default: exit status and output"
expect_eq "$(cube d bytes_leaked | tr '\n' ';')" "$(cube c bytes_leaked | tr '\n' ';')" \
    "default: the same leaks as with --memory"
run_app d_off env SCOREP_EXPERIMENT_DIRECTORY=d_off ./mem_default
expect_eq "$status $(cat d_off.out)" "0 $(cat plain.out)" "default, recording off: exit status and output"
expect_eq "$(profile_dump d_off | awk -F'\t' '$2 ~ /\/(malloc|free)$/' | wc -l | tr -d ' ')" 0 \
    "default, recording off: no memory regions"

# ---- --nomemory: recording asked for but the adapter is not there: one clear message, the
# rest is measured
scorep_cc --nomemory gcc -O1 -o mem_nomem "$PROGRAMS/memory_c.c" -lpthread
expect_eq "$(count_out libscorep-rt-memory loaded_objects ./mem_nomem)" 0 "--nomemory: the adapter is not linked"
run_app n env SCOREP_MEMORY_RECORDING=true SCOREP_EXPERIMENT_DIRECTORY=n ./mem_nomem
expect_eq "$status" 0 "no adapter: exit status"
expect_eq "$(cat n.out)" "$(cat plain.out)" "no adapter: output unchanged"
expect_grep 'SCOREP_MEMORY_RECORDING.*libscorep-rt-memory.*without --nomemory' n.err \
    "no adapter: says why nothing is recorded and what to do"
expect_eq "$(wc -l <n.err | tr -d ' ')" 1 "no adapter: one line"
expect_eq "$(profile_dump n | awk -F'\t' '$2 ~ /\/malloc$/' | wc -l | tr -d ' ')" 0 "no adapter: no malloc"
expect_eq "$(profile_sum n main/leak_malloc visits)" 1 "no adapter: the functions are measured"
ln -s "$SCOREP_CC" scorep
# NVTX's static injection point, linked whole where the NVTX adapter is built (docs/cuda.md)
inj=
[ ! -e "$top_builddir/.libs/libscorep-rt-nvtx.so" ] ||
    inj=" -Wl,--whole-archive -lscorep-rt-nvtx-inject -Wl,--no-whole-archive"
for cmd in "$SCOREP_CC" ./scorep; do
    expect_eq "$(SCOREP_CC_LIBDIR=/lib SCOREP_CC_INCLUDEDIR=/inc SCOREP_CC_INSTRUMENT=functions \
        $cmd --dry-run --memory gcc x.o -o x)" \
        "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 x.o -o x -L/lib -Wl,-rpath,/lib -Wl,--push-state,--no-as-needed -lscorep-rt-memory -Wl,--pop-state$inj -lscorep-rt" \
        "$(basename $cmd) --memory: the adapter before the runtime, linked even if unreferenced"
done
expect_eq "$("$top_builddir/scorep-config" --memory --libs)" \
    "-Wl,--push-state,--no-as-needed -lscorep-rt-memory -Wl,--pop-state$inj -lscorep-rt" "scorep-config --memory --libs"
expect_eq "$("$top_builddir/scorep-config" --libs)" \
    "-Wl,--push-state,--no-as-needed -lscorep-rt-memory -Wl,--pop-state$inj -lscorep-rt" "scorep-config --libs: the adapter by default"
expect_eq "$(SCOREP_CC_LIBDIR=/lib SCOREP_CC_INCLUDEDIR=/inc SCOREP_CC_INSTRUMENT=functions \
    "$SCOREP_CC" --dry-run gcc x.o -o x)" \
    "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 x.o -o x -L/lib -Wl,-rpath,/lib -Wl,--push-state,--no-as-needed -lscorep-rt-memory -Wl,--pop-state$inj -lscorep-rt" \
    "scorep-cc: the adapter linked by default"
expect_eq "$(SCOREP_CC_LIBDIR=/lib SCOREP_CC_INCLUDEDIR=/inc SCOREP_CC_INSTRUMENT=functions \
    "$SCOREP_CC" --dry-run --nomemory gcc x.o -o x)" \
    "gcc -finstrument-functions -finstrument-functions-exclude-file-list=/nvtx3/ -I/inc -g1 x.o -o x -L/lib -Wl,-rpath,/lib$inj -lscorep-rt" \
    "scorep-cc --nomemory: not linked"
expect_eq "$("$top_builddir/scorep-config" --nomemory --libs)" "${inj# }${inj:+ }-lscorep-rt" \
    "scorep-config --nomemory --libs"

# ---- C++: new and delete in their forms, a bad_alloc through the wrapper
scorep_cc --memory g++ -O1 -o memxx "$PROGRAMS/memory_cxx.cc"
g++ -O1 -o memxx_plain "$PROGRAMS/memory_cxx.cc" || fail "plain C++ build"
./memxx_plain >xx_plain.out || fail "plain C++ run"
run_app x env SCOREP_MEMORY_RECORDING=true SCOREP_EXPERIMENT_DIRECTORY=x ./memxx
expect_eq "$status" 0 "C++: exit status"
expect_eq "$(cat x.out)" "$(cat xx_plain.out)" "C++: output unchanged (bad_alloc caught as before)"
expect_eq "$(cube x ALLOCATION_SIZE | tr '\n' ';')" \
"main/aligned()/operator new(size_t,std::align_val_t) 0 128;\
main/aligned()/operator new[](size_t,std::align_val_t) 0 256;\
main/leak_array()/operator new[](size_t) 0 100;\
main/leak_nothrow()/operator new[](size_t,std::nothrow_t const&) 0 64;\
main/objects()/operator new(size_t) 0 48;" "C++: ALLOCATION_SIZE per form"
expect_eq "$(cube x DEALLOCATION_SIZE | tr '\n' ';')" \
"main/aligned()/operator delete(void*,size_t,std::align_val_t) 0 128;\
main/objects()/operator delete(void*,size_t) 0 48;" "C++: sized deletes"
expect_eq "$(cube x bytes_leaked | tr '\n' ';')" \
"main/aligned()/operator new[](size_t,std::align_val_t) 0 256;\
main/leak_array()/operator new[](size_t) 0 100;\
main/leak_nothrow()/operator new[](size_t,std::nothrow_t const&) 0 64;" "C++: leaks of new[]"
expect_eq "$(profile_sum x 'main/too_big()/operator new[](size_t)' visits)" 1 \
    "C++: the failed new is a call (visits 1) without allocation"
expect_eq "$(profile_dump x | awk -F'\t' '$2 ~ /operator new.*\/malloc$/' | wc -l | tr -d ' ')" 0 \
    "C++: libstdc++'s malloc inside operator new is not recorded twice"

# ---- edge cases: free(NULL), realloc(NULL, n), realloc(p, 0), recording switched off
# around an allocation or a free, fork and exec in a child
scorep_cc --memory --user gcc -O1 -o edge "$PROGRAMS/memory_edge.c"
gcc -O1 -I"$top_srcdir/include" -o edge_plain "$PROGRAMS/memory_edge.c" || fail "plain edge build"
./edge_plain >edge_plain.out || fail "plain edge run"
run_app e env SCOREP_MEMORY_RECORDING=true SCOREP_EXPERIMENT_DIRECTORY=e ./edge
expect_eq "$status" 0 "edge: exit status"
expect_eq "$(cat e.out)" "$(cat edge_plain.out)" "edge: output (the child's exec included) unchanged"
expect_eq "$(cube e ALLOCATION_SIZE | tr '\n' ';')" \
    "main/alloc_recorded/malloc 0 500;main/realloc_edges/realloc 0 64;" \
    "edge: realloc(NULL, 64) allocates; nothing recorded while off; the forked child's malloc not"
expect_eq "$(cube e DEALLOCATION_SIZE | tr '\n' ';')" "main/realloc_edges/realloc 0 64;" \
    "edge: realloc(p, 0) releases; a block from the time recording was off is freed with no size"
expect_eq "$(count_out . $CV e/profile.cubex bytes_leaked)" 0 \
    "edge: a block freed while recording was off is no leak"
expect_eq "$(profile_sum e main/free_null/free visits) $(profile_sum e main/free_unknown/free visits)" \
    "1 1" "edge: free(NULL) and the free of an unknown block are calls"

# ---- OpenMP: two threads of a parallel region, linked and under scorep-run (the runtime's
# OpenMP adapter is its OMPT tool: a build without it, cross_aarch64.sh's, has no OpenMP part)
if ! nm -D "$top_builddir/.libs/libscorep-rt.so" | grep -q ' T ompt_start_tool$'; then
    skip_part_here "OpenMP" "the runtime was built without its OMPT tool"
elif scorep_cc --memory gcc -fopenmp -O1 -o memomp "$PROGRAMS/memory_omp.c" 2>omp_cc.err; then
    gcc -fopenmp -O1 -g -finstrument-functions -o memomp_fi "$PROGRAMS/memory_omp.c" ||
        fail "plain OpenMP build"
    for how in linked run; do
        if [ $how = linked ]; then
            run_app o_$how env SCOREP_MEMORY_RECORDING=true SCOREP_EXPERIMENT_DIRECTORY=o_$how ./memomp
        else
            run_app o_$how env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_MEMORY_RECORDING=true \
                SCOREP_EXPERIMENT_DIRECTORY=o_$how "$top_builddir/scorep-run" ./memomp_fi
        fi
        expect_eq "$status $(cat o_$how.out)" "0 sum 6" "OpenMP $how: exit status and output"
        # the construct's line, from the program's text
        pl=$(grep -n '^#pragma omp parallel' "$PROGRAMS/memory_omp.c" | cut -d: -f1)
        for m in ALLOCATION_SIZE:1280 DEALLOCATION_SIZE:1024 bytes_leaked:256; do
            v=${m#*:}
            expect_eq "$(cube o_$how "${m%:*}" | grep 'omp parallel' | tr '\n' ';')" \
                "main/!\$omp parallel @memory_omp.c:$pl/$( [ "${m%:*}" = DEALLOCATION_SIZE ] && echo free || echo malloc) 0 $v;main/!\$omp parallel @memory_omp.c:$pl/$( [ "${m%:*}" = DEALLOCATION_SIZE ] && echo free || echo malloc) T $v;" \
                "OpenMP $how: ${m%:*} of the parallel region on each of the 2 threads"
        done
    done
else
    skip_part "OpenMP with scorep-cc ($(head -c 200 omp_cc.err))"
fi

# ---- MPI_Alloc_mem / MPI_Free_mem (needs the misc group, as in Score-P)
if [ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] && command -v mpirun >/dev/null 2>&1; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    "$SCOREP_CC" --memory mpicc -O1 -o memmpi "$PROGRAMS/memory_mpi.c" || fail "scorep-cc mpicc"
    rc=0
    SCOREP_MPI_MEMORY_RECORDING=true SCOREP_MPI_ENABLE_GROUPS=default,misc SCOREP_ENABLE_TRACING=true \
        SCOREP_EXPERIMENT_DIRECTORY=m timeout 120 mpirun -np 2 ./memmpi >m.out 2>m.err || rc=$?
    expect_eq "$rc" 0 "MPI: 2 ranks"
    expect_eq "$(cat m.out)" "done 2" "MPI: output"
    $CV m/profile.cubex ALLOCATION_SIZE >m.alloc || fail "cube_values m"
    expect_eq "$(sort m.alloc | tr '\n' ';')" \
        "main/MPI_Alloc_mem	0	3072;main/MPI_Alloc_mem	1	3072;" "MPI: ALLOCATION_SIZE per rank"
    $CV m/profile.cubex DEALLOCATION_SIZE >m.dealloc || fail "cube_values m"
    expect_eq "$(sort m.dealloc | tr '\n' ';')" \
        "main/MPI_Free_mem	0	1024;main/MPI_Free_mem	1	1024;" "MPI: DEALLOCATION_SIZE per rank"
    $CV m/profile.cubex bytes_leaked >m.leak || fail "cube_values m"
    expect_eq "$(sort m.leak | tr '\n' ';')" \
        "main/MPI_Alloc_mem	0	2048;main/MPI_Alloc_mem	1	2048;" "MPI: the leaked 2048 bytes per rank"
    expect_eq "$(trace_events m | awk '$1 == "METRIC" && /"Process memory usage \(MPI\)"/ {
            v = $NF; sub(/\)$/, "", v); s[$2] = s[$2] v " " } END { for (l in s) print l ": " s[l] }' |
            sort | tr '\n' ';')" "0: 1024 0 2048 ;1: 1024 0 2048 ;" "MPI: trace counter per rank"
    # Score-P's attributes: ALLOCATION_SIZE on MPI_Alloc_mem's Enter, DEALLOCATION_SIZE on
    # MPI_Free_mem's Leave (rank 0)
    otf2-print m/traces.otf2 >m.print || fail "otf2-print m"
    expect_eq "$(awk '
            $1 ~ /^(ENTER|LEAVE)$/ { ev = ""; if ($2 == 0) { split($0, q, "\""); ev = $1 " " q[2] }; next }
            /ADDITIONAL ATTRIBUTES:/ && ev ~ /_mem$/ { s = $0; sub(/.*ADDITIONAL ATTRIBUTES: /, "", s)
                gsub(/\(|\)|"| <[0-9]+>|; UINT64/, "", s); gsub(/; /, "=", s); printf "%s %s;", ev, s }
            !/^ / { ev = "" }' m.print)" \
        "ENTER MPI_Alloc_mem ALLOCATION_SIZE=1024;LEAVE MPI_Free_mem DEALLOCATION_SIZE=1024;ENTER MPI_Alloc_mem ALLOCATION_SIZE=2048;" \
        "MPI: Score-P's attributes on rank 0"
    # windows (rma, a default group): MPI_Win_allocate(_shared)'s memory as allocations, as
    # in Score-P, and released by MPI_Win_free (Score-P leaves it leaked); MPI_Win_create's
    # memory is the program's: no record
    rc=0
    SCOREP_MPI_MEMORY_RECORDING=true SCOREP_MPI_ENABLE_GROUPS=default,misc SCOREP_ENABLE_TRACING=true \
        SCOREP_EXPERIMENT_DIRECTORY=mw timeout 120 mpirun -np 2 ./memmpi win >mw.out 2>mw.err || rc=$?
    expect_eq "$rc $(cat mw.out)" "0 done 2" "MPI windows: 2 ranks"
    $CV mw/profile.cubex ALLOCATION_SIZE >mw.alloc || fail "cube_values mw"
    expect_eq "$(sort mw.alloc | tr '\n' ';')" \
        "main/MPI_Alloc_mem	0	3072;main/MPI_Alloc_mem	1	3072;main/MPI_Win_allocate	0	512;main/MPI_Win_allocate	1	512;main/MPI_Win_allocate_shared	0	256;main/MPI_Win_allocate_shared	1	256;" \
        "MPI windows: ALLOCATION_SIZE per rank"
    $CV mw/profile.cubex DEALLOCATION_SIZE >mw.dealloc || fail "cube_values mw"
    expect_eq "$(sort mw.dealloc | tr '\n' ';')" \
        "main/MPI_Free_mem	0	1024;main/MPI_Free_mem	1	1024;main/MPI_Win_free	0	768;main/MPI_Win_free	1	768;" \
        "MPI windows: DEALLOCATION_SIZE per rank (the two allocated windows, not the created one)"
    $CV mw/profile.cubex bytes_leaked >mw.leak || fail "cube_values mw"
    expect_eq "$(sort mw.leak | tr '\n' ';')" \
        "main/MPI_Alloc_mem	0	2048;main/MPI_Alloc_mem	1	2048;" "MPI windows: nothing of theirs leaked"
    otf2-print mw/traces.otf2 >mw.print || fail "otf2-print mw"
    expect_eq "$(awk '
            $1 ~ /^(ENTER|LEAVE)$/ { ev = ""; if ($2 == 0) { split($0, q, "\""); ev = $1 " " q[2] }; next }
            /ADDITIONAL ATTRIBUTES:/ && ev ~ /_Win_/ { s = $0; sub(/.*ADDITIONAL ATTRIBUTES: /, "", s)
                gsub(/\(|\)|"| <[0-9]+>|; UINT64/, "", s); gsub(/; /, "=", s); printf "%s %s;", ev, s }
            !/^ / { ev = "" }' mw.print)" \
        "ENTER MPI_Win_allocate ALLOCATION_SIZE=512;ENTER MPI_Win_allocate_shared ALLOCATION_SIZE=256;LEAVE MPI_Win_free DEALLOCATION_SIZE=256;LEAVE MPI_Win_free DEALLOCATION_SIZE=512;" \
        "MPI windows: Score-P's attributes on rank 0"
    # under scorep-run, heap recording as well: MPI_Alloc_mem's leak exact among libmpi's own
    mpicc -O1 -g -finstrument-functions -o memmpi_fi "$PROGRAMS/memory_mpi.c" || fail "mpicc"
    rc=0
    SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_MEMORY_RECORDING=true \
        SCOREP_MPI_MEMORY_RECORDING=true SCOREP_MPI_ENABLE_GROUPS=default,misc \
        SCOREP_EXPERIMENT_DIRECTORY=mr timeout 120 mpirun -np 2 "$top_builddir/scorep-run" \
        ./memmpi_fi >mr.out 2>mr.err || rc=$?
    expect_eq "$rc $(cat mr.out)" "0 done 2" "MPI under scorep-run: 2 ranks"
    $CV mr/profile.cubex bytes_leaked >mr.leak || fail "cube_values mr"
    expect_eq "$(awk -F'\t' '$1 == "main/MPI_Alloc_mem" { print $3 }' mr.leak | tr '\n' ' ')" \
        "2048 2048 " "MPI under scorep-run: MPI_Alloc_mem's 2048 bytes leaked on each rank"
    # without the misc group nothing is recorded, as in Score-P
    rc=0
    SCOREP_MPI_MEMORY_RECORDING=true SCOREP_EXPERIMENT_DIRECTORY=m2 \
        timeout 120 mpirun -np 2 ./memmpi >m2.out 2>m2.err || rc=$?
    expect_eq "$rc" 0 "MPI without misc: 2 ranks"
    tar -xOf m2/profile.cubex anchor.xml >m2.anchor || fail "m2: no anchor.xml"
    expect_no_grep '<uniq_name>ALLOCATION_SIZE</uniq_name>' m2.anchor \
        "MPI without misc: MPI_Alloc_mem not recorded (no memory metric at all)"
else
    skip_part "the MPI adapter or mpirun"
fi

# ---- Fortran ALLOCATE maps to malloc/free
if command -v gfortran >/dev/null 2>&1; then
    scorep_cc --memory gfortran -O1 -o memf "$PROGRAMS/memory_f.f90"
    run_app f env SCOREP_MEMORY_RECORDING=true SCOREP_EXPERIMENT_DIRECTORY=f ./memf
    expect_eq "$status" 0 "Fortran: exit status"
    expect_eq "$(cat f.out | tr -s ' ')" " done 2000" "Fortran: output"
    $CV f/profile.cubex bytes_leaked >f.leak || fail "cube_values f"
    $CV f/profile.cubex DEALLOCATION_SIZE >f.dealloc || fail "cube_values f"
    expect_eq "$(cat f.leak)" "main/MAIN__/__memory_f_mod_MOD_keep_some/malloc	0	2000" \
        "Fortran: ALLOCATE of 250 reals*8 never deallocated: 2000 bytes leaked in keep_some"
    expect_eq "$(cat f.dealloc)" "main/MAIN__/__memory_f_mod_MOD_release/free	0	800" \
        "Fortran: DEALLOCATE of 100 reals*8: 800 bytes freed in release"
else
    skip_part gfortran
fi
done_ok
