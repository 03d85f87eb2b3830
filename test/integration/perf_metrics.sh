# perf_metrics.sh: sourced after lib.sh by the tests of the perf metric source and of PAPI's
# perf:: events (test_metric_perf.sh, test_metric_papi.sh): the checks both make, and the one
# repetition of their load-dependent comparison. POSIX sh.

# within10 A B [EXTRA]: 1 when A is within 10 % of B; A may exceed that by EXTRA ns: the
# kernel's task-clock and cpu-clock run on its local clock, so they also count the time the
# hypervisor steals and interrupts take while the thread runs, which CLOCK_*_CPUTIME_ID
# leaves out (rq clock_task)
within10()
{
    awk -v a="$1" -v b="$2" -v x="${3:-0}" 'BEGIN { d = a - b; if (d < 0) d = -d
        print (b > 0 && (d <= 0.1 * b || (a > b && a - b <= 0.1 * b + x))) }'
}

# stolen_ns: steal + irq + softirq time of all CPUs so far (/proc/stat), in ns
stolen_ns()
{
    awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%.0f\n", ($7 + $8 + $9) * 1e9 / hz }' /proc/stat
}

# metric_decreases EVENTS: how often a metric's value in the trace (trace_events output)
# is lower than its previous one (0: counters never go back)
metric_decreases()
{
    awk '$1 == "METRIC" { m = $0; sub(/.*\("/, "", m); sub(/".*/, "", m)
        v = $NF; sub(/\)$/, "", v); if ((m in last) && v + 0 < last[m] + 0) bad++; last[m] = v }
        END { print bad + 0 }' "$1"
}

# expect_leaf_deltas EXPDIR EVENTS LABEL METRIC...: for the leaf regions spin and touch of
# metrics.c (each called once), LEAVE - ENTER of each METRIC in the trace equals the
# profile's inclusive value of main/REGION
expect_leaf_deltas()
{
    _e=$1 _ev=$2 _label=$3
    shift 3
    for _m in "$@"; do
        for _r in spin touch; do
            _d=$(awk -v m="$_m" -v r="$_r" '
                $1 == "METRIC" && index($0, "(\"" m "\"") { v = $NF; sub(/\)$/, "", v) }
                $1 == "ENTER" && index($0, "\"" r "\"") { a = v }
                $1 == "LEAVE" && index($0, "\"" r "\"") { print v - a }' "$_ev")
            expect_eq "$_d" "$(profile_isum "$_e" "main/$_r" "$_m")" \
                "$_label: $_m of $_r: trace difference = profile"
        done
    done
}

# expect_cpu_time LABEL EXPDIR METRIC STOLEN_NS COMMAND...: METRIC of main (EXPDIR's profile)
# lies within 10 % of the CPU time the program printed (EXPDIR.out). COMMAND is the run that
# wrote EXPDIR and EXPDIR.out. This is the only comparison of these tests that depends on
# the machine's load (the kernel's task-clock also counts what the hypervisor and interrupts
# take while the thread runs, which CLOCK_PROCESS_CPUTIME_ID leaves out): when it misses,
# COMMAND runs once more and only this comparison is made again; the content checks of the
# first run stand as they were.
expect_cpu_time()
{
    _l=$1 _e=$2 _m=$3 _st=$4
    shift 4
    _v=$(profile_isum "$_e" main "$_m")
    _cpu=$(sed -n 's/^cpu_ns //p' "$_e.out")
    if [ "$(within10 "$_v" "$_cpu" "$_st")" != 1 ]; then
        echo "note: $_l: $_m of main ($_v ns) is not within 10% of the CPU time ($_cpu ns, + $_st ns stolen); this comparison depends on the load: the run is repeated once for it alone"
        rm -rf "$_e"
        _s0=$(stolen_ns)
        run_app "$_e" "$@"
        _st=$(($(stolen_ns) - _s0))
        expect_eq "$status" 0 "$_l: exit status of the repeated run"
        _v=$(profile_isum "$_e" main "$_m")
        _cpu=$(sed -n 's/^cpu_ns //p' "$_e.out")
    fi
    expect_eq "$(within10 "$_v" "$_cpu" "$_st")" 1 \
        "$_l: $_m of main ($_v ns) within 10% of the program's CPU time ($_cpu ns, + $_st ns stolen)"
}
