#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_target.sh: OpenMP target offload on the host device (clang -fopenmp
# -fopenmp-targets=x86_64-pc-linux-gnu, libomptarget's x86_64 plugin): test/omp/target.c
# built with scorep-cc clang and, not instrumented, run under scorep-run. Derived from the
# program's design (and libomptarget's reference counts: a target region inside a target data
# region of the same array moves nothing): on the host thread the constructs
# "!$omp target @target.c:L" (3 visits at two lines), "!$omp target enter data" and
# "!$omp target exit data" (the target data region's two ends); on the device location
# OMPT[0:0:0] the kernels __omp_offloading_..._scale_lL (2) and ..._main_lL (1) and exactly
# 6 transfers: host to device (RmaGet) 8000, 8000, 4000 bytes, device to host (RmaPut) 8000,
# 8000, 4000 bytes (the scalar f is passed by value: no transfer), each inside its
# construct on the host, in the trace and as bytes_get/bytes_put in the profile. Then
# test/omp/target_mixed.c: enter/exit data, teams, update, nowait and two host threads
# offloading to devices 0 and 1: per device the transfers and kernels of its design.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"
export SCOREP_TIMER=clock_gettime # one clock for the host thread and the device location

OFFLOAD="-fopenmp -fopenmp-targets=x86_64-pc-linux-gnu"
[ -f "$top_builddir/.libs/libscorep-rt-omptarget.so" ] || fail "libscorep-rt-omptarget not built"
# the toolchain: clang's offload driver and libomptarget with its host plugin
if ! clang -g $OFFLOAD -o target_plain "$OMP_SRC/target.c" >probe.err 2>&1; then
    echo "SKIP: clang $OFFLOAD cannot build a program here: $(head -c 300 probe.err)"
    exit 77
fi
run_app probe ./target_plain
if [ "$status" != 0 ] || [ "$(cat probe.out)" != "b 999000 c 1000" ]; then
    echo "SKIP: an offload program does not run here (libomptarget or its x86_64 plugin" \
        "missing?): $(head -c 300 probe.err)"
    exit 77
fi
scorep_cc clang $OFFLOAD -o target_cc "$OMP_SRC/target.c"
readelf -d target_cc >target_cc.dyn
expect_grep 'NEEDED.*\[libscorep-rt-omptarget\.so' target_cc.dyn \
    "scorep-cc clang -fopenmp-targets= links the target-offload adapter"

