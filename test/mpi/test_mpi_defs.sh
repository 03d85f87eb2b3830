#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mpi_defs.sh: the MPI definitions of the trace as independent readers see them.
# intercomm (4 processes): every intercommunicator is one InterComm definition whose
# messages pair up (trace_messages, otf2-print, python3-otf2), names of communicators and
# windows; comm_churn (2 processes, 10000 communicators): groups written once by content;
# otf2-print -G without warnings; the same program unchanged under scorep-run.
# Skipped (77) when the MPI adapter was not built.
. "$top_srcdir/test/integration/lib.sh"

require_mpi_programs intercomm_scorep comm_churn_scorep

# run EXP NP PROGRAM [ARG]: PROGRAM under mpirun with tracing into EXP; status in $status
run()
{
    _exp=$1
    _np=$2
    shift 2
    status=0
    env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="$work/$_exp" \
        SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
        timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$_np" "$@" \
        >"$_exp.out" 2>"$_exp.err" || status=$?
}

# defs EXP KIND: the global definition lines of KIND (GROUP, COMM, INTER_COMM, RMA_WIN)
defs()
{
    otf2-print -G "$work/$1/traces.otf2" 2>/dev/null | grep "^$2 " || true
}

# check_intercomm EXP: the checks of the intercomm program's trace
check_intercomm()
{
    x=$work/$1
    expect_defs_clean "$x" "$1"
    m=$("$MESSAGES" --match "$x/traces.otf2" 2>&1) || fail "$1: messages do not pair: $m"
    expect_eq "$(echo "$m" | sed 's/ late=[0-9]*//')" \
        "sends=50 receives=50 matched=50 unmatched=0 mismatched_size=0 probes=0" "$1: every message paired"
    "$MESSAGES" "$x/traces.otf2" >"$1.raw" 2>"$1.err" || fail "$1: trace_messages failed: $(cat "$1.err")"
    sed 's/ time=[0-9]*//' "$1.raw" | sort >"$1.msgs"
    # tags 11..16 are on intercommunicators: always between an even and an odd world rank
    expect_eq "$(grep -c ' tag=1[1-6] ' "$1.msgs")" 76 "$1: events on intercommunicators"
    expect_eq "$(awk '/ tag=1[1-6] / { split($4, f, "="); split($5, t, "=");
        if (f[2] % 2 == t[2] % 2) n++ } END { print n + 0 }' "$1.msgs")" 0 \
        "$1: peers resolved in the remote group"
    expect_eq "$(grep -c '^ISEND rank=0 comm=[0-9]* from=0 to=1 tag=11 ' "$1.msgs")" 1 \
        "$1: world rank 0 sends to remote rank 0 (world rank 1)"
    expect_eq "$(grep -c '^RECV rank=3 comm=[0-9]* from=2 to=3 tag=11 ' "$1.msgs")" 1 \
        "$1: world rank 3 receives from remote rank 1 (world rank 2)"
    expect_eq "$(defs "$1" INTER_COMM | wc -l)" 7 \
        "$1: 2 intercommunicators, dup, idup, 2 x split, create: one InterComm each"
    expect_eq "$(defs "$1" COMM | wc -l)" 16 \
        "$1: WORLD, 4 x SELF, 2 halves, 2 bridges, merge, 2 named dups, 4 pthread contingents"
    # a communicator comes after the one it derives from (the bridge known to 2 ranks only)
    expect_eq "$(otf2-print -G "$x/traces.otf2" 2>/dev/null | awk '
        /^(COMM|INTER_COMM) / && match($0, /(Parent|Common Communicator): "[^"]*" <[0-9]+>/) {
            r = substr($0, RSTART, RLENGTH); sub(/.*</, "", r); sub(/>/, "", r)
            if (r + 0 >= $2 + 0) n++ } END { print n + 0 }')" 0 "$1: parents defined first"
    expect_eq "$(defs "$1" INTER_COMM | grep -c 'name: "halves" <[0-9]*>, Group A: "" <[0-9]*>, Group B: "" <[0-9]*>, Common Communicator: "MPI_COMM_WORLD"')" 1 \
        "$1: MPI_Comm_set_name on the intercommunicator"
    expect_eq "$(defs "$1" COMM | grep -c 'Name: "partly named"')" 1 "$1: name set by some members"
    expect_eq "$(defs "$1" COMM | grep -c 'Name: "alpha"')" 1 "$1: differing names: first in byte order"
    expect_eq "$(defs "$1" COMM | grep -c 'Name: "beta"')" 0 "$1: the other name is not kept"
    expect_eq "$(defs "$1" RMA_WIN | grep -c 'Name: "window of halves"')" 1 "$1: MPI_Win_set_name"
    expect_eq "$(defs "$1" GROUP | grep -c 'Paradigm: MPI')" 11 \
        "$1: MPI groups: ranks, 2 halves, 4 single ranks, world, merged order, 2 bridges"
    expect_eq "$(otf2-print "$x/traces.otf2" 2>&1 | grep -E '^MPI_I?(SEND|RECV) ' |
        grep -c 'INVALID')" 0 "$1: otf2-print resolves every sender and receiver"
    expect_eq "$("$python3" "$top_srcdir/test/mpi/read_defs.py" "$x/traces.otf2" 2>&1 |
        sed 's/^reader_fix=[01] //')" \
        "inter_comms=7 inter_sends=38 inter_receives=38 paired=38 invalid_peers=0" \
        "$1: python3-otf2 pairs the intercommunicator messages"
}

# python3-otf2 (Debian's python3-otf2) may live in the system python only
python3=$(python3_with_otf2)
[ -n "$python3" ] || fail "no python3 with the otf2 module (Debian package python3-otf2)"

run intercomm.plain 4 "$T/intercomm"
expect_eq "$status" 0 "intercomm runs uninstrumented"
run intercomm 4 "$T/intercomm_scorep"
expect_eq "$status" 0 "intercomm runs measured (link time)"
check_intercomm intercomm
run intercomm.pre 4 "$top_builddir/scorep-run" "$T/intercomm"
expect_eq "$status" 0 "intercomm runs under scorep-run"
check_intercomm intercomm.pre
expect_eq "$(cmp -s intercomm.msgs intercomm.pre.msgs && echo same)" same \
    "link time and scorep-run give the same messages"

# 10000 communicators over the same 2 processes: the groups of MPI are the ranks, the
# world pair and the two MPI_COMM_SELF groups; every communicator keeps its definition
run comm_churn 2 "$T/comm_churn_scorep" 10000
expect_eq "$status" 0 "comm_churn runs measured"
expect_defs_clean "$work/comm_churn" comm_churn
expect_eq "$(defs comm_churn GROUP | grep -c 'Paradigm: MPI')" 4 "comm_churn: MPI groups"
expect_eq "$(defs comm_churn GROUP | wc -l)" 8 "comm_churn: all groups (with pthread and OpenMP)"
expect_eq "$(defs comm_churn COMM | grep -c 'Parent: "MPI_COMM_WORLD"')" 10000 \
    "comm_churn: one definition per communicator"

echo "$checks checks passed"
