#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_filter.sh: run-time filter files (SCOREP_FILTERING_FILE): region-name and file-name
# rules, last match wins, MANGLED names, the filter embedded by scorep-cc --filter and its
# override, the copy in the experiment directory, and a broken filter file.
. "$top_srcdir/test/integration/lib.sh"

scorep_cc gcc -O2 -o calls "$PROGRAMS/calls.c" -lpthread
out_calls="recursion 150
done 1"

# --- REGION_NAMES EXCLUDE leaf ---
cat >noleaf.flt <<'EOF2'
# leave out the leaf
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE leaf
SCOREP_REGION_NAMES_END
EOF2
run_app noleaf env SCOREP_FILTERING_FILE="$work/noleaf.flt" SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=exp_noleaf ./calls
e=exp_noleaf
expect_eq "$status" 3 "exclude leaf: exit status"
expect_eq "$(cat noleaf.out)" "$out_calls" "exclude leaf: output"
expect_eq "$(cat noleaf.err)" "" "exclude leaf: nothing on stderr"
expect_eq "$(profile_paths $e | grep -c leaf)" 0 "exclude leaf: no leaf in the profile"
expect_eq "$(profile_paths $e | grep -v recurse/recurse | tr '\n' ' ')" \
    "THREADS THREADS/thread_main THREADS/thread_main/thread_work main main/pthread_create main/pthread_join main/recurse " \
    "exclude leaf: call paths"
expect_eq "$(profile_sum $e main visits)" 1 "exclude leaf: main visits"
expect_eq "$(profile_paths $e | awk -F/ '$2 == "recurse" { n++; if (NF > m) m = NF } END { print n, m }')" \
    "98 99" "exclude leaf: recursion paths and depth unchanged (depth 100 with the program root)"
expect_eq "$(profile_values $e THREADS/thread_main visits | awk '{ print $2 }' | tr '\n' ' ')" \
    "1 1 1 1 1 1 1 1 " "exclude leaf: thread_main visits"
expect_eq "$(profile_sum $e THREADS/thread_main/thread_work visits)" 8 "exclude leaf: thread_work visits"
expect_eq "$(trace_count $e ENTER 0 leaf)$(trace_count $e LEAVE 0 leaf)" 00 \
    "exclude leaf: no leaf in the trace"
expect_eq "$(trace_count $e ENTER 0)" 168 "exclude leaf: ENTER on location 0 (main + 151 recurse + 8 pthread_create + 8 pthread_join)"
expect_eq "$(trace_count $e ENTER)" $((168 + 8 * 2)) "exclude leaf: ENTER events"
expect_eq "$(trace_count $e LEAVE)" $((168 + 8 * 2)) "exclude leaf: LEAVE events"
expect_eq "$(trace_count $e THREAD_BEGIN)" 8 "exclude leaf: thread events unchanged"
expect_eq "$(trace_check_nesting $e)" 0 "exclude leaf: trace properly nested"
expect_file $e/scorep.filter "exclude leaf: scorep.filter in the experiment directory"
expect_eq "$(cmp -s $e/scorep.filter noleaf.flt && echo same)" same \
    "exclude leaf: scorep.filter is a copy of the filter file"
expect_grep "^SCOREP_FILTERING_FILE='$work/noleaf.flt'\$" $e/scorep.cfg \
    "exclude leaf: SCOREP_FILTERING_FILE in scorep.cfg"
expect_grep 'scorep\.filter' $e/MANIFEST.md "exclude leaf: MANIFEST.md lists scorep.filter"

# --- EXCLUDE * then INCLUDE main thread_*: the last matching rule wins ---
cat >only.flt <<'EOF2'
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE *
  INCLUDE main thread_*
SCOREP_REGION_NAMES_END
EOF2
run_app only env SCOREP_FILTERING_FILE=only.flt SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=exp_only ./calls
expect_eq "$status" 3 "last match wins: exit status"
expect_eq "$(profile_paths exp_only | tr '\n' ' ')" \
    "THREADS THREADS/thread_main THREADS/thread_main/thread_work main main/pthread_create main/pthread_join " \
    "last match wins: call paths"
expect_eq "$(profile_sum exp_only THREADS/thread_main/thread_work visits)" 8 "last match wins: thread_work visits"
# (locations by their numbers in the process, id >> 32: trace ids are local << 32 | rank)
expect_eq "$(trace_summary exp_only | awk '$1 == "ENTER" { print int($2 / 4294967296) ":" $3 }' | sort -n | tr '\n' ' ')" \
    "0:17 1:2 2:2 3:2 4:2 5:2 6:2 7:2 8:2 " "last match wins: ENTER per location"
