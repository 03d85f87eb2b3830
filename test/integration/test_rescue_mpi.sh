#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_rescue_mpi.sh: a job that dies keeps its data (issue #29). 3 ranks run 200 rounds of
# work() + MPI_Barrier (test/programs/rescue.c), then rank 1 segfaults in crash_here (called
# from main) / calls MPI_Abort(3) / calls exit(3) / is killed by SIGKILL 3 s later (with
# SCOREP_CHECKPOINT_INTERVAL=1), or the whole job gets SIGTERM; mpirun ends the other ranks
# with SIGTERM. Each ending: mpirun's exit status and the program's output are those of the
# uninstrumented program; every rank leaves its rank-local piece in EXPDIR/rescue;
# scorep-recover makes a profile with exactly 200 visits of work on rank 1 (the program
# stops there: at least 200 on the others, which wait in the 201st round's barrier; exactly
# 200 everywhere for SIGTERM, where all wait after 200), read by our reader and by CubeLib's
# cube_dump, a trace that otf2-print reads whole with the same 200 calls of work on rank 1,
# and MANIFEST.md and the Cube file say which rank ended how. The recovered profiles have the
# metrics and processes of the job's normal end's profile.
. "$top_srcdir/test/integration/lib.sh"
require_mpi
export TEST_TIMEOUT=120 # a job that hangs fails the test (run_app: timeout)
# mpirun SIGKILLs a rank 1 s after its SIGTERM by default: under make check -j2 a rank's
# piece was once not written by then (docs/user-guide.md says to raise it for large traces);
# this test checks the pieces, not mpirun's grace period
export OMPI_MCA_odls_base_sigkill_timeout=20
RECOVER="$top_builddir/scorep-recover"
find_cubelib_dump

scorep_cc mpicc -O1 -DRESCUE_MPI -o rescue_m "$PROGRAMS/rescue.c"
mpicc -O1 -DRESCUE_MPI -o rescue_u "$PROGRAMS/rescue.c" || fail "mpicc rescue.c"

# job NAME BINARY HOW [VAR=VALUE...]: mpirun -np 3, bounded; stdout sorted in NAME.sorted
# (the ranks print in any order), the exit status in $status
job()
{
    _n=$1 _b=$2 _h=$3
    shift 3
    if [ "$_h" = term ]; then
        start_app "$_n" env "$@" mpirun -np 3 "./$_b" term
        wait_lines "$_n.out" 'rounds$' 3 "$_n: the ranks did not reach round 200"
        kill -TERM "$app_pid"
        wait_app 120
    else
        run_app "$_n" env "$@" mpirun -np 3 "./$_b" "$_h"
    fi
    sort "$_n.out" >"$_n.sorted"
}

# work_visits EXPDIR: "location visits" of main/work, our reader
work_visits()
{
    profile_values "$1" main/work visits | sort -n
}

for how in segv abort exit kill term; do
    part "rank 1 ends by $how"
    e=exp_$how
    job plain_$how rescue_u $how
    plain=$status
    ck=
    [ $how != kill ] || ck=SCOREP_CHECKPOINT_INTERVAL=1
    job meas_$how rescue_m $how SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=$e $ck
    expect_eq "$status" "$plain" "$how: mpirun's exit status as without measurement"
    expect_eq "$(cat meas_$how.sorted)" "$(cat plain_$how.sorted)" "$how: program output unchanged"
    expect_eq "$(cat meas_$how.sorted)" "rank 0: 200 rounds
