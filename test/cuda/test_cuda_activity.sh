#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_cuda_activity.sh: CUPTI activity records of CUPTI's own struct types (cuda_synthetic.c)
# through the adapter's buffer processing: GPU locations per stream, kernel and memcpy
# events at converted timestamps, memcpys as RMA transfers with their bytes, in the trace
# (otf2-print) and the profile (scorep-cube-dump). Needs no GPU.
. "$top_srcdir/test/integration/lib.sh"

if [ ! -x "$top_builddir/test/cuda/cuda_synthetic" ]; then
    echo "SKIP: the CUDA adapter is not built (configure found no CUPTI, or --with-cuda=no)"
    echo "SKIP-NOT-A-PACKAGE: CUDA/CUPTI is not a Debian package the quickstart installs"
    exit 77
fi
# clock_gettime: ticks are ns, so profile times in seconds are exact
# a pool of 8 chunks growing to 12 (cuda_synthetic.c checks it)
run_app syn env SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime \
    SCOREP_CUDA_BUFFER=64k SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k \
    SCOREP_EXPERIMENT_DIRECTORY=exp "$top_builddir/test/cuda/cuda_synthetic"
expect_eq "$status" 0 "exit status (clock conversion and buffer pool checks: $(cat syn.out))"
expect_eq "$(cat syn.out)" "synthetic records processed" "program output"
if [ ! -e /dev/nvidia0 ]; then
    # no driver: the one warning, and the measurement goes on; the thirteenth buffer
    # request of the pool check was refused: said at exit and in MANIFEST.md
    expect_eq "$(wc -l <syn.err | tr -d ' ')" 2 "two lines on stderr"
    expect_grep 'CUDA: cuptiSubscribe failed \(CUPTI_ERROR_UNKNOWN, 999\)' syn.err "the warning"
fi
LOSS='CUDA: activity records lost: 0 dropped by CUPTI (1 buffer requests refused at the cap SCOREP_CUDA_BUFFER_MAX=98304 bytes; pool peak 12 chunks of 8192 bytes), 0 completed after finalize (0 buffers), 0 buffers not recorded for lack of memory; the profile and trace miss them'
expect_eq "$(grep -cF "warning: $LOSS" syn.err)" 1 "the refused request: a warning at exit"
expect_eq "$(grep -cxF -- "- $LOSS" exp/MANIFEST.md)" 1 "the refused request: a line in MANIFEST.md"
# ... and a marker in the profile and the trace: a visit of CUDA ACTIVITY RECORDS LOST with
# the number of records CUPTI reported dropped (none here: no CUPTI delivered records)
expect_eq "$(profile_values exp "CUDA ACTIVITY RECORDS LOST" visits)" "0 1" "loss marker in the profile"
expect_eq "$(trace_events exp | awk '$1 == "METRIC" && $2 == 0' | sed 's/.*UINT64; //; s/)$//')" 0 \
    "loss marker in the trace: records lost"

# --- trace: locations ---
trace_defs exp >defs.txt
expect_eq "$(grep -c '^LOCATION ' defs.txt)" 3 "three locations"
expect_grep 'Name: "Master thread" <[0-9]*>, Type: CPU_THREAD, # Events: 17,' defs.txt \
    "master: program begin/end, 6 API calls and the loss marker (enter, metric, leave)"
expect_grep 'Name: "CUDA\[0:1:7\]" <[0-9]*>, Type: ACCELERATOR_STREAM, # Events: 12, Group: "CUDA Context 1" <1>' \
    defs.txt "stream 7"
expect_grep 'Name: "CUDA\[0:1:8\]" <[0-9]*>, Type: ACCELERATOR_STREAM, # Events: 6, Group: "CUDA Context 1" <1>' \
    defs.txt "stream 8"
# Score-P's structure (scorep_cupti.c, SCOREP_AcceleratorMgmt_CreateContext): a system-tree
# node of class "CUDA Device" named by the device number under the process's node, in it a
# location group of type ACCELERATOR "CUDA Context <context id>" created by the process
host=$(hostname)
# system-tree nodes and location groups as "KIND id name, ..." (names without string ids)
st_defs()
{
    awk '$1 == "SYSTEM_TREE_NODE" || $1 == "LOCATION_GROUP" { t = $1; id = $2
        sub(/^[A-Z_]+ +[0-9]+ +/, ""); print t, id, $0 }' "$1" |
        sed 's/\(Name\|Class\): \("[^"]*"\) <[0-9]*>/\1: \2/g' | tr '\n' ';'
}
expect_eq "$(st_defs defs.txt)" \
    "SYSTEM_TREE_NODE 0 Name: \"Linux\", Class: \"machine\", Parent: UNDEFINED;SYSTEM_TREE_NODE 1 Name: \"$host\", Class: \"node\", Parent: \"machine::Linux\" <0>;LOCATION_GROUP 0 Name: \"Process\", Type: PROCESS, Parent: \"node::$host\" <1>, Creator: UNDEFINED;SYSTEM_TREE_NODE 2 Name: \"0\", Class: \"CUDA Device\", Parent: \"node::$host\" <1>;LOCATION_GROUP 1 Name: \"CUDA Context 1\", Type: ACCELERATOR, Parent: \"CUDA Device::0\" <2>, Creator: \"Process\" <0>;" \
    "trace: the device's system-tree node and the context's accelerator group, created by the process"
