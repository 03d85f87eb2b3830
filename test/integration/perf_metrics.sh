# SPDX-License-Identifier: BSD-3-Clause
# perf_metrics.sh: sourced after lib.sh by the tests of the perf metric source and of PAPI's
# perf:: events (test_metric_perf.sh, test_metric_papi.sh): the checks both make, among them
# the comparison of main's CPU time with what the program counts itself. POSIX sh.

# stolen_ns: steal + irq + softirq time of all CPUs so far (/proc/stat), in ns: the kernel's
# task-clock runs on its local clock, so it also counts the time the hypervisor steals and
# interrupts take while the thread runs, which CLOCK_THREAD_CPUTIME_ID (the workers' spin)
# leaves out; the upper bounds of the workers' task-clock allow it
stolen_ns()
{
    awk -v hz="$(getconf CLK_TCK)" '$1 == "cpu" { printf "%.0f\n", ($7 + $8 + $9) * 1e9 / hz }' /proc/stat
}

# metric_decreases EVENTS: how often a metric's value in the trace (trace_events output)
# is lower than its previous one (0: counters never go back); a record of several values is
# read one value at a time (lib.sh metric_values)
metric_decreases()
{
    metric_values <"$1" | awk '$1 == "METRIC" { m = $0; sub(/.*\("/, "", m); sub(/".*/, "", m)
        v = $NF; sub(/\)$/, "", v); if ((m in last) && v + 0 < last[m] + 0) bad++; last[m] = v }
        END { print bad + 0 }'
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
            _d=$(metric_values <"$_ev" | awk -v m="$_m" -v r="$_r" '
                $1 == "METRIC" && index($0, "(\"" m "\"") { v = $NF; sub(/\)$/, "", v) }
                $1 == "ENTER" && index($0, "\"" r "\"") { a = v }
                $1 == "LEAVE" && index($0, "\"" r "\"") { print v - a }')
            expect_eq "$_d" "$(profile_isum "$_e" "main/$_r" "$_m")" \
                "$_label: $_m of $_r: trace difference = profile"
        done
    done
}

# own_clock EXPDIR CLOCK WINDOW: what the program counted itself (METRICS_OWN_CLOCKS=1,
# EXPDIR.out): CLOCK (task-clock or cpu-clock) over WINDOW (main or process), in ns;
# empty where its line is missing or says the clock is unavailable
own_clock()
{
    awk -v c="$2" -v w="$3" '$1 == "own" && $2 == c && $3 == w && $4 ~ /^[0-9]+$/ { print $4 }' "$1.out"
}

# expect_cpu_time LABEL EXPDIR METRIC CLOCK: METRIC of main (EXPDIR's profile), the thread's
# CPU time on the kernel's CLOCK (task-clock or cpu-clock), lies between what the program
# (metrics.c run with METRICS_OWN_CLOCKS=1) counted itself on the same clock of the same
# thread over main's body (inside the runtime's reads at main's enter and leave) and from
# before main to its exit handler (outside them). The kernel counts the program's events as
# it counts the runtime's, so the comparison does not depend on the load (time the
# hypervisor steals and interrupts are in all of them), and it runs once.
# task-clock: every task-clock event of a thread reads the one clock of the thread's perf
# context, so the bounds are exact.
# cpu-clock: each event is stopped and started on its own clock reading when the thread is
# switched out and in, one after the other, so two cpu-clock events of a thread drift apart
# at every switch by the kernel's work between them (about 1 us per switch; ms in a loaded
# run): the bounds are widened by twice the larger drift of the program's own cpu-clock
# from its own task-clock over the same two windows, measured in the same run.
expect_cpu_time()
{
    _l=$1 _e=$2 _m=$3 _c=$4
    _v=$(profile_isum "$_e" main "$_m")
    _in=$(own_clock "$_e" task-clock main)
    _out=$(own_clock "$_e" task-clock process)
    _cin=$(own_clock "$_e" cpu-clock main)
    _cout=$(own_clock "$_e" cpu-clock process)
    if [ -z "$_in" ] || [ -z "$_out" ] || [ -z "$_cin" ] || [ -z "$_cout" ]; then
        fail "$_l: the program did not count its own clocks (METRICS_OWN_CLOCKS=1; $_e.out: $(grep '^own ' "$_e.out" | tr '\n' ' '))"
    fi
    _tol=0
    if [ "$_c" = cpu-clock ]; then
        _tol=$(awk -v a="$_in" -v b="$_cin" -v c="$_out" -v d="$_cout" 'BEGIN {
            x = a - b; if (x < 0) x = -x; y = c - d; if (y < 0) y = -y
            printf "%.0f\n", 2 * (x > y ? x : y) }')
        _in=$_cin _out=$_cout
    fi
    expect_ge "$_v" $((_in - _tol)) \
        "$_l: $_m of main >= the program's own $_c over main's body (- $_tol ns)"
    expect_ge $((_out + _tol)) "$_v" \
        "$_l: $_m of main <= the program's own $_c from before main to its exit (+ $_tol ns)"
}