rank 1: 200 rounds
rank 2: 200 rounds" "$how: every rank did 200 rounds"
    expect_no_file $e/profile.cubex "$how: no profile before scorep-recover"
    expect_eq "$(entries $e/rescue '^rank-[0-9]\.piece$')" 3 "$how: a piece of every rank"
    run_to recover_$how.out "$RECOVER" $e
    expect_grep "3 of 3 ranks recovered" recover_$how.out "$how: scorep-recover"
    check_profiles
    v=$(work_visits $e)
    expect_eq "$(echo "$v" | awk '$1 == 1 { print $2 }')" 200 "$how: rank 1 has 200 visits of work"
    if [ $how = term ]; then
        expect_eq "$(echo "$v" | tr '\n' ' ')" "0 200 1 200 2 200 " \
            "$how: every rank has 200 visits of work (all waited after round 200)"
    else
        expect_eq "$(echo "$v" | awk '$1 != 1 && $2 >= 200 { n++ } END { print n + 0 }')" 2 \
            "$how: ranks 0 and 2 have at least 200 visits of work"
    fi
    if [ -n "$CUBELIB_DUMP" ]; then
        "$CUBELIB_DUMP" -m visits -c 'name=/^work$/' -s csv2 $e/profile.cubex >cl_$how.csv ||
            fail "$how: CubeLib's cube_dump cannot read the recovered profile"
        expect_eq "$(awk -F, 'NR > 1 && $2 == 1 { print $3 }' cl_$how.csv)" 200 \
            "$how: CubeLib reads 200 visits of work on rank 1"
    fi
    # the trace, read whole by otf2-print (trace_file fails when it fails); a checkpoint
    # holds no trace: the killed rank's location is there, without events
    w=200:200
    [ $how != kill ] || w=0:0
    expect_eq "$(trace_count $e ENTER 1 work):$(trace_count $e LEAVE 1 work)" $w \
        "$how: calls of work in rank 1's trace"
    expect_eq "$(trace_count $e ENTER 0 work)" "$(profile_values $e main/work visits | awk '$1 == 0 { print $2 }')" \
        "$how: rank 0's calls of work in the trace as in the profile"
    expect_eq "$(trace_check_nesting $e)" 0 "$how: the trace is well nested (open calls closed)"
    expect_eq "$(trace_check_order $e)" 0 "$how: timestamps increase"
    expect_eq "$(trace_summary $e | awk '$1 == "PROGRAM_END" { print $2 }' | tr '\n' ' ')" \
        "0 1 2 " "$how: a ProgramEnd on every rank"
    expect_grep "recovered by scorep-recover" $e/MANIFEST.md "$how: MANIFEST.md says recovered"
    expect_grep "^- rank 0: signal SIGTERM" $e/MANIFEST.md "$how: MANIFEST.md: rank 0 ended by mpirun's SIGTERM"
    expect_grep "scorep-rt rank 1 ended" $e/profile.cubex "$how: the Cube file says how rank 1 ended"
done

for how in segv abort exit kill term; do
    case $how in
    segv) w="signal SIGSEGV" ;;
    abort) w="MPI_Abort (error code 3)" ;;
    exit) w="exit(3) without MPI_Finalize" ;;
    kill) w="killed (SIGKILL?); data up to its last checkpoint" ;;
    term) w="signal SIGTERM" ;;
    esac
    expect_eq "$(sed -n 's/^- rank 1: \(.*\), at .*/\1/p' exp_$how/MANIFEST.md)" "$w" \
        "$how: MANIFEST.md says how rank 1 ended"
done

# the crash's call path holds a call of SIGSEGV on rank 1, in profile and trace
expect_eq "$(profile_values exp_segv main/crash_here/SIGSEGV visits)" "1 1" \
    "segv: main/crash_here/SIGSEGV visited once on rank 1"
expect_eq "$(trace_count exp_segv ENTER 1 SIGSEGV):$(trace_count exp_segv ENTER "" SIGSEGV)" 1:1 \
    "segv: one SIGSEGV call in the trace, on rank 1"
if [ -n "$CUBELIB_DUMP" ]; then
    "$CUBELIB_DUMP" -m visits -c 'name=/^SIGSEGV$/' -s csv2 exp_segv/profile.cubex >cl_sig.csv ||
        fail "segv: cube_dump"
    expect_eq "$(awk -F, 'NR > 1 && $3 > 0 { print $2 "=" $3 }' cl_sig.csv)" "1=1" \
        "segv: CubeLib reads the SIGSEGV call on rank 1"
fi
# (the other endings mark no crash)
expect_eq "$(profile_paths exp_abort | grep -c SIG || true)" 0 "abort: no signal region"

# a job that ends normally with checkpoints on: its pieces are gone, nothing to recover
run_app normal env SCOREP_CHECKPOINT_INTERVAL=1 SCOREP_EXPERIMENT_DIRECTORY=exp_normal \
    mpirun -np 3 ./rescue_m normal
expect_eq "$status" 0 "normal end with checkpoints: exit status"
expect_file exp_normal/profile.cubex "normal end: the profile written by MPI_Finalize"
expect_no_file exp_normal/rescue "normal end: no rank-local pieces left"
status=0
"$RECOVER" exp_normal >rec_normal.out 2>rec_normal.err || status=$?
expect_eq "$status" 1 "scorep-recover on a complete experiment: exit status 1"
expect_grep "nothing to recover" rec_normal.err "scorep-recover on a complete experiment: says so"

# the recovered profiles have the metrics and processes of the profile that the job wrote
# in MPI_Finalize (scorep-recover names the job's kind from the pieces: a serial program's
# recovered profile has no MPI metric, test_rescue_serial.sh)
expect_eq "$(metric_list exp_normal)" "visits time min_time max_time bytes_sent bytes_received " \
    "normal end: the metrics of an MPI job's profile"