# groups, communicators and windows as "KIND id rest" (string ids of names dropped): the
# pthread and OpenMP location groups hold the CPU thread only; CUDA's, as Score-P defines
# them (scorep_cuda_define_cuda_locations, scorep_cuda_define_cuda_group): COMM_LOCATIONS
# "CUDA" with the host (master thread) first and the two streams (location ids local << 32 |
# rank, Score-P's: locals 1 and 2 of rank 0), the process's COMM_GROUP
# "CUDA_GROUP" of indices into it, a communicator over it, the window "CUDA_WINDOW" on that
# communicator, and the LOCATIONS group "CUDA_GROUP" of the streams
comm_defs()
{
    awk '$1 == "GROUP" || $1 == "COMM" || $1 == "RMA_WIN" { t = $1; id = $2
        sub(/^[A-Z_]+ +[0-9]+ +/, ""); print t, id, $0 }' "$1" |
        sed 's/^\([^,]*Name: "[^"]*"\) <[0-9]*>/\1/'
}
comm_defs defs.txt >comm.txt
# the CUDA definitions (the same in the run with a late CPU thread below)
cat >want_cuda.txt <<'WANT'
GROUP 3 Name: "CUDA", Type: COMM_LOCATIONS, Paradigm: CUDA, Flags: NONE, 3 Members: "Master thread" <0>, "CUDA[0:1:7]" <4294967296>, "CUDA[0:1:8]" <8589934592>
GROUP 4 Name: "CUDA_GROUP", Type: COMM_GROUP, Paradigm: CUDA, Flags: NONE, 3 Members: 0 ("Master thread" <0>), 1 ("CUDA[0:1:7]" <4294967296>), 2 ("CUDA[0:1:8]" <8589934592>)
COMM 1 Name: "", Group: "CUDA_GROUP" <4>, Parent: UNDEFINED, Flags: NONE
RMA_WIN 0 Name: "CUDA_WINDOW", Communicator: "" <1>, Flags: NONE
GROUP 5 Name: "CUDA_GROUP", Type: LOCATIONS, Paradigm: UNKNOWN, Flags: NONE, 2 Members: "CUDA[0:1:7]" <4294967296>, "CUDA[0:1:8]" <8589934592>
WANT
cat - want_cuda.txt >want_comm.txt <<'WANT'
GROUP 0 Name: "", Type: COMM_LOCATIONS, Paradigm: PTHREAD, Flags: NONE, 1 Member: "Master thread" <0>
GROUP 1 Name: "", Type: COMM_GROUP, Paradigm: PTHREAD, Flags: NONE, 1 Member: 0 ("Master thread" <0>)
COMM 0 Name: "Pthread thread contingent", Group: "" <1>, Parent: UNDEFINED, Flags: NONE
GROUP 2 Name: "", Type: COMM_LOCATIONS, Paradigm: OPENMP, Flags: NONE, 1 Member: "Master thread" <0>
WANT
expect_eq "$(diff want_comm.txt comm.txt && echo same)" same \
    "groups, communicators, the CUDA window: GPU streams in CUDA's groups only"
expect_defs_clean exp "GPU locations and the CUDA window"

# --- trace: GPU events at host = 1000000 + 2 * (gpu - 10000), in order per stream ---
# (region ids in the order of definition: 0 is the program region, defined at the start;
# streams by their number in the process, id >> 32: ids are local << 32 | rank, Score-P's)
trace_events exp | awk '$2 != 0 { r = $0; sub(/^[^ ]+ +[0-9]+ +[0-9]+ +/, "", r)
    print $1, ($2 - $2 % 4294967296) / 4294967296, $3, r }' \
    >gpu.txt
cat >want.txt <<'WANT'
ENTER 1 1180000 Region: "memcpy HtoD" <4>
RMA_GET 1 1180001 Window: "CUDA_WINDOW" <0>, Remote: 0 ("Master thread" <0>), Bytes: 4096, Matching: 11
RMA_OP_COMPLETE_BLOCKING 1 1189999 Window: "CUDA_WINDOW" <0>, Matching: 11
LEAVE 1 1190000 Region: "memcpy HtoD" <4>
ENTER 1 1200000 Region: "vecAdd(float const*, float const*, float*, int)" <5>
ENTER 2 1210000 Region: "memset" <6>
LEAVE 2 1212000 Region: "memset" <6>
ENTER 2 1220000 Region: "scale" <7>
LEAVE 2 1240000 Region: "scale" <7>
LEAVE 1 1300000 Region: "vecAdd(float const*, float const*, float*, int)" <5>
ENTER 1 1380000 Region: "vecAdd(float const*, float const*, float*, int)" <5>
LEAVE 1 1480000 Region: "vecAdd(float const*, float const*, float*, int)" <5>
ENTER 1 1580000 Region: "memcpy DtoH" <8>
RMA_PUT 1 1580001 Window: "CUDA_WINDOW" <0>, Remote: 0 ("Master thread" <0>), Bytes: 4096, Matching: 15
RMA_OP_COMPLETE_BLOCKING 1 1599999 Window: "CUDA_WINDOW" <0>, Matching: 15
LEAVE 1 1600000 Region: "memcpy DtoH" <8>
ENTER 2 1620000 Region: "memcpy DtoD" <9>
LEAVE 2 1622000 Region: "memcpy DtoD" <9>
WANT
expect_eq "$(diff want.txt gpu.txt && echo same)" same "GPU events, converted timestamps, RMA bytes"
expect_eq "$(trace_check_order exp)" 0 "timestamps increase per location"
expect_eq "$(trace_check_nesting exp)" 0 "regions nest"