T=$(line target TARGET)
D=$(line target DATA)
I=$(line target INNER)
for v in cc run; do
    exp="exp_target_$v"
    if [ $v = cc ]; then
        set -- ./target_cc
        scale="main/scale/" main="main/"
    else
        set -- "$SCOREP_RUN" ./target_plain
        scale="" main=""
    fi
    run_app target_$v env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$exp" "$@"
    expect_eq "$status" 0 "$v: exit status"
    expect_eq "$(cat target_$v.out)" "b 999000 c 1000" "$v: program output"
    expect_eq "$(cat target_$v.err)" "" "$v: nothing on stderr"
    expect_eq "$(trace_check_order $exp)" 0 "$v: timestamps increase per location"
    expect_eq "$(trace_check_nesting $exp)" 0 "$v: enter/leave nest per location"

    # definitions: one device location, an accelerator stream of its own device
    trace_defs $exp >$exp.defs
    expect_eq "$(awk '/^LOCATION / && /Type: ACCELERATOR_STREAM/ { n++ } END { print n + 0 }' \
        $exp.defs)" 1 \
        "$v: one accelerator location"
    expect_grep '^LOCATION .*Name: "OMPT\[0:0:0\]".*Type: ACCELERATOR_STREAM.*Group: "OpenMP Target Context 0"' \
        $exp.defs "$v: the device's location OMPT[0:0:0]"
    dev=$(awk '/^LOCATION / && /Name: "OMPT\[0:0:0\]"/ { print $2 }' $exp.defs)
    host=$(awk '/^LOCATION / && /Name: "Master thread"/ { print $2 }' $exp.defs)
    # the stream's Cube location: its number in the (one) process, id >> 32 (ids: local << 32 |
    # rank, Score-P's)
    devc=$((dev >> 32))

    # the host's target constructs and every device event, merged in time order: each
    # device event inside the construct that caused it (one clock, one thread drives both)
    trace_events $exp | awk -v d="$dev" -v h="$host" '
        function short(s) { sub(/.*Region: "/, "", s); sub(/" <.*/, "", s)
            sub(/__omp_offloading_[0-9a-f]+_[0-9a-f]+_/, "K:", s); return s }
        $2 == d && ($1 == "ENTER" || $1 == "LEAVE") { print $3, "D", $1, short($0); next }
        $2 == d && ($1 == "RMA_GET" || $1 == "RMA_PUT") {
            b = $0; sub(/.*Bytes: /, "", b); sub(/,.*/, "", b); print $3, "D", $1, b; next }
        $2 == d { print $3, "D", $1; next }
        $2 == h && ($1 == "ENTER" || $1 == "LEAVE") && /Region: "!\$omp target/ {
            print $3, "H", $1, short($0) }' | sort -s -n -k1,1 | cut -d' ' -f2- >$exp.seq
    {
        for k in 1 2; do
            echo "H ENTER !\$omp target @target.c:$T"
            printf 'D ENTER !$omp target memcpy HtoD\nD RMA_GET 8000\nD RMA_OP_COMPLETE_BLOCKING\n'
            echo "D LEAVE !\$omp target memcpy HtoD"
            printf 'D ENTER K:scale_l%s\nD LEAVE K:scale_l%s\n' "$T" "$T"
            printf 'D ENTER !$omp target memcpy DtoH\nD RMA_PUT 8000\nD RMA_OP_COMPLETE_BLOCKING\n'
            echo "D LEAVE !\$omp target memcpy DtoH"
            echo "H LEAVE !\$omp target @target.c:$T"
        done
        echo "H ENTER !\$omp target enter data @target.c:$D"
        printf 'D ENTER !$omp target memcpy HtoD\nD RMA_GET 4000\nD RMA_OP_COMPLETE_BLOCKING\n'
        echo "D LEAVE !\$omp target memcpy HtoD"
        echo "H LEAVE !\$omp target enter data @target.c:$D"
        echo "H ENTER !\$omp target @target.c:$I"
        printf 'D ENTER K:main_l%s\nD LEAVE K:main_l%s\n' "$I" "$I"
        echo "H LEAVE !\$omp target @target.c:$I"
        echo "H ENTER !\$omp target exit data @target.c:$D"
        printf 'D ENTER !$omp target memcpy DtoH\nD RMA_PUT 4000\nD RMA_OP_COMPLETE_BLOCKING\n'
        echo "D LEAVE !\$omp target memcpy DtoH"
        echo "H LEAVE !\$omp target exit data @target.c:$D"
    } >want_target.seq
    expect_eq "$(diff want_target.seq $exp.seq)" "" \
        "$v: constructs, kernels and transfers (bytes, direction) in order, each inside its construct"
    # no other transfer anywhere in the trace
    expect_eq "$(events $exp RMA_GET)" 3 "$v: RmaGet records in the trace"
    expect_eq "$(events $exp RMA_PUT)" 3 "$v: RmaPut records in the trace"
    trace_other $exp >$exp.other
    expect_eq "$(awk '$1 ~ /^RMA_(GET|PUT)$/ && !/Window: "CUDA_WINDOW" <[0-9]+>, Remote: 0 \("Master thread"/ {
        n++ } END { print n + 0 }' $exp.other)" 0 \
        "$v: transfers on the CUDA window, the host (master thread) remote"

    # profile: the same visits and bytes, the bytes on the device's transfer regions only
    K_scale=$(profile_paths $exp | grep -x "__omp_offloading_[0-9a-f]*_[0-9a-f]*_scale_l$T") ||
        fail "$v: no kernel region for scale's target region in the profile"
    K_main=$(profile_paths $exp | grep -x "__omp_offloading_[0-9a-f]*_[0-9a-f]*_main_l$I") ||
        fail "$v: no kernel region for main's target region in the profile"
    expect_eq "$(profile_values $exp "${scale}!\$omp target @target.c:$T" visits)" "$host 2" \
        "$v: profile: the target construct in scale, host thread"
    expect_eq "$(profile_values $exp "${main}!\$omp target @target.c:$I" visits)" "$host 1" \
        "$v: profile: the target construct in main"
    expect_eq "$(profile_values $exp "${main}!\$omp target enter data @target.c:$D" visits)" \
        "$host 1" "$v: profile: target data's begin"
    expect_eq "$(profile_values $exp "${main}!\$omp target exit data @target.c:$D" visits)" \
        "$host 1" "$v: profile: target data's end"
    expect_eq "$(profile_values $exp "$K_scale" visits)" "$devc 2" "$v: profile: scale's kernel"
    expect_eq "$(profile_values $exp "$K_main" visits)" "$devc 1" "$v: profile: main's kernel"
    expect_eq "$(profile_values $exp "!\$omp target memcpy HtoD" visits)" "$devc 3" \
        "$v: profile: host-to-device transfers"
    expect_eq "$(profile_values $exp "!\$omp target memcpy DtoH" visits)" "$devc 3" \
        "$v: profile: device-to-host transfers"
    expect_eq "$(profile_values $exp "!\$omp target memcpy HtoD" bytes_get)" "$devc 20000" \
        "$v: profile: bytes to the device (8000 + 8000 + 4000)"
    expect_eq "$(profile_values $exp "!\$omp target memcpy DtoH" bytes_put)" "$devc 20000" \
        "$v: profile: bytes from the device"
    expect_eq "$(profile_dump $exp -m bytes_get,bytes_put | awk -F'\t' '{ split($4, g, "=")
        split($5, p, "="); s += g[2] + p[2] } END { print s + 0 }')" 40000 \
        "$v: profile: no other bytes anywhere"
