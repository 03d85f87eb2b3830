#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_selective.sh: selective recording (SCOREP_SELECTIVE_CONFIG_FILE, Score-P's semantics).
# test/programs/selective.c begins user regions a known number of times (its header lists the
# instances); the file selects some of them, and the visits in the profile and the Enter/Leave
# events in the trace (otf2-print) are those of the selected instances and of the calls inside
# them, derived below from the program's design: instances counted from 0 per region over the
# whole process, nesting, recursion, two threads. Then Fortran, a 2-rank MPI program whose
# messages match by their ids, and bad files (message, whole run recorded, program unharmed).
. "$top_srcdir/test/integration/lib.sh"

scorep_cc --user --nocompiler gcc -O2 -o selprog "$PROGRAMS/selective.c" -lpthread

# "loop" is a dynamic region (as in Score-P's selective test): each visit has its own call
# path loop/instance=N in the profile. The counts below are per call path without those
# (lib.sh's profile_* functions read the dump through this); instances_of counts them.
DUMP="$top_builddir/scorep-cube-dump"
# dump_with_instances EXPDIR OPTION...: scorep-cube-dump's lines as they are, the call paths
# below the program root as lib.sh's profile_dump shows them ("." the root)
dump_with_instances() {
    _d=$1
    shift
    "$DUMP" "$@" "$_d/profile.cubex" >"$work/.dump" || fail "scorep-cube-dump $* $_d failed"
    awk -F'\t' -v OFS='\t' -v r="$(profile_root "$_d")" '
        r != "" && $2 == r { $2 = "." }
        r != "" && index($2, r "/") == 1 { $2 = substr($2, length(r) + 2) }
        { print }' "$work/.dump"
}
# profile_dump (lib.sh's, replaced): the instance=N nodes left out (their visits are their
# region's), their subtrees' call paths without the instance=N segment and the values of
# equal (call path, location) summed
profile_dump() {
    dump_with_instances "$@" >"$work/.dump_i"
    awk -F'\t' -v OFS='\t' '$2 ~ /\/instance=[0-9]+$/ { next }
        { p = $2; gsub(/\/instance=[0-9]+/, "", p); k = p OFS $3
        if (!(k in id)) { id[k] = $1; order[++n] = k; nf[k] = NF }
        for (i = 4; i <= NF; i++) { split($i, kv, "="); name[k, i] = kv[1]; v[k, i] += kv[2] } }
        END { for (j = 1; j <= n; j++) { k = order[j]; line = id[k] OFS k
                for (i = 4; i <= nf[k]; i++) line = line OFS name[k, i] "=" sprintf("%.17g", v[k, i])
                print line } }' "$work/.dump_i"
}
# instances_of EXPDIR PARENT: the number of instance=N call paths right below PARENT
instances_of() {
    dump_with_instances "$1" -m visits >"$work/.dump_n"
    awk -F'\t' -v p="$2" 'index($2, p "/instance=") == 1 && $2 !~ /instance=[0-9]+\// { n[$2] = 1 }
        END { for (k in n) c++; print c + 0 }' "$work/.dump_n"
}

# ---- without a file: every instance (the reference for the counts below)
run_app all env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=all ./selprog
expect_eq "$status" 0 "no file: exit status"
expect_eq "$(cat all.out)" "calls 60 recording 1" "no file: output"
expect_eq "$(cat all.err)" "" "no file: nothing on stderr"
for r in "main/loop 20" "main/loop/foo 20" "main/outer 6" "main/outer/inner 18" \
    "main/rec 3" "main/rec/rec 3" "main/rec/rec/rec 3" "THREADS/tloop 20" "main/side 2"; do
    expect_eq "$(profile_sum all "${r% *}" visits)" "${r#* }" "no file: ${r% *} visits"
done
expect_eq "$(instances_of all main/loop)" 20 "no file: 20 instances of the dynamic region loop"

# ---- Score-P's selective_test file, plus nesting, recursion and threads
cat >sel.cfg <<'EOF'
# Score-P's test/adapters/user/C/selective.cfg:
loop 3:6, 10 ,  17:23
outer 1
inner 4:5, 9
rec 3,7
	tloop 8:11   # instances 8, 9 on the first thread, 10, 11 on the second
EOF
run_app sel env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=sel \
    SCOREP_SELECTIVE_CONFIG_FILE=sel.cfg ./selprog
