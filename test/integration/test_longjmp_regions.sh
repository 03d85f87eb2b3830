#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_longjmp_regions.sh: a jump leaves the regions of the frames it abandons whose leave is
# not the plain one (docs/design.md, "Jumps out of calls", session 24): a dynamic user region
# (its instance closed), a selected one (recording off after its Leave, as its END would
# switch it), a read that a SIGALRM handler's siglongjmp abandons (its operation completed
# unsized, and the thread's I/O recorded again afterwards), and Fortran user regions (BEGIN,
# INIT + ENTER, BY_NAME) in two Fortran frames that C's longjmp abandons.
# test/programs/longjmp_regions.c with gcc's and clang's -finstrument-functions and with user
# regions only; test/programs/longjmp_f.F90 + longjmp_f_main.c with gfortran -O0 and -O2;
# calls inlined into the setjmp caller (test/programs/longjmp_inlined.c: one entered after
# the setjmp left at the jump, a region begun after it kept) with gcc's and clang's
# -finstrument-functions, both plugins with --instrument-inlined, and under scorep-run; a
# wrapped library (scorep-libwrap-init, test/programs/longjmp_lib.c) whose error path jumps
# to the program's setjmp.
# Expected: the call paths with their visits and the Enter/Leave order as the programs'
# comments derive them; the gcc profile also read by CubeLib's cube_dump where CUBELIB_DUMP
# names one (or one is on PATH).
. "$top_srcdir/test/integration/lib.sh"
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
SRC=$PROGRAMS/longjmp_regions.c

# profile EXPDIR: "PATH=VISITS" per call path below the root, sorted
profile()
{
    profile_dump "$1" -m visits | awk -F'\t' '$2 != "." { split($4, kv, "="); print $2 "=" kv[2] }' |
        sort
}
lines()
{
    printf '%s\n' "$@" | sort
}

# --- expected, from longjmp_regions.c's comments ---
# user: the two calls of case_user, each with its own dynamic instance
inst_f()
{
    echo "main/case_user/d1/dyn/instance=$1=1"
    echo "main/case_user/d1/dyn/instance=$1/d2=1"
    echo "main/case_user/d1/dyn/instance=$1/d2/sel=1"
}
profile_f=$( (lines main=1 main/case_user=2 main/case_user/d1=2 main/case_user/d1/dyn=2 \
    main/case_user/after=2 main/case_user/after/back=2 main/case_io=1 main/case_io/io_read=1 \
    main/case_io/io_read/read=1 main/case_io/io_read/read/on_alarm=1 main/case_io/write=1 \
    main/case_io/read=1 main/case_io/after=1 main/case_io/after/back=1 main/case_io/close=2 \
    main/printf=1 main/d1=1 main/d1/dyn=1 main/d1/dyn/instance=1=1; inst_f 1; inst_f 2) | sort)
profile_u=$(lines dyn=3 dyn/instance=3=1 dyn/instance=1=1 dyn/instance=1/sel=1 dyn/instance=2=1 \
    dyn/instance=2/sel=1 back=3 read=2 write=1 close=2 printf=1)
# the abandoned regions' Leaves right after the jump, before the next Enter
user_f="E:case_user E:d1 E:dyn E:d2 E:sel L:sel L:d2 L:dyn L:d1 E:after E:back L:back L:after L:case_user"
io_f="E:case_io E:io_read E:read E:on_alarm L:on_alarm L:read L:io_read E:write L:write E:read L:read"
io_f="$io_f E:after E:back L:back L:after E:close L:close E:close L:close L:case_io"
order_f="E:main $user_f $user_f E:d1 E:dyn L:dyn L:d1 $io_f E:printf L:printf L:main"
user_u="E:dyn E:sel L:sel L:dyn E:back L:back"
order_u="$user_u $user_u E:dyn L:dyn E:read L:read E:write L:write E:read L:read E:back L:back"
order_u="$order_u E:close L:close E:close L:close E:printf L:printf"