done

# --- target_mixed.c: enter/exit data, teams, update, nowait, two host threads on two devices
scorep_cc clang $OFFLOAD -o target_mixed_cc "$OMP_SRC/target_mixed.c"
clang -g $OFFLOAD -o target_mixed_plain "$OMP_SRC/target_mixed.c" || fail "build: target_mixed.c"
at() { echo "@target_mixed.c:$(line target_mixed "$1")"; }
for v in cc run; do
    exp="exp_mixed_$v"
    if [ $v = cc ]; then set -- ./target_mixed_cc; else set -- "$SCOREP_RUN" ./target_mixed_plain; fi
    run_app mixed_$v env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$exp" "$@"
    expect_eq "$status" 0 "mixed $v: exit status"
    expect_eq "$(cat mixed_$v.out)" "y 4097 z 32 devices 2" "mixed $v: program output"
    expect_eq "$(cat mixed_$v.err)" "" "mixed $v: nothing on stderr"
    expect_eq "$(trace_check_order $exp)" 0 "mixed $v: timestamps increase per location"
    expect_eq "$(trace_check_nesting $exp)" 0 "mixed $v: enter/leave nest per location"
    trace_defs $exp >$exp.defs
    # device number of each location id: OMPT[d:0:s] -> d (host threads: none)
    awk '/^LOCATION / && /Name: "OMPT\[/ { d = $0; sub(/.*Name: "OMPT\[/, "", d); sub(/:.*/, "", d)
        print $2, d }' $exp.defs >$exp.devs
    expect_eq "$(awk '{ print $2 }' $exp.devs | sort -u | tr '\n' ' ')" "0 1 " \
        "mixed $v: locations of devices 0 and 1"
    expect_eq "$(awk '$2 == 1 { n++ } END { print n + 0 }' $exp.devs)" 1 \
        "mixed $v: one location of device 1 (one thread drove it)"
    # per device: the transfers' directions and bytes, and the kernels by construct line
    trace_events $exp | awk -v devs=$exp.devs '
        BEGIN { while ((getline l < devs) > 0) { split(l, f, " "); dev[f[1]] = f[2] } }
        !($2 in dev) { next }
        $1 == "RMA_GET" || $1 == "RMA_PUT" { b = $0; sub(/.*Bytes: /, "", b); sub(/,.*/, "", b)
            print "device", dev[$2], $1, b }
        $1 == "ENTER" && /Region: "__omp_offloading_/ { k = $0; sub(/.*_l/, "", k); sub(/".*/, "", k)
            print "device", dev[$2], "kernel", k }' | sort >$exp.dev_events
    {
        echo "device 0 RMA_GET 128"
        echo "device 0 RMA_GET 32768"
        echo "device 0 RMA_GET 64"
        echo "device 0 RMA_PUT 128"
        echo "device 0 RMA_PUT 32768"
        echo "device 0 RMA_PUT 64"
        for m in DEVICE NOWAIT TEAMS; do echo "device 0 kernel $(line target_mixed $m)"; done
        echo "device 1 RMA_GET 64"
        echo "device 1 RMA_PUT 64"
        echo "device 1 kernel $(line target_mixed DEVICE)"
    } | sort >want_mixed.txt
    expect_eq "$(diff want_mixed.txt $exp.dev_events)" "" \
        "mixed $v: per device the transfers (direction, bytes) and kernels of the design"
    # host constructs: visits summed over the host threads
    pre=""
    [ $v = run ] || pre="main/"
    for c in "enter data $(at ENTER)" "exit data $(at EXIT)" "update $(at UPDATE)"; do
        expect_eq "$(visits $exp "${pre}!\$omp target $c")" 1 "mixed $v: !\$omp target $c"
    done
    expect_eq "$(visits $exp "${pre}!\$omp target $(at TEAMS)")" 1 "mixed $v: the teams construct"
    expect_eq "$(profile_paths $exp | grep -c "!\$omp target $(at NOWAIT)\$")" 1 \
        "mixed $v: the nowait construct, on one call path"
    devpath=$(profile_paths $exp | grep "!\$omp target $(at DEVICE)\$") ||
        fail "mixed $v: no call path of the device(t) construct"
    expect_eq "$(per_loc $exp "$devpath")" "1 1" \
        "mixed $v: the device(t) construct on one call path, once on each thread"
    expect_eq "$(profile_dump $exp -m bytes_get,bytes_put | awk -F'\t' '{ split($4, g, "=")
        split($5, p, "="); sg += g[2]; sp += p[2] } END { print sg + 0, sp + 0 }')" "33024 33024" \
        "mixed $v: profile: bytes to and from the devices (32768 + 128 + 64 + 64 each way)"
