#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_memory_attributes.sh: the attributes Score-P attaches to the memory regions' trace
# events (ALLOCATION_SIZE and ARGUMENT_ADDRESS on the Enter, RESULT_ADDRESS and
# DEALLOCATION_SIZE on the Leave), read back with otf2-print, for a program with known
# sizes that prints the addresses it got (memory_attrs.c); reallocarray and pvalloc with
# the metrics of realloc and malloc.
. "$top_srcdir/test/integration/lib.sh"
CV=cube_values # (lib.sh: call paths below the program root)

scorep_cc --memory gcc -O1 -o attrs "$PROGRAMS/memory_attrs.c"
run_app a env SCOREP_MEMORY_RECORDING=true SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=a ./attrs
expect_eq "$status" 0 "exit status"
addr() { awk -v w="$1" '$1 == w { print $2 }' a.out; }
M=$(addr malloc) R0=$(addr realloc_new) R1=$(addr realloc_grow) A0=$(addr reallocarray_new)
A1=$(addr reallocarray_grow) V=$(addr pvalloc)
expect_eq "$(grep -c '^realloc_fail 0$\|^realloc_free 0$\|^reallocarray_overflow 0$\|ENOMEM$' a.out)" 4 \
    "the failing calls failed as meant (output of the program)"

# otf2-print: "ENTER|LEAVE region attr=value ..." for the memory calls of work(), in order
otf2-print a/traces.otf2 >a.print || fail "otf2-print a"
awk '
    /^(ENTER|LEAVE) / { if (ev != "") print ev; ev = ""
        n = split($0, q, "\""); r = q[2]
        if (r != "main" && r != "work" && r != "show" && r != "say") ev = $1 " " r
        next }
    /ADDITIONAL ATTRIBUTES:/ && ev != "" {
        s = $0; sub(/.*ADDITIONAL ATTRIBUTES: /, "", s)
        n = split(s, a, /\), \(|\(|\)/)
        for (i = 1; i <= n; i++) if (a[i] != "") {
            split(a[i], f, "; "); name = f[1]; gsub(/"| <[0-9]+>/, "", name)
            ev = ev " " name "=" f[3] }
        next }
    /^[A-Z_]+ / { if (ev != "") print ev; ev = "" }
    END { if (ev != "") print ev }' a.print >a.events
cat >a.expected <<EXP
ENTER malloc ALLOCATION_SIZE=1000
LEAVE malloc RESULT_ADDRESS=$M
ENTER free ARGUMENT_ADDRESS=$M
LEAVE free DEALLOCATION_SIZE=1000
ENTER realloc ALLOCATION_SIZE=100 ARGUMENT_ADDRESS=0
LEAVE realloc RESULT_ADDRESS=$R0
ENTER realloc ALLOCATION_SIZE=300 ARGUMENT_ADDRESS=$R0
LEAVE realloc DEALLOCATION_SIZE=100 RESULT_ADDRESS=$R1
ENTER realloc ALLOCATION_SIZE=18446744073709551615 ARGUMENT_ADDRESS=$R1
LEAVE realloc RESULT_ADDRESS=0
ENTER realloc ALLOCATION_SIZE=0 ARGUMENT_ADDRESS=$R1
LEAVE realloc DEALLOCATION_SIZE=300
ENTER reallocarray ALLOCATION_SIZE=200 ARGUMENT_ADDRESS=0
LEAVE reallocarray RESULT_ADDRESS=$A0
ENTER reallocarray ALLOCATION_SIZE=400 ARGUMENT_ADDRESS=$A0
LEAVE reallocarray DEALLOCATION_SIZE=200 RESULT_ADDRESS=$A1
ENTER reallocarray ALLOCATION_SIZE=18446744073709551615 ARGUMENT_ADDRESS=$A1
LEAVE reallocarray RESULT_ADDRESS=0
ENTER free ARGUMENT_ADDRESS=$A1
LEAVE free DEALLOCATION_SIZE=400
ENTER pvalloc ALLOCATION_SIZE=5000
LEAVE pvalloc RESULT_ADDRESS=$V
ENTER free ARGUMENT_ADDRESS=$V
LEAVE free DEALLOCATION_SIZE=5000
ENTER free ARGUMENT_ADDRESS=0
LEAVE free DEALLOCATION_SIZE=0
EXP
expect_eq "$(cat a.events)" "$(cat a.expected)" \
    "trace: every memory call's attributes, sizes and addresses (as the program printed them)"
expect_eq "$(trace_check_nesting a)" 0 "trace: properly nested"
trace_defs a >a.defs
for at in 'ALLOCATION_SIZE.*Size of memory to allocate' 'DEALLOCATION_SIZE.*Size of memory to deallocate' \
    'ARGUMENT_ADDRESS.*Address argument' 'RESULT_ADDRESS.*Result of allocation'; do
    expect_grep "^ATTRIBUTE .*$at.*Type: UINT64" a.defs "trace: attribute ${at%%.*} defined as Score-P's"
done
expect_grep 'REGION .*"reallocarray".*Role: REALLOCATE' a.defs "trace: reallocarray's role"
expect_grep 'REGION .*"pvalloc".*Role: ALLOCATE' a.defs "trace: pvalloc's role"

# profile: reallocarray counts as realloc does, pvalloc as malloc (the sizes asked for)
$CV a/profile.cubex ALLOCATION_SIZE >a.alloc || fail "cube_values ALLOCATION_SIZE"
$CV a/profile.cubex DEALLOCATION_SIZE >a.dealloc || fail "cube_values DEALLOCATION_SIZE"
expect_eq "$(cut -f1,3 a.alloc | sort | tr '\t\n' ' ;')" \
    "main/work/malloc 1000;main/work/pvalloc 5000;main/work/realloc 400;main/work/reallocarray 600;" \
    "profile: ALLOCATION_SIZE of reallocarray (200 + 400) and pvalloc"
expect_eq "$(cut -f1,3 a.dealloc | sort | tr '\t\n' ' ;')" \
    "main/work/free 6400;main/work/realloc 400;main/work/reallocarray 200;" \
    "profile: DEALLOCATION_SIZE (reallocarray releases the old 200)"
expect_eq "$(count_out . $CV a/profile.cubex bytes_leaked)" 0 "profile: no leak"

# C++ (memory_cxx.cc): new's RESULT_ADDRESS is the address its delete gets; a sized delete
# carries its size argument on the Enter, as Score-P's wrapper does, and the tracked size on
# the Leave
scorep_cc --memory g++ -O1 -o memxx "$PROGRAMS/memory_cxx.cc"
run_app x env SCOREP_MEMORY_RECORDING=true SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=x \
    ./memxx
expect_eq "$status" 0 "C++: exit status"
otf2-print x/traces.otf2 >x.print || fail "otf2-print x"
# "EVENT region attr=value ..." of objects() and aligned(), the two functions that delete
awk '
    $1 ~ /^(ENTER|LEAVE)$/ { split($0, q, "\""); r = q[2]
        if ($1 == "ENTER" && (r == "objects()" || r == "aligned()")) on = 1
        if ($1 == "LEAVE" && (r == "objects()" || r == "aligned()")) on = 0
        ev = on && r ~ /^operator/ ? $1 " " r : ""; next }
    /ADDITIONAL ATTRIBUTES:/ && ev != "" { s = $0; sub(/.*ADDITIONAL ATTRIBUTES: /, "", s)
        gsub(/\(|\)|"| <[0-9]+>|; UINT64/, "", s); gsub(/; /, "=", s); gsub(/, /, " ", s)
        print ev, s; ev = "" }
    ' x.print >x.events
# addresses named @1, @2, ... in the order they first appear: the same block, the same name
awk '{ for (i = 3; i <= NF; i++) if ($i ~ /_ADDRESS=[1-9]/) { split($i, kv, "="); k = "a" kv[2]
           if (!(k in id)) id[k] = ++n; $i = kv[1] "=@" id[k] } print }' \
    x.events >x.named