# own_faults EXPDIR KIND REGION WINDOW: what the program counted itself (METRICS_OWN_CLOCKS=1,
# EXPDIR.out): page faults of KIND (page-faults, minor-faults, major-faults) of its main
# thread in REGION (spin or touch) over WINDOW: "body" (inside the runtime's reads at the
# region's enter and leave, user mode only) or "call" (around the call in main, outside both
# reads, user and kernel mode where allowed); empty where the line is missing or says the
# counter is unavailable
own_faults()
{
    awk -v k="$2" -v r="$3" -v w="$4" \
        '$1 == "own" && $2 == k && $3 == r && $4 == w && $5 ~ /^[0-9]+$/ { print $5 }' "$1.out"
}

# expect_faults LABEL EXPDIR METRIC KIND REGION [LOCATION]: METRIC (a fault counter of the
# runtime that counts faults of KIND) of main/REGION lies between what the program counted
# itself on the same kernel counter of the same thread in REGION's body and around its call.
# The runtime's own faults between its two reads (a first touch of its memory, a page of its
# trace buffer, a page of its code) and the kernel's (a page migrated, a NUMA hint) are in
# the runtime's value and in the program's "call" count alike, so the bounds hold on every
# machine and under any load, and still fail when the runtime puts a fault outside its reads
# into the region (touch's pages into spin) or misses one of the body's.
expect_faults()
{
    _l=$1 _e=$2 _m=$3 _k=$4 _r=$5
    _v=$(profile_isum "$_e" "main/$_r" "$_m" ${6:-})
    _b=$(own_faults "$_e" "$_k" "$_r" body)
    _c=$(own_faults "$_e" "$_k" "$_r" call)
    if [ -z "$_b" ] || [ -z "$_c" ]; then
        fail "$_l: the program did not count its own $_k of $_r (METRICS_OWN_CLOCKS=1; $_e.out: $(grep "^own $_k $_r " "$_e.out" | tr '\n' ' '))"
    fi
    expect_ge "$_v" "$_b" "$_l: $_m of $_r >= the program's own $_k in its body ($_b)"
    expect_ge "$_c" "$_v" "$_l: $_m of $_r <= the program's own $_k around its call ($_c)"
}

# expect_spin_body LABEL EXPDIR: spin() of metrics.c writes no new page, so the faults of its
# body (the program's own count) can only be the kernel's refaults of the few pages it
# uses: its code and the program's counter reads (2), its stack (1), TLS (1), the program's
# data (2), the vDSO's text and data (2): at most 8, each once (compaction migrates a page
# and the next access faults; rarely even one in 500 ms; NUMA balancing, which unmaps pages
# again every scan, leaves metrics.c alone: it sets an explicit local memory policy). A
# spin that writes 9 or more new pages fails.
expect_spin_body()
{
    _b=$(own_faults "$2" page-faults spin body)
    [ -n "$_b" ] || fail "$1: the program did not count the page faults of spin's body ($2.out)"
    expect_ge 8 "$_b" "$1: spin writes no new page: its body's own page faults ($_b) <= the 8 pages it uses"
}

# expect_touch_body LABEL EXPDIR PAGES: touch() of metrics.c writes once to each of PAGES
# fresh anonymous pages (no huge pages), one minor fault each: its body's own count of
# page-faults and minor-faults is at least PAGES
expect_touch_body()
{
    for _k in page-faults minor-faults; do
        _b=$(own_faults "$2" $_k touch body)
        [ -n "$_b" ] || fail "$1: the program did not count the $_k of touch's body ($2.out)"
        expect_ge "$_b" "$3" "$1: touch's body: its own $_k >= its $3 fresh pages"
    done
}

# perf_check_allowed: sets perf_ok to 1 where this process may open perf events, to 0 where
# the kernel refuses perf_event_open to it altogether (perf_event_paranoid 3, Debian's
# default for users without CAP_PERFMON or CAP_SYS_ADMIN; the mainline kernel treats 3 as
# 2), asked with the test program's own perf_event_open (metrics.c built without the runtime)
perf_check_allowed()
{
    gcc -O1 -o metrics_probe "$PROGRAMS/metrics.c" -lpthread || fail "gcc failed (metrics_probe)"
    run_to metrics_probe.out env METRICS_OWN_CLOCKS=1 ./metrics_probe 0 0 0 0
    perf_ok=1
    if grep -q -E '^own task-clock main unavailable \(.*(Permission denied|Operation not permitted)\)$' \
        metrics_probe.out; then
        perf_ok=0
    fi
}

# expect_perf_refused LABEL ERRFILE VAR EVENT...: where the kernel refuses perf_event_open
# (perf_ok 0), ERRFILE holds exactly one line per EVENT of VAR (SCOREP_METRIC_PERF or, for
# the fallback of PAPI's perf:: events, SCOREP_METRIC_PAPI) naming it and the reason
expect_perf_refused()
{
    _l=$1 _f=$2 _var=$3
    shift 3
    for _ev in "$@"; do
        expect_eq "$(count_lines "^\[scorep-rt\] warning: $_var: perf event '$_ev' cannot be counted here \(perf_event_open: (Permission denied|Operation not permitted); not permitted: see /proc/sys/kernel/perf_event_paranoid\)" "$_f")" \
            1 "$_l: one line says $_ev is not permitted"
    done
    expect_eq "$(wc -l <"$_f" | tr -d ' ')" $# "$_l: nothing else on stderr"
}