# check NAME PROFILE ORDER PROGRAM...: run PROGRAM with profiling and tracing (clustering
# off: an instance per visit); the read's operation completes at the jump, unsized
check()
{
    e=$1 want_profile=$2 want_order=$3
    shift 3
    run_app "$e" env SCOREP_ENABLE_TRACING=true SCOREP_PROFILING_ENABLE_CLUSTERING=false \
        SCOREP_EXPERIMENT_DIRECTORY="$e" "$@" io
    expect_eq "$status $(cat "$e.out")" "0 done 7" "$e: exit status and output"
    expect_eq "$(cat "$e.err")" "" "$e: nothing on stderr"
    expect_eq "$(profile "$e")" "$want_profile" \
        "$e: profile: the abandoned regions left at the jump, the I/O recorded after it"
    expect_eq "$(trace_region_order "$e")" "$want_order" "$e: trace: Enter/Leave order"
    expect_eq "$(trace_check_nesting "$e")" 0 "$e: trace: nesting valid"
    expect_eq "$(trace_check_order "$e")" 0 "$e: trace: timestamps increase"
    # the operations of the pipe's descriptors: 4 READ 1, 5 COMPLETE unknown bytes (the
    # abandoned read), then the write's and the second read's, each completed once
    expect_eq "$(trace_events "$e" | awk '$1 ~ /^IO_OPERATION/ && /Handle: "fd/ {
            m = $0; sub(/.*Matching Id: /, "", m); b = $0
            if ($1 == "IO_OPERATION_BEGIN") { sub(/.*Mode: /, "", b); sub(/,.*/, "", b) }
            else { sub(/.*Bytes Result: /, "", b); sub(/,.*/, "", b) }
            printf "%s%s %s %s", sep, substr($1, 14), b, (m in id) ? id[m] : (id[m] = ++n); sep = ", " }')" \
        "BEGIN READ 1, COMPLETE 18446744073709551615 1, BEGIN WRITE 2, COMPLETE 1 2, BEGIN READ 3, COMPLETE 1 3" \
        "$e: trace: the abandoned read's operation completed unsized, the later ones recorded"
}

# selected NAME CONFIG PROFILE ORDER ONOFF PROGRAM: with SCOREP_SELECTIVE_CONFIG_FILE naming one
# region (all its instances): recording is on from its Enter to its Leave at the jump, off
# after (the call after the jump is not recorded)
selected()
{
    e=$1 cfg=$2 want_profile=$3 want_order=$4 onoff=$5
    shift 5
    echo "$cfg" >"$e.cfg"
    run_app "$e" env SCOREP_ENABLE_TRACING=true SCOREP_PROFILING_ENABLE_CLUSTERING=false \
        SCOREP_SELECTIVE_CONFIG_FILE="$work/$e.cfg" SCOREP_EXPERIMENT_DIRECTORY="$e" "$@"
    expect_eq "$status $(cat "$e.out")" "0 done 5" "$e: exit status and output"
    expect_eq "$(profile "$e")" "$want_profile" "$e: profile: the selected instances only"
    expect_eq "$(trace_region_order "$e")" "$want_order" "$e: trace: Enter/Leave order"
    expect_eq "$(trace_events "$e" | awk '$1 == "MEASUREMENT_ON_OFF" { printf "%s%s", s, $NF; s = " " }')" \
        "$onoff" "$e: trace: recording on for each selected instance, off at the jump"
    expect_eq "$(trace_check_nesting "$e")" 0 "$e: trace: nesting valid"
}
sel_profile=$(lines "MEASUREMENT OFF=3" sel=2)
onoff2="OFF ON OFF ON OFF"
# dyn: its third instance ends by its END (no children)
dyn_order="E:dyn E:d2 E:sel L:sel L:d2 L:dyn E:dyn E:d2 E:sel L:sel L:d2 L:dyn E:dyn L:dyn"
onoff3="OFF ON OFF ON OFF ON OFF"
dyn_profile=$(lines "MEASUREMENT OFF=4" dyn=3 dyn/instance=3=1 dyn/instance=1=1 dyn/instance=1/d2=1 \
    dyn/instance=1/d2/sel=1 dyn/instance=2=1 dyn/instance=2/d2=1 dyn/instance=2/d2/sel=1)

part "gcc -finstrument-functions, user regions, POSIX I/O"
scorep_cc --user --io=posix --instrument=functions gcc -O2 -o ljr_gcc "$SRC"
check gcc "$profile_f" "$order_f" ./ljr_gcc

part "selected regions (gcc -finstrument-functions): sel, and the dynamic dyn"
selected sel_gcc sel "$sel_profile" "E:sel L:sel E:sel L:sel" "$onoff2" ./ljr_gcc
selected dyn_gcc dyn "$dyn_profile" \
    "$dyn_order" "$onoff3" ./ljr_gcc