# The order matters: INCLUDE first, EXCLUDE * last excludes everything.
cat >none.flt <<'EOF2'
SCOREP_REGION_NAMES_BEGIN
  INCLUDE main thread_*
  EXCLUDE *
SCOREP_REGION_NAMES_END
EOF2
run_app none env SCOREP_FILTERING_FILE=none.flt SCOREP_ENABLE_TRACING=true SCOREP_VERBOSE=true \
    SCOREP_EXPERIMENT_DIRECTORY=exp_none ./calls
expect_eq "$status" 3 "exclude * last: exit status"
expect_eq "$(cat none.out)" "$out_calls" "exclude * last: output"
# Only the pthread regions remain (filters apply to compiler and user regions, as in Score-P):
# the program's calls of pthread_create and pthread_join become roots.
expect_eq "$(profile_paths exp_none | tr '\n' ' ')" "THREADS pthread_create pthread_join " \
    "exclude * last: only the pthread regions in the profile"
expect_eq "$(trace_count exp_none ENTER 0 pthread_create) $(trace_count exp_none ENTER 0 pthread_join)" \
    "8 8" "exclude * last: pthread_create and pthread_join still traced"
expect_eq "$(trace_count exp_none ENTER)" 16 "exclude * last: no other ENTER in the trace"
expect_eq "$(trace_count exp_none THREAD_CREATE 0)" 8 "exclude * last: thread events still traced"

# --- file-name rules (two source files) ---
scorep_cc gcc -O2 -o two "$PROGRAMS/twofiles_main.c" "$PROGRAMS/twofiles_lib.c"
run_app two env SCOREP_EXPERIMENT_DIRECTORY=exp_two ./two
expect_eq "$(cat two.out)" "sum 15050" "two files: output"
expect_eq "$(profile_paths exp_two | tr '\n' ' ')" "main main/lib_fn main/lib_fn/lib_inner main/main_fn " \
    "two files, no filter: call paths"
cat >nolib.flt <<'EOF2'
SCOREP_FILE_NAMES_BEGIN
  EXCLUDE */twofiles_lib.c
SCOREP_FILE_NAMES_END
EOF2
run_app nolib env SCOREP_FILTERING_FILE=nolib.flt SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=exp_nolib ./two
expect_eq "$status" 0 "exclude file: exit status"
expect_eq "$(cat nolib.out)" "sum 15050" "exclude file: output"
expect_eq "$(profile_paths exp_nolib | tr '\n' ' ')" "main main/main_fn " "exclude file: call paths"
expect_eq "$(profile_sum exp_nolib main/main_fn visits)" 100 "exclude file: main_fn visits"
expect_eq "$(trace_count exp_nolib ENTER)" 101 "exclude file: ENTER events"
cat >onlymain.flt <<'EOF2'
SCOREP_FILE_NAMES_BEGIN
  EXCLUDE *
  INCLUDE */twofiles_main.c
SCOREP_FILE_NAMES_END
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE main_fn
SCOREP_REGION_NAMES_END
EOF2
run_app onlymain env SCOREP_FILTERING_FILE=onlymain.flt SCOREP_EXPERIMENT_DIRECTORY=exp_onlymain ./two
expect_eq "$status" 0 "file re-included, name excluded: exit status"
expect_eq "$(profile_paths exp_onlymain | tr '\n' ' ')" "main " \
    "file re-included, name excluded: only main (file OR name excludes)"

# --- MANGLED and escaped blanks (C++) ---
scorep_cc g++ -O2 -o cxx "$PROGRAMS/cxx.cc"
cat >cxx.flt <<'EOF2'
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE MANGLED _ZN4demo8overloadEd
  EXCLUDE demo::Box::get()\ const
SCOREP_REGION_NAMES_END
EOF2
run_app cxx env SCOREP_FILTERING_FILE=cxx.flt SCOREP_EXPERIMENT_DIRECTORY=exp_cxx ./cxx
expect_eq "$(cat cxx.out)" "sum 165 caught 3" "C++ filter: output"
expect_eq "$(profile_paths exp_cxx | tr '\n' ',')" \
    "main,main/demo::overload(int),main/demo::thrower(int),main/double demo::twice<double>(double),main/int demo::twice<int>(int)," \
    "C++ filter: mangled and escaped patterns exclude overload(double) and Box::get"