# --- trace and profile: API calls through the callback path as CUDA regions ---
for r in "cudaMalloc 2" "cudaLaunchKernel 3" "cuCtxSynchronize 1"; do
    expect_eq "$(trace_count exp ENTER 0 "${r% *}")" "${r#* }" "trace: ENTER ${r% *} on the master thread"
    expect_eq "$(profile_values exp "${r% *}" visits)" "0 ${r#* }" "profile: ${r% *} visits"
    expect_grep "^REGION .*Name: \"${r% *}\" .*Role: WRAPPER, Paradigm: CUDA," defs.txt \
        "${r% *}: role wrapper, paradigm CUDA"
done

# --- profile: GPU locations in the system tree, kernel visits and times ---
# as Score-P's Cube writer (scorep_profile_cube4_writer.c) makes it of the same definitions:
# the device node shows "class name", the group type accelerator with its global id as rank
# (after the process, as in the trace) and the attribute "Creating location group", the
# streams type "accelerator stream" (CubeW) ranked in their group
expect_eq "$(profile_dump exp --system-groups | tr '\t' '|' | tr '\n' ';')" \
    "0|Linux/$host|node|Process|process|0|-|0:Master thread:thread:0;1|Linux/$host/CUDA Device 0|CUDA Device|CUDA Context 1|accelerator|1|Process|1:CUDA[0:1:7]:accelerator stream:0;2:CUDA[0:1:8]:accelerator stream:1;" \
    "profile: location groups, their nodes, types, ranks, creators and locations"
expect_eq "$(profile_dump exp --system | cut -f3- | tr '\t' ' ' | tr '\n' ';')" \
    "Process Master thread 0;CUDA Context 1 CUDA[0:1:7] 1;CUDA Context 1 CUDA[0:1:8] 1;" "system tree"
tar -xOf exp/profile.cubex anchor.xml >anchor.xml || fail "no anchor.xml in profile.cubex"
expect_eq "$(grep -c '<type>accelerator</type>' anchor.xml)" 1 "Cube location group type accelerator"
expect_eq "$(grep -c '<type>accelerator stream</type>' anchor.xml)" 2 "Cube location type accelerator stream"
expect_eq "$(grep -c '<type>thread</type>' anchor.xml)" 1 "Cube location type thread"
expect_eq "$(grep -c '^<cube version="4.7">$' anchor.xml)" 1 \
    "anchor syntax 4.7 with an accelerator group (CubeLib's GPU_VERSION)"
expect_eq "$(grep -cF '<attr key="Creating location group" value="Process"/>' anchor.xml)" 1 \
    "the accelerator group's creator"
K="vecAdd(float const*, float const*, float*, int)"
expect_eq "$(profile_values exp "$K" visits)" "1 2" "kernel visits"
expect_eq "$(profile_values exp "$K" time)" "1 0.0002" "kernel time (2 x 50 us on the GPU clock, 2 ticks per ns)"
expect_eq "$(profile_values exp scale visits)" "2 1" "scale visits"
expect_eq "$(profile_values exp scale time)" "2 2e-05" "scale time"
expect_eq "$(profile_values exp "memcpy HtoD" time)" "1 1e-05" "HtoD time"
expect_eq "$(profile_values exp "memcpy DtoH" visits)" "1 1" "DtoH visits"
expect_eq "$(profile_values exp "memcpy HtoD" bytes_get)" "1 4096" "HtoD bytes (the stream gets)"
expect_eq "$(profile_values exp "memcpy DtoH" bytes_put)" "1 4096" "DtoH bytes (the stream puts)"
expect_eq "$(profile_values exp memset time)" "2 2e-06" "memset time"
# --- configuration: a bad feature name stops the program with the accepted names; no
# (adapter off) subscribes to nothing and so prints no warning ---
run_app bad env SCOREP_CUDA_ENABLE=kernel,bogus "$top_builddir/test/cuda/cuda_synthetic"
expect_eq "$status" 1 "bad SCOREP_CUDA_ENABLE: exit status"
expect_grep "SCOREP_CUDA_ENABLE='kernel,bogus' is invalid: unknown entry 'bogus'.*runtime, driver, kernel, kernel_serial, kernel_callsite, kernel_counter, memcpy, sync, idle, pure_idle, gpumemusage, references, flushatexit, dontflushatexit, default, yes, 1" \
    bad.err "bad SCOREP_CUDA_ENABLE: the message names the accepted entries"
# kernel_serial (implies kernel) records CUPTI's KERNEL activity records as kernels: 3
# kernel records of the 7, vecAdd twice
run_app ser env CUDA_SYNTHETIC_SERIAL=1 SCOREP_CUDA_ENABLE=kernel_serial \
    SCOREP_CUDA_BUFFER=64k SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k \
    SCOREP_EXPERIMENT_DIRECTORY=exp_ser "$top_builddir/test/cuda/cuda_synthetic" 3
expect_eq "$status $(cat ser.out)" "0 synthetic records processed" "kernel_serial: exit status ($(head -c 300 ser.err))"
expect_eq "$(profile_values exp_ser "$K" visits)" "1 2" "kernel_serial: kernel visits"
run_app off env SCOREP_CUDA_ENABLE=no SCOREP_CUDA_BUFFER=64k SCOREP_CUDA_BUFFER_CHUNK=8k \
    SCOREP_CUDA_BUFFER_MAX=96k \
    SCOREP_EXPERIMENT_DIRECTORY=exp_off "$top_builddir/test/cuda/cuda_synthetic"
expect_eq "$status" 0 "SCOREP_CUDA_ENABLE=no: exit status"
expect_eq "$(grep -v 'activity records lost' off.err)" "" "SCOREP_CUDA_ENABLE=no: no other warning"
# without memcpy only the 3 kernel records become events
run_app konly env SCOREP_CUDA_ENABLE=kernel SCOREP_CUDA_BUFFER=64k \
    SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k SCOREP_EXPERIMENT_DIRECTORY=exp_konly \
    "$top_builddir/test/cuda/cuda_synthetic" 3
