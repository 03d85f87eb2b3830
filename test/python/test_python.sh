#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_python.sh: Python calls measured by the module scorep (scorep-python script.py, issue
# #30): calls.py's exact visits (inner 1,000 under outer 10, Shape.area 5, the generator once
# per resumption), the C function of a scorep-cc-built library called through ctypes under
# its Python caller, an exception that leaves no region open (the trace nests), a thread on
# its own location; SCOREP_FILTERING_FILE by "module:function"; throttling of a tiny Python
# function as of a compiled one; --cuda's preload; the command line refusing bad options.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/python/lib_python.sh"

c_library cwork
lib="$work/libcwork.so"

# --- the call tree (profile and trace of one run) ---
run_py m SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=m "$SCOREP_PYTHON" \
    "$PYPROGS/calls.py" "$lib"
expect_grep '^squares 14$' m.out "the script ran (its output)"
M='__main__:<module>'
expect_eq "$(profile_sum m "$M" visits)" 1 "the script's code: one region __main__:<module>"
expect_eq "$(profile_sum m "$M/__main__:outer" visits)" 10 "outer: 10 visits"
expect_eq "$(profile_sum m "$M/__main__:outer/__main__:inner" visits)" 1000 \
    "inner: 1,000 visits under outer"
expect_eq "$(profile_sum m "$M/__main__.Shape:area" visits)" 5 \
    "the method area: 5 visits, named module.Class:function"
expect_eq "$(profile_sum m "$M/__main__.Shape:__init__" visits)" 1 "Shape's constructor: 1 visit"
# a generator is entered at each resumption and left at each yield (as under Score-P's
# bindings): 4 values and the final return
expect_eq "$(profile_sum m "$M/__main__:squares" visits)" 5 "the generator: 5 visits (4 yields + the end)"
expect_eq "$(profile_sum m "$M/__main__:call_c/cwork" visits)" 3 \
    "the C function: 3 visits under its Python caller call_c"
expect_eq "$(profile_sum m "$M/__main__:catcher/__main__:boom" visits)" 1 \
    "the function an exception left: under its caller"
expect_eq "$(profile_values m "THREADS/threading.Thread:run/__main__:worker/__main__:call_c/cwork" visits)" \
    "1 3" "the thread: its own location (1), its Python calls and the C function under them"
expect_eq "$(profile_sum m "$M/__main__:catcher" visits 0)" 1 "catcher: 1 visit"
# the region's definition: file and first line of the function
run_to m.defs trace_defs m
line=$(grep -n '^def outer' "$PYPROGS/calls.py" | cut -d: -f1)
expect_grep "Name: \"__main__:outer\".*Paradigm: USER.*File: \"$PYPROGS/calls.py\" <[0-9]*>, Begin: $line," \
    m.defs "outer's region: a user region, calls.py and the line of its def ($line)"
expect_eq "$(trace_count m ENTER 0 __main__:inner)" 1000 "the trace: 1,000 enters of inner"
expect_eq "$(trace_count m ENTER 0 cwork)" 3 "the trace: 3 enters of cwork on the main thread"
expect_eq "$(trace_count m ENTER 0 __main__:rec)" 301 "the trace: the recursion's 301 enters"
expect_eq "$(trace_count m LEAVE 0 __main__:rec)" 301 "the trace: the recursion's 301 leaves"
expect_eq "$(trace_check_nesting m)" 0 "the trace nests: the exception left no region open"
expect_eq "$(trace_check_order m)" 0 "the trace's events are in order"
# nothing of the measurement's own Python code (module scorep) is recorded
expect_eq "$(profile_paths m | grep -c 'scorep\.\|scorep:')" 0 "no region of the module scorep"

# --- filter: Python regions by "module:function" ---
cat >filter.txt <<'F'
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE __main__:inner __main__.Shape:*
SCOREP_REGION_NAMES_END
SCOREP_FILE_NAMES_BEGIN
  EXCLUDE */threading.py
SCOREP_FILE_NAMES_END
F
run_py f SCOREP_FILTERING_FILE=filter.txt SCOREP_EXPERIMENT_DIRECTORY=f "$SCOREP_PYTHON" \
    "$PYPROGS/calls.py" "$lib"
expect_eq "$(profile_sum f "$M/__main__:outer" visits)" 10 "filtered run: outer still 10 visits"
expect_eq "$(profile_paths f | grep -c '__main__:inner\|__main__\.Shape')" 0 \
    "filtered run: no inner, no method of Shape"
expect_eq "$(profile_sum f "$M/__main__:call_c/cwork" visits)" 3 "filtered run: cwork under call_c"
expect_eq "$(profile_values f "THREADS/__main__:worker/__main__:call_c/cwork" visits)" "1 3" \
    "filtered run: threading.py's functions gone by their file, the thread's worker first"

