#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_metric_instances.sh: metric plugins that do not run per thread, and asynchronous ones,
# are written in Score-P's trace layout (its metric management's scoped sampling sets):
# a class of occurrence SYNCHRONOUS (ASYNCHRONOUS), kind ABSTRACT, and a MetricInstance per
# recording location whose scope is where the values hold: the host's system-tree node (per
# host), the root node (once), the process's location group (per process), the location
# (per thread). 3 MPI ranks on
# 2 "nodes" (rank 0 alone on node0001, ranks 1 and 2 on node0002, SCOREP_NODE_NAME and the
# launcher's local rank set per rank) with test/plugins/synth.c's synth_host (SYNC per host:
# the n-th read of the host's first process is n), synth_once (ASYNC_EVENT once: values
# k*k+7, logged with their timestamps), synth_async (the same per process), synth_tasync (the
# same per thread; the ranks have one thread each), synth_sync and
# rusage (the strictly synchronous class), ru_nvcsw per process. python3-otf2
# (metric_instances.py) reads the definitions and every Metric record, otf2-print the
# timestamps; the values are what the plugins' design and logs say. A job ended by SIGTERM
# (test/programs/rescue.c's `term`: every rank waits for it after 200 rounds; each writes its
# piece) and rebuilt by scorep-recover has the same layout and values, also when one rank's
# piece is of another format version (named, left out). scorep-otf2-to-chrome reads every
# value. The live profile: synth_host's values are synth_sync's on the hosts' first
# processes (our reader, and CubeLib's cube_dump where CUBELIB_DUMP names one).
. "$top_srcdir/test/integration/lib.sh"
PY=$(python3_with_otf2)
[ -n "$PY" ] || { echo "SKIP: no python3-otf2"; exit 77; }
require_mpi
# the ranks that get mpirun's SIGTERM write their pieces within this (test_rescue_mpi.sh
# gives 20 s; mpirun waits all of it before it ends, with or without measurement)
export OMPI_MCA_odls_base_sigkill_timeout=5
export TEST_TIMEOUT=120
export LD_LIBRARY_PATH="$top_builddir/test/plugins/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
INSTANCES="$top_srcdir/test/integration/metric_instances.py"
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}

scorep_cc mpicc -O1 -o metrics_mpi "$PROGRAMS/metrics_mpi.c"
scorep_cc mpicc -O1 -DRESCUE_MPI -o rescue_m "$PROGRAMS/rescue.c"
cat >onnode <<'SH'
#!/bin/sh
# rank 0 alone on node0001, ranks 1 and 2 on node0002 (local ranks 0 and 1); logs per rank
r=$OMPI_COMM_WORLD_RANK
if [ "$r" = 0 ]; then n=1 lr=0; else n=2 lr=$((r - 1)); fi
SCOREP_NODE_NAME=node000$n OMPI_COMM_WORLD_LOCAL_RANK=$lr SYNTH_LOG=$LOGS/wave.$r.log \
    SYNTH_ONCE_LOG=$LOGS/once.$r.log SYNTH_THREAD_LOG=$LOGS/thread.$r.log exec "$@"
SH
chmod +x onnode

# the measurement of both jobs (NAME.logs/: the plugins' logs of job NAME)
export SCOREP_ENABLE_TRACING=true SCOREP_MACHINE_NAME=testbox SCOREP_METRIC_RUSAGE=ru_minflt \
    SCOREP_METRIC_RUSAGE_PER_PROCESS=ru_nvcsw \
    SCOREP_METRIC_PLUGINS=synth_sync,synth_host,synth_async,synth_once,synth_tasync \
    SCOREP_METRIC_SYNTH_SYNC=events SCOREP_METRIC_SYNTH_HOST=host_reads \
    SCOREP_METRIC_SYNTH_ASYNC=wave SCOREP_METRIC_SYNTH_ONCE=once_wave \
    SCOREP_METRIC_SYNTH_TASYNC=thread_wave SYNTH_COUNT=20

