#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_config.sh: SCOREP_* configuration: invalid values stop the program with one clear
# message, scorep.cfg holds every effective value, the timers, profile name/format/depth,
# system tree names, and scorep-info.
. "$top_srcdir/test/integration/lib.sh"

scorep_cc gcc -O2 -o calls "$PROGRAMS/calls.c" -lpthread
out_calls="recursion 150
done 1"
# Leaving out the 10^6 leaf calls keeps the traces small; threads and recursion remain.
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE leaf\nSCOREP_REGION_NAMES_END\n' >noleaf.flt

# --- invalid values: exit status 1 before main, one message: variable, value, accepted forms ---
# bad NAME VALUE ERE-OF-ACCEPTED-FORMS
bad()
{
    run_app "bad_$1" env "$1=$2" SCOREP_EXPERIMENT_DIRECTORY="exp_bad_$1" ./calls
    expect_eq "$status" 1 "$1='$2': exit status"
    expect_eq "$(cat "bad_$1.out")" "" "$1='$2': program output absent"
    expect_eq "$(wc -l <"bad_$1.err" | tr -d ' ')" 1 "$1='$2': one message"
    expect_grep "$1" "bad_$1.err" "$1='$2': message names the variable"
    expect_grep "'$2'" "bad_$1.err" "$1='$2': message quotes the value"
    expect_grep "$3" "bad_$1.err" "$1='$2': message says what is accepted"
    expect_no_file "exp_bad_$1" "$1='$2': no experiment directory"
}
bad SCOREP_ENABLE_TRACING maybe 'true.*false|false.*true'
bad SCOREP_TOTAL_MEMORY 12Q 'K.*M.*G'
bad SCOREP_TIMER foo 'tsc.*clock_gettime.*gettimeofday'
bad SCOREP_PROFILING_MAX_CALLPATH_DEPTH -1 'number|digits'
bad SCOREP_PROFILING_FORMAT xml 'none.*cube4'
bad SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY perhaps 'true.*false|false.*true'

# Unknown SCOREP_* variables are ignored (a plugin's, say) silently; a likely misspelling and
# Score-P's variables that scorep-rt lacks get one line together; accepted spellings of bools
# and sizes.
run_app unknown env SCOREP_NO_SUCH_VARIABLE=1 SCOREP_EXPERIMENT_DIRECTORY=exp_unknown ./calls
expect_eq "$status:$(cat unknown.err)" "3:" "unknown SCOREP_ variable ignored silently"
run_app typo env SCOREP_ENABLE_PROFILNG=false SCOREP_TRACING_USE_SION=true \
    SCOREP_EXPERIMENT_DIRECTORY=exp_typo ./calls
expect_eq "$status" 3 "misspelt variable: the program runs"
expect_eq "$(cat typo.err)" "[scorep-rt] warning: SCOREP_ENABLE_PROFILNG is not a variable of scorep-rt (did you mean SCOREP_ENABLE_PROFILING?); Score-P variables that scorep-rt does not support are ignored: SCOREP_TRACING_USE_SION" \
    "misspelt and unsupported Score-P variables: one line"
expect_eq "$(profile_sum exp_typo main/leaf visits)" 1000000 "misspelt variable: measured with the defaults"
# accepted for Score-P's sake and not used: said when set to another value than the default
run_app unused env SCOREP_MPI_MAX_COMMUNICATORS=100 SCOREP_MPI_MAX_GROUPS=50 \
    SCOREP_EXPERIMENT_DIRECTORY=exp_unused ./calls
expect_eq "$status" 3 "unused variables: the program runs"
expect_eq "$(cat unused.err)" "[scorep-rt] warning: SCOREP_MPI_MAX_COMMUNICATORS=100 has no effect (Accepted for Score-P compatibility; scorep-rt has no limit)" \
    "unused variables: one line naming the one set to another value than its default (50)"
for v in YES 1 On true; do
    run_app "bool_$v" env SCOREP_ENABLE_TRACING=$v SCOREP_FILTERING_FILE=noleaf.flt \
        SCOREP_EXPERIMENT_DIRECTORY="exp_bool_$v" ./calls
    expect_file "exp_bool_$v/traces.otf2" "SCOREP_ENABLE_TRACING=$v: trace written"