expect_eq "$status" 0 "kernel only: exit status (3 records recorded: $(cat konly.out))"
expect_eq "$(profile_paths exp_konly | grep -c memcpy)" 0 "kernel only: no memcpy regions"
expect_eq "$(grep -c 'not recorded yet' konly.err)" 0 "no entry is accepted without being recorded"

# --- idle and pure_idle over the 7 records above (host ticks = ns): compute idle from the
# end of the first kernel (1300000) to the start of the third (1380000); GPU idle (copies
# and memsets busy too) 1190000-1200000, 1300000-1380000, 1480000-1580000, 1600000-1620000 ---
run_app idle env SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime \
    SCOREP_CUDA_ENABLE=kernel,memcpy,idle,pure_idle SCOREP_CUDA_BUFFER=64k \
    SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k SCOREP_EXPERIMENT_DIRECTORY=exp_idle \
    "$top_builddir/test/cuda/cuda_synthetic"
expect_eq "$status" 0 "idle: exit status ($(cat idle.out))"
expect_eq "$(profile_dump exp_idle --system | cut -f3- | tr '\t' ' ' | tr '\n' ';')" \
    "Process Master thread 0;CUDA Context 1 CUDA[0:1:7] 1;CUDA Context 1 CUDA[0:1:idle] 1;CUDA Context 1 CUDA[0:1:8] 1;CUDA Context 1 CUDA[0:1:compute idle] 1;" \
    "idle: a location of its own for each kind (created at its first interval: GPU idle with the first kernel)"
expect_eq "$(profile_values exp_idle "COMPUTE IDLE" visits) $(profile_values exp_idle "COMPUTE IDLE" time)" \
    "4 1 4 8e-05" "idle: COMPUTE IDLE"
expect_eq "$(profile_values exp_idle "GPU IDLE" visits) $(profile_values exp_idle "GPU IDLE" time)" \
    "2 4 2 0.00021" "pure_idle: GPU IDLE"
expect_eq "$(trace_events exp_idle | awk -v s="$(loc_id 0 2)" '$1 == "ENTER" && $2 == s { print $3 }' | tr '\n' ' ')" \
    "1190000 1300000 1480000 1600000 " "pure_idle: the intervals' starts in the trace"
expect_grep '^REGION .*Name: "COMPUTE IDLE" .*Role: ARTIFICIAL, Paradigm: CUDA,' \
    "$(trace_defs exp_idle >idle_defs.txt && echo idle_defs.txt)" "idle: role artificial, paradigm CUDA"
expect_eq "$(trace_check_order exp_idle) $(trace_check_nesting exp_idle)" "0 0" "idle: order and nesting"

# --- kernel_counter, gpumemusage, references (cuda_synthetic.c "features": every kernel 8
# blocks of 128 threads, 1536 bytes shared memory, 32 registers; cudaMalloc 1000 and 3000
# bytes, cudaFree of the first; launches and kernels with correlation ids 12, 13, 14) ---
run_app feat env SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime \
    SCOREP_CUDA_ENABLE=runtime,driver,kernel,memcpy,kernel_counter,gpumemusage,references \
    SCOREP_CUDA_BUFFER=64k SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k \
    SCOREP_EXPERIMENT_DIRECTORY=exp_feat "$top_builddir/test/cuda/cuda_synthetic" features
expect_eq "$status" 0 "features: exit status ($(cat feat.out))"
for m in "CUDA grid size:1 16" "CUDA block size:1 256" "CUDA shared memory:1 3072" \
    "CUDA registers per thread:1 64"; do
    expect_eq "$(profile_values exp_feat "$K" "${m%%:*}")" "${m#*:}" \
        "kernel_counter: ${m%%:*} of vecAdd's two calls (sum)"
done
expect_eq "$(profile_values exp_feat scale "CUDA grid size")" "2 8" "kernel_counter: scale"
expect_eq "$(profile_values exp_feat cudaMalloc "CUDA memory usage")" "0 5000" \
    "gpumemusage: usage after each cudaMalloc (1000 + 4000)"
expect_eq "$(profile_values exp_feat cudaFree "CUDA memory usage")" "0 8048" \
    "gpumemusage: usage after the two cudaFree calls (3000 + 5048)"
for m in cudaMallocManaged:5000 cuMemAlloc_v2:5000 cuMemAllocPitch_v2:7048 cudaMallocAsync:7148 \
    cudaFreeAsync:7048 cuMemFree_v2:5048; do
    expect_eq "$(profile_values exp_feat "${m%%:*}" "CUDA memory usage")" "0 ${m#*:}" \
        "gpumemusage: usage after ${m%%:*} (cuda_synthetic.c memory_calls)"
done
trace_events exp_feat >feat_events.txt
expect_eq "$(awk '$1 == "METRIC" && $2 == 0 && /CUDA memory usage/' feat_events.txt | sed 's/.*UINT64; //; s/)$//' | tr '\n' ' ')" \
    "1000 4000 3000 5000 5000 7048 7148 7048 5048 5048 " "gpumemusage: the usage in the trace, in order"
expect_eq "$(awk '$1 == "PARAMETER_UINT64" { sub(/.*Value: /, ""); print $0 }' feat_events.txt | sort -n | tr '\n' ' ')" \
    "12 12 13 13 14 14 " "references: each correlation id on the launch and on its kernel"
