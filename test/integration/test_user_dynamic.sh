#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_user_dynamic.sh: dynamic user regions in the profile (docs/profile-clustering.md).
# test/programs/user_dynamic.c: 30 iterations of the dynamic region "iteration"; iteration k
# calls f twice (k % 3 == 1), f five times (k % 3 == 2) or g once (k % 3 == 0).
# Clustering off: one call path "instance=k" per iteration with the designed visits; the
# trace has the plain enters and leaves. Clustering on: the instances merged into clusters
# whose members follow from the design (structure decides: mode subtree puts the f and the g
# iterations apart, subtree_visits also the two f kinds), and the Cube attributes that tell
# which iteration went to which cluster, read by test/tools/cube_clusters.py.
. "$top_srcdir/test/integration/lib.sh"

CLUSTERS="$top_srcdir/test/tools/cube_clusters.py"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
scorep_cc --user --nocompiler gcc -O1 -o user_dynamic "$PROGRAMS/user_dynamic.c"

# --- clustering off: an instance per iteration ---
run_app off env SCOREP_PROFILING_ENABLE_CLUSTERING=false SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=off ./user_dynamic 30
expect_eq "$status" 0 "off: exit status"
expect_eq "$(cat off.err)" "" "off: nothing on stderr (the clustering variables are known)"
expect_eq "$(profile_paths off | grep -c '^iteration/instance=[0-9]*$')" 30 \
    "off: 30 instance call paths"
# a parameter node counts the visits made with its value, as in Score-P (test_user.sh: n=0)
expect_eq "$(profile_sum off iteration visits)" 30 "off: 30 visits of iteration"
bad=""
for k in $(seq 1 30); do
    case $((k % 3)) in
    1) f=2 g=0 ;;
    2) f=5 g=0 ;;
    0) f=0 g=1 ;;
    esac
    p=iteration/instance=$k
    [ "$(profile_sum off "$p" visits)" = 1 ] || bad="$bad $p"
    [ "$(profile_sum off "$p/f" visits)" = "$f" ] || bad="$bad $p/f"
    [ "$(profile_sum off "$p/g" visits)" = "$g" ] || bad="$bad $p/g"
done
expect_eq "$bad" "" "off: every instance has 1 visit and its designed calls of f and g"
expect_eq "$(python3 "$CLUSTERS" off/profile.cubex)" "clustering OFF" \
    "off: CLUSTERING OFF, as Score-P writes it"
# the trace: the dynamic region's 30 enters, no instance parameter (Score-P's trace has none)
cp "$(trace_file off)" off.trace.txt
expect_eq "$(grep -c '^ENTER .*"iteration"' off.trace.txt)" 30 "off: 30 enters in the trace"
expect_eq "$(grep -c 'PARAMETER' off.trace.txt)" 0 "off: no parameter events in the trace"

# --- clustering on (default mode subtree), 2 clusters ---
# f iterations (k % 3 != 0) and g iterations (k % 3 == 0) differ in structure and are never
# merged; with 2 clusters allowed each kind becomes one cluster.
run_app sub env SCOREP_PROFILING_CLUSTER_COUNT=2 SCOREP_EXPERIMENT_DIRECTORY=sub ./user_dynamic 30
expect_eq "$status" 0 "subtree: exit status"
expect_eq "$(cat sub.err)" "" "subtree: nothing on stderr"
# clusters EXPDIR: cube_clusters.py's output, the call paths of its mapping (after the 4 lines
# of attributes) below the program root, as lib.sh's profile_* functions take them
clusters()
{
    python3 "$CLUSTERS" "$1/profile.cubex" >"$1.clr" || fail "cube_clusters.py $1"
    awk -F'\t' -v OFS='\t' -v r="$(profile_root "$1")/" \
        'NR > 4 && index($2, r) == 1 { $2 = substr($2, length(r) + 1) } { print }' "$1.clr"
}
clusters sub >sub.cl
expect_eq "$(sed -n 1,4p sub.cl | tr '\n' ' ')" \
    "clustering ON root user_dynamic/iteration processes 1 iterations 30 " \
    "subtree: cluster attributes (the clustered call path below the program root)"
expect_eq "$(profile_paths sub | grep -c '^iteration/instance=[0-9]*$')" 2 "subtree: 2 clusters"
fcl=$(awk -F'\t' '$1 == 0 { print $2 }' sub.cl) # iteration 1 calls f
gcl=$(awk -F'\t' '$1 == 2 { print $2 }' sub.cl) # iteration 3 calls g
bad=""
for k in $(seq 1 30); do
    want=$fcl
    [ $((k % 3)) = 0 ] && want=$gcl
    [ "$(awk -F'\t' -v i=$((k - 1)) '$1 == i { print $2 }' sub.cl)" = "$want" ] || bad="$bad $k"
done
expect_eq "$bad" "" "subtree: every iteration mapped to its kind's cluster"
expect_eq "$([ "$fcl" != "$gcl" ] && echo differ)" differ "subtree: two distinct clusters"
expect_eq "$(profile_sum sub "$fcl" visits)" 20 "subtree: the f cluster holds 20 iterations"
expect_eq "$(profile_sum sub "$fcl/f" visits)" 70 "subtree: f visits 10 * 2 + 10 * 5"
expect_eq "$(profile_sum sub "$gcl" visits)" 10 "subtree: the g cluster holds 10 iterations"
expect_eq "$(profile_sum sub "$gcl/g" visits)" 10 "subtree: g visits 10"
expect_eq "$(profile_paths sub | grep -c "^$gcl/f")" 0 "subtree: no f in the g cluster"