done
for v in no 0 OFF false; do
    run_app "bool_$v" env SCOREP_ENABLE_TRACING=$v SCOREP_EXPERIMENT_DIRECTORY="exp_bool_$v" ./calls
    expect_eq "$status" 3 "SCOREP_ENABLE_TRACING=$v: exit status"
    expect_no_file "exp_bool_$v/traces.otf2" "SCOREP_ENABLE_TRACING=$v: no trace"
done

# --- scorep.cfg: every variable with its effective value ---
run_app dflt env SCOREP_EXPERIMENT_DIRECTORY=exp_default ./calls
expect_eq "$status" 3 "defaults: exit status"
expect_eq "$(cat dflt.out)" "$out_calls" "defaults: program output"
cfg=exp_default/scorep.cfg
expect_eq "$(sed 's/=.*//' $cfg | sort | tr '\n' ' ')" \
    "$("$SCOREP_INFO" config-vars | grep '^SCOREP_' | sort | tr '\n' ' ')" \
    "scorep.cfg lists exactly the variables of scorep-info config-vars"
for line in SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false SCOREP_VERBOSE=false \
    SCOREP_TOTAL_MEMORY=16384000 SCOREP_PAGE_SIZE=8192 "SCOREP_EXPERIMENT_DIRECTORY='exp_default'" \
    SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=true SCOREP_TIMER=tsc \
    SCOREP_PROFILING_MAX_CALLPATH_DEPTH=100 "SCOREP_PROFILING_BASE_NAME='profile'" \
    "SCOREP_FILTERING_FILE=''"; do
    expect_eq "$(grep -c -x -F "$line" $cfg)" 1 "defaults: scorep.cfg has $line"
done
expect_eq "$(grep -c -v '^SCOREP_[A-Z0-9_]*=' $cfg)" 0 "defaults: scorep.cfg holds only NAME=value lines"
run_app set env SCOREP_TIMER=CLOCK_GETTIME SCOREP_TOTAL_MEMORY=' 16 Mb ' SCOREP_PAGE_SIZE=4K \
    SCOREP_MACHINE_NAME="my box's" SCOREP_NODE_NAME=node-a SCOREP_VERBOSE=no \
    SCOREP_PROFILING_MAX_CALLPATH_DEPTH=10 SCOREP_EXPERIMENT_DIRECTORY=exp_set ./calls
expect_eq "$status" 3 "set values: exit status"
cfg=exp_set/scorep.cfg
for line in SCOREP_TIMER=clock_gettime SCOREP_TOTAL_MEMORY=16777216 SCOREP_PAGE_SIZE=4096 \
    "SCOREP_MACHINE_NAME='my box'\\''s'" "SCOREP_NODE_NAME='node-a'" SCOREP_VERBOSE=false \
    SCOREP_PROFILING_MAX_CALLPATH_DEPTH=10; do
    expect_eq "$(grep -c -x -F "$line" $cfg)" 1 "set values: scorep.cfg has $line"
done
expect_eq "$(. ./$cfg && printf '%s|%s|%s' "$SCOREP_MACHINE_NAME" "$SCOREP_TOTAL_MEMORY" "$SCOREP_TIMER")" \
    "my box's|16777216|clock_gettime" "scorep.cfg is valid shell syntax"
expect_eq "$(profile_dump exp_set --system | awk -F'\t' '{ print $2 }' | sort -u)" "my box's/node-a" \
    "SCOREP_MACHINE_NAME/SCOREP_NODE_NAME name the system tree"
# (the program root is the first of the 10 levels, as Score-P counts it: 9 below it)
expect_eq "$(profile_paths exp_set | awk -F/ 'NF > m { m = NF } END { print m }')" 9 \
    "SCOREP_PROFILING_MAX_CALLPATH_DEPTH=10: deepest call path"
expect_eq "$(profile_paths exp_set | grep -c '^main/recurse')" 8 \
    "SCOREP_PROFILING_MAX_CALLPATH_DEPTH=10: recurse call paths"
expect_eq "$(profile_sum exp_set main/leaf visits)" 1000000 "SCOREP_PROFILING_MAX_CALLPATH_DEPTH=10: leaf visits"