# --- throttling: after 100 short visits inner is only counted, as a compiled function ---
run_py t SCOREP_THROTTLING=true SCOREP_THROTTLING_CALLS=100 SCOREP_THROTTLING_MEAN=1ms \
    SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=t "$SCOREP_PYTHON" "$PYPROGS/calls.py" "$lib"
expect_eq "$(profile_sum t "$M/__main__:outer/__main__:inner" visits)" 1000 \
    "throttled: inner's visits stay exact"
expect_eq "$(profile_sum t "$M/__main__:outer/__main__:inner/scorep_throttled_from_visit=101" visits)" \
    900 "throttled: the 900 visits after the 100th only counted"
expect_eq "$(trace_count t ENTER 0 __main__:inner)" 100 "throttled: 100 enters of inner traced"
expect_eq "$(trace_check_nesting t)" 0 "throttled: the trace nests"

# --- --cuda: the CUDA adapter preloaded after the runtime (CUDA kernels of PyTorch, CuPy under
# their Python callers; GPU runs are test/cuda's, this machine may have no GPU) ---
if [ -f "$top_builddir/.libs/libscorep-rt-cuda.so" ]; then
    run_py cu SCOREP_EXPERIMENT_DIRECTORY=cu "$SCOREP_PYTHON" --cuda --verbose \
        "$PYPROGS/calls.py" "$lib"
    expect_grep "^scorep: LD_PRELOAD=$top_builddir/.libs/libscorep-rt.so:$top_builddir/.libs/libscorep-rt-cuda.so\$" \
        cu.err "--cuda: the CUDA adapter preloaded after the runtime"
    expect_eq "$(profile_sum cu "$M/__main__:outer/__main__:inner" visits)" 1000 "--cuda: inner 1,000 visits"
else
    skip_part_here "--cuda" "scorep-rt was built without the CUDA adapter (no CUDA toolkit)"
fi

# --- Score-P's own Python bindings (a checkout of score-p/scorep_binding_python named by
# PY_SCOREP_BINDINGS_SRC; never part of this repository), built against this build's
# scorep-config and run on the same script: the same visits ---
if [ -n "${PY_SCOREP_BINDINGS_SRC:-}" ] && [ -f "$PY_SCOREP_BINDINGS_SRC/setup.py" ]; then
    mkdir bin
    ln -s "$top_builddir/scorep-cc" bin/scorep
    ln -s "$top_builddir/scorep-config" bin/scorep-config
    ln -s "$top_builddir/scorep-info" bin/scorep-info
    cp -R "$PY_SCOREP_BINDINGS_SRC" bindings
    (cd bindings && PATH="$work/bin:$PATH" "$PY" setup.py build >../bindings.out 2>&1) ||
        fail "Score-P's bindings do not build against scorep-config: $(tail -n 20 bindings.out)"
    run_py sp PATH="$work/bin:$PATH" PYTHONPATH="$(echo "$work"/bindings/build/lib.*)" \
        SCOREP_EXPERIMENT_DIRECTORY=sp "$PY" -m scorep "$PYPROGS/calls.py" "$lib"
    for p in "$M/__main__:outer/__main__:inner" "$M/__main__:outer" "$M/__main__.Shape:area" \
        "$M/__main__:squares" "$M/__main__:call_c/cwork" "$M/__main__:catcher/__main__:boom"; do
        expect_eq "$(profile_sum sp "$p" visits)" "$(profile_sum m "$p" visits)" \
            "Score-P's bindings: the visits of $p as with scorep-rt's module"
    done
else
    skip_part_here "Score-P's Python bindings" "no checkout named by PY_SCOREP_BINDINGS_SRC (not a package)"
fi

# --- the command line ---
status=0
"$SCOREP_PYTHON" --bogus "$PYPROGS/calls.py" >bad.out 2>&1 || status=$?
expect_eq "$status" 1 "an unknown option: status 1"
expect_eq "$(cat bad.out)" "scorep: unknown option '--bogus'; see python3 -m scorep --help" \
    "an unknown option: the message"
status=0
"$SCOREP_PYTHON" --mpp=mpi >none.out 2>&1 || status=$?
expect_eq "$status:$(cat none.out)" "1:scorep: no script given; see python3 -m scorep --help" \
    "no script: status 1 and the message"
expect_eq "$("$top_builddir/scorep-config" --python-path)" "$("$top_builddir/scorep-config" --prefix)/lib/scorep-rt/python" \
    "scorep-config --python-path: the module's folder under the prefix"
done_ok
