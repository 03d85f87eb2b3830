#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_systree_mpi_nodes.sh: 8 MPI ranks placed on 2 "nodes" (SCOREP_NODE_NAME), rank r
# with r % 3 extra threads: the OTF2 and Cube system trees are checked node by node, with
# sequence definitions (the default) and with the plain method, which must agree.
. "$top_srcdir/test/integration/lib.sh"
require_mpi

"$SCOREP_CC" mpicc -O2 -o prog "$PROGRAMS/mpi_threads_nodes.c" -lpthread || fail "build"
# ranks 0-3 on node0001, 4-7 on node0002
cat >onnode <<'SH'
#!/bin/sh
SCOREP_NODE_NAME=$(printf 'node%04d' $((OMPI_COMM_WORLD_RANK / 4 + 1))) exec "$@"
SH
chmod +x onnode

run()
{
    rc=0
    env SCOREP_ENABLE_TRACING=true SCOREP_MACHINE_NAME=testbox SCOREP_EXPERIMENT_DIRECTORY="$1" \
        SCOREP_ENABLE_SYSTEM_TREE_SEQUENCE_DEFINITIONS="$2" \
        timeout 120 mpirun -np 8 ./onnode ./prog >"$1.out" 2>&1 || rc=$?
    expect_eq "$rc" 0 "run with sequence definitions=$2"
}
run seq true
run plain false

# expected tree: location id, machine/node path, process, location name, rank
expected()
{
    for r in 0 1 2 3 4 5 6 7; do
        node=$(printf 'node%04d' $((r / 4 + 1)))
        echo "testbox/$node	MPI Rank $r	Master thread	$r"
        k=1
        while [ $k -le $((r % 3)) ]; do
            echo "testbox/$node	MPI Rank $r	Pthread thread $k	$r"
            k=$((k + 1))
        done
    done
}
expected | sort >want
# Sequence definitions list same-shaped siblings together (docs/system-tree.md): the
# processes of a node are grouped by their number of threads, ranks ascending within.
for e in seq plain; do
    "$CUBE_DUMP" --system "$e/profile.cubex" | cut -f2- >"$e.cube"
    expect_eq "$(sort "$e.cube" | diff want - >/dev/null && echo same)" same \
        "$e: Cube system tree node by node"
    expect_eq "$(cut -f2 "$e.cube" | uniq | tr '\n' ',')" \
        "MPI Rank 0,MPI Rank 3,MPI Rank 1,MPI Rank 2,MPI Rank 4,MPI Rank 7,MPI Rank 5,MPI Rank 6," \
        "$e: process order: grouped by shape"
    expect_eq "$("$CUBE_DUMP" --system "$e/profile.cubex" | cut -f1 | tr '\n' ' ')" \
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 " "$e: Cube location ids in tree order"
    otf2-print -G "$e/traces.otf2" >"$e.defs" 2>"$e.warnings"
    expect_eq "$(cat "$e.warnings")" "" "$e: otf2-print has no warnings"
    expect_eq "$(grep -c '^SYSTEM_TREE_NODE' "$e.defs")" 3 "$e: OTF2 machine + 2 nodes"
    expect_grep 'SYSTEM_TREE_NODE +1 +Name: "node0001"' "$e.defs" "$e: OTF2 node0001"
    expect_grep 'SYSTEM_TREE_NODE +2 +Name: "node0002"' "$e.defs" "$e: OTF2 node0002"
    for r in 0 1 2 3 4 5 6 7; do
        p=$((r / 4 + 1))
        expect_grep "LOCATION_GROUP +[0-9]+ +Name: \"MPI Rank $r\" .*Parent: \"node::node000$p\"" \
            "$e.defs" "$e: rank $r on node000$p"
    done
    expect_eq "$(grep -c '^LOCATION ' "$e.defs")" 15 "$e: 15 locations in OTF2"
    expect_grep "LOCATION +$(loc_id 5 1) +Name: \"Pthread thread 1\" .*Group: \"MPI Rank 5\"" "$e.defs" \
        "$e: rank 5's first thread has id 1 << 32 | 5 (Score-P's)"
    expect_eq "$(profile_sum "$e" main/work visits)" 8 "$e: main/work on every rank"
    expect_eq "$(profile_sum "$e" THREADS/thread_main/work visits)" 7 "$e: threads work (0+1+2+0+1+2+0+1)"
done
expect_eq "$(cmp -s seq.cube plain.cube && echo same)" same "sequence and plain: same Cube tree"
expect_eq "$(diff seq.defs plain.defs | grep -c 'SYSTEM_TREE_NODE\|LOCATION')" 0 \
    "sequence and plain definitions give the same OTF2 system tree"
done_ok