# --- timers: valid traces with the same event counts ---
for timer in tsc clock_gettime gettimeofday; do
    run_app "t_$timer" env SCOREP_TIMER=$timer SCOREP_ENABLE_TRACING=true \
        SCOREP_FILTERING_FILE=noleaf.flt SCOREP_EXPERIMENT_DIRECTORY="exp_$timer" ./calls
    expect_eq "$status" 3 "SCOREP_TIMER=$timer: exit status"
    expect_eq "$(cat "t_$timer.err")" "" "SCOREP_TIMER=$timer: nothing on stderr"
    expect_grep "^SCOREP_TIMER=$timer\$" "exp_$timer/scorep.cfg" "SCOREP_TIMER=$timer: in scorep.cfg"
    trace_summary "exp_$timer" >"summary_$timer"
    # 168 function calls (leaf filtered) and 8 pthread_create + 8 pthread_join
    expect_eq "$(trace_count "exp_$timer" ENTER)" 184 "SCOREP_TIMER=$timer: ENTER events"
    expect_eq "$(trace_check_order "exp_$timer")" 0 "SCOREP_TIMER=$timer: timestamps increasing"
    expect_eq "$(trace_check_nesting "exp_$timer")" 0 "SCOREP_TIMER=$timer: properly nested"
    # All events lie within [global offset, global offset + length] of the clock properties.
    clock=$(trace_defs "exp_$timer" | grep '^CLOCK_PROPERTIES')
    res=$(echo "$clock" | sed 's/.*Ticks per Seconds: \([0-9]*\),.*/\1/')
    case $timer in
    clock_gettime) expect_eq "$res" 1000000000 "SCOREP_TIMER=$timer: ticks per second" ;;
    gettimeofday) expect_eq "$res" 1000000 "SCOREP_TIMER=$timer: ticks per second" ;;
    *) expect_ge "$res" 1000000 "SCOREP_TIMER=$timer: ticks per second" ;;
    esac
    offset=$(echo "$clock" | sed 's/.*Global Offset: \([0-9]*\),.*/\1/')
    length=$(echo "$clock" | sed 's/.*Length: \([0-9]*\),.*/\1/')
    expect_eq "$(trace_events "exp_$timer" | awk -v o="$offset" -v l="$length" '
        $3 + 0 < o + 0 || $3 + 0 > o + l { bad++ } END { print bad + 0 }')" 0 \
        "SCOREP_TIMER=$timer: timestamps within the clock interval"
done
expect_eq "$(cat summary_clock_gettime)" "$(cat summary_tsc)" "clock_gettime: same event counts as tsc"
expect_eq "$(cat summary_gettimeofday)" "$(cat summary_tsc)" "gettimeofday: same event counts as tsc"

# --- profile name and format ---
run_app base env SCOREP_PROFILING_BASE_NAME=myprof SCOREP_EXPERIMENT_DIRECTORY=exp_base ./calls
expect_eq "$status" 3 "SCOREP_PROFILING_BASE_NAME: exit status"
expect_file exp_base/myprof.cubex "SCOREP_PROFILING_BASE_NAME=myprof: myprof.cubex"
expect_no_file exp_base/profile.cubex "SCOREP_PROFILING_BASE_NAME=myprof: no profile.cubex"
expect_eq "$("$CUBE_DUMP" -m visits exp_base/myprof.cubex | awk -F'\t' '$2 == "calls/main/leaf" { print $4 }')" \
    visits=1000000 "SCOREP_PROFILING_BASE_NAME=myprof: readable profile"
expect_grep 'myprof\.cubex' exp_base/MANIFEST.md "SCOREP_PROFILING_BASE_NAME=myprof: in MANIFEST.md"
expect_grep "^SCOREP_PROFILING_BASE_NAME='myprof'\$" exp_base/scorep.cfg \
    "SCOREP_PROFILING_BASE_NAME=myprof: in scorep.cfg"
