#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_omp_nested_forkpath.sh: a pooled OpenMP thread that visits the outer parallel region
# once and later runs in an inner team that the master forks from that region
# (test/omp/nested_forkpath.c, LLVM's libomp): as in Score-P, the worker's inner team is below
# the fork's call path, which gets its time but no visit, the call path of the thread's own
# short visit. The profile passes profile_check (whose max_time bound once counted the team's
# 100 ms as the visit's), and the worker's time there is what the trace of the same run says:
# its own visit plus its inner-team visits outside it.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/omp/lib_omp.sh"

scorep_cc clang -g -O0 -fopenmp -o forkpath "$OMP_SRC/nested_forkpath.c"
run_app fp env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=fp ./forkpath
expect_eq "$status:$(cat fp.err)" "0:" "exit status, nothing on stderr"
expect_eq "$(cat fp.out)" "inner members 4" "program output"
outer=$(line nested_forkpath outer)
inner=$(line nested_forkpath inner)
"$CUBE_DUMP" -m visits fp/profile.cubex >visits.txt
"$CUBE_DUMP" -i -m time fp/profile.cubex >time.txt
"$CUBE_DUMP" -m max_time fp/profile.cubex >max.txt
# value FILE PATH_SUFFIX LOCATION: the value of the call path ending in PATH_SUFFIX
value()
{
    awk -F'\t' -v p="$2" -v l="$3" 'substr($2, length($2) - length(p) + 1) == p && $3 == l {
        sub(/^[a-z_]*=/, "", $4); print $4 }' "$1"
}
op="/main/!\$omp parallel @nested_forkpath.c:$outer"
ip="$op/!\$omp parallel @nested_forkpath.c:$inner"
"$CUBE_DUMP" --system fp/profile.cubex >system.txt
expect_eq "$(wc -l <system.txt | tr -d ' ')" 2 "two locations"
expect_eq "$(value visits.txt "$op" 1)" 1 "the worker's own visit of the outer region"
expect_eq "$(value visits.txt "$ip" 1)" 2 "the worker's inner-region visits: its own team's and the master's"
# the precondition: the worker's time at the outer region exceeds its one visit's max_time
# (so that the old bound, mean time per visit <= max_time, is broken); by twice, so that the
# check means something (the visit is a fork of one thread, the inner team waits 100 ms)
t=$(value time.txt "$op" 1)
expect_ge "$t" 0.099 "the worker's time at the outer region (the master's inner team's 100 ms)"
expect_ge "$t" "$(awk -v m="$(value max.txt "$op" 1)" 'BEGIN { print 2 * m }')" \
    "that time against 2 x its visit's max_time"
# from the trace: location 1's outer visit and its inner visits outside an outer one
otf2-print -G fp/traces.otf2 >defs.txt || fail "otf2-print -G"
otf2-print fp/traces.otf2 >events.txt || fail "otf2-print"
tps=$(sed -n 's/.*Ticks per Seconds: \([0-9]*\).*/\1/p' defs.txt)
expect_ge "$tps" 1 "the trace's clock resolution"
want=$(awk -v w="$(loc_id 0 1)" -v tps="$tps" \
    -v o="!\$omp parallel @nested_forkpath.c:$outer" -v i="!\$omp parallel @nested_forkpath.c:$inner" '
    ($1 == "ENTER" || $1 == "LEAVE") && $2 == w {
        r = $0; sub(/^[^"]*"/, "", r); sub(/".*/, "", r)
        if ($1 == "ENTER") { n++; reg[n] = r; ts[n] = $3; if (r == o) in_o++; next }
        if (reg[n] != r) { print "unbalanced"; exit 1 }
        if (r == o) { in_o--; sum += $3 - ts[n] }
        else if (r == i && in_o == 0) sum += $3 - ts[n]
        n--
    }
    END { printf "%.9f\n", sum / tps }' events.txt)
expect_ge "$want" 0.099 "the trace's sum (precondition)"
expect_eq "$(awk -v a="$t" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; print (d <= 1e-6 * b + 2e-9) }')" 1 \
    "the worker's outer-region time $t = its visit plus its inner teams outside it in the trace, $want"
echo "PASS: $checks checks"