expect_eq "$status" 0 "selected: exit status"
expect_eq "$(cat sel.out)" "calls 60 recording 0" "selected: output (recording off at the end)"
expect_eq "$(cat sel.err)" "" "selected: nothing on stderr"
# loop: instances 3-6, 10, 17-19 of 0-19 (Score-P's test expects 16 Enter/Leave of loop and
# of foo); outer: instance 1, with inner 3, 4, 5 inside; inner 9 (in outer 3) on its own;
# rec: instance 3 = call 1's outermost (3 levels), instance 7 = call 2's middle level (2
# levels); main, side and the calls outside the instances are not recorded.
expect_eq "$(profile_paths sel | tr '\n' ',')" \
"MEASUREMENT OFF,THREADS,THREADS/MEASUREMENT OFF,THREADS/tloop,THREADS/tloop/foo,inner,loop,loop/foo,outer,outer/inner,rec,rec/rec,rec/rec/rec," \
    "selected: call paths (the selected regions are roots: their callers were not recorded)"
expect_eq "$(instances_of sel loop)" 8 "selected: the dynamic region's 8 recorded instances"
for r in "loop 8" "loop/foo 8" "outer 1" "outer/inner 3" "inner 1" "rec 2" "rec/rec 2" \
    "rec/rec/rec 1"; do
    expect_eq "$(profile_values sel "${r% *}" visits)" "0 ${r#* }" "selected: ${r% *} visits"
done
# instances are counted per process: the second thread goes on where the first ended
expect_eq "$(profile_values sel THREADS/tloop visits | tr '\n' ,)" "1 2,2 2," \
    "selected: tloop 8, 9 on the first thread, 10, 11 on the second"
expect_eq "$(profile_values sel THREADS/tloop/foo visits | tr '\n' ,)" "1 2,2 2," \
    "selected: foo inside tloop"
# recording is switched off at start and after each of the 12 instances that switched it on
# from the main thread: 13 calls of MEASUREMENT OFF; each thread switched off twice
expect_eq "$(profile_values sel "MEASUREMENT OFF" visits)" "0 13" "selected: MEASUREMENT OFF"
expect_eq "$(profile_values sel "THREADS/MEASUREMENT OFF" visits | tr '\n' ,)" "1 2,2 2," \
    "selected: MEASUREMENT OFF on the threads"
for r in "loop 8" "foo 8" "outer 1" "inner 4" "rec 5" "side 0" "main 0"; do
    expect_eq "$(trace_count sel ENTER 0 "${r% *}") $(trace_count sel LEAVE 0 "${r% *}")" \
        "${r#* } ${r#* }" "selected trace: Enter/Leave ${r% *} on the main thread"
done
for loc in 1 2; do
    expect_eq "$(trace_count sel ENTER "$(loc_id 0 $loc)" tloop) $(trace_count sel ENTER "$(loc_id 0 $loc)" foo)" "2 2" \
        "selected trace: tloop and foo on thread $loc"
done
expect_eq "$(trace_count sel ENTER)" 34 "selected trace: 34 Enter events in all"
expect_eq "$(trace_count sel LEAVE)" 34 "selected trace: 34 Leave events in all"
expect_eq "$(trace_check_nesting sel)" 0 "selected trace: properly nested"
expect_eq "$(trace_check_order sel)" 0 "selected trace: timestamps increase"
expect_eq "$(trace_other sel | awk '$1 == "MEASUREMENT_ON_OFF" { n[int($2 / 4294967296) " " $NF]++ }
    END { for (k in n) print k, n[k] }' | sort | tr '\n' ,)" \
    "0 OFF 13,0 ON 12,1 OFF 2,1 ON 2,2 OFF 2,2 ON 2," \
    "selected trace: MeasurementOnOff events of the switching threads"
expect_file sel/scorep.cfg "selected: scorep.cfg written"
expect_grep "^SCOREP_SELECTIVE_CONFIG_FILE='sel.cfg'$" sel/scorep.cfg \
    "selected: the variable in scorep.cfg"
expect_eq "$(cmp sel.cfg sel/scorep.selective && echo same)" same \
    "selected: the file copied into the experiment as scorep.selective (as Score-P does)"
expect_grep '^- `scorep.selective`: the selective recording file that was applied' \
    sel/MANIFEST.md "selected: MANIFEST.md lists scorep.selective"

# ---- profile only (the default): the same visits
run_app prof env SCOREP_EXPERIMENT_DIRECTORY=prof SCOREP_SELECTIVE_CONFIG_FILE=sel.cfg ./selprog
expect_eq "$status" 0 "profile only: exit status"
expect_eq "$(profile_dump prof -m visits | cut -f2- | tr '\n' ';')" \
    "$(profile_dump sel -m visits | cut -f2- | tr '\n' ';')" "profile only: the visits as with tracing"