expect_eq "$(awk '$1 == "PARAMETER_UINT64" && $2 == 0' feat_events.txt | wc -l | tr -d ' ')" 3 \
    "references: the three launches on the host"
expect_eq "$(awk '$1 == "METRIC" && $2 != 0' feat_events.txt | wc -l | tr -d ' ')" 12 \
    "kernel_counter: four metrics per kernel in the trace"
expect_eq "$(trace_check_order exp_feat)" 0 "features: timestamps increase per location"
# references in scorep-report's timeline: one green arrow per launch, from the host thread
# to the GPU stream, as long as the trace's parameter events say (kernel start - launch)
run_app feat_report "$top_builddir/scorep-report" -o "$work/feat_report.html" exp_feat
expect_eq "$status" 0 "references: scorep-report runs"
expect_eq "$(awk '$1 == "PARAMETER_UINT64" { v = $NF; if ($2 == 0) h[v] = $3; else g[v] = $3 }
    END { for (v in h) printf "%.0f\n", g[v] - h[v] }' feat_events.txt | sort -n | tr '\n' ' ')" \
    "$(python3 -c '
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
t = json.loads(re.search(r"<script type=\"application/json\" id=\"report-data\">(.*?)</script>",
                         page, re.S).group(1))["timeline"]
l = t["launches"]
rows = [t["locations"][l[i + 1]]["name"] != t["locations"][l[i]]["name"] for i in range(0, len(l), 4)]
assert t["total_launches"] == len(l) // 4 and all(rows), (t["total_launches"], l)
print(" ".join(str(d) for d in sorted(l[i + 3] - l[i + 2] for i in range(0, len(l), 4))) + " ")
' "$work/feat_report.html")" "references: the report's launch arrows, kernel start - launch each"
# the Chrome/Perfetto export: one flow arrow per launch, from the master thread (tid 0) to
# the kernel's stream (stream 7: tid 1, stream 8: tid 2)
"$top_builddir/scorep-otf2-to-chrome" -o feat.json exp_feat || fail "scorep-otf2-to-chrome"
expect_eq "$(python3 -c '
import json, sys
ev = json.load(open("feat.json"))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
for e in sorted((e for e in ev if e.get("cat") == "cuda"), key=lambda e: (e["id"], e["ph"] == "f")):
    print(e["ph"], e["id"] - (1 << 40), e["tid"], e.get("bp", "-"), end=";")
')" "s 12 0 -;f 12 1 e;s 13 0 -;f 13 2 e;s 14 0 -;f 14 1 e;" "references: flow arrows launch -> kernel in the Chrome export"

# --- kernel_callsite (cuda_synthetic.c "callsite"): as Score-P (scorep_cupti_callbacks.c,
# scorep_cupti_activity_kernel.c, SCOREP_AcceleratorMgmt_GetCallsiteParameter) the parameter
# "callsite id" (UINT64) right after the Enter of each kernel launch on the host and of its
# kernel on the GPU stream, the same value on both: here FNV-1a (32 bit, one step per region
# id) of the launching thread's open calls, the launch included. Launches 12 and 14 in
# "solver", 13 outside it, each cudaLaunchKernel with cuLaunchKernel inside (one correlation
# id: the outer call carries it); launch 20 (outside) and 20 + 262144 (inside, the same
# slot of the table) before their kernels late_k are processed, kernel "orphan" (30) never
# launched. callsites.py rebuilds each thread's open calls from the trace, checks every
# host value against the hash of their region ids and prints "launch LOC PATH" and
# "kernel LOC ENTER-TIME NAME PATH-OF-THE-LAUNCH-WITH-ITS-VALUE" ---
cat >callsites.py <<'PY'
import re, sys
names, stacks, last, by_value, out = {}, {}, {}, {}, []
for line in open(sys.argv[1]):
    m = re.match(r'REGION +(\d+) +Name: "(.*?)" <', line)
    if m:
        names[int(m.group(1))] = m.group(2)
def fnv(ids):
    h = 2166136261
    for i in ids:
        h = ((h ^ i) * 16777619) & 0xffffffff
    return h
for line in open(sys.argv[2]):
    f = line.split()
    kind, loc, ts = f[0], int(f[1]), int(f[2])
    st = stacks.setdefault(loc, [])
    if kind == "ENTER":
        st.append(int(re.search(r'<(\d+)>$', line).group(1)))
    elif kind == "LEAVE":
        st.pop()
    elif kind == "PARAMETER_UINT64" and '"callsite id"' in line:
        v = int(f[-1])
        prev = last.get(loc)
        if prev is None or prev[0] != "ENTER" or prev[1] != ts - 1:
            out.append("BAD: not one tick after an Enter: " + line.strip())
        path = "/".join(names[i] for i in st)
        if loc == 0:
            if v != fnv(st):
                out.append("BAD hash %d of %s, expected %d" % (v, path, fnv(st)))
            if by_value.setdefault(v, path) != path:
                out.append("BAD: %d for %s and %s" % (v, by_value[v], path))
            out.append("launch %d %s" % (loc, path))
        else:
            out.append((loc, prev[1], path, v))
    last[loc] = (kind, ts)
# the launches first (otf2-print lists the GPU streams' events before the host's)
print("\n".join([o for o in out if isinstance(o, str)] +
                ["kernel %d %d %s %s" % (o[0], o[1], o[2], by_value.get(o[3], "?%d" % o[3]))
                 for o in out if not isinstance(o, str)]))
for v, p in sorted(by_value.items(), key=lambda x: x[1]):
    print("value", p, v, file=sys.stderr)
