#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_cuda_mpi.sh: the synthetic CUPTI records of cuda_synthetic.c ("devices": streams of
# two devices and three contexts) on each of 2 MPI ranks: every rank's GPU streams in its
# own accelerator groups under the node's device nodes in the trace and the profile (both
# Cube writers), CUDA's groups, one CUDA communicator and window per rank whose RMA records
# name that rank's master thread as remote, definitions clean.
. "$top_srcdir/test/integration/lib.sh"

cuda_lib="$top_builddir/.libs/libscorep-rt-cuda.so"
if [ ! -e "$cuda_lib" ]; then
    echo "SKIP: the CUDA adapter is not built (configure found no CUPTI, or --with-cuda=no)"
    echo "SKIP-NOT-A-PACKAGE: CUDA/CUPTI is not a Debian package the quickstart installs"
    exit 77
fi
require_mpi
# CUPTI's directory: the adapter's run path names CUDA's lib64
cuda_libdir=$(readelf -d "$cuda_lib" | sed -n 's/.*R[UN]*PATH.*\[\(.*\)\]/\1/p' | tr ':' '\n' |
    while read -r d; do [ -e "$d/libcupti.so" ] && echo "$d" && break; done)
[ -n "$cuda_libdir" ] || fail "no libcupti.so in the run path of $cuda_lib"
cuda_dir=$(dirname "$cuda_libdir")

scorep_cc --nocompiler mpicc -O2 -DWITH_MPI -I"$top_srcdir/src" -I"$top_builddir" \
    -I"$cuda_dir/include" -o syn "$top_srcdir/test/cuda/cuda_synthetic.c" \
    -Wl,--no-as-needed -lscorep-rt-cuda -L"$cuda_libdir" -Wl,-rpath,"$cuda_libdir" -lcupti
run_app syn env SCOREP_ENABLE_TRACING=true SCOREP_TIMER=clock_gettime \
    SCOREP_CUDA_BUFFER=64k SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k \
    SCOREP_EXPERIMENT_DIRECTORY=exp \
    mpirun -np 2 ./syn devices
expect_eq "$status" 0 "exit status"
expect_eq "$(cat syn.out)" "synthetic records processed
synthetic records processed" "program output"
if [ ! -e /dev/nvidia0 ]; then
    expect_eq "$(grep -c 'CUDA: cuptiSubscribe failed' syn.err)" 2 "one warning per rank"
fi

# --- trace: locations (id = local index * 2 + rank), windows, events per rank ---
# Score-P's structure (scorep_cupti.c: a "CUDA Device" node per device under the node of
# the process, unified across the processes of the node; a "CUDA Context <id>" group per
# context of each process, created by it): both ranks on one node share the device nodes;
# devices in the order of their first stream, in each the groups in the order of their
# first stream (rank 0's, then rank 1's); groups numbered after the processes
host=$(hostname)
trace_defs exp >defs.txt
expect_eq "$(awk '$1 == "SYSTEM_TREE_NODE" || $1 == "LOCATION_GROUP" { t = $1; id = $2
    sub(/^[A-Z_]+ +[0-9]+ +/, ""); print t, id, $0 }' defs.txt |
    sed 's/\(Name\|Class\): \("[^"]*"\) <[0-9]*>/\1: \2/g' | tr '\n' ';')" \
    "SYSTEM_TREE_NODE 0 Name: \"Linux\", Class: \"machine\", Parent: UNDEFINED;SYSTEM_TREE_NODE 1 Name: \"$host\", Class: \"node\", Parent: \"machine::Linux\" <0>;LOCATION_GROUP 0 Name: \"MPI Rank 0\", Type: PROCESS, Parent: \"node::$host\" <1>, Creator: UNDEFINED;LOCATION_GROUP 1 Name: \"MPI Rank 1\", Type: PROCESS, Parent: \"node::$host\" <1>, Creator: UNDEFINED;SYSTEM_TREE_NODE 2 Name: \"0\", Class: \"CUDA Device\", Parent: \"node::$host\" <1>;SYSTEM_TREE_NODE 3 Name: \"1\", Class: \"CUDA Device\", Parent: \"node::$host\" <1>;LOCATION_GROUP 2 Name: \"CUDA Context 1\", Type: ACCELERATOR, Parent: \"CUDA Device::0\" <2>, Creator: \"MPI Rank 0\" <0>;LOCATION_GROUP 3 Name: \"CUDA Context 5\", Type: ACCELERATOR, Parent: \"CUDA Device::0\" <2>, Creator: \"MPI Rank 0\" <0>;LOCATION_GROUP 4 Name: \"CUDA Context 1\", Type: ACCELERATOR, Parent: \"CUDA Device::0\" <2>, Creator: \"MPI Rank 1\" <1>;LOCATION_GROUP 5 Name: \"CUDA Context 5\", Type: ACCELERATOR, Parent: \"CUDA Device::0\" <2>, Creator: \"MPI Rank 1\" <1>;LOCATION_GROUP 6 Name: \"CUDA Context 2\", Type: ACCELERATOR, Parent: \"CUDA Device::1\" <3>, Creator: \"MPI Rank 0\" <0>;LOCATION_GROUP 7 Name: \"CUDA Context 2\", Type: ACCELERATOR, Parent: \"CUDA Device::1\" <3>, Creator: \"MPI Rank 1\" <1>;" \
    "system-tree nodes and location groups"