[ -z "$CUBELIB_DUMP" ] || cubelib_metrics "$CUBELIB_DUMP" exp_normal/profile.cubex normal.cl.metrics
for how in segv kill; do
    expect_eq "$(metric_list exp_$how)" "$(metric_list exp_normal)" "$how: recovered: the normal end's metrics"
    expect_eq "$(profile_dump exp_$how --system | cut -f2-)" "$(profile_dump exp_normal --system | cut -f2-)" \
        "$how: recovered: the normal end's system tree"
    if [ -n "$CUBELIB_DUMP" ]; then
        cubelib_metrics "$CUBELIB_DUMP" exp_$how/profile.cubex $how.cl.metrics
        expect_eq "$(cat $how.cl.metrics)" "$(cat normal.cl.metrics)" \
            "$how: recovered: CubeLib reads the normal end's metric definitions"
    fi
done

# a subset: rank 2's piece removed; the others are recovered, rank 2 is listed as missing
mkdir exp_sub && cp -r exp_abort/rescue exp_abort/scorep.cfg exp_sub/ && rm exp_sub/rescue/rank-2.*
run_to rec_sub.out "$RECOVER" exp_sub
expect_grep "2 of 3 ranks recovered" rec_sub.out "subset: 2 of 3 ranks"
expect_grep "missing \\(no whole piece\\): rank 2\$" exp_sub/MANIFEST.md "subset: rank 2 listed as missing"
expect_eq "$(work_visits exp_sub | awk '$2 >= 200 { n++ } END { print n + 0 }')" 2 \
    "subset: two ranks with their visits of work"
expect_eq "$(trace_count exp_sub ENTER "" work)" "$(( $(trace_count exp_abort ENTER 0 work) + 200 ))" \
    "subset: the trace holds the calls of work of ranks 0 and 1"

# a piece cut short by one byte (a full disk) is left out whole: its rank is missing
mkdir exp_cut && cp -r exp_abort/rescue exp_abort/scorep.cfg exp_cut/
truncate -s "$(($(stat -c %s exp_cut/rescue/rank-0.piece) - 1))" exp_cut/rescue/rank-0.piece
run_app rec_cut "$RECOVER" exp_cut
expect_eq "$status" 0 "a cut piece: scorep-recover succeeds with the others"
expect_grep "rank-0.piece is no whole rank-local piece" rec_cut.err "a cut piece: named"
expect_grep "missing \\(no whole piece\\): rank 0\$" exp_cut/MANIFEST.md "a cut piece: rank 0 listed as missing"
expect_eq "$(work_visits exp_cut | awk '$2 >= 200 { n++ } END { print n + 0 }')" 2 \
    "a cut piece: the other two ranks' visits of work"
expect_eq "$(profile_dump exp_cut --system | cut -f3 | tr '\n' ',')" \
    "MPI Rank 0,MPI Rank 1,MPI Rank 2," \
    "a cut piece: the recovered ranks keep their names (the missing rank 0 without data)"

# mpirun -np 3 scorep-recover: one MPI process per piece, the same profile and trace
mkdir exp_par && cp -r exp_segv/rescue exp_segv/scorep.cfg exp_par/
run_app rec_par mpirun -np 3 "$RECOVER" exp_par
expect_eq "$status" 0 "mpirun -np 3 scorep-recover: exit status"
expect_grep "3 of 3 ranks recovered into exp_par \\(MPI\\)" rec_par.out "mpirun -np 3 scorep-recover: said once"
expect_eq "$(grep -c recovered rec_par.out)" 1 "mpirun -np 3 scorep-recover: one line"
expect_eq "$(work_visits exp_par | tr '\n' ' ')" "$(work_visits exp_segv | tr '\n' ' ')" \
    "mpirun -np 3 scorep-recover: visits of work as the serial recovery's"
expect_eq "$(profile_values exp_par main/crash_here/SIGSEGV visits)" "1 1" \
    "mpirun -np 3 scorep-recover: the SIGSEGV call"
expect_eq "$(trace_count exp_par ENTER 1 work)" 200 "mpirun -np 3 scorep-recover: the trace"
run_app rec_par2 mpirun -np 2 "$RECOVER" exp_par
expect_eq "$status" 1 "mpirun -np 2 scorep-recover for 3 pieces: exit status 1"
expect_grep "2 MPI processes for a job of 3 ranks \\(3 pieces\\)" rec_par2.err \
    "mpirun -np 2 scorep-recover: says why"

# 4 ranks, rank 1 killed (SIGKILL, no checkpoint) before it wrote a piece; rank 0 sent rank
# 2 a message. The recovered trace keeps the job's ranks: world rank r is "MPI Rank r"'s
# location (OTF2's MPI groups index MPI's location group by world rank), rank 1 a location
# without events; otf2-print and python3-otf2 read it without a word.
part "4 ranks, rank 1 left no piece"
run_app meas_k4 env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_k4 \
    mpirun -np 4 ./rescue_m kill
