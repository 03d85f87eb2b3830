#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_trace_model.sh: src/tools/trace_model.h loads a real 2-rank MPI trace (test/tools/
# trace_model_dump): event counts equal otf2-print's, every message matched as
# trace_messages matches them, the communication matrix exact; the RMA matrices (puts, gets,
# atomics per origin and target rank) of an MPI one-sided run (test/mpi/rma.c) and a SHMEM
# run (test/shmem/shmem_rma.c) equal otf2-print's; bad input gets one message.
. "$top_srcdir/test/integration/lib.sh"
require_mpi
DUMP="$top_builddir/test/tools/trace_model_dump"
MESSAGES="$top_builddir/test/tools/trace_messages"

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

# rma_expected EXPDIR: the dump's "rma" lines computed from otf2-print: the origin is the
# event's location, the target the location otf2-print names for the remote rank, both
# mapped to their rank by the location group's name ("MPI Rank R")
rma_expected()
{
    trace_defs "$1" | sed -n 's/^LOCATION *\([0-9]*\) .*Group: "[^"]*Rank \([0-9]*\)".*/\1 \2/p' >"$1.ranks"
    trace_other "$1" | awk '
        function num(key,   s) { s = substr($0, index($0, key) + length(key)); return s + 0 }
        FNR == NR { rank[$1] = $2; next }
        $1 ~ /^RMA_(PUT|GET|ATOMIC)$/ {
            s = substr($0, index($0, "Remote: ")); s = substr(s, index(s, "<") + 1)
            k = tolower(substr($1, 5)) " " rank[$2] " " rank[substr(s, 1, index(s, ">") - 1)]
            ops[k]++
            if ($1 == "RMA_ATOMIC") { bytes[k] += num("Sent: "); back[k] += num("Received: ") }
            else bytes[k] += num("Bytes: ")
        }
        END { for (k in ops) printf "rma %s ops=%d bytes=%d%s\n", k, ops[k], bytes[k],
                  k ~ /^atomic/ ? " received=" back[k] : "" }' "$1.ranks" - | sort
}

# MPI windows (3 ranks): puts, gets and atomics (accumulate, fetch-and-op, compare-and-swap)
"$SCOREP_CC" mpicc -O1 -I"$top_srcdir/test/mpi" -o rma_prog "$top_srcdir/test/mpi/rma.c" || fail "scorep-cc mpicc rma.c"
rc=0
SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=rma timeout 120 mpirun -np 3 ./rma_prog >rma.out 2>&1 || rc=$?
expect_eq "$rc" 0 "rma.c runs measured on 3 ranks"
"$DUMP" rma >rma.dump || fail "trace_model_dump rma: $(cat rma.dump)"
for k in PUT GET ATOMIC; do
    expect_eq "$(sed -n "s/^count RMA_$k=//p" rma.dump)" "$(trace_count rma RMA_$k)" "MPI: RMA_$k events as otf2-print counts them"
done
expect_eq "$(grep '^rma ' rma.dump | sort)" "$(rma_expected rma)" "MPI: RMA matrices equal otf2-print's"
expect_eq "$(grep -c '^rma ' rma.dump)" 16 "MPI: 16 (origin, target, kind) cells"

# SHMEM (3 PEs): PE r puts 64+4+100 bytes to r+1 and 8 to PE 0 (under the lock), gets
# 128+8+48 from r-1 and does 3 atomics on PE 0 (8+0+16 bytes sent, 8+0+8 fetched)
if [ -e "$top_builddir/.libs/libscorep-rt-shmem.so" ] && command -v oshrun >/dev/null 2>&1; then
    "$SCOREP_CC" oshcc -O1 -o shmem_rma "$top_srcdir/test/shmem/shmem_rma.c" || fail "scorep-cc oshcc"
    rc=0
    OMPI_MCA_osc='^rdma' SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=shmem \
        timeout 120 oshrun -np 3 ./shmem_rma >shmem.out 2>&1 || rc=$?
    expect_eq "$rc" 0 "shmem_rma runs measured on 3 PEs"
    "$DUMP" shmem >shmem.dump || fail "trace_model_dump shmem: $(cat shmem.dump)"
    expect_eq "$(grep '^rma ' shmem.dump | sort)" "$(rma_expected shmem)" "SHMEM: RMA matrices equal otf2-print's"
    expect_eq "$(grep '^rma ' shmem.dump | sort)" "rma atomic 0 0 ops=3 bytes=24 received=16
rma atomic 1 0 ops=3 bytes=24 received=16
rma atomic 2 0 ops=3 bytes=24 received=16
rma get 0 2 ops=3 bytes=184
rma get 1 0 ops=3 bytes=184
rma get 2 1 ops=3 bytes=184
rma put 0 0 ops=1 bytes=8
rma put 0 1 ops=3 bytes=168
rma put 1 0 ops=1 bytes=8
rma put 1 2 ops=3 bytes=168
rma put 2 0 ops=4 bytes=176" "SHMEM: the exact matrices"
else
    skip_part oshrun
fi

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
# a truncated event file: the intact part (here none of the location's one chunk) is read,
# the rest of the trace whole, and the damage named (otf2_read_guard.c)
cp -r exp cut
n=$(truncate_unmarked cut/traces/1.evt 200) || fail "truncate cut/traces/1.evt"
rc=0
"$DUMP" cut/traces.otf2 >cut.out 2>cut.err || rc=$?
expect_eq "$rc" 0 "truncated event file: exit status"
expect_grep "cut/traces/1.evt: truncated in chunk 1: $n of its 1048576 bytes" cut.err \
    "truncated event file: the file and what is missing"
expect_eq "$(sed -n 's/^location index=1 .* events=\([0-9]*\) .*/\1/p' cut.out)" 0 \
    "truncated event file: no events of the cut location"
expect_eq "$(sed -n 's/^location index=0 .* events=\([0-9]*\) .*/\1/p' cut.out)" \
    "$(sed -n 's/^location index=0 .* events=\([0-9]*\) .*/\1/p' dump)" \
    "truncated event file: all events of the other location"
cp -r exp cutdef
truncate -s 100 cutdef/traces.def
bad cutdef/traces.otf2 "global definitions are unreadable" "truncated definitions"
: >notatrace
bad notatrace "not an OTF2 archive" "empty file"
done_ok