expect_eq "$(awk '$1 == "LOCATION" { n = $0; sub(/.*Name: "/, "", n); sub(/".*/, "", n)
    g = $0; sub(/.*Group: /, "", g); print $2, n, g }' defs.txt | sort -n | tr '\n' ';')" \
    "0 Master thread \"MPI Rank 0\" <0>;1 Master thread \"MPI Rank 1\" <1>;4294967296 CUDA[0:1:7] \"CUDA Context 1\" <2>;4294967297 CUDA[0:1:7] \"CUDA Context 1\" <4>;8589934592 CUDA[0:1:8] \"CUDA Context 1\" <2>;8589934593 CUDA[0:1:8] \"CUDA Context 1\" <4>;12884901888 CUDA[1:2:3] \"CUDA Context 2\" <6>;12884901889 CUDA[1:2:3] \"CUDA Context 2\" <7>;17179869184 CUDA[0:5:4] \"CUDA Context 5\" <3>;17179869185 CUDA[0:5:4] \"CUDA Context 5\" <5>;21474836480 CUDA[1:2:6] \"CUDA Context 2\" <6>;21474836481 CUDA[1:2:6] \"CUDA Context 2\" <7>;" \
    "locations and their location groups"
# groups from the pthread ones on, communicators and windows as "KIND id rest" (string ids
# of names dropped): the pthread and OpenMP location groups hold the master threads only;
# CUDA's as Score-P defines them: COMM_LOCATIONS "CUDA" with per rank its master thread
# (the host) and its five streams (local index i: global id 2 * i + rank), per rank a
# COMM_GROUP "CUDA_GROUP" of indices into it, a communicator and the window "CUDA_WINDOW"
# over it, the LOCATIONS group "CUDA_GROUP" of all ten streams
awk '$1 == "GROUP" && $2 >= 4 || $1 == "COMM" && $2 >= 3 || $1 == "RMA_WIN" { t = $1; id = $2
    sub(/^[A-Z_]+ +[0-9]+ +/, ""); print t, id, $0 }' defs.txt |
    sed 's/^\([^,]*Name: "[^"]*"\) <[0-9]*>/\1/' >comm.txt