part "user regions and POSIX I/O only (gcc)"
scorep_cc --user --io=posix --nocompiler gcc -O2 -o ljr_user "$SRC"
check user "$profile_u" "$order_u" ./ljr_user
selected sel_user sel "$sel_profile" "E:sel L:sel E:sel L:sel" "$onoff2" ./ljr_user

if command -v clang >/dev/null 2>&1; then
    part "clang -finstrument-functions, user regions, POSIX I/O; user regions only"
    scorep_cc --user --io=posix --instrument=functions clang -O2 -o ljr_clang "$SRC"
    check clang "$profile_f" "$order_f" ./ljr_clang
    selected dyn_clang dyn "$dyn_profile" \
        "$dyn_order" "$onoff3" ./ljr_clang
    scorep_cc --user --io=posix --nocompiler clang -O0 -o ljr_clang_user "$SRC"
    check clang_user "$profile_u" "$order_u" ./ljr_clang_user
else
    skip_part clang
fi

if command -v gfortran >/dev/null 2>&1; then
    part "Fortran user regions in the frames a C longjmp abandons (gfortran -O0, -O2)"
    f_profile=$(lines top=2 top/fr1=2 top/fr1/fr2=2 top/fr1/fr2/fr3=2 top/after=2)
    f_once="E:top E:fr1 E:fr2 E:fr3 L:fr3 L:fr2 L:fr1 E:after L:after L:top"
    for o in -O0 -O2; do
        e=fortran$o
        scorep_cc --user --nocompiler gfortran $o -c -o $e.f.o "$PROGRAMS/longjmp_f.F90"
        scorep_cc --user --nocompiler gcc $o -c -o $e.c.o "$PROGRAMS/longjmp_f_main.c"
        scorep_cc --user --nocompiler gfortran $o -o $e.x $e.c.o $e.f.o
        run_app $e env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=$e ./$e.x
        expect_eq "$status $(cat $e.out)" "0 done 4" "$e: exit status and output"
        expect_eq "$(profile $e)" "$f_profile" "$e: profile: fr1, fr2, fr3 left at the jump"
        expect_eq "$(trace_region_order $e)" "$f_once $f_once" "$e: trace: Enter/Leave order"
        expect_eq "$(trace_check_nesting $e)" 0 "$e: trace: nesting valid"
    done
else
    skip_part gfortran
fi

part "calls inlined into the setjmp caller (test/programs/longjmp_inlined.c)"
# inl_after, inlined after the setjmp, left at the jump; inl_encl, which calls sigsetjmp,
# and the region r begun after it in the same frame stay open
inl_profile=$(lines main=1 main/case_inl=1 main/case_inl/inl_after=1 \
    main/case_inl/inl_after/thrower=1 main/case_inl/after=1 main/case_encl=1 \
    main/case_encl/inl_encl=1 main/case_encl/inl_encl/r=1 main/case_encl/inl_encl/r/sthrower=1 \
    main/case_encl/inl_encl/r/after=1)