PY
run_app cs env SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime \
    SCOREP_CUDA_ENABLE=runtime,driver,kernel,memcpy,kernel_callsite SCOREP_CUDA_BUFFER=64k \
    SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k SCOREP_EXPERIMENT_DIRECTORY=exp_cs \
    "$top_builddir/test/cuda/cuda_synthetic" callsite
expect_eq "$status" 0 "callsite: exit status ($(cat cs.out))"
trace_defs exp_cs >cs_defs.txt
trace_events exp_cs >cs_events.txt
expect_eq "$(grep -c '^PARAMETER ' cs_defs.txt)" 1 "callsite: one parameter definition"
expect_grep '^PARAMETER .*Name: "callsite id" <[0-9]*>, Type: UINT64' cs_defs.txt \
    "callsite: Score-P's parameter name and type"
python3 callsites.py cs_defs.txt cs_events.txt >cs_got.txt 2>cs_values.txt ||
    fail "callsites.py: $(cat cs_got.txt cs_values.txt)"
cat >cs_want.txt <<WANT
launch 0 solver/cudaLaunchKernel
launch 0 cudaLaunchKernel
launch 0 solver/cudaLaunchKernel
launch 0 cudaLaunchKernel
launch 0 solver/cudaLaunchKernel
kernel $(loc_id 0 1) 1200000 $K solver/cudaLaunchKernel
kernel $(loc_id 0 2) 1220000 scale cudaLaunchKernel
kernel $(loc_id 0 1) 1380000 $K solver/cudaLaunchKernel
kernel $(loc_id 0 1) 1784000 late_k solver/cudaLaunchKernel
WANT
expect_eq "$(diff cs_want.txt cs_got.txt && echo same)" same \
    "callsite: every launch and the kernels of launches 12, 13, 14 and 20 + 262144 carry one id per host call path (kernel 20: overwritten, orphan: not launched)"
H_SOLVER=$(awk '$2 == "solver/cudaLaunchKernel" { print $3 }' cs_values.txt)
H_TOP=$(awk '$2 == "cudaLaunchKernel" { print $3 }' cs_values.txt)
[ -n "$H_SOLVER" ] && [ -n "$H_TOP" ] && [ "$H_SOLVER" != "$H_TOP" ] ||
    fail "callsite: two distinct values expected: $(cat cs_values.txt)"
# the profile: the parameter's child nodes, as Score-P's profile makes of a UINT64 parameter
for v in "solver/cudaLaunchKernel/callsite id=$H_SOLVER:0 3" \
    "solver/cudaLaunchKernel/callsite id=$H_SOLVER/cuLaunchKernel:0 3" \
    "cudaLaunchKernel/callsite id=$H_TOP:0 2" "$K/callsite id=$H_SOLVER:1 2" \
    "scale/callsite id=$H_TOP:2 1" "late_k:1 2" "late_k/callsite id=$H_SOLVER:1 1" "orphan:1 1"; do
    expect_eq "$(profile_values exp_cs "${v%:*}" visits)" "${v##*:}" "callsite: profile visits of ${v%:*}"
done
expect_eq "$(profile_paths exp_cs | grep -c 'callsite id=')" 7 "callsite: seven parameter call paths (4 on the host, 3 on the GPU)"
CS_NOTE="CUDA: kernel_callsite: 2 kernels without a callsite id: 1 whose launch was not recorded, 1 whose launch's entry was overwritten (more than 262144 CUDA API calls between the launch and the processing of its kernel's record)"
expect_eq "$(grep -cxF -- "- $CS_NOTE" exp_cs/MANIFEST.md)" 1 "callsite: the kernels without an id in MANIFEST.md"
expect_eq "$(grep -cxF -- "[scorep-rt] warning: $CS_NOTE" cs.err)" 1 "callsite: a warning (an entry overwritten)"
expect_eq "$(trace_check_order exp_cs) $(trace_check_nesting exp_cs)" "0 0" "callsite: order and nesting"
# without the feature: the same program records no parameter, no parameter node, no note
run_app nocs env SCOREP_ENABLE_TRACING=true SCOREP_CUDA_ENABLE=runtime,driver,kernel,memcpy \
    SCOREP_CUDA_BUFFER=64k SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k \
    SCOREP_EXPERIMENT_DIRECTORY=exp_nocs "$top_builddir/test/cuda/cuda_synthetic" callsite
expect_eq "$status" 0 "no callsite: exit status ($(cat nocs.out))"
expect_eq "$(trace_defs exp_nocs | grep -c '^PARAMETER ')" 0 "no callsite: no parameter definition"
expect_eq "$(trace_events exp_nocs | grep -c '^PARAMETER')" 0 "no callsite: no parameter event"
expect_eq "$(profile_paths exp_nocs | grep -c 'callsite id')" 0 "no callsite: no parameter node"
expect_eq "$(profile_values exp_nocs "$K" visits)" "1 2" "no callsite: the kernels are recorded"
expect_eq "$(grep -c kernel_callsite exp_nocs/MANIFEST.md nocs.err | tr '\n' ' ')" "exp_nocs/MANIFEST.md:0 nocs.err:0 " \
    "no callsite: no note"
# kernel_callsite alone implies kernel (as Score-P): the 3 kernel records of the 7, each with
# the id of its launch (cuda_synthetic.c's plain launches 12, 13, 14 on the top level)
run_app cso env SCOREP_ENABLE_TRACING=true SCOREP_CUDA_ENABLE=kernel_callsite \
    SCOREP_CUDA_BUFFER=64k SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k \
    SCOREP_EXPERIMENT_DIRECTORY=exp_cso "$top_builddir/test/cuda/cuda_synthetic" 3