# ---- a region name alone selects every instance; a selected region that is filtered is not
printf 'loop\nouter # all instances\n' >names.cfg
printf 'SCOREP_REGION_NAMES_BEGIN\nEXCLUDE outer\nSCOREP_REGION_NAMES_END\n' >filt.txt
run_app names env SCOREP_EXPERIMENT_DIRECTORY=names SCOREP_SELECTIVE_CONFIG_FILE=names.cfg \
    SCOREP_FILTERING_FILE=filt.txt ./selprog
expect_eq "$status" 0 "names: exit status"
expect_eq "$(profile_paths names | tr '\n' ',')" "MEASUREMENT OFF,THREADS,loop,loop/foo," \
    "names: loop in every instance; outer filtered, so never selected"
expect_eq "$(profile_values names loop visits)" "0 20" "names: loop visits"
expect_grep "SCOREP_SELECTIVE_CONFIG_FILE 'names.cfg' line 2: no user region named 'outer' was entered" \
    names.err "names: a name no user region has is said at the end"

# ---- Fortran (Score-P's Fortran test selects instance 0 of a region)
if command -v gfortran >/dev/null 2>&1; then
    scorep_cc --user --nocompiler gfortran -O2 -o self "$PROGRAMS/selective_f.F90"
    printf 'step 0, 3\nwork 4\n' >f.cfg
    run_app f env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=f \
        SCOREP_SELECTIVE_CONFIG_FILE=f.cfg ./self
    expect_eq "$status" 0 "Fortran: exit status"
    expect_eq "$(tr -d ' ' <f.out)" "n5" "Fortran: output"
    expect_eq "$(profile_values f step visits) $(profile_values f step/work visits) $(profile_values f work visits)" \
        "0 2 0 2 0 1" "Fortran: step 0 and 3 with work inside; work 4 alone"
    expect_eq "$(trace_count f ENTER 0 step) $(trace_count f ENTER 0 work)" "2 3" \
        "Fortran trace: Enter step, work"
    expect_eq "$(trace_check_nesting f)" 0 "Fortran trace: properly nested"
else
    skip_part gfortran
fi

# ---- OpenMP (OMPT): as in Score-P, recording is switched by a selected instance around a
# parallel region, not inside one. step 1 and 2 of 0-3 are recorded with their parallel loops
# (8 work instances each, 4 per thread: schedule static, 2 threads); work 3 (in step 0's
# loop) is inside a parallel region: not recorded, one warning. The profiles are consistent
# (lib.sh runs profile_check on them). The team of 2 is the program's (num_threads), whatever
# OMP_NUM_THREADS says (16 here, as a many-core machine's default would be).
if nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$'; then
    scorep_cc --user gcc -fopenmp -O2 -o selomp "$PROGRAMS/selective_omp.c"
    printf 'step 1:2\nwork 3\n' >omp.cfg
    run_app omp env OMP_NUM_THREADS=16 SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=omp \
        SCOREP_SELECTIVE_CONFIG_FILE=omp.cfg ./selomp
    expect_eq "$status $(cat omp.out)" "0 sum 112" "OpenMP: exit status and output"
    expect_eq "$(profile_values omp step visits)" "0 2" "OpenMP: step 1 and 2"
    expect_eq "$(profile_dump omp -m visits | awk -F'\t' '$2 ~ /^step\/[^/]*parallel[^/]*\/work$/ { print $3, $4 }' | tr '\n' ,)" \
        "0 visits=8,1 visits=8," "OpenMP: work inside the recorded steps, 4 per thread and step"
    expect_eq "$(profile_paths omp | grep -c -v '^step\|^MEASUREMENT OFF$')" 0 \
        "OpenMP: work 3 (inside a parallel region) not recorded"
    expect_grep 'selected instance began inside an OpenMP parallel region, where recording is not switched \(as in Score-P\)' \
        omp.err "OpenMP: says why work 3 is not recorded"
    expect_eq "$(trace_check_nesting omp)" 0 "OpenMP trace: properly nested"
else
    skip_part_here OpenMP "the runtime was built without its OMPT tool"
fi

# ---- bad files: one message with file:line and why; the whole run is recorded as without
# a file; the program's output and exit status are unchanged
cat >bad.cfg <<'EOF'
loop 3:6
outer 2:1
inner 1, x7
EOF
run_app bad env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=bad \
    SCOREP_SELECTIVE_CONFIG_FILE=bad.cfg ./selprog
expect_eq "$status" 0 "bad file: exit status"
expect_eq "$(cat bad.out)" "calls 60 recording 1" "bad file: output"
expect_grep "^bad.cfg:2: '2:1' after region 'outer': an interval that ends before it begins$" \
    bad.err "bad file: line 2 and why"
expect_grep "^bad.cfg:3: 'x7' after region 'inner': not an instance number or interval" \
    bad.err "bad file: line 3 and why"