# Score-P's scoped sampling sets, by the plugins' run_per and sync
expected_instances()
{
    cat <<'EOF'
INSTANCE host_reads SYNCHRONOUS ABSTRACT recorder=MPI Rank 0/Master thread scope=SYSTEM_TREE_NODE:node0001
INSTANCE host_reads SYNCHRONOUS ABSTRACT recorder=MPI Rank 1/Master thread scope=SYSTEM_TREE_NODE:node0002
INSTANCE once_wave ASYNCHRONOUS ABSTRACT recorder=MPI Rank 0/Master thread scope=SYSTEM_TREE_NODE:testbox
INSTANCE ru_nvcsw SYNCHRONOUS ABSTRACT recorder=MPI Rank 0/Master thread scope=LOCATION_GROUP:MPI Rank 0
INSTANCE ru_nvcsw SYNCHRONOUS ABSTRACT recorder=MPI Rank 1/Master thread scope=LOCATION_GROUP:MPI Rank 1
INSTANCE ru_nvcsw SYNCHRONOUS ABSTRACT recorder=MPI Rank 2/Master thread scope=LOCATION_GROUP:MPI Rank 2
INSTANCE thread_wave ASYNCHRONOUS ABSTRACT recorder=MPI Rank 0/Master thread scope=LOCATION:MPI Rank 0/Master thread
INSTANCE thread_wave ASYNCHRONOUS ABSTRACT recorder=MPI Rank 1/Master thread scope=LOCATION:MPI Rank 1/Master thread
INSTANCE thread_wave ASYNCHRONOUS ABSTRACT recorder=MPI Rank 2/Master thread scope=LOCATION:MPI Rank 2/Master thread
INSTANCE wave ASYNCHRONOUS ABSTRACT recorder=MPI Rank 0/Master thread scope=LOCATION_GROUP:MPI Rank 0
INSTANCE wave ASYNCHRONOUS ABSTRACT recorder=MPI Rank 1/Master thread scope=LOCATION_GROUP:MPI Rank 1
INSTANCE wave ASYNCHRONOUS ABSTRACT recorder=MPI Rank 2/Master thread scope=LOCATION_GROUP:MPI Rank 2
EOF
}

# log_values FILE: the values of a plugin's log ("ts value" lines), ","-joined
log_values()
{
    cut -d' ' -f2 "$1" | paste -sd, -
}

# expected_values NAME: per location, from the design: a record of the strict class (with
# synth_sync's "events") and one of ru_nvcsw's instance at each of the N enters and leaves
# (N counted from the trace's "events" values: checked here to be 2, ..., N + 1, synth_sync's
# n-th read being n, the first at the location's start), synth_host's values the same on the
# hosts' first processes (ranks 0 and 1), synth_async's and synth_tasync's the rank's logs,
# synth_once's rank 0's
expected_values()
{
    for r in 0 1 2; do
        n=$(sed -n "s|^VALUES MPI Rank $r/Master thread events via=SYNCHRONOUS_STRICT n=\([0-9]*\) .*|\1|p" "$1.inst")
        [ -n "$n" ] || fail "$1: no records of synth_sync's events on rank $r"
        w="MPI Rank $r/Master thread"
        echo "VALUES $w events via=SYNCHRONOUS_STRICT n=$n values=$(seq -s, 2 $((n + 1)))"
        [ $r = 2 ] || echo "VALUES $w host_reads via=instance n=$n values=$(seq -s, 2 $((n + 1)))"
        [ $r != 0 ] || echo "VALUES $w once_wave via=instance n=$(wc -l <"$1.logs/once.0.log") values=$(log_values "$1.logs/once.0.log")"
        echo "VALUES $w ru_minflt via=SYNCHRONOUS_STRICT n=$n values=-"
        echo "VALUES $w ru_nvcsw via=instance n=$n values=-"
        echo "VALUES $w thread_wave via=instance n=$(wc -l <"$1.logs/thread.$r.log") values=$(log_values "$1.logs/thread.$r.log")"
        echo "VALUES $w wave via=instance n=$(wc -l <"$1.logs/wave.$r.log") values=$(log_values "$1.logs/wave.$r.log")"
    done | sort
}