expect_eq "$(sort meas_k4.out | grep rounds | tr '\n' ,)" \
    "rank 0: 200 rounds,rank 1: 200 rounds,rank 2: 200 rounds,rank 3: 200 rounds," \
    "4 ranks: every rank did 200 rounds"
expect_eq "$(ls exp_k4/rescue | grep '\.piece$' | tr '\n' ,)" \
    "rank-0.piece,rank-2.piece,rank-3.piece," "4 ranks: no piece of rank 1"
run_to rec_k4.out "$RECOVER" exp_k4
expect_grep "3 of 4 ranks recovered" rec_k4.out "4 ranks: 3 of 4 recovered"
expect_grep "missing \\(no whole piece\\): rank 1\$" exp_k4/MANIFEST.md "4 ranks: rank 1 listed as missing"
expect_no_grep "^- rank 1:" exp_k4/MANIFEST.md "4 ranks: no ending of rank 1 (it left no piece)"
# check_k4 EXPDIR WHAT: the recovered trace and profile, as described above
check_k4()
{
    otf2-print -G "$1/traces.otf2" >"$1.defs" 2>"$1.defs.err" || fail "$2: otf2-print -G failed"
    expect_eq "$(cat "$1.defs.err")" "" "$2: otf2-print -G says nothing on stderr"
    otf2-print "$1/traces.otf2" >"$1.evts" 2>"$1.evts.err" || fail "$2: otf2-print failed"
    expect_eq "$(cat "$1.evts.err")" "" "$2: otf2-print says nothing on stderr"
    if [ -n "$PY_OTF2" ]; then
        "$PY_OTF2" "$top_srcdir/test/integration/rescue_ranks.py" "$1/traces.otf2" \
            >"$1.ranks" 2>"$1.ranks.err" ||
            fail "$2: python3-otf2 cannot read the trace: $(tail -3 "$1.ranks.err")"
        expect_eq "$(sed 's/ events [1-9][0-9]*$/ events N/' "$1.ranks")" "rank 0: MPI Rank 0 events N
rank 1: MPI Rank 1 events 0
rank 2: MPI Rank 2 events N
rank 3: MPI Rank 3 events N
send MPI Rank 0 peer MPI Rank 2
recv MPI Rank 2 peer MPI Rank 0" \
            "$2: world rank r is MPI Rank r's location, rank 1's without events; 0 -> 2"
    fi
    # otf2-print alone: the send's receiver is world rank 2, whose location has MPI_Recv
    expect_eq "$(awk '$1 == "MPI_SEND" { print $2 }' "$1.evts"):$(grep -c '^MPI_SEND ' "$1.evts")" 0:1 \
        "$2: one MPI_Send, on location 0 (rank 0's master)"
    expect_grep "^MPI_SEND .*Receiver: 2 " "$1.evts" "$2: the send goes to rank 2"
    expect_eq "$(awk '$1 == "MPI_RECV" { print $2 }' "$1.evts")" 2 \
        "$2: the receive is on location 2, rank 2's master"
    expect_eq "$(awk '$2 == 1' "$1.evts" | wc -l)" 0 "$2: no events on rank 1's location"
    expect_eq "$(profile_dump "$1" --system | cut -f3 | tr '\n' ',')" \
        "MPI Rank 0,MPI Rank 1,MPI Rank 2,MPI Rank 3," "$2: the profile's processes"
    expect_eq "$(work_visits "$1" | awk '$2 >= 200 { printf "%s ", $1 }')" "0 2 3 " \
        "$2: visits of work on ranks 0, 2, 3"
    expect_eq "$(work_visits "$1" | awk '$1 == 1 { print $2 + 0 }')" "" \
        "$2: no visits of work on rank 1"
    if [ -n "$CUBELIB_DUMP" ]; then
        "$CUBELIB_DUMP" -m visits -c 'name=/^work$/' -s csv2 "$1/profile.cubex" >"$1.cl.csv" ||
            fail "$2: CubeLib's cube_dump cannot read the recovered profile"
        expect_eq "$(awk -F, 'NR > 1 { printf "%s=%s ", $2, ($3 >= 200 ? "200+" : $3) }' "$1.cl.csv")" \
            "0=200+ 1=0 2=200+ 3=200+ " "$2: CubeLib reads work on ranks 0, 2, 3 and none on rank 1"
    fi
}
PY_OTF2=$(python3_with_otf2)
[ -n "$PY_OTF2" ] || skip_part python3-otf2
check_k4 exp_k4 "4 ranks"
mkdir exp_k4par && cp -r exp_k4/rescue exp_k4/scorep.cfg exp_k4par/
run_app rec_k4par mpirun -np 4 "$RECOVER" exp_k4par
expect_eq "$status" 0 "4 ranks, mpirun -np 4 scorep-recover: exit status"
check_k4 exp_k4par "4 ranks, mpirun -np 4 scorep-recover"
done_ok