inl_order="E:main E:case_inl E:inl_after E:thrower L:thrower L:inl_after E:after L:after L:case_inl"
inl_order="$inl_order E:case_encl E:inl_encl E:r E:sthrower L:sthrower E:after L:after L:r"
inl_order="$inl_order L:inl_encl L:case_encl L:main"
# inlined NAME CALLER CALLEE: whether CALLER's code calls CALLEE (0: inlined)
inlined()
{
    expect_eq "$(disasm_fn "$1" "$2" | grep -c "call.*<$3" || true)" 0 "$1: $3 inlined into $2"
}
inl_check()
{
    e=$1
    shift
    run_app "$e" env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$e" "$@"
    expect_eq "$status $(cat "$e.out")" "0 done 5" "$e: exit status and output"
    expect_eq "$(profile "$e")" "$inl_profile" "$e: profile: inl_after left at the jump"
    expect_eq "$(trace_region_order "$e")" "$inl_order" "$e: trace: Enter/Leave order"
    expect_eq "$(trace_check_nesting "$e")" 0 "$e: trace: nesting valid"
}
for c in "gcc --instrument=functions" "gcc --instrument-inlined" "clang --instrument=functions" \
    "clang --instrument-inlined"; do
    cc=${c%% *}
    command -v $cc >/dev/null 2>&1 || { skip_part "$cc"; continue; }
    case $c in
    *inlined) [ $cc = gcc ] && p=$SCOREP_CC_GCC_PLUGIN || p=$SCOREP_CC_LLVM_PLUGIN
        [ -e "$p" ] || { skip_part_here "$c" "plugin not built in this build tree"; continue; } ;;
    esac
    case $c in *functions) e=inl_${cc}_functions ;; *) e=inl_${cc}_plugin ;; esac
    scorep_cc --user ${c#* } $cc -O2 -o $e.x "$PROGRAMS/longjmp_inlined.c"
    inlined $e.x case_inl inl_after
    inl_check $e ./$e.x
done
# the runtime preloaded: its _setjmp and __sigsetjmp come before the C library's too
gcc -O2 -finstrument-functions -I"$top_srcdir/include" -o inl_plain "$PROGRAMS/longjmp_inlined.c" ||
    fail "build: gcc -finstrument-functions"
inl_profile=$(echo "$inl_profile" | sed 's|/r/|/|; /\/r=1$/d')
inl_order=$(echo "$inl_order" | sed 's/ E:r / /; s/ L:r / /')
inl_check inl_preload "$top_builddir/scorep-run" ./inl_plain

part "a wrapped library's error path jumps to the program (scorep-libwrap-init, link time)"
# longjmp_lib.c's jl_step jumps to run's setjmp for x < 0 (as libpng's png_error): the wrapped
# call is left at the jump, recover lands beside it
mkdir -p jl/inc jl/lib
cp "$PROGRAMS/longjmp_lib.h" jl/inc/
gcc -O2 -fPIC -shared -Ijl/inc -o jl/lib/libjl.so "$PROGRAMS/longjmp_lib.c" || fail "build libjl.so"
export SCOREP_LIBWRAP_TEMPLATES="$top_srcdir/share/libwrap" SCOREP_LIBWRAP_SCOREP_CC="$SCOREP_CC"
"$top_builddir/scorep-libwrap-init" --name=jl -x c --cppflags="-I$work/jl/inc" \
    --ldflags="-L$work/jl/lib -Wl,-rpath,$work/jl/lib" --libs=-ljl --prefix="$work/jl/prefix" \
    jl/wd >jl.init 2>&1 || fail "scorep-libwrap-init: $(cat jl.init)"
echo '#include <longjmp_lib.h>' >>jl/wd/libwrap.h
make -C jl/wd >jl.make 2>&1 || fail "make: $(tail -20 jl.make)"
make -C jl/wd install >jl.install 2>&1 || fail "make install: $(tail -20 jl.install)"
export SCOREP_LIBWRAP_PATH="$work/jl/prefix"
scorep_cc --libwrap=jl --instrument=functions gcc -O2 -Ijl/inc -o jl_app \
    "$PROGRAMS/longjmp_lib_app.c" -Ljl/lib -Wl,-rpath,"$work/jl/lib" -ljl
run_app jl env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=jl_exp ./jl_app
expect_eq "$status $(cat jl.out)" "0 done 6" "libwrap: exit status and output"
expect_eq "$(profile jl_exp)" "$(lines main=1 main/run=1 "main/run/jl_step(int)=3" \
    main/run/recover=1 "main/jl_set_env(void *)=1")" \
    "libwrap: profile: the wrapped call the jump abandons left at it"
expect_eq "$(trace_region_order jl_exp)" \
    "E:main E:jl_set_env(void *) L:jl_set_env(void *) E:run E:jl_step(int) L:jl_step(int) E:jl_step(int) L:jl_step(int) E:jl_step(int) L:jl_step(int) E:recover L:recover L:run L:main" \
    "libwrap: trace: Enter/Leave order"
expect_eq "$(trace_check_nesting jl_exp)" 0 "libwrap: trace: nesting valid"

if [ -n "$CUBELIB_DUMP" ]; then
    part "CubeLib's reading of the profile"
    cubelib_visits "$CUBELIB_DUMP" gcc/profile.cubex >cl.visits
    expect_eq "$(cat cl.visits)" "$(echo "$profile_f" | sed 's/^/0 /')" \
        "CubeLib: the abandoned regions left at the jump"
else
    skip_part_here "CubeLib's own reading (cube_dump)" \
        "CubeLib is not packaged for this system (set CUBELIB_DUMP to a built cube_dump)"
fi

done_ok