# check NAME WHAT: the trace's metric layout and values
check()
{
    "$PY" "$INSTANCES" "$1/traces.otf2" events host_reads wave once_wave thread_wave >"$1.inst" 2>"$1.inst.err" ||
        fail "$2: metric_instances.py: $(cat "$1.inst.err")"
    expect_eq "$(grep '^INSTANCE' "$1.inst")" "$(expected_instances)" \
        "$2: an instance per recording location, scopes host node / root / process (Score-P's)"
    expect_ge "$(wc -l <"$1.logs/wave.2.log")" 1 "$2: synth_async produced values on rank 2"
    expect_ge "$(wc -l <"$1.logs/once.0.log")" 1 "$2: synth_once produced values on rank 0"
    expect_eq "$(ls "$1.logs")" "once.0.log
thread.0.log
thread.1.log
thread.2.log
wave.0.log
wave.1.log
wave.2.log" "$2: synth_once ran on rank 0 only"
    expect_eq "$(grep '^VALUES' "$1.inst")" "$(expected_values "$1")" \
        "$2: every value as the plugins' design and logs say, through the instances"
    trace_defs "$1" >"$1.defs"
    expect_eq "$(grep '^METRIC_CLASS' "$1.defs" | sed 's/^METRIC_CLASS *[0-9]* *//')" \
        'Occurrence: SYNCHRONOUS_STRICT, Kind: CPU, 2 Members: "ru_minflt" <0>, "events" <2>
Occurrence: SYNCHRONOUS, Kind: ABSTRACT, 1 Member: "ru_nvcsw" <1>
Occurrence: SYNCHRONOUS, Kind: ABSTRACT, 1 Member: "host_reads" <3>
Occurrence: ASYNCHRONOUS, Kind: ABSTRACT, 1 Member: "wave" <4>
Occurrence: ASYNCHRONOUS, Kind: ABSTRACT, 1 Member: "once_wave" <5>
Occurrence: ASYNCHRONOUS, Kind: ABSTRACT, 1 Member: "thread_wave" <6>' \
        "$2: otf2-print: the strict class and one class per other metric"
    # the asynchronous values at the plugins' timestamps (otf2-print: location r is rank r's
    # first; once_wave on rank 0 only). OTF2's reader moves the other ranks' timestamps onto
    # rank 0's clock (their ClockOffset definitions), so there the values and their order are
    # checked (metric_instances.py above)
    expect_eq "$(trace_other "$1" | awk '$1 == "METRIC" && $2 == 0 && /"wave"/ {
            v = $NF; sub(/\)$/, "", v); print $3, v }')" "$(cat "$1.logs/wave.0.log")" \
        "$2: rank 0: synth_async's values at their timestamps"
    expect_eq "$(trace_other "$1" | awk '$1 == "METRIC" && $2 == 0 && /"thread_wave"/ {
            v = $NF; sub(/\)$/, "", v); print $3, v }')" "$(cat "$1.logs/thread.0.log")" \
        "$2: rank 0: synth_tasync's values at their timestamps"
    expect_eq "$(trace_other "$1" | awk '$1 == "METRIC" && /"once_wave"/ {
            v = $NF; sub(/\)$/, "", v); print $2, $3, v }')" "$(sed 's/^/0 /' "$1.logs/once.0.log")" \
        "$2: synth_once's values at their timestamps, on rank 0"
    if [ "$1" = r ]; then
        # the pieces keep no metric values per call path (docs/user-guide.md, section 5b)
        if [ -n "$CUBELIB_DUMP" ]; then
            "$CUBELIB_DUMP" -w "$1/profile.cubex" >"$1.cl" 2>&1 ||
                fail "$2: CubeLib's cube_dump cannot read the profile: $(head -5 "$1.cl")"
        fi
        return
    fi
    # the profile: synth_host counts what synth_sync counts, on the hosts' first processes
    profile_dump "$1" -i -m events | awk -F'\t' -v OFS='\t' '$3 != 2 { sub(/^events=/, "", $4); print }' >"$1.ev"
    profile_dump "$1" -i -m host_reads | awk -F'\t' -v OFS='\t' '{ sub(/^host_reads=/, "", $4); print }' >"$1.host"
    expect_ge "$(wc -l <"$1.ev")" 10 "$2: profile: synth_sync's values on ranks 0 and 1"
    expect_eq "$(cat "$1.host")" "$(cat "$1.ev")" \
        "$2: profile: synth_host's values are synth_sync's on ranks 0 and 1, none on rank 2"
    expect_eq "$(profile_dump "$1" | awk '/wave=/ { n++ } END { print n + 0 }')" 0 \
        "$2: profile: no asynchronous values"
    if [ -n "$CUBELIB_DUMP" ]; then
        "$CUBELIB_DUMP" -m events,host_reads -c all -z incl -s csv2 "$1/profile.cubex" >"$1.cl" 2>&1 ||
            fail "$2: CubeLib's cube_dump: $(head -5 "$1.cl")"
        expect_eq "$(awk -F, 'NR > 1 && ($2 == 2 ? $3 != 0 : $3 != $4 || $4 == 0)' "$1.cl")" "" \
            "$2: CubeLib: host_reads = events (> 0) on ranks 0 and 1, 0 on rank 2"
        expect_ge "$(wc -l <"$1.cl")" 10 "$2: CubeLib: the call paths of 3 ranks"
    fi
}

