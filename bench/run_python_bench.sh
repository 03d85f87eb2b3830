#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run_python_bench.sh: part of `make bench`: the cost of a Python call under the module scorep
# (issue #30): BENCH_PY_CALLS (default 2,000,000) calls of a tiny function
# (bench/python_tiny.py), wall time of the whole process, plain python3, under an empty C
# profile hook (bench/python_empty_hook.c: Python's own cost of a hook, the floor of both
# tools), `python3 -m cProfile` and scorep-python without and with throttling
# (SCOREP_THROTTLING, on by default: after SCOREP_THROTTLING_CALLS short visits the function
# is only counted), the variants taken in turn, median of BENCH_RUNS (default 3). ns/call:
# (time - plain) / calls.
# Asserts nothing; says whether scorep-python was at most cProfile's time.
#
# Environment: abs_top_builddir, abs_top_srcdir, PYTHON (the interpreter the module is built
# for), BENCH_RUNS, BENCH_PY_CALLS.
set -eu
# shellcheck source=bench/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

py=${PYTHON:-}
[ -n "$py" ] && [ -f "$builddir/python/scorep/_native.so" ] || {
    echo "$bench_name: the Python module scorep is not built (python3-dev): skipped" >&2
    exit 0
}
runs=${BENCH_RUNS:-3}
calls=${BENCH_PY_CALLS:-2000000}
script=$srcdir/bench/python_tiny.py
export SCOREP_PYTHON_PATH="$builddir/python" SCOREP_RUN_LIBDIR="$builddir/.libs"
cd "$tmp"
inc=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
step "the empty hook" ${CC:-gcc} -O2 -shared -fPIC -I"$inc" -o empty_hook.so "$srcdir/bench/python_empty_hook.c"

# wall VARIANT: seconds of one run of the variant
wall() {
    t0=$(date +%s%N)
    case $1 in
    plain) step "plain python3" "$py" "$script" "$calls" ;;
    empty) step "empty hook" env PYTHONPATH="$tmp" "$py" "$script" "$calls" empty ;;
    cprofile) step "python3 -m cProfile" "$py" -m cProfile -o cprofile.out "$script" "$calls" ;;
    scorep) step "scorep-python (no throttling)" env SCOREP_THROTTLING=false \
        SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=true \
        "$builddir/scorep-python" "$script" "$calls" ;;
    throttled) step "scorep-python (throttling)" env SCOREP_THROTTLING=true \
        SCOREP_EXPERIMENT_DIRECTORY="$tmp/exp" SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=true \
        "$builddir/scorep-python" "$script" "$calls" ;;
    esac
    t1=$(date +%s%N)
    echo "$(((t1 - t0) / 1000)) $1" >>times
}

: >times
i=0
while [ "$i" -lt "$runs" ]; do
    for v in plain empty cprofile scorep throttled; do
        wall "$v"
    done
    i=$((i + 1))
done
echo "Python calls ($calls calls of a tiny function, $py; wall time of the process, median of $runs)"
awk -v calls="$calls" -v runs="$runs" '
    { t[$2, ++n[$2]] = $1 }
    function median(v,   k, a, i, j, x) {
        for (i = 1; i <= runs; i++) a[i] = t[v, i]
        for (i = 2; i <= runs; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
        return a[int((runs + 1) / 2)]
    }
    END {
        p = median("plain")
        split("plain empty cprofile scorep throttled", vs, " ")
        names["plain"] = "plain python3"; names["empty"] = "an empty C profile hook"
        names["cprofile"] = "python3 -m cProfile"
        names["scorep"] = "scorep-python"; names["throttled"] = "scorep-python, throttled"
        for (k = 1; k <= 5; k++) {
            m = median(vs[k])
            printf "  %-26s %8.3f s  %6.1f ns/call\n", names[vs[k]], m / 1e6, (m - p) * 1000 / calls
        }
        s = median("scorep"); c = median("cprofile")
        printf "  scorep-python %s cProfile (%.2fx its time)\n", s <= c ? "no slower than" : "SLOWER than", s / c
    }' times