cat >want_comm.txt <<'WANT'
GROUP 4 Name: "", Type: COMM_LOCATIONS, Paradigm: PTHREAD, Flags: NONE, 2 Members: "Master thread" <0>, "Master thread" <1>
GROUP 5 Name: "", Type: COMM_GROUP, Paradigm: PTHREAD, Flags: NONE, 1 Member: 0 ("Master thread" <0>)
COMM 3 Name: "Pthread thread contingent", Group: "" <5>, Parent: UNDEFINED, Flags: NONE
GROUP 6 Name: "", Type: COMM_GROUP, Paradigm: PTHREAD, Flags: NONE, 1 Member: 1 ("Master thread" <1>)
COMM 4 Name: "Pthread thread contingent", Group: "" <6>, Parent: UNDEFINED, Flags: NONE
GROUP 7 Name: "", Type: COMM_LOCATIONS, Paradigm: OPENMP, Flags: NONE, 2 Members: "Master thread" <0>, "Master thread" <1>
GROUP 8 Name: "CUDA", Type: COMM_LOCATIONS, Paradigm: CUDA, Flags: NONE, 12 Members: "Master thread" <0>, "CUDA[0:1:7]" <4294967296>, "CUDA[0:1:8]" <8589934592>, "CUDA[1:2:3]" <12884901888>, "CUDA[0:5:4]" <17179869184>, "CUDA[1:2:6]" <21474836480>, "Master thread" <1>, "CUDA[0:1:7]" <4294967297>, "CUDA[0:1:8]" <8589934593>, "CUDA[1:2:3]" <12884901889>, "CUDA[0:5:4]" <17179869185>, "CUDA[1:2:6]" <21474836481>
GROUP 9 Name: "CUDA_GROUP", Type: COMM_GROUP, Paradigm: CUDA, Flags: NONE, 6 Members: 0 ("Master thread" <0>), 1 ("CUDA[0:1:7]" <4294967296>), 2 ("CUDA[0:1:8]" <8589934592>), 3 ("CUDA[1:2:3]" <12884901888>), 4 ("CUDA[0:5:4]" <17179869184>), 5 ("CUDA[1:2:6]" <21474836480>)
COMM 5 Name: "", Group: "CUDA_GROUP" <9>, Parent: UNDEFINED, Flags: NONE
GROUP 10 Name: "CUDA_GROUP", Type: COMM_GROUP, Paradigm: CUDA, Flags: NONE, 6 Members: 6 ("Master thread" <1>), 7 ("CUDA[0:1:7]" <4294967297>), 8 ("CUDA[0:1:8]" <8589934593>), 9 ("CUDA[1:2:3]" <12884901889>), 10 ("CUDA[0:5:4]" <17179869185>), 11 ("CUDA[1:2:6]" <21474836481>)
COMM 6 Name: "", Group: "CUDA_GROUP" <10>, Parent: UNDEFINED, Flags: NONE
RMA_WIN 0 Name: "CUDA_WINDOW", Communicator: "" <5>, Flags: NONE
RMA_WIN 1 Name: "CUDA_WINDOW", Communicator: "" <6>, Flags: NONE
GROUP 11 Name: "CUDA_GROUP", Type: LOCATIONS, Paradigm: UNKNOWN, Flags: NONE, 10 Members: "CUDA[0:1:7]" <4294967296>, "CUDA[0:1:8]" <8589934592>, "CUDA[1:2:3]" <12884901888>, "CUDA[0:5:4]" <17179869184>, "CUDA[1:2:6]" <21474836480>, "CUDA[0:1:7]" <4294967297>, "CUDA[0:1:8]" <8589934593>, "CUDA[1:2:3]" <12884901889>, "CUDA[0:5:4]" <17179869185>, "CUDA[1:2:6]" <21474836481>
WANT
expect_eq "$(diff want_comm.txt comm.txt && echo same)" same \
    "GPU streams in CUDA's groups only; one CUDA communicator and window per rank"
expect_defs_clean exp "two ranks with GPU locations"
for r in 0 1; do
    loc=$(((1 << 32) | r)) # rank r's first stream, its location 1 (ids local << 32 | rank)
    expect_eq "$(trace_events exp | awk -v l=$loc '$2 == l && $1 ~ /^RMA_(GET|PUT)$/' |
        sed 's/.*Window: //' | tr '\n' ';')" \
        "\"CUDA_WINDOW\" <$r>, Remote: 0 (\"Master thread\" <$r>), Bytes: 4096, Matching: 11;\"CUDA_WINDOW\" <$r>, Remote: 0 (\"Master thread\" <$r>), Bytes: 4096, Matching: 15;" \
        "rank $r: RMA transfers on its window, remote = its master thread"
    expect_eq "$(trace_count exp ENTER $loc 'vecAdd(float const*, float const*, float*, int)')" 2 \
        "rank $r: kernel enters"
done
expect_eq "$(trace_check_order exp)" 0 "timestamps increase per location"
expect_eq "$(trace_check_nesting exp)" 0 "regions nest"

