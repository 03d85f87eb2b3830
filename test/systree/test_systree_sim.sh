#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_systree_sim.sh: scorep-systree-sim end to end: every rank's place checked in the
# global tree (--check) for homogeneous, heterogeneous (with forced hash collisions) and
# round-robin jobs, the plain method beside it, its limit, and the refusal of bad arguments.
SIM="$top_builddir/scorep-systree-sim"
failed=0

# field NAME JSON: the value of a number field
field()
{
    printf '%s\n' "$2" | sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"
}

# expect WHAT CONDITION: counts a failure when the shell condition is false
expect()
{
    if eval "$2"; then
        echo "ok: $1"
    else
        echo "FAILED: $1 ($2)"
        failed=$((failed + 1))
    fi
}

out=$("$SIM" --shape 4x2x4x8 --ranks-per-node 16 --threads 2 --check --plain)
echo "$out"
expect "homogeneous: 4096 ranks" '[ "$(field ranks "$out")" = 4096 ]'
expect "homogeneous: places" '[ "$(field checked_ranks "$out")" = 4096 ] && [ "$(field check_failures "$out")" = 0 ]'
expect "homogeneous: 7 records" '[ "$(field sequence_records "$out")" = 7 ]'
expect "homogeneous: at most 1 KiB" '[ "$(field sequence_bytes "$out")" -le 1024 ]'
expect "homogeneous: every node" '[ "$(field tree_nodes "$out")" = 12589 ]'
expect "plain: bigger" '[ "$(field plain_bytes "$out")" -gt 100000 ]'
expect "plain: the same tree" 'printf "%s" "$out" | grep -q "\"plain_same_tree\":true"'

out=$("$SIM" --shape 2x2x8 --layout cyclic --hash-bits 2 --check --plain \
    --hetero 'nodes=16,ranks=4,threads=4;nodes=16,ranks=4,threads=2,gpus=1')
echo "$out"
expect "heterogeneous: places" '[ "$(field checked_ranks "$out")" = 128 ] && [ "$(field check_failures "$out")" = 0 ]'
expect "heterogeneous: collisions resolved" '[ "$(field resplits "$out")" -gt 0 ]'
expect "heterogeneous: 10 records" '[ "$(field sequence_records "$out")" = 10 ]'
expect "heterogeneous: the same tree as plain" 'printf "%s" "$out" | grep -q "\"plain_same_tree\":true"'
expect "heterogeneous: 4 threads or 2 threads + 1 GPU per rank" '[ "$(field locations "$out")" = 448 ]'

out=$("$SIM" --shape 2x4x8 --ranks-per-node 8 --placement round-robin --check)
echo "$out"
expect "round-robin: places" '[ "$(field check_failures "$out")" = 0 ]'
expect "round-robin: 6 records" '[ "$(field sequence_records "$out")" = 6 ]'

out=$("$SIM" --shape 8x8 --ranks-per-node 4 --plain --plain-rank-limit 10K)
expect "plain: stops at its limit" 'printf "%s" "$out" | grep -q "\"plain_error\":\"stopped in merge round"'

out=$("$SIM" --shape 3 --hetero 'nodes=2,ranks=1' 2>/dev/null)
status=$?
expect "bad arguments refused" '[ $status = 2 ] && printf "%s" "$out" | grep -q "\"error\""'

echo "$failed failed"
[ "$failed" = 0 ]