expect_eq "$status" 0 "kernel_callsite alone: exit status ($(cat cso.out))"
python3 callsites.py "$(trace_defs exp_cso >cso_defs.txt && echo cso_defs.txt)" \
    "$(trace_events exp_cso >cso_events.txt && echo cso_events.txt)" >cso_got.txt 2>/dev/null ||
    fail "callsites.py: $(cat cso_got.txt)"
expect_eq "$(tr '\n' ';' <cso_got.txt)" \
    "launch 0 cudaLaunchKernel;launch 0 cudaLaunchKernel;launch 0 cudaLaunchKernel;kernel $(loc_id 0 1) 1200000 $K cudaLaunchKernel;kernel $(loc_id 0 2) 1220000 scale cudaLaunchKernel;kernel $(loc_id 0 1) 1380000 $K cudaLaunchKernel;" \
    "kernel_callsite alone: kernels recorded, each with its launch's id"
expect_eq "$(grep -c 'warning: CUDA: kernel_callsite' cso.err)" 0 "kernel_callsite alone: no warning"

# --- nothing lost: 100000 kernel records through the pool and the consumer thread, filled
# faster than processed (the pool grows; with a cap of 12 chunks it would refuse) ---
run_app many env SCOREP_TIMER=clock_gettime SCOREP_CUDA_BUFFER=64k SCOREP_CUDA_BUFFER_CHUNK=8k \
    SCOREP_EXPERIMENT_DIRECTORY=exp_many "$top_builddir/test/cuda/cuda_synthetic" many 100000
expect_eq "$status" 0 "many: exit status ($(cat many.out))"
expect_eq "$(tail -n 1 many.out)" "synthetic records processed" "many: program output"
# 100000 records: k0 33334, k1 33333, k2 33333 visits on stream 9 (location 3)
expect_eq "$(profile_values exp_many "k0()" visits)" "3 33334" "many: k0 visits"
expect_eq "$(profile_values exp_many "k1(float*)" visits)" "3 33333" "many: k1 visits"
expect_eq "$(profile_values exp_many "k2(int)" visits)" "3 33333" "many: k2 visits"
# the two records completed after the consumer stopped: counted and reported, not recorded
expect_grep '0 dropped by CUPTI .*, 2 completed after finalize \(1 buffers\)' exp_many/MANIFEST.md \
    "many: late records in MANIFEST.md"
expect_eq "$(profile_values exp_many "vecAdd(float const*, float const*, float*, int)" visits)" \
    "1 2" "many: the late records are not in the profile"
expect_eq "$(profile_values exp_many "CUDA ACTIVITY RECORDS LOST" "CUDA records lost")" "0 2" \
    "many: the loss marker counts the two late records"

# --- two devices, two contexts on device 0 (cuda_synthetic.c "devices": after the streams
# 7 and 8 of device 0, context 1, k_dev on device 1, context 2, stream 3 (1 kernel),
# device 0, context 5, stream 4 (2) and device 1, context 2, stream 6 (3)): in Score-P's
# structure a node per device in the order of their first stream, in it a group per
# context of the process, in it its streams; the Cube columns follow that document order
# (the profile's values with them), the trace's ids the processes' and nodes' ---
run_app dev env SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime SCOREP_CUDA_BUFFER=64k \
    SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k SCOREP_EXPERIMENT_DIRECTORY=exp_dev \
    "$top_builddir/test/cuda/cuda_synthetic" devices
expect_eq "$status" 0 "devices: exit status ($(cat dev.out))"
trace_defs exp_dev >defs_dev.txt
expect_eq "$(st_defs defs_dev.txt)" \
    "SYSTEM_TREE_NODE 0 Name: \"Linux\", Class: \"machine\", Parent: UNDEFINED;SYSTEM_TREE_NODE 1 Name: \"$host\", Class: \"node\", Parent: \"machine::Linux\" <0>;LOCATION_GROUP 0 Name: \"Process\", Type: PROCESS, Parent: \"node::$host\" <1>, Creator: UNDEFINED;SYSTEM_TREE_NODE 2 Name: \"0\", Class: \"CUDA Device\", Parent: \"node::$host\" <1>;SYSTEM_TREE_NODE 3 Name: \"1\", Class: \"CUDA Device\", Parent: \"node::$host\" <1>;LOCATION_GROUP 1 Name: \"CUDA Context 1\", Type: ACCELERATOR, Parent: \"CUDA Device::0\" <2>, Creator: \"Process\" <0>;LOCATION_GROUP 2 Name: \"CUDA Context 5\", Type: ACCELERATOR, Parent: \"CUDA Device::0\" <2>, Creator: \"Process\" <0>;LOCATION_GROUP 3 Name: \"CUDA Context 2\", Type: ACCELERATOR, Parent: \"CUDA Device::1\" <3>, Creator: \"Process\" <0>;" \
    "devices: trace: two device nodes, three accelerator groups"
expect_eq "$(awk '$1 == "LOCATION" { n = $0; sub(/.*Name: "/, "", n); sub(/".*/, "", n)
    g = $0; sub(/.*Group: /, "", g); print int($2 / 4294967296), $2 % 4294967296, n, g }' defs_dev.txt |
    sort -n | tr '\n' ';')" \
    "0 0 Master thread \"Process\" <0>;1 0 CUDA[0:1:7] \"CUDA Context 1\" <1>;2 0 CUDA[0:1:8] \"CUDA Context 1\" <1>;3 0 CUDA[1:2:3] \"CUDA Context 2\" <3>;4 0 CUDA[0:5:4] \"CUDA Context 5\" <2>;5 0 CUDA[1:2:6] \"CUDA Context 2\" <3>;" \
    "devices: trace: each stream in its context's group (ids local << 32 | rank, local the process's location order)"