# --- profile: the same structure in Cube's document order (locations numbered in it, the
# values in those columns), by the parallel writer (the default with 2 ranks) and the
# gathering one (a second run) ---
run_app gat env SCOREP_TIMER=clock_gettime SCOREP_PROFILING_CUBE_WRITER=gather \
    SCOREP_CUDA_BUFFER=64k SCOREP_CUDA_BUFFER_CHUNK=8k SCOREP_CUDA_BUFFER_MAX=96k \
    SCOREP_EXPERIMENT_DIRECTORY=exp_gather mpirun -np 2 ./syn devices
expect_eq "$status" 0 "gathering Cube writer: exit status"
D="Linux/$host/CUDA Device"
S="accelerator stream"
K="vecAdd(float const*, float const*, float*, int)"
for e in exp exp_gather; do
    expect_eq "$(profile_dump $e --system-groups | tr '\t' '|' | tr '\n' ';')" \
        "0|Linux/$host|node|MPI Rank 0|process|0|-|0:Master thread:thread:0;1|Linux/$host|node|MPI Rank 1|process|1|-|1:Master thread:thread:0;2|$D 0|CUDA Device|CUDA Context 1|accelerator|2|MPI Rank 0|2:CUDA[0:1:7]:$S:0;3:CUDA[0:1:8]:$S:1;3|$D 0|CUDA Device|CUDA Context 5|accelerator|3|MPI Rank 0|4:CUDA[0:5:4]:$S:0;4|$D 0|CUDA Device|CUDA Context 1|accelerator|4|MPI Rank 1|5:CUDA[0:1:7]:$S:0;6:CUDA[0:1:8]:$S:1;5|$D 0|CUDA Device|CUDA Context 5|accelerator|5|MPI Rank 1|7:CUDA[0:5:4]:$S:0;6|$D 1|CUDA Device|CUDA Context 2|accelerator|6|MPI Rank 0|8:CUDA[1:2:3]:$S:0;9:CUDA[1:2:6]:$S:1;7|$D 1|CUDA Device|CUDA Context 2|accelerator|7|MPI Rank 1|10:CUDA[1:2:3]:$S:0;11:CUDA[1:2:6]:$S:1;" \
        "$e: location groups, nodes, types, ranks, creators, locations"
    expect_eq "$(profile_values $e "$K" visits | tr '\n' ';')" "2 2;5 2;" \
        "$e: kernel visits in the columns of CUDA[0:1:7] of each rank"
    expect_eq "$(profile_values $e "$K" time | tr '\n' ';')" "2 0.0002;5 0.0002;" \
        "$e: kernel time per GPU location"
    expect_eq "$(profile_values $e k_dev visits | tr '\n' ';')" "4 2;7 2;8 1;9 3;10 1;11 3;" \
        "$e: k_dev visits in the columns of CUDA[0:5:4], CUDA[1:2:3], CUDA[1:2:6] of each rank"
    expect_eq "$(profile_values $e cudaLaunchKernel visits | tr '\n' ';')" "0 3;1 3;" \
        "$e: the launches in the master threads' columns"
    tar -xOf $e/profile.cubex anchor.xml >$e.anchor.xml || fail "$e: no anchor.xml in profile.cubex"
    expect_eq "$(count_lines '^<cube version="4\.7">$' $e.anchor.xml)" 1 \
        "$e: anchor syntax 4.7 (accelerator groups)"
done
# the engine (mpirun -np 2 scorep-cube-dump) reads the same structure and columns
expect_eq "$(mpirun -np 2 "$CUBE_DUMP" --system-groups exp/profile.cubex | cut -f1,4-7 | tr '\t' '|' |
    tr '\n' ';')" \
    "0|MPI Rank 0|process|0|-;1|MPI Rank 1|process|1|-;2|CUDA Context 1|accelerator|2|MPI Rank 0;3|CUDA Context 5|accelerator|3|MPI Rank 0;4|CUDA Context 1|accelerator|4|MPI Rank 1;5|CUDA Context 5|accelerator|5|MPI Rank 1;6|CUDA Context 2|accelerator|6|MPI Rank 0;7|CUDA Context 2|accelerator|7|MPI Rank 1;" \
    "the distributed engine: location groups"