part "live: MPI_Finalize"
mkdir m.logs
run_app m env LOGS="$work/m.logs" SCOREP_EXPERIMENT_DIRECTORY=m mpirun -np 3 ./onnode ./metrics_mpi
expect_eq "$status:$(cat m.out)" "0:done 3" "live: 3 ranks run measured"
check m live
# this repository's readers (trace model): the chrome export has a counter per value
"$top_builddir/scorep-otf2-to-chrome" -o m.json m/traces.otf2 2>m.conv.err ||
    fail "live: scorep-otf2-to-chrome: $(cat m.conv.err)"
"$PY" "$top_srcdir/test/tools/chrome_check.py" m.json m/traces.otf2 >m.sum 2>m.check.err ||
    fail "live: chrome_check: $(cat m.check.err)"
expect_eq "$(tr ' ' '\n' <m.sum | sed -n 's/^counters=//p')" \
    "$(trace_other m | metric_values | awk '$1 == "METRIC"' | wc -l | tr -d ' ')" \
    "live: a chrome counter per value in the trace, the instances' too"

part "recovered: SIGTERM, scorep-recover"
mkdir r.logs
start_app r env LOGS="$work/r.logs" SCOREP_EXPERIMENT_DIRECTORY=r mpirun -np 3 ./onnode ./rescue_m term
wait_lines r.out 'rounds$' 3 "recovered: the ranks did not reach round 200"
kill -TERM "$app_pid"
wait_app 120
expect_eq "$(entries r/rescue '^rank-[0-9]\.piece$')" 3 "recovered: a piece of every rank"
expect_no_file r/profile.cubex "recovered: no profile before scorep-recover"
# a copy whose rank 1 left a piece of the former format (version 3, rehashed: whole)
mkdir old
cp -r r/rescue r/scorep.cfg old/
"$PY" - old/rescue/rank-1.piece <<'EOF' || fail "making a piece of version 3"
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<I", d, 4, 3)  # after the magic: the version (recover.c)
h = 0xcbf29ce484222325  # the closing FNV-1a hash of the bytes before it
for b in d[:-8]:
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
struct.pack_into("<Q", d, len(d) - 8, h)
open(sys.argv[1], "wb").write(d)
EOF
"$top_builddir/scorep-recover" r >rec.out 2>&1 || fail "scorep-recover: $(cat rec.out)"
expect_eq "$(cat rec.out)" "scorep-recover: 3 of 3 ranks recovered into r" "recovered: every rank's piece"
check r recovered

part "recovered: a piece of another version"
rc=0
"$top_builddir/scorep-recover" old >old.out 2>old.err || rc=$?
expect_eq "$rc:$(cat old.out)" "0:scorep-recover: 2 of 3 ranks recovered into old" \
    "another version: the other ranks recovered"
expect_eq "$(cat old.err)" "scorep-recover: old/rescue/rank-1.piece was written by another version of scorep-rt (its piece format differs); left out, its rank is listed as missing: recover it with the scorep-rt that measured the run
scorep-recover: rank 1 left no whole piece; recovering 2 of 3 ranks" "another version: said so, once"
# the rank without a piece stands in with the first piece's definitions (scorep-recover.c):
# the same classes, the instances of the others' records
trace_defs old >old.defs
expect_eq "$(grep '^METRIC_CLASS' old.defs)" "$(grep '^METRIC_CLASS' r.defs)" \
    "another version: the classes of the whole job's recovery"
expect_eq "$(grep -c '^METRIC_INSTANCE' old.defs)" 8 \
    "another version: the instances of ranks 0 and 2 (ru_nvcsw, wave, thread_wave; host_reads, once_wave on rank 0)"
[ -n "$CUBELIB_DUMP" ] || skip_part_here "CubeLib's own reading (cube_dump)" \
    "CubeLib is not packaged for this system (set CUBELIB_DUMP to a built cube_dump)"
done_ok
