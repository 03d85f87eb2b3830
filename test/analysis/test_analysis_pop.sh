#!/bin/sh
# test_analysis_pop.sh: the POP efficiencies of scout.cubex (docs/analysis.md): serialisation
# and transfer efficiency, whose product is the communication efficiency, against what pop.c's
# design and its own clock readings give:
# - pipeline (4 ranks, 2 rounds of W = 0.25 s): the ranks work one after the other, the
#   messages are tiny: transfer efficiency 1, serialisation = the longest computation / the
#   runtime (low: about a quarter of the rounds' time);
# - transfer (2 ranks, 20 rounds of 5 ms of work and a 64 MiB MPI_Sendrecv each way): the
#   runtime on an ideal network loses the exchanges' time, which the program measures around
#   each call (per round the shorter of the two ranks' calls: the longer one also waited);
#   transfer efficiency = (runtime - that) / runtime, serialisation = the longest computation
#   / (runtime - that).
# Runtime and computation are the program's own clock readings (before MPI_Init to before
# MPI_Finalize; that less its MPI calls and MPI_Init). Within 5% + 0.02 of the value, in situ
# and post-mortem; the text summary and scorep-report show them.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/analysis/lib_analysis.sh"
analysis_needs pop_scorep

# near WHAT VALUE EXPECTED: VALUE is EXPECTED within 5% + 0.02
near()
{
    _check
    awk -v v="$2" -v e="$3" 'BEGIN { t = 0.05 * e + 0.02; exit !(v >= e - t && v <= e + t) }' ||
        fail "$1: expected $3 (5% + 0.02), got $2"
    echo "ok: $1 = $2 (expected $3)"
}
attr() { $CV "$1" attr "POP $2 efficiency" || fail "no attribute POP $2 efficiency in $1"; }

# run NAME NP ARGS...: measured with the in-situ analysis, then post-mortem on the same trace
run()
{
    name=$1 np=$2
    shift 2
    env SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_ANALYSIS=true \
        SCOREP_EXPERIMENT_DIRECTORY="$work/$name" \
        $MPIRUN -np "$np" "$A/pop_scorep" "$@" >"$name.out" 2>&1 || fail "pop $*: $(cat "$name.out")"
    expect_file "$work/$name/scout.cubex" "$name: the in-situ analysis wrote scout.cubex"
    mv "$work/$name/scout.cubex" "$work/$name/insitu.cubex"
    $MPIRUN -np "$np" "$ANALYZE" "$work/$name" >"$name.an" 2>&1 || fail "scorep-analyze: $(cat "$name.an")"
    expect_file "$work/$name/scout.cubex" "$name: scorep-analyze wrote scout.cubex"
}

# check NAME: the efficiencies of both reports against the program's readings
check()
{
    name=$1
    # runtime, longest computation, and the ideal network's saving X
    set -- $(awk '$1 == "P" && $3 == "total" && $4 > t { t = $4 }
        $1 == "P" && $3 == "comp" && $4 > c { c = $4 }
        $1 == "X" { k = $3; if (!(k in m) || $4 < m[k]) m[k] = $4 }
        END { for (k in m) x += m[k]; printf "%.6f %.6f %.6f", t, c, x }' "$name.out")
    t=$1 c=$2 xfer=$3
    echo "$name: runtime $t s, longest computation $c s, exchanges $xfer s"
    for f in "$work/$name/scout.cubex" "$work/$name/insitu.cubex"; do
        s=$(attr "$f" serialisation) tr=$(attr "$f" transfer) cm=$(attr "$f" communication)
        near "$name transfer efficiency ($f)" "$tr" "$(awk -v t="$t" -v x="$xfer" 'BEGIN { printf "%.4f", (t - x) / t }')"
        near "$name serialisation efficiency ($f)" "$s" "$(awk -v t="$t" -v x="$xfer" -v c="$c" 'BEGIN { printf "%.4f", c / (t - x) }')"
        near "$name communication efficiency ($f)" "$cm" "$(awk -v t="$t" -v c="$c" 'BEGIN { printf "%.4f", c / t }')"
        # serialisation x transfer = communication (the attributes have 4 decimals)
        _check
        awk -v s="$s" -v t="$tr" -v c="$cm" 'BEGIN { d = s * t - c; exit !(d < 0.0003 && d > -0.0003) }' ||
            fail "$name: serialisation $s x transfer $tr != communication $cm ($f)"
    done
}

run pipeline 4 pipeline 0.25 2
check pipeline
# the design's values: the pipeline serialises (about a quarter of the rounds' time is work),
# its tiny messages cost nothing
tr=$(attr "$work/pipeline/scout.cubex" transfer) s=$(attr "$work/pipeline/scout.cubex" serialisation)
_check
awk -v t="$tr" -v s="$s" 'BEGIN { exit !(t >= 0.94 && s <= 0.3) }' ||
    fail "pipeline: transfer $tr (expected about 1), serialisation $s (expected below 0.3)"
expect_grep "POP efficiencies: parallel [0-9.]+% = load balance [0-9.]+% x communication [0-9.]+% \(= serialisation [0-9.]+% x transfer [0-9.]+%\)" \
    pipeline.an "the summary prints serialisation and transfer"

run transfer 2 transfer 0.005 20 64
check transfer
# the check must be able to fail: the exchanges are a good part of the run
_check
awk -v t="$(attr "$work/transfer/scout.cubex" transfer)" 'BEGIN { exit !(t < 0.9) }' ||
    fail "transfer: the 64 MiB exchanges took too little of the run to test the transfer efficiency"

# scorep-report's Wait states section shows them
"$top_builddir/scorep-report" -o report.html "$work/transfer" >report.out 2>&1 ||
    fail "scorep-report: $(cat report.out)"
python3 - report.html >waits.txt <<'PY' || fail "the report's wait-state data: $(cat waits.txt)"
import json, re, sys
s = open(sys.argv[1]).read()
d = json.loads(re.search(r'id="report-data">(.*?)</script>', s, re.S).group(1))["waits"]
print(d["pop_serialisation"], d["pop_transfer"])
PY
expect_eq "$(cat waits.txt)" "$(attr "$work/transfer/scout.cubex" serialisation) $(attr "$work/transfer/scout.cubex" transfer)" \
    "scorep-report carries serialisation and transfer efficiency"

done_ok
