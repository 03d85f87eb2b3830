#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_cuda_remap.sh: the CUDA part of the remapping specification every profile.cubex embeds
# (share/scorep.spec, read by Cube's remapper under Scalasca's square -s): Score-P's metric
# names and tree (CUDA time with management, memory, synchronization and kernel launches;
# kernels as computation; idle GPUs beside execution). Every runtime and driver API call that
# CUPTI's callback id headers name lands in the category Score-P's specification gives it (or
# the one of our additions for calls it does not list), in one at most; the regions of a run
# of cuda_synthetic.c's records (API calls, kernels, copies, memsets, idle intervals) in the
# categories their kind implies. Optional part: SQUARE=/path/to/square (with a CubeLib that
# reads Cube 4.7, cube_dump and cube_remap2 on PATH) runs square -s on that run and checks the
# summary's CUDA values against the records' times (exact) and the profile's API times.
. "$top_srcdir/test/integration/lib.sh"

if [ ! -x "$top_builddir/test/cuda/cuda_synthetic" ]; then
    echo "SKIP: the CUDA adapter is not built (configure found no CUPTI, or --with-cuda=no)"
    echo "SKIP-NOT-A-PACKAGE: CUDA/CUPTI is not a Debian package the quickstart installs"
    exit 77
fi
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 (the spec's rules)"; exit 77; }
SPEC="$top_srcdir/share/scorep.spec"
# CUPTI's headers: where configure found them (CUDA_CPPFLAGS of the build)
inc=
for _d in $(sed -n 's/^CUDA_CPPFLAGS = //p' "$top_builddir/Makefile"); do
    [ -n "$inc" ] || [ ! -r "${_d#-I}/cupti_runtime_cbid.h" ] || inc=${_d#-I}
done
expect_file "$inc/cupti_driver_cbid.h" "CUPTI's callback id headers"

# Score-P's categories of the CUDA API calls (its remapping specification's lists, by name
# without the cuda/cu prefix), and ours for the calls it does not list: the families they
# belong to (stream-ordered allocation and memory pools, batched copies, newer stream, context,
# function, module and occupancy calls; graph launches and the extended kernel launches).
# Score-P's driver list runs "EventRecordWithFlags" and "FuncGetAttribute" together (a
# missing |), so it matches neither; both are management here.
cat >categories.txt <<'EOF'
runtime cuda_setup ChooseDevice DeviceGetAttribute DeviceGetByPCIBusId DeviceGetCacheConfig DeviceGetLimit DeviceGetPCIBusId DeviceGetSharedMemConfig DeviceGetStreamPriorityRange DeviceReset DeviceSetCacheConfig DeviceSetLimit DeviceSetSharedMemConfig GetDevice GetDeviceCount GetDeviceFlags GetDeviceProperties SetDevice SetDeviceFlags SetValidDevices ThreadExit ThreadGetCacheConfig ThreadGetLimit ThreadSetCacheConfig ThreadSetLimit StreamCreate StreamCreateWithFlags StreamCreateWithPriority StreamDestroy EventCreate EventCreateWithFlags EventDestroy FuncSetCacheConfig CtxResetPersistingL2Cache DeviceGetNvSciSyncAttributes DeviceGetP2PAttribute DeviceGetTexture1DLinearMaxWidth EventElapsedTime EventQuery EventRecord EventRecordWithFlags FuncGetAttributes FuncSetAttribute FuncSetSharedMemConfig GetParameterBuffer IpcCloseMemHandle IpcGetEventHandle IpcGetMemHandle IpcOpenEventHandle IpcOpenMemHandle OccupancyAvailableDynamicSMemPerBlock OccupancyMaxActiveBlocksPerMultiprocessor OccupancyMaxActiveBlocksPerMultiprocessorWithFlags SetDoubleForDevice SetDoubleForHost StreamAddCallback StreamAttachMemAsync StreamBeginCapture StreamCopyAttributes StreamEndCapture StreamGetAttribute StreamGetCaptureInfo StreamGetFlags StreamGetPriority StreamIsCapturing StreamQuery StreamSetAttribute ThreadExchangeStreamCaptureMode
runtime cuda_comm Free FreeArray FreeHost FreeMipmappedArray HostAlloc Malloc Malloc3D Malloc3DArray MallocArray MallocHost MallocManaged MallocMipmappedArray MallocPitch Memcpy Memcpy2D Memcpy2DArrayToArray Memcpy2DAsync Memcpy2DFromArray Memcpy2DFromArrayAsync Memcpy2DToArray Memcpy2DToArrayAsync Memcpy3D Memcpy3DAsync MemcpyPeer MemcpyPeerAsync MemcpyArrayToArray MemcpyAsync MemcpyFromArray MemcpyFromArrayAsync MemcpyFromSymbol MemcpyFromSymbolAsync MemcpyToArray MemcpyToArrayAsync MemcpyToSymbol MemcpyToSymbolAsync ArrayGetInfo ArrayGetSparseProperties GetMipmappedArrayLevel GetSymbolAddress GetSymbolSize HostGetDevicePointer HostGetFlags HostRegister HostUnregister MemAdvise MemGetInfo MemPrefetchAsync MemRangeGetAttribute MemRangeGetAttributes Memcpy3DPeer Memcpy3DPeerAsync MipmappedArrayGetSparseProperties PointerGetAttributes
runtime cuda_sync StreamWaitEvent StreamSynchronize EventSynchronize DeviceSynchronize ThreadSynchronize
runtime cuda_kernel_launches LaunchKernel Launch GetParameterBufferV2 Memset Memset2D Memset2DAsync Memset3D Memset3DAsync MemsetAsync LaunchCooperativeKernel LaunchCooperativeKernelMultiDevice LaunchHostFunc
driver cuda_setup Init DeviceGet DeviceGetAttribute DeviceGetCount DeviceGetName DeviceTotalMem DeviceComputeCapability DeviceGetProperties DevicePrimaryCtxGetState DevicePrimaryCtxRelease DevicePrimaryCtxReset DevicePrimaryCtxRetain DevicePrimaryCtxSetFlags CtxCreate CtxDestroy CtxGetApiVersion CtxGetCacheConfig CtxGetCurrent CtxGetDevice CtxGetFlags CtxGetLimit CtxGetSharedMemConfig CtxGetStreamPriorityRange CtxPopCurrent CtxPushCurrent CtxSetCacheConfig CtxSetCurrent CtxSetLimit CtxSetSharedMemConfig CtxAttach CtxDetach LinkCreate LinkDestroy EventCreate EventDestroy StreamCreate StreamCreateWithPriority StreamDestroy CtxResetPersistingL2Cache DeviceGetLuid DeviceGetNvSciSyncAttributes DeviceGetTexture1DLinearMaxWidth DeviceGetUuid DriverGetVersion EventElapsedTime EventQuery EventRecord EventRecordWithFlags FuncGetAttribute FuncSetAttribute FuncSetBlockShape FuncSetCacheConfig FuncSetSharedMemConfig FuncSetSharedSize LinkAddData LinkAddFile LinkComplete ModuleGetFunction ModuleGetGlobal ModuleGetSurfRef ModuleGetTexRef ModuleLoad ModuleLoadData ModuleLoadDataEx ModuleLoadFatBinary ModuleUnload OccupancyAvailableDynamicSMemPerBlock OccupancyMaxActiveBlocksPerMultiprocessor OccupancyMaxActiveBlocksPerMultiprocessorWithFlags OccupancyMaxPotentialBlockSize OccupancyMaxPotentialBlockSizeWithFlags ParamSetSize ParamSetTexRef ParamSetf ParamSeti ParamSetv StreamAddCallback StreamAttachMemAsync StreamBeginCapture StreamCopyAttributes StreamEndCapture StreamGetAttribute StreamGetCaptureInfo StreamGetCtx StreamGetFlags StreamGetPriority StreamIsCapturing StreamQuery StreamSetAttribute ThreadExchangeStreamCaptureMode
driver cuda_comm Array3DCreate ArrayCreate ArrayDestroy MemAlloc MemAllocHost MemAllocManaged MemAllocPitch Memcpy Memcpy2D Memcpy2DAsync Memcpy2DUnaligned Memcpy3D Memcpy3DAsync Memcpy3DPeer Memcpy3DPeerAsync MemcpyAsync MemcpyAtoA MemcpyAtoD MemcpyAtoH MemcpyAtoHAsync MemcpyDtoA MemcpyDtoD MemcpyDtoDAsync MemcpyDtoH MemcpyDtoHAsync MemcpyHtoA MemcpyHtoAAsync MemcpyHtoD MemcpyHtoDAsync MemcpyPeer MemcpyPeerAsync MipmappedArrayCreate MipmappedArrayDestroy MemFree MemFreeHost MemHostAlloc Array3DGetDescriptor ArrayGetDescriptor ArrayGetSparseProperties DeviceGetByPCIBusId DeviceGetPCIBusId IpcCloseMemHandle IpcGetEventHandle IpcGetMemHandle IpcOpenEventHandle IpcOpenMemHandle MemAddressFree MemAddressReserve MemAdvise MemCreate MemExportToShareableHandle MemGetAccess MemGetAddressRange MemGetAllocationGranularity MemGetAllocationPropertiesFromHandle MemGetInfo MemHostGetDevicePointer MemHostGetFlags MemHostRegister MemHostUnregister MemImportFromShareableHandle MemMap MemMapArrayAsync MemPrefetchAsync MemRangeGetAttribute MemRangeGetAttributes MemRelease MemRetainAllocationHandle MemSetAccess MemUnmap MipmappedArrayGetLevel MipmappedArrayGetSparseProperties PointerGetAttribute PointerGetAttributes PointerSetAttribute
driver cuda_sync CtxSynchronize StreamWaitEvent StreamSynchronize EventSynchronize
driver cuda_kernel_launches LaunchKernel Launch LaunchGrid LaunchGridAsync MemsetD16 MemsetD16Async MemsetD2D16 MemsetD2D16Async MemsetD2D32 MemsetD2D32Async MemsetD2D8 MemsetD2D8Async MemsetD32 MemsetD32Async MemsetD8 MemsetD8Async LaunchCooperativeKernel LaunchCooperativeKernelMultiDevice LaunchHostFunc
ours-runtime cuda_setup DeviceGetDefaultMemPool DeviceGetGraphMemAttribute DeviceGetHostAtomicCapabilities DeviceGetMemPool DeviceGetP2PAtomicCapabilities DeviceSetGraphMemAttribute DeviceSetMemPool DriverGetVersion EventCreateFromEGLSync FuncGetName FuncGetParamInfo OccupancyMaxActiveClusters OccupancyMaxPotentialClusterSize RuntimeGetVersion StreamBeginCaptureToGraph StreamGetDevice StreamGetId StreamSetFlags StreamUpdateCaptureDependencies
ours-runtime cuda_comm ArrayGetMemoryRequirements ArrayGetPlane FreeAsync MallocAsync MallocFromPoolAsync MemPoolCreate MemPoolDestroy MemPoolExportPointer MemPoolExportToShareableHandle MemPoolGetAccess MemPoolGetAttribute MemPoolImportFromShareableHandle MemPoolImportPointer MemPoolSetAccess MemPoolSetAttribute MemPoolTrimTo Memcpy3DBatchAsync MemcpyBatchAsync MipmappedArrayGetMemoryRequirements
ours-runtime cuda_kernel_launches GraphLaunch LaunchKernelExC
ours-driver cuda_setup CtxDisablePeerAccess CtxEnablePeerAccess CtxFromGreenCtx CtxGetDevResource CtxGetExecAffinity CtxGetId CtxRecordEvent CtxSetFlags EventCreateFromEGLSync EventCreateFromNVNSync FuncGetModule FuncGetName FuncGetParamInfo FuncIsLoaded FuncLoad ModuleEnumerateFunctions ModuleGetFunctionCount ModuleGetLoadingMode OccupancyMaxActiveClusters OccupancyMaxPotentialClusterSize StreamBatchMemOp StreamBeginCaptureToGraph StreamCreateForCaptureToCig StreamGetDevice StreamGetGreenCtx StreamGetId StreamSetFlags StreamUpdateCaptureDependencies
ours-driver cuda_comm ArrayGetMemoryRequirements ArrayGetPlane MemAllocAsync MemAllocFromPoolAsync MemFreeAsync MemPoolCreate MemPoolDestroy MemPoolExportPointer MemPoolExportToShareableHandle MemPoolGetAccess MemPoolGetAttribute MemPoolImportFromShareableHandle MemPoolImportPointer MemPoolSetAccess MemPoolSetAttribute MemPoolTrimTo Memcpy3DBatchAsync MemcpyBatchAsync MipmappedArrayGetMemoryRequirements
ours-driver cuda_sync CtxWaitEvent
ours-driver cuda_kernel_launches GraphLaunch LaunchKernelEx
none-runtime - GetLastError PeekAtLastError GetErrorString GetErrorName DeviceCanAccessPeer DeviceEnablePeerAccess DeviceDisablePeerAccess GraphCreate GraphInstantiate GraphDestroy ProfilerStart ProfilerStop
none-driver - GetErrorString GetProcAddress DeviceCanAccessPeer GraphCreate GraphInstantiate GraphDestroy ProfilerStart ProfilerStop
EOF

# Every API call CUPTI names (its callback ids: runtime NAME_vVERSION, driver NAME), as the
# adapter names its region (CUPTI's function name: runtime without the version, driver as
# the symbol), paradigm cuda, role wrapper: Score-P's category, or ours, exactly; none for
# the calls listed under none; one leaf at most for every call; all of them CUDA time.
python3 - "$SPEC" "$top_srcdir" "$inc" categories.txt >api.txt <<'EOF' || fail "share/scorep.spec: the CUDA API categories"
import re, sys
spec, top, inc, cats = sys.argv[1:5]
sys.path.insert(0, top + "/test/tools")
import remap_rules
rules = remap_rules.load(spec)
leaves = {"cuda_setup", "cuda_comm", "cuda_sync", "cuda_kernel_launches",
          "cuda_kernel_executions", "idle_gpus"}
want = {"runtime": {}, "driver": {}}
listed = {"runtime": {}, "driver": {}}
for line in open(cats):
    kind, cat, *names = line.split()
    api = kind.split("-")[-1]
    for n in names:
        assert n not in want[api], "%s listed twice" % n
        want[api][n] = set() if cat == "-" else {cat}
        listed[api][n] = kind
rt = open(inc + "/cupti_runtime_cbid.h").read()
dr = open(inc + "/cupti_driver_cbid.h").read()
names = {"runtime": set(re.findall(r"CUPTI_RUNTIME_TRACE_CBID_(cuda\w+?)_v\d+\s*=", rt)),
         "driver": set(re.findall(r"CUPTI_DRIVER_TRACE_CBID_(cu\w+)\s*=", dr))}
assert len(names["runtime"]) >= 200 and len(names["driver"]) >= 300, \
    "the headers name only %d + %d calls" % (len(names["runtime"]), len(names["driver"]))
def base(api, n):
    # per-thread default stream and versioned variants classify as the call itself
    b = re.sub(r"(_v\d+)*(_ptsz|_ptds)?$", "", n)
    b = re.sub(r"(_v\d+)+$", "", b)
    return b[len("cuda"):] if api == "runtime" else b[len("cu"):]
errors, seen, counts = [], set(), {}
for api in ("runtime", "driver"):
    for n in sorted(names[api]):
        got = remap_rules.masks(rules, "cuda", "wrapper", n)
        if "cuda" not in got:
            errors.append("%s: not CUDA time" % n)
        got &= leaves
        b = base(api, n)
        if b in want[api]:
            seen.add((api, b))
            if got != want[api][b]:
                errors.append("%s (%s): in %s, not %s" % (n, listed[api][b], sorted(got), sorted(want[api][b])))
        elif len(got) > 1:
            errors.append("%s: in %d leaves %s" % (n, len(got), sorted(got)))
        for c in got:
            counts[c] = counts.get(c, 0) + 1
# a call of the lists that these headers do not name is not checked: say how many
missing = sum(1 for api in want for b in want[api] if (api, b) not in seen)
if errors:
    sys.exit("\n".join(errors[:20]) + ("\n... %d in all" % len(errors) if len(errors) > 20 else ""))
print("calls %d %d unnamed %d" % (len(names["runtime"]), len(names["driver"]), missing))
print(" ".join("%s=%d" % kv for kv in sorted(counts.items())))
EOF
checks=$((checks + 1))
echo "CUPTI's API calls and their categories: $(tr '\n' ' ' <api.txt)"

# --- a run: the records of cuda_synthetic.c with every API call of its "remap" mode, the
# idle intervals of both idle features (host ticks = ns, so the GPU times are exact)
run_app syn env SCOREP_TIMER=clock_gettime \
    SCOREP_CUDA_ENABLE=runtime,driver,kernel,memcpy,idle,pure_idle SCOREP_CUDA_BUFFER=64k \
    SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k SCOREP_EXPERIMENT_DIRECTORY=exp \
    "$top_builddir/test/cuda/cuda_synthetic" remap
expect_eq "$status" 0 "exit status ($(cat syn.out))"
p=exp/profile.cubex
tar xOf "$p" remapping.spec >embedded.spec || fail "tar xOf remapping.spec"
# cut to the run's paradigms (docs/analysis.md, "Its size"): CUDA's lines only
n=$(python3 "$top_srcdir/test/tools/spec_cut.py" "$SPEC" embedded.spec cuda 2>&1) ||
    fail "the embedded spec: $n"
expect_eq "$n" 25 "the embedded spec defines the 25 metrics of a CUDA run"
expect_eq "$(grep -c 'mpi\|shmem\|omp_time\|pthread\|fileio\|libwrap' embedded.spec || true)" 0 \
    "the embedded spec: no line of MPI, SHMEM, OpenMP, POSIX threads, I/O or libwrap"
echo "the embedded spec: $(wc -c <embedded.spec) bytes (share/scorep.spec: $(wc -c <"$SPEC"))"
tar xOf "$p" anchor.xml >anchor.xml || fail "tar xOf anchor.xml"
# The profile's regions (name, paradigm, role as the writer gives them) and the categories the
# spec puts them in: the API calls by the lists above, the kernels (vecAdd, scale) as kernel
# executions, copies and memsets as CUDA time of no leaf, the idle intervals as idle GPUs,
# the program's root in none
python3 - "$SPEC" "$top_srcdir" anchor.xml >regions.txt <<'EOF' || fail "the run's regions and their categories"
import sys, xml.etree.ElementTree as ET
spec, top, anchor = sys.argv[1:4]
sys.path.insert(0, top + "/test/tools")
import remap_rules
rules = remap_rules.load(spec)
cuda = {"cuda", "cuda_setup", "cuda_comm", "cuda_sync", "cuda_kernel_launches",
        "cuda_kernel_executions", "idle_gpus"}
want = {"cudaGetDeviceCount": "cuda cuda_setup", "cuCtxGetDevice": "cuda cuda_setup",
        "cudaMalloc": "cuda cuda_comm", "cudaFree": "cuda cuda_comm",
        "cudaMallocManaged": "cuda cuda_comm", "cuMemAlloc_v2": "cuda cuda_comm",
        "cuMemAllocPitch_v2": "cuda cuda_comm", "cudaMallocAsync": "cuda cuda_comm",
        "cudaFreeAsync": "cuda cuda_comm", "cuMemFree_v2": "cuda cuda_comm",
        "cuCtxSynchronize": "cuda cuda_sync", "cudaLaunchKernel": "cuda cuda_kernel_launches",
        "cudaGetLastError": "cuda",
        "vecAdd(float const*, float const*, float*, int)": "cuda_kernel_executions",
        "scale": "cuda_kernel_executions",
        "memcpy HtoD": "cuda", "memcpy DtoH": "cuda", "memcpy DtoD": "cuda", "memset": "cuda",
        "COMPUTE IDLE": "idle_gpus", "GPU IDLE": "idle_gpus",
        "CUDA ACTIVITY RECORDS LOST": "cuda"}
errors = []
for r in ET.parse(anchor).getroot().iter("region"):
    n, p, role = r.findtext("name"), r.findtext("paradigm"), r.findtext("role")
    got = " ".join(sorted(remap_rules.masks(rules, p, role, n) & cuda))
    print("%s|%s|%s|%s" % (n, p, role, got))
    if p != "cuda":
        if got:
            errors.append("%s (%s): in %s" % (n, p, got))
    elif n not in want:
        errors.append("%s: a CUDA region this test does not know" % n)
    elif got != want.pop(n):
        errors.append("%s (%s): in %s" % (n, role, got))
errors += ["%s: not in the profile" % n for n in want]
if errors:
    sys.exit("\n".join(errors))
EOF
checks=$((checks + 1))
expect_eq "$(grep -c '|cuda|' regions.txt)" 22 "the run's CUDA regions"

# Optional: Scalasca's square -s on the run (the embedded specification only)
if [ -z "${SQUARE:-}" ] || ! command -v cube_remap2 >/dev/null 2>&1 ||
    ! command -v cube_dump >/dev/null 2>&1; then
    skip_part_here "square -s on a CUDA experiment" \
        "Scalasca and CubeLib are not packaged here (set SQUARE, put cube_remap2 and cube_dump on PATH)"
else
    part "square -s"
    # cube44 DIR: CubeLib before 4.7 rejects the anchor of a profile with accelerator location
    # groups ("Unsupported Cube version: 4.7"): DIR's profile.cubex rewritten in Cube 4.4's
    # syntax (the groups as processes, the streams as gpu locations, the same members in
    # the same order), which changes nothing the remapping specification reads
    cube44() {
        python3 - "$1/profile.cubex" <<'PY' || fail "cube44 $1"
import io, re, sys, tarfile
path = sys.argv[1]
with tarfile.open(path) as t:
    members = [(m, t.extractfile(m).read()) for m in t.getmembers()]
out = io.BytesIO()
with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
    for m, data in members:
        if m.name == "anchor.xml":
            text = data.decode()
            text = text.replace('<cube version="4.7">', '<cube version="4.4">')
            text = text.replace("<type>accelerator stream</type>", "<type>gpu</type>")
            text = text.replace("<type>accelerator</type>", "<type>process</type>")
            data = re.sub(r'<attr key="Creating location group" value="[^"]*"/>\n', "", text).encode()
        info = tarfile.TarInfo(m.name)
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
open(path, "wb").write(out.getvalue())
open(path[:-len("profile.cubex")] + "profile.cube44", "w").close()   # the mark of a rewritten one
PY
    }
    cp -R exp sq
    if ! cube_dump -w sq/profile.cubex >/dev/null 2>cube_dump.err; then
        expect_grep 'Unsupported Cube version: 4.7' cube_dump.err "CubeLib before 4.7 (no other error)"
        cube44 sq
        echo "CubeLib before 4.7: the profile rewritten in Cube 4.4's syntax"
    fi
    PATH="$top_builddir:$PATH" "$SQUARE" -v -s sq >square.out 2>&1 ||
        fail "square -s: $(tail -c 800 square.out)"
    # the same summary from the whole share/scorep.spec: every metric and every value per call
    # path and location (exact text), so the cut drops nothing square computes
    . "$top_srcdir/test/tools/remap_same.sh"
    sq_same sq
    expect_ge "$(grep -c '( id=[0-9]*, ' sq.sqw)" 25 "the summary's metric tree"
    [ ! -e sq/profile.cube44 ] || rm sq.full/profile.cubex || fail "rm sq.full/profile.cubex"
    # a rewritten profile has its GPU streams as processes: kept out of profile_check's reach
    [ ! -e sq/profile.cube44 ] || rm sq/profile.cubex || fail "rm sq/profile.cubex"
    expect_grep "^INFO: Using spec: embedded$" square.out "square used the embedded specification"
    s=sq/summary.cubex
    expect_file "$s" "square wrote summary.cubex"
    # v FILE METRIC: the metric over every call path and location (its inclusive value summed
    # over the call tree's roots: the program's, and the GPU locations' kernels, copies, idle)
    v() {
        cube_dump -m "$2" -x incl -z incl -t aggr -c roots -s csv2 "$1" >v.csv 2>v.err ||
            fail "cube_dump -m $2 $1: $(cat v.err)"
        awk -F, 'NR > 1 { s += $NF } END { printf "%.9g\n", s }' v.csv
    }
    # r NAME: the profile's exclusive time of the regions named NAME (every call path and
    # location), read by this repository's reader
    r() { profile_dump_raw exp -m time | awk -F'\t' -v n="$1" '
        { k = split($2, p, "/") } p[k] == n { split($4, kv, "="); s += kv[2] }
        END { printf "%.9g\n", s }'; }
    # total EXPDIR METRIC: the profile's metric over every call path and location, read by
    # this repository's reader
    total() { profile_dump_raw "$1" -m "$2" | awk -F'\t' '{ split($4, kv, "="); s += kv[2] }
        END { printf "%.9g\n", s }'; }
    # near A B: equal within cube_dump's precision (relative 1e-5, absolute 1e-9)
    near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d
        m = a < 0 ? -a : a; print (d <= 1e-5 * m + 1e-9) ? "equal" : a " vs " b }'; }
    sum() { awk 'BEGIN { s = 0; for (i = 1; i < ARGC; i++) s += ARGV[i]; printf "%.9g\n", s }' "$@"; }
    # the records' times: vecAdd 2 x 100 us, scale 20 us; copies 10 + 20 + 2 us, memset
    # 2 us; compute idle 80 us (between the first and the third kernel), GPU idle 210 us
    # (test_cuda_activity.sh's intervals)
    expect_eq "$(v $s cuda_kernel_executions)" 0.00022 "summary: CUDA kernels = 2 x 100 + 20 us"
    expect_eq "$(v $s idle_gpus)" 0.00029 "summary: idle GPUs = 80 + 210 us"
    expect_eq "$(near "$(v $s time)" "$(total exp time)")" equal "summary: time as in the profile"
    expect_eq "$(v $s visits)" "$(total exp visits)" "summary: visits as in the profile"
    expect_eq "$(near "$(v $s execution)" "$(sum "$(total exp time)" -0.00029)")" equal \
        "summary: execution = time - idle GPUs"
    setup=$(sum "$(r cudaGetDeviceCount)" "$(r cuCtxGetDevice)")
    comm=$(sum "$(r cudaMalloc)" "$(r cudaFree)" "$(r cudaMallocManaged)" "$(r cuMemAlloc_v2)" \
        "$(r cuMemAllocPitch_v2)" "$(r cudaMallocAsync)" "$(r cudaFreeAsync)" "$(r cuMemFree_v2)")
    expect_ge "$comm" 0.000000001 "profile: time in the memory calls"
    for _m in "cuda_setup $setup" "cuda_comm $comm" "cuda_sync $(r cuCtxSynchronize)" \
        "cuda_kernel_launches $(r cudaLaunchKernel)"; do
        expect_eq "$(near "$(v $s "${_m% *}")" "${_m#* }")" equal \
            "summary: ${_m% *} = the profile's time in its calls"
    done
    # CUDA time: the API calls (cudaGetLastError in no part), the copies and memsets, the loss
    # marker; computation = execution - CUDA time (no other paradigm), with the kernels in it
    cuda=$(sum "$setup" "$comm" "$(r cuCtxSynchronize)" "$(r cudaLaunchKernel)" \
        "$(r cudaGetLastError)" "$(r "CUDA ACTIVITY RECORDS LOST")" 0.000034)
    expect_eq "$(near "$(v $s cuda_time)" "$cuda")" equal \
        "summary: cuda_time = API calls + 34 us of copies and memsets + the loss marker"
    expect_eq "$(near "$(v $s comp)" "$(sum "$(v $s execution)" "-$(v $s cuda_time)")")" equal \
        "summary: comp = execution - cuda_time"
    expect_ge "$(v $s comp)" 0.00022 "summary: the kernels are computation"
    # the copies' bytes (the profile's bytes_get of host to device, bytes_put of device to
    # host; not device to device) as Score-P's one-sided bytes: 4096 each way
    expect_eq "$(v $s bytes_get) $(v $s bytes_put) $(v $s bytes_rma) $(v $s bytes)" \
        "4096 4096 8192 8192" "summary: bytes received, sent, one-sided, all"
    # only the paradigms of the run are shown (VOID the others)
    cube_dump -w "$s" >dims.txt || fail "cube_dump -w $s"
    shown() { awk -v m="$1" '$0 ~ "[(] id=[0-9]+, " m "," { n++ } END { print n + 0 }' dims.txt; }
    expect_eq "$(for _m in cuda_time cuda_setup cuda_comm cuda_sync cuda_kernel_launches \
        cuda_kernel_executions idle_gpus bytes_rma mpi bytes_p2p omp_time pthread_time shmem_time \
        io_time; do printf '%s=%s ' "$_m" "$(shown "$_m")"; done)" \
        "cuda_time=1 cuda_setup=1 cuda_comm=1 cuda_sync=1 cuda_kernel_launches=1 cuda_kernel_executions=1 idle_gpus=1 bytes_rma=1 mpi=0 bytes_p2p=0 omp_time=0 pthread_time=0 shmem_time=0 io_time=0 " \
        "summary: the CUDA metrics shown, those of other paradigms not"

    # without the idle features: no idle GPUs, execution = time
    run_app noidle env SCOREP_TIMER=clock_gettime SCOREP_CUDA_BUFFER=64k \
        SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k SCOREP_EXPERIMENT_DIRECTORY=noidle \
        "$top_builddir/test/cuda/cuda_synthetic"
    expect_eq "$status" 0 "noidle: exit status ($(cat noidle.out))"
    noidle_time=$(total noidle time)
    cube_dump -w noidle/profile.cubex >/dev/null 2>&1 || cube44 noidle
    PATH="$top_builddir:$PATH" "$SQUARE" -s noidle >noidle.square 2>&1 ||
        fail "noidle: square -s: $(tail -c 800 noidle.square)"
    [ ! -e noidle/profile.cube44 ] || rm noidle/profile.cubex || fail "rm noidle/profile.cubex"
    cube_dump -w noidle/summary.cubex >dims.txt || fail "cube_dump -w noidle/summary.cubex"
    expect_eq "$(shown idle_gpus) $(shown cuda_time)" "0 1" "noidle: no idle GPUs, CUDA time"
    expect_eq "$(near "$(v noidle/summary.cubex execution)" "$noidle_time")" equal \
        "noidle: execution = time"
    expect_eq "$(v noidle/summary.cubex cuda_kernel_executions)" 0.00022 "noidle: CUDA kernels"

    # kernel_callsite: the parameter node callsite id=N below a launch call and below a kernel
    # holds the rest of its visit; it counts as its parent. Kernels vecAdd 2 x 100 us, scale
    # 20 us, late_k 2 x 2 us, orphan 2 us (cuda_synthetic.c "callsite"); the launch calls with
    # the driver's cuLaunchKernel inside them, in both the profile's inclusive time
    run_app cs env SCOREP_TIMER=clock_gettime \
        SCOREP_CUDA_ENABLE=runtime,driver,kernel,memcpy,kernel_callsite SCOREP_CUDA_BUFFER=64k \
        SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k SCOREP_EXPERIMENT_DIRECTORY=cs \
        "$top_builddir/test/cuda/cuda_synthetic" callsite
    expect_eq "$status" 0 "callsite: exit status ($(cat cs.out))"
    expect_grep '/callsite id=[0-9]*	' "$(profile_dump_raw cs -m time >cs.txt && echo cs.txt)" \
        "callsite: parameter nodes in the profile"
    launches=$(awk -F'\t' '$2 ~ /\/cudaLaunchKernel(\/|$)/ { split($4, kv, "="); s += kv[2] }
        END { printf "%.9g\n", s }' cs.txt)
    cube_dump -w cs/profile.cubex >/dev/null 2>&1 || cube44 cs
    PATH="$top_builddir:$PATH" "$SQUARE" -s cs >cs.square 2>&1 ||
        fail "callsite: square -s: $(tail -c 800 cs.square)"
    [ ! -e cs/profile.cube44 ] || rm cs/profile.cubex || fail "rm cs/profile.cubex"
    expect_eq "$(v cs/summary.cubex cuda_kernel_executions)" 0.000226 \
        "callsite: CUDA kernels = 200 + 20 + 4 + 2 us, their parameter nodes included"
    expect_eq "$(near "$(v cs/summary.cubex cuda_kernel_launches)" "$launches")" equal \
        "callsite: kernel launches = the launch calls' inclusive time"
fi
done_ok