# --- scorep-cc --filter embeds the filter; SCOREP_FILTERING_FILE overrides it ---
# (compiled without --filter: with gcc, --filter also filters at compile time, see below)
cp noleaf.flt embedded.flt
scorep_cc gcc -O2 -c -o calls_nf.o "$PROGRAMS/calls.c"
scorep_cc --filter=embedded.flt gcc -o calls_f calls_nf.o -lpthread
run_app emb env SCOREP_EXPERIMENT_DIRECTORY=exp_emb ./calls_f
expect_eq "$status" 3 "embedded filter: exit status"
expect_eq "$(profile_paths exp_emb | grep -c leaf)" 0 "embedded filter: no leaf without SCOREP_FILTERING_FILE"
expect_eq "$(profile_sum exp_emb main visits)" 1 "embedded filter: main visits"
expect_eq "$(cmp -s exp_emb/scorep.filter embedded.flt && echo same)" same \
    "embedded filter: copied as scorep.filter"
cat >norecurse.flt <<'EOF2'
SCOREP_REGION_NAMES_BEGIN
  EXCLUDE recurse
SCOREP_REGION_NAMES_END
EOF2
run_app over env SCOREP_FILTERING_FILE=norecurse.flt SCOREP_EXPERIMENT_DIRECTORY=exp_over ./calls_f
expect_eq "$status" 3 "override: exit status"
expect_eq "$(profile_paths exp_over | tr '\n' ' ')" \
    "THREADS THREADS/thread_main THREADS/thread_main/thread_work THREADS/thread_main/thread_work/leaf main main/leaf main/pthread_create main/pthread_join " \
    "override: SCOREP_FILTERING_FILE replaces the embedded filter"
expect_eq "$(profile_sum exp_over main/leaf visits)" 1000000 "override: main/leaf visits"
expect_eq "$(cmp -s exp_over/scorep.filter norecurse.flt && echo same)" same \
    "override: scorep.filter is the overriding file"
# Compiled with --filter, gcc left leaf uninstrumented (GCC plugin, test_filter_compile.sh):
# an overriding filter can exclude more at run time, never bring leaf back.
if ! "$SCOREP_CC" --help | grep -q 'not built here'; then
    scorep_cc --filter=embedded.flt gcc -O2 -o calls_ct "$PROGRAMS/calls.c" -lpthread
    run_app over_ct env SCOREP_FILTERING_FILE=norecurse.flt SCOREP_EXPERIMENT_DIRECTORY=exp_over_ct \
        ./calls_ct
    expect_eq "$status" 3 "override of a compile-time filter: exit status"
    expect_eq "$(profile_paths exp_over_ct | tr '\n' ' ')" \
        "THREADS THREADS/thread_main THREADS/thread_main/thread_work main main/pthread_create main/pthread_join " \
        "override of a compile-time filter: leaf stays out, recurse is filtered at run time"
    expect_eq "$(profile_sum exp_over_ct THREADS/thread_main/thread_work visits)" 8 \
        "override of a compile-time filter: thread_work visits"
fi
run_app nofilter env SCOREP_EXPERIMENT_DIRECTORY=exp_nofilter ./calls
expect_no_file exp_nofilter/scorep.filter "no filter: no scorep.filter"

# --- a broken filter file stops the program before main ---
cat >broken.flt <<'EOF2'
# a pattern without INCLUDE/EXCLUDE on line 3
SCOREP_REGION_NAMES_BEGIN
  leaf
SCOREP_REGION_NAMES_END
EOF2
run_app broken env SCOREP_FILTERING_FILE="$work/broken.flt" SCOREP_EXPERIMENT_DIRECTORY=exp_broken ./calls
expect_eq "$status" 1 "broken filter: exit status"
expect_eq "$(cat broken.out)" "" "broken filter: main did not run (no output)"
expect_eq "$(wc -l <broken.err | tr -d ' ')" 1 "broken filter: one line on stderr"
expect_grep "$work/broken\.flt:3:" broken.err "broken filter: file name and line"
expect_grep "'leaf'.*(INCLUDE|EXCLUDE)" broken.err "broken filter: reason (pattern before INCLUDE/EXCLUDE)"
expect_no_file exp_broken "broken filter: no experiment directory"
# A broken embedded filter (changed after linking) stops the program the same way.
cp broken.flt embedded.flt
run_app broken_emb env SCOREP_EXPERIMENT_DIRECTORY=exp_broken_emb ./calls_f
expect_eq "$status" 1 "broken embedded filter: exit status"
expect_eq "$(cat broken_emb.out)" "" "broken embedded filter: no output"
expect_grep 'embedded\.flt:3:' broken_emb.err "broken embedded filter: file name and line"
# A missing filter file is an error too.
run_app missing env SCOREP_FILTERING_FILE="$work/missing.flt" SCOREP_EXPERIMENT_DIRECTORY=exp_missing ./calls
expect_eq "$status" 1 "missing filter: exit status"
expect_eq "$(cat missing.out)" "" "missing filter: no output"
expect_grep 'missing\.flt' missing.err "missing filter: file named"
done_ok
