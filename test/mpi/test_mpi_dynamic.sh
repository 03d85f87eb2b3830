#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_dynamic.sh: the clustering of dynamic regions with 2 MPI ranks, by both Cube
# writers (docs/profile-clustering.md). Score-P clusters in every process on its own and
# writes one mapping: per iteration, each rank's cluster cnode (0 where the rank has no such
# iteration). test/programs/user_dynamic.c with -DWITH_MPI: rank 0 makes 30 iterations, rank
# 1 27; f iterations (k % 3 != 0) and g iterations (k % 3 == 0) become one cluster each
# (mode subtree, 2 clusters). Read back by test/tools/cube_clusters.py and scorep-cube-dump.
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs p2p_modes_scorep
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
CLUSTERS="$top_srcdir/test/tools/cube_clusters.py"
scorep_cc --user --nocompiler mpicc -DWITH_MPI -o user_dynamic_mpi \
    "$top_srcdir/test/programs/user_dynamic.c"

for writer in gather parallel; do
    status=0
    env SCOREP_PROFILING_CUBE_WRITER=$writer SCOREP_PROFILING_CLUSTER_COUNT=2 \
        SCOREP_EXPERIMENT_DIRECTORY="$work/$writer" \
        timeout 120 mpirun --oversubscribe --allow-run-as-root -np 2 ./user_dynamic_mpi 30 \
        >$writer.out 2>$writer.err || status=$?
    expect_eq "$status" 0 "$writer: runs"
    python3 "$CLUSTERS" "$work/$writer/profile.cubex" >$writer.clr ||
        fail "$writer: cube_clusters.py"
    # the mapping's call paths (RANK0,RANK1 after the 4 lines of attributes) below the
    # program root, as lib.sh's profile_* functions take them
    awk -F'\t' -v OFS='\t' -v r="$(profile_root "$work/$writer")/" 'NR > 4 {
        n = split($2, p, ","); $2 = ""
        for (i = 1; i <= n; i++) {
            if (index(p[i], r) == 1) p[i] = substr(p[i], length(r) + 1)
            $2 = $2 (i > 1 ? "," : "") p[i]
        } } { print }' $writer.clr >$writer.cl
    expect_eq "$(sed -n 1,4p $writer.cl | tr '\n' ' ')" \
        "clustering ON root user_dynamic_mpi/iteration processes 2 iterations 30 " "$writer: cluster attributes"
    bad=""
    for k in $(seq 1 30); do
        line=$(awk -F'\t' -v i=$((k - 1)) '$1 == i { print $2 }' $writer.cl)
        r0=${line%,*} r1=${line#*,}
        # the cluster of iteration 1 (f) and 3 (g) on each rank
        [ $k = 1 ] && f0=$r0 f1=$r1
        [ $k = 3 ] && g0=$r0 g1=$r1
        if [ $k -gt 3 ]; then
            case $((k % 3)) in
            0) w0=$g0 w1=$g1 ;;
            *) w0=$f0 w1=$f1 ;;
            esac
            [ $k -gt 27 ] && w1=-
            [ "$r0,$r1" = "$w0,$w1" ] || bad="$bad $k:$r0,$r1"
        fi
    done
    expect_eq "$bad" "" "$writer: every iteration of each rank mapped to its kind's cluster"
    expect_eq "$([ "$f0" != "$g0" ] && [ "$f1" != "$g1" ] && echo differ)" differ \
        "$writer: f and g clusters differ on each rank"
    # visits per location (rank 0: location 0, rank 1: location 1)
    expect_eq "$(profile_values "$work/$writer" "$f0" visits | awk '$1 == 0 { print $2 }')" 20 \
        "$writer: rank 0's f cluster holds its 20 f iterations"
    expect_eq "$(profile_values "$work/$writer" "$f1" visits | awk '$1 == 1 { print $2 }')" 18 \
        "$writer: rank 1's f cluster holds its 18 f iterations"
    expect_eq "$(profile_values "$work/$writer" "$g1/g" visits | awk '$1 == 1 { print $2 }')" 9 \
        "$writer: rank 1's g cluster: 9 calls of g"
    expect_eq "$(profile_values "$work/$writer" "$f0/f" visits | awk '$1 == 0 { print $2 }')" 70 \
        "$writer: rank 0's f cluster: f 10 * 2 + 10 * 5"
done