expect_eq "$(cat x.named)" "ENTER operator new(size_t) ALLOCATION_SIZE=48
LEAVE operator new(size_t) RESULT_ADDRESS=@1
ENTER operator delete(void*,size_t) ARGUMENT_ADDRESS=@1 DEALLOCATION_SIZE=48
LEAVE operator delete(void*,size_t) DEALLOCATION_SIZE=48
ENTER operator new(size_t,std::align_val_t) ALLOCATION_SIZE=128
LEAVE operator new(size_t,std::align_val_t) RESULT_ADDRESS=@2
ENTER operator delete(void*,size_t,std::align_val_t) ARGUMENT_ADDRESS=@2 DEALLOCATION_SIZE=128
LEAVE operator delete(void*,size_t,std::align_val_t) DEALLOCATION_SIZE=128
ENTER operator new[](size_t,std::align_val_t) ALLOCATION_SIZE=256
LEAVE operator new[](size_t,std::align_val_t) RESULT_ADDRESS=@3" \
    "C++: new and sized delete attributes; each delete gets the address its new returned"

# recording off: no attribute definitions are used, the calls are not regions
run_app off env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=off ./attrs
otf2-print off/traces.otf2 >off.print || fail "otf2-print off"
expect_eq "$(count_lines 'ADDITIONAL ATTRIBUTES' off.print)" 0 \
    "off: no attributes without SCOREP_MEMORY_RECORDING"
done_ok