expect_eq "$(for l in 3 4 5; do trace_count exp_dev ENTER "$(loc_id 0 $l)" k_dev; done | tr '\n' ' ')" "1 2 3 " \
    "devices: trace: k_dev per stream"
expect_defs_clean exp_dev "devices: definitions"
expect_eq "$(profile_dump exp_dev --system-groups | tr '\t' '|' | tr '\n' ';')" \
    "0|Linux/$host|node|Process|process|0|-|0:Master thread:thread:0;1|Linux/$host/CUDA Device 0|CUDA Device|CUDA Context 1|accelerator|1|Process|1:CUDA[0:1:7]:accelerator stream:0;2:CUDA[0:1:8]:accelerator stream:1;2|Linux/$host/CUDA Device 0|CUDA Device|CUDA Context 5|accelerator|2|Process|3:CUDA[0:5:4]:accelerator stream:0;3|Linux/$host/CUDA Device 1|CUDA Device|CUDA Context 2|accelerator|3|Process|4:CUDA[1:2:3]:accelerator stream:0;5:CUDA[1:2:6]:accelerator stream:1;" \
    "devices: profile: system tree"
expect_eq "$(profile_values exp_dev k_dev visits | tr '\n' ';')" "3 2;4 1;5 3;" \
    "devices: profile: k_dev visits in the columns of CUDA[0:5:4], CUDA[1:2:3], CUDA[1:2:6]"
expect_eq "$(profile_values exp_dev "$K" visits)" "1 2" "devices: profile: vecAdd on CUDA[0:1:7]"
# scorep-score: the streams fill their process's buffers (Score-P's scorep-score adds an
# accelerator group to the process its "Creating location group" names): one process, so the
# largest buffer is the whole trace, and a process holds its 6 locations
"$SCOREP_SCORE" exp_dev/profile.cubex >score_dev.txt || fail "scorep-score exp_dev failed"
agg=$(sed -n 's/^Estimated aggregate size of event trace: *\([0-9]*\) bytes$/\1/p' score_dev.txt)
max=$(sed -n 's/^Estimated requirements for largest trace buffer (max_buf): *\([0-9]*\) bytes$/\1/p' score_dev.txt)
[ -n "$agg" ] || fail "no aggregate size in: $(cat score_dev.txt)"
expect_eq "$max" "$agg" "devices: scorep-score: max_buf of the one process = the aggregate size"

# --- a CPU thread measured after the streams (cuda_synthetic.c "thread": local id 3 after
# the streams' 1 and 2): in the pthread and OpenMP groups with the master, not in CUDA's ---
run_app thr env SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime SCOREP_CUDA_BUFFER=64k \
    SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k SCOREP_EXPERIMENT_DIRECTORY=exp_thr \
    "$top_builddir/test/cuda/cuda_synthetic" thread
expect_eq "$status" 0 "thread: exit status ($(cat thr.out))"
trace_defs exp_thr >defs_thr.txt
comm_defs defs_thr.txt >comm_thr.txt
cat - want_cuda.txt >want_thr.txt <<'WANT'
GROUP 0 Name: "", Type: COMM_LOCATIONS, Paradigm: PTHREAD, Flags: NONE, 2 Members: "Master thread" <0>, "Pthread thread 3" <12884901888>
GROUP 1 Name: "", Type: COMM_GROUP, Paradigm: PTHREAD, Flags: NONE, 2 Members: 0 ("Master thread" <0>), 1 ("Pthread thread 3" <12884901888>)
COMM 0 Name: "Pthread thread contingent", Group: "" <1>, Parent: UNDEFINED, Flags: NONE
GROUP 2 Name: "", Type: COMM_LOCATIONS, Paradigm: OPENMP, Flags: NONE, 2 Members: "Master thread" <0>, "Pthread thread 3" <12884901888>
WANT
expect_eq "$(diff want_thr.txt comm_thr.txt && echo same)" same \
    "thread: a late CPU thread in the pthread and OpenMP groups, the streams in CUDA's"
expect_eq "$(trace_count exp_thr ENTER "$(loc_id 0 3)" solver)" 1 "thread: its visit of solver"
expect_defs_clean exp_thr "thread: definitions"

# --- the same loss with tracing: an OTF2 marker of its own group and MANIFEST.md's table ---
run_app late env SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime SCOREP_CUDA_BUFFER=64k \
    SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_EXPERIMENT_DIRECTORY=exp_late \
    "$top_builddir/test/cuda/cuda_synthetic" many 3000
expect_eq "$status" 0 "late: exit status ($(cat late.out))"
run_to late.markers otf2-marker exp_late/traces.otf2
expect_eq "$(grep -c '^MARKER_DEF  Group: "scorep-rt lost records", Category: "lost", Severity: HIGH$' late.markers)" 1 \
    "late: the marker definition of lost records"
expect_eq "$(grep -c '^MARKER ' late.markers)" 1 "late: one marker"
expect_grep '^MARKER .*Scope: LOCATION:0, Text: "rule=lost param=2 removed=2: 2 activity records lost' late.markers \
    "late: the marker on the master thread counts the two late records"
expect_grep '^\| 0 \| Master thread \| lost \| [0-9]* \| 2 \| 2 activity records lost' exp_late/MANIFEST.md \
    "late: the row in MANIFEST.md's What the trace lacks"
done_ok