# --- mode subtree_visits, 3 clusters: the two f kinds apart as well ---
run_app vis env SCOREP_PROFILING_CLUSTERING_MODE=subtree_visits SCOREP_PROFILING_CLUSTER_COUNT=3 \
    SCOREP_EXPERIMENT_DIRECTORY=vis ./user_dynamic 30
expect_eq "$status" 0 "subtree_visits: exit status"
clusters vis >vis.cl
expect_eq "$(profile_paths vis | grep -c '^iteration/instance=[0-9]*$')" 3 \
    "subtree_visits: 3 clusters"
bad=""
for r in 1 2 0; do
    first=$(awk -F'\t' -v i=$((r == 0 ? 2 : r - 1)) '$1 == i { print $2 }' vis.cl)
    for k in $(seq 1 30); do
        [ $((k % 3)) = $r ] || continue
        [ "$(awk -F'\t' -v i=$((k - 1)) '$1 == i { print $2 }' vis.cl)" = "$first" ] ||
            bad="$bad $k"
    done
    case $r in
    1) expect_eq "$(profile_sum vis "$first/f" visits)" 20 "subtree_visits: f twice x 10" ;;
    2) expect_eq "$(profile_sum vis "$first/f" visits)" 50 "subtree_visits: f five times x 10" ;;
    0) expect_eq "$(profile_sum vis "$first/g" visits)" 10 "subtree_visits: g once x 10" ;;
    esac
    expect_eq "$(profile_sum vis "$first" visits)" 10 "subtree_visits: 10 iterations of kind $r"
done
expect_eq "$bad" "" "subtree_visits: every iteration mapped to its kind's cluster"
expect_eq "$(cut -f2 vis.cl | sed 1,4d | sort -u | wc -l | tr -d ' ')" 3 \
    "subtree_visits: the mapping names 3 clusters"

# --- fewer clusters allowed than structures: Score-P raises the count (3, not 2) ---
run_app raise env SCOREP_PROFILING_CLUSTERING_MODE=2 SCOREP_PROFILING_CLUSTER_COUNT=2 \
    SCOREP_EXPERIMENT_DIRECTORY=raise ./user_dynamic 30
expect_eq "$status" 0 "raised count: exit status"
expect_eq "$(profile_paths raise | grep -c '^iteration/instance=[0-9]*$')" 3 \
    "raised count: 3 clusters for 3 structures"

# --- modes none/0 and mpi/3 (no MPI here): every iteration is structurally equal to every
# other, so with 1 cluster allowed all 30 become one ---
for mode in none 3; do
    run_app one$mode env SCOREP_PROFILING_CLUSTERING_MODE=$mode SCOREP_PROFILING_CLUSTER_COUNT=1 \
        SCOREP_EXPERIMENT_DIRECTORY=one$mode ./user_dynamic 30
    expect_eq "$status" 0 "mode $mode: exit status"
    expect_eq "$(profile_paths one$mode | grep '^iteration/' | tr '\n' ' ')" \
        "iteration/instance=1 iteration/instance=1/f iteration/instance=1/g " \
        "mode $mode, 1 cluster: one instance call path with f and g"
    expect_eq "$(profile_sum one$mode iteration/instance=1 visits)" 30 "mode $mode: 30 iterations"
    expect_eq "$(profile_sum one$mode iteration/instance=1/f visits)" 70 "mode $mode: f visits"
    expect_eq "$(profile_sum one$mode iteration/instance=1/g visits)" 10 "mode $mode: g visits"
    clusters one$mode >one$mode.cl
    expect_eq "$(sed 1,4d one$mode.cl | cut -f2 | sort -u)" \
        iteration/instance=1 "mode $mode: every iteration mapped to the one cluster"
done

# --- many iterations: the profile stays at the cluster count ---
run_app many env SCOREP_EXPERIMENT_DIRECTORY=many ./user_dynamic 3000
expect_eq "$status" 0 "3000 iterations: exit status"
expect_eq "$(profile_paths many | grep -c '^iteration/instance=[0-9]*$')" 64 \
    "3000 iterations: 64 clusters (the default count)"
expect_eq "$(profile_sum many iteration visits)" 3000 "3000 iterations: all visits kept"
expect_eq "$(profile_dump many -m visits | awk -F'\t' '$2 ~ /^iteration\/instance=[0-9]*$/ { split($4, kv, "="); s += kv[2] } END { print s }')" \
    3000 "3000 iterations: the clusters' visits add up to the iterations"
expect_eq "$(profile_dump many -m visits | awk -F'\t' '$2 ~ /^iteration\/instance=[0-9]*\/f$/ { split($4, kv, "="); s += kv[2] } END { print s }')" \
    7000 "3000 iterations: f visits 1000 * 2 + 1000 * 5 over the clusters"
expect_eq "$(python3 "$CLUSTERS" many/profile.cubex | sed -n 4p)" "iterations 3000" \
    "3000 iterations: the mapping covers every iteration"

# --- the clustered region can be named; a name that matches nothing clusters nothing ---
run_app named env SCOREP_PROFILING_CLUSTERED_REGION=nothing SCOREP_EXPERIMENT_DIRECTORY=named \
    ./user_dynamic 30
expect_eq "$status" 0 "unmatched region name: exit status"
expect_eq "$(profile_paths named | grep -c '^iteration/instance=[0-9]*$')" 30 \
    "unmatched region name: 30 instances, not clustered"
expect_eq "$(python3 "$CLUSTERS" named/profile.cubex)" "clustering OFF" \
    "unmatched region name: CLUSTERING OFF"