expect_grep "the file is not applied and the whole run is recorded; fix the lines above" \
    bad.err "bad file: what happens and what to do"
expect_eq "$(profile_dump bad -m visits | cut -f2- | tr '\n' ';')" \
    "$(profile_dump all -m visits | cut -f2- | tr '\n' ';')" "bad file: the profile of a run without file"
expect_eq "$(trace_count bad ENTER 0 loop) $(trace_check_nesting bad)" "20 0" "bad file: the whole trace"
expect_no_file bad/scorep.selective "bad file: not copied as applied"
run_app missing env SCOREP_EXPERIMENT_DIRECTORY=missing SCOREP_SELECTIVE_CONFIG_FILE=nonexistent.cfg ./selprog
expect_eq "$status $(cat missing.out)" "0 calls 60 recording 1" "missing file: program unharmed"
expect_eq "$(cat missing.err)" "[scorep-rt] warning: SCOREP_SELECTIVE_CONFIG_FILE: cannot open 'nonexistent.cfg': No such file or directory; selective recording is off and the whole run is recorded" \
    "missing file: one line saying why"
expect_eq "$(profile_values missing main/loop visits)" "0 20" "missing file: the whole run recorded"
: >empty.cfg
run_app empty env SCOREP_EXPERIMENT_DIRECTORY=empty SCOREP_SELECTIVE_CONFIG_FILE=empty.cfg ./selprog
expect_eq "$status $(cat empty.out)" "0 calls 60 recording 0" "empty file: program unharmed"
expect_grep "'empty.cfg' names no region: nothing is recorded \(as in Score-P\)" empty.err \
    "empty file: says that nothing is recorded"
expect_eq "$(profile_paths empty | tr '\n' ',')" "MEASUREMENT OFF,THREADS," "empty file: nothing recorded"

# ---- MPI, 2 ranks: steps 2 and 3 of 0-5 selected on both ranks. Inside each: 2 blocking and
# 2 non-blocking messages and an Allreduce; the messages between the steps are not recorded.
# The message ids count all messages, recorded or not: the selected ones match.
if ! command -v mpirun >/dev/null 2>&1; then
    skip_part mpirun
    exit 0
fi
# a build without the MPI adapter (cross_aarch64.sh's) has no MPI part, whatever mpirun is here
if [ ! -e "$top_builddir/.libs/libscorep-rt-mpi.so" ]; then
    skip_part_here "the MPI part" "the runtime was built without its MPI adapter"
    exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
scorep_cc --user --nocompiler mpicc -O2 -o selm "$PROGRAMS/selective_mpi.c"
echo 'step 2:3' >m.cfg
run_app m env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=m \
    SCOREP_SELECTIVE_CONFIG_FILE=m.cfg timeout 120 mpirun -np 2 ./selm
expect_eq "$status" 0 "MPI: exit status"
expect_eq "$(cat m.out)" "sum 30" "MPI: output"
for r in step step/MPI_Send step/MPI_Recv step/MPI_Isend step/MPI_Irecv step/MPI_Waitall \
    step/MPI_Allreduce; do
    expect_eq "$(profile_values m $r visits | tr '\n' ,)" "0 2,1 2," "MPI: $r visits per rank"
done
expect_eq "$(profile_paths m | grep -c -v '^step\|^MEASUREMENT OFF$')" 0 \
    "MPI: nothing outside the selected steps (no MPI_Init, no message between the steps)"
run_to m.match "$top_builddir/test/tools/trace_messages" --match m/traces.otf2
expect_eq "$(cat m.match)" \
    "sends=8 receives=8 matched=8 unmatched=0 mismatched_size=0 probes=0 late=0" \
    "MPI trace: the 8 messages of the selected steps match"
run_to m.msgs "$top_builddir/test/tools/trace_messages" m/traces.otf2
expect_eq "$(awk '$1 == "SEND" && / tag=1 / { sub(/.* id=/, ""); sub(/ .*/, ""); printf "%s ", $0 }' m.msgs)" \
    "3 4 " "MPI trace: the messages of steps 2 and 3 are the 3rd and 4th on their channel"
expect_eq "$(trace_count m MPI_COLLECTIVE_END 0) $(trace_count m MPI_COLLECTIVE_END 1)" "2 2" \
    "MPI trace: the Allreduce of the selected steps"
expect_eq "$(trace_count m MPI_ISEND_COMPLETE) $(trace_count m MPI_IRECV_REQUEST)" "4 4" \
    "MPI trace: the non-blocking calls complete inside the steps"
expect_eq "$(trace_check_nesting m)" 0 "MPI trace: properly nested"
echo "$checks checks passed"