expect_eq "$(mpirun -np 2 "$CUBE_DUMP" -m visits exp/profile.cubex | awk -F'\t' -v p="$(profile_root exp)/k_dev" '$2 == p { print $3, $4 }' |
    tr '\n' ';')" "4 visits=2;7 visits=2;8 visits=1;9 visits=3;10 visits=1;11 visits=3;" \
    "the distributed engine: k_dev visits per column"
# scorep-report: a stream's rank is that of the process that created its context
"$top_builddir/scorep-report" -o report.html exp >report.out 2>&1 || fail "scorep-report: $(cat report.out)"
expect_eq "$(grep -o '"name":"CUDA\[[^"]*\]","group":"[^"]*","rank":[0-9]*' report.html | tr '\n' ';')" \
    "\"name\":\"CUDA[0:1:7]\",\"group\":\"CUDA Context 1\",\"rank\":0;\"name\":\"CUDA[0:1:8]\",\"group\":\"CUDA Context 1\",\"rank\":0;\"name\":\"CUDA[0:5:4]\",\"group\":\"CUDA Context 5\",\"rank\":0;\"name\":\"CUDA[0:1:7]\",\"group\":\"CUDA Context 1\",\"rank\":1;\"name\":\"CUDA[0:1:8]\",\"group\":\"CUDA Context 1\",\"rank\":1;\"name\":\"CUDA[0:5:4]\",\"group\":\"CUDA Context 5\",\"rank\":1;\"name\":\"CUDA[1:2:3]\",\"group\":\"CUDA Context 2\",\"rank\":0;\"name\":\"CUDA[1:2:6]\",\"group\":\"CUDA Context 2\",\"rank\":0;\"name\":\"CUDA[1:2:3]\",\"group\":\"CUDA Context 2\",\"rank\":1;\"name\":\"CUDA[1:2:6]\",\"group\":\"CUDA Context 2\",\"rank\":1;" \
    "scorep-report: the streams with their process's rank"
# scorep-score: each rank's streams count to its process (the attribute "Creating location
# group"), so the two processes hold the whole aggregate: the larger at least half of it
# (the ranks' buffers differ by a byte or so); a stream group scored on its own would be a
# slot far below that
"$SCOREP_SCORE" exp/profile.cubex >score.txt || fail "scorep-score exp failed"
agg=$(sed -n 's/^Estimated aggregate size of event trace: *\([0-9]*\) bytes$/\1/p' score.txt)
max=$(sed -n 's/^Estimated requirements for largest trace buffer (max_buf): *\([0-9]*\) bytes$/\1/p' score.txt)
[ -n "$agg" ] && [ -n "$max" ] || fail "no sizes in: $(cat score.txt)"
expect_eq "$([ $((max * 2)) -ge "$agg" ] && [ "$max" -lt "$agg" ] && echo yes)" yes \
    "scorep-score: max_buf $max of a process holds half the aggregate $agg"

# --- unmodified under scorep-run: an MPI program annotated with NVTX (the part of the CUDA
# stack that runs without a GPU), every rank's ranges in one profile and trace ---
mpicc -O1 -DWITH_MPI -I"$cuda_dir/include" -o nvtx_mpi "$top_srcdir/test/cuda/nvtx_prog.c" -ldl ||
    fail "build nvtx_prog.c with MPI"
run_app nvmpi env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_nv \
    SCOREP_RUN_LIBDIR="$top_builddir/.libs" mpirun -np 2 "$top_builddir/scorep-run" ./nvtx_mpi
expect_eq "$status" 0 "MPI + NVTX under scorep-run: exit status ($(head -c 300 nvmpi.err))"
expect_eq "$(profile_values exp_nv outer/inner visits | tr '\n' ';')" "0 3;1 3;" \
    "MPI + NVTX: inner ranges on each rank"
expect_eq "$(profile_values exp_nv "solver: iteration" visits | tr '\n' ';')" "0 4;1 4;" \
    "MPI + NVTX: domain ranges on each rank"
expect_eq "$(trace_count exp_nv ENTER 0 inner) $(trace_count exp_nv ENTER 1 inner)" "3 3" \
    "MPI + NVTX: the trace of both ranks"
done_ok