run_app fmt env SCOREP_PROFILING_FORMAT=none SCOREP_EXPERIMENT_DIRECTORY=exp_none ./calls
expect_eq "$status" 3 "SCOREP_PROFILING_FORMAT=none: exit status"
expect_eq "$(cat fmt.out)" "$out_calls" "SCOREP_PROFILING_FORMAT=none: output"
expect_eq "$(entries exp_none '\.cubex$')" 0 "SCOREP_PROFILING_FORMAT=none: no cubex"
expect_file exp_none/scorep.cfg "SCOREP_PROFILING_FORMAT=none: scorep.cfg still written"
run_app fmt4 env SCOREP_PROFILING_FORMAT=Cube4 SCOREP_EXPERIMENT_DIRECTORY=exp_cube4 ./calls
expect_file exp_cube4/profile.cubex "SCOREP_PROFILING_FORMAT=Cube4 (any case): profile.cubex"

# --- scorep-info ---
"$SCOREP_INFO" config-vars >info.txt || fail "scorep-info config-vars"
"$SCOREP_INFO" config-vars --full >info_full.txt || fail "scorep-info config-vars --full"
for v in $(sed 's/=.*//' exp_default/scorep.cfg); do
    expect_eq "$(grep -c -x "$v" info.txt)" 1 "scorep-info config-vars lists $v"
    expect_eq "$(grep -c -x "$v" info_full.txt)" 1 "scorep-info config-vars --full lists $v"
done
expect_ge "$(wc -c <info_full.txt)" "$(($(wc -c <info.txt) + 1))" "config-vars --full has more text"
expect_grep 'Default: 16000k' info.txt "config-vars shows the default of SCOREP_TOTAL_MEMORY"
"$SCOREP_INFO" build >build.txt || fail "scorep-info build"
expect_grep 'OTF2' build.txt "scorep-info build mentions OTF2"
# the adapters listed as built exactly where their libraries are in the build tree
for a in mpi shmem cuda nvtx memory; do
    want=no
    [ ! -e "$top_builddir/.libs/libscorep-rt-$a.so" ] || want=yes
    expect_eq "$(awk -v a="$a" '$1 == a { print $2 }' build.txt)" $want "scorep-info build: $a $want"
done
omp=no
if nm -D "$top_builddir/.libs/libscorep-rt.so" | grep -q ' T ompt_start_tool$'; then omp=yes; fi
expect_eq "$(awk '$1 == "openmp" { print $2 }' build.txt)" $omp "scorep-info build: openmp $omp"
py=no # the Python module: built where its extension is in the build tree
[ ! -e "$top_builddir/python/scorep/_native.so" ] || py=yes
expect_eq "$(awk '$1 == "python" { print $2 }' build.txt)" $py "scorep-info build: python $py"
expect_no_grep 'not built yet|no flush|create/join recorded\)' build.txt "scorep-info build: no stale words"
# compiler instrumentation: the plugins that are built here named as scorep-cc's default
# (what scorep-cc --dry-run uses for gcc and clang), -finstrument-functions otherwise
gcc_dflt=$(env -u SCOREP_CC_INSTRUMENT "$SCOREP_CC" --dry-run gcc -c x.c)
clang_dflt=$(env -u SCOREP_CC_INSTRUMENT "$SCOREP_CC" --dry-run clang -c x.c)
case "$gcc_dflt" in
*-fplugin=*) expect_grep "^  compiler    yes \\(scorep-cc's default: GCC plugin " build.txt \
    "scorep-info build: the GCC plugin, scorep-cc's default for gcc" ;;
*) expect_grep "^  compiler    yes \\(scorep-cc's default: no GCC plugin " build.txt \
    "scorep-info build: no GCC plugin (scorep-cc gcc uses none)" ;;
esac
case "$clang_dflt" in
*-fpass-plugin=*) expect_grep "^  compiler    yes .*; LLVM pass plugin \\(clang, clang\\+\\+ [0-9]+\\);" build.txt \
    "scorep-info build: the LLVM pass plugin, scorep-cc's default for clang" ;;
*) expect_grep "^  compiler    yes .*; no LLVM pass plugin " build.txt \
    "scorep-info build: no LLVM pass plugin (scorep-cc clang uses none)" ;;
esac
expect_grep '^  compiler    yes .*-finstrument-functions for other compilers' build.txt \
    "scorep-info build: -finstrument-functions named as the fallback"
expect_grep 'SCOREP_TRACING_REDUCTION \(default min_duration,depth,noncomm,flush\), flush writing the buffer to disk' \
    build.txt "scorep-info build: the reduction's default order, flush included"
done_ok