done

# --- nvptx64: scorep-cc must leave the device code uninstrumented (the LLVM plugin strips
# -finstrument-functions' hooks there; nvlink would find no __cyg_profile_func_enter). Without
# a GPU the program runs by host fallback: the constructs on the host, no device location.
NVPTX="-fopenmp -fopenmp-targets=nvptx64 -Xopenmp-target -march=sm_80"
if nvidia-smi -L >/dev/null 2>&1; then
    skip_part_here "nvptx64 host fallback" "a GPU is present (test/device's business)"
elif ! clang -g $NVPTX -o target_nv_plain "$OMP_SRC/target.c" >nv.err 2>&1; then
    skip_part_here "nvptx64 build" "clang cannot build for nvptx64 here: $(grep -m1 error nv.err)"
else
    scorep_cc clang $NVPTX -o target_nv_cc "$OMP_SRC/target.c"
    run_app nv env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_nv ./target_nv_cc
    expect_eq "$status" 0 "nvptx64 build, host fallback: exit status"
    expect_eq "$(cat nv.out)" "b 999000 c 1000" "nvptx64 build, host fallback: program output"
    expect_eq "$(visits exp_nv "main/scale/!\$omp target @target.c:$T")" 2 \
        "nvptx64 build, host fallback: the target construct on the host"
    trace_defs exp_nv >exp_nv.defs
    expect_eq "$(awk '/^LOCATION / && /ACCELERATOR_STREAM/ { n++ } END { print n + 0 }' exp_nv.defs)" \
        0 "nvptx64 build, host fallback: no device location"
    expect_eq "$(events exp_nv RMA_GET)" 0 "nvptx64 build, host fallback: no transfer"
fi
done_ok
