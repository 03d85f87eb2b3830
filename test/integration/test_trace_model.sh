#!/bin/sh
# test_trace_model.sh: src/tools/trace_model.h loads a real 2-rank MPI trace (test/tools/
# trace_model_dump): event counts equal otf2-print's, every message matched as
# trace_messages matches them, the communication matrix exact; bad input gets one message.
. "$top_srcdir/test/integration/lib.sh"
[ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: no MPI adapter"; exit 77; }
command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
DUMP="$top_builddir/test/tools/trace_model_dump"
MESSAGES="$top_builddir/test/tools/trace_messages"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# 300 round trips of 64 bytes, 2 tiny() calls each: 600 messages, 300 each way
"$SCOREP_CC" mpicc -O2 -o pingpong "$PROGRAMS/pingpong.c" || fail "scorep-cc mpicc"
rc=0
SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp timeout 120 \
    mpirun --bind-to core:overload-allowed -np 2 ./pingpong 300 2 >out 2>err || rc=$?
expect_eq "$rc" 0 "2 ranks run measured"
"$DUMP" exp/traces.otf2 >dump || fail "trace_model_dump: $(cat dump)"
expect_eq "$(grep -c '^location ' dump)" 2 "two locations"
expect_eq "$(grep '^location ' dump | cut -d' ' -f4-6 | tr '\n' ' ')" \
    "rank=0 thread=0 kind=cpu rank=1 thread=0 kind=cpu " "one CPU thread per rank"
for k in ENTER LEAVE; do
    expect_eq "$(sed -n "s/^count $k=//p" dump)" "$(trace_summary exp | awk -v k=$k '$1 == k { n += $3 } END { print n }')" \
        "$k events as otf2-print counts them"
done
expect_eq "$(sed -n 's/^count SEND=//p' dump)" 600 "600 MPI_Send events"
expect_eq "$(sed -n 's/^count RECV=//p' dump)" 600 "600 MPI_Recv events"
expect_eq "$("$MESSAGES" --match exp/traces.otf2 | sed 's/ mismatched.*//')" \
    "sends=600 receives=600 matched=600 unmatched=0" "trace_messages matches 600"
expect_eq "$(grep '^messages ' dump)" "messages matched=600 unmatched_sends=0 unmatched_recvs=0" \
    "the model matches the same 600"
expect_eq "$(grep '^matrix ' dump | tr '\n' '|')" \
    "matrix 0 1 messages=300 bytes=19200|matrix 1 0 messages=300 bytes=19200|" \
    "communication matrix: 300 messages of 64 bytes each way"
# an experiment directory stands for its traces.otf2
expect_eq "$("$DUMP" exp | md5sum)" "$(md5sum <dump)" "the experiment directory loads the same"

# --- bad input: one line, exit 1 ---
bad()
{
    rc=0
    "$DUMP" "$1" >bad.out 2>bad.err || rc=$?
    expect_eq "$rc" 1 "$3: exit status"
    expect_eq "$(wc -l <bad.err | tr -d ' ')" 1 "$3: one line on stderr"
    expect_grep "$2" bad.err "$3: the reason"
}
bad missing/traces.otf2 "No such file or directory" "missing trace"
mkdir empty
bad empty "a directory without traces.otf2" "empty directory"
cp -r exp cut
truncate -s 200 cut/traces/1.evt
bad cut/traces.otf2 "events are unreadable .truncated trace" "truncated event file"
cp -r exp cutdef
truncate -s 100 cutdef/traces.def
bad cutdef/traces.otf2 "global definitions are unreadable" "truncated definitions"
: >notatrace
bad notatrace "not an OTF2 archive" "empty file"
done_ok
