#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_hostile_input.sh: the hostile-input cases of session 21 that failed before (docs/
# user-guide.md, "Bad input"): SCOREP_PAGE_SIZE near 2^64 (a division by zero), a page larger
# than SCOREP_TOTAL_MEMORY, a SCOREP_TOTAL_MEMORY above memory and swap (the kernel killed
# the program at its start); Cube files cut short; a full file system while the trace is
# written (a private tmpfs; root only); rank-local trace pieces of a crashed MPI job cut
# short, emptied or damaged, a piece damaged inside (scorep-recover); a location's event file missing or empty (the readers
# stopped; now they use the other locations). Exact messages and exit statuses.
. "$top_srcdir/test/integration/lib.sh"
scorep_cc gcc -O1 -o many "$PROGRAMS/many_calls.c"
result="result 4500000.0"

part "SCOREP_PAGE_SIZE and SCOREP_TOTAL_MEMORY"
# bad_memory NAME MESSAGE VAR=VALUE...: status 1 before main, MESSAGE the only line
bad_memory()
{
    _n=$1 _m=$2
    shift 2
    run_app "$_n" env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY="exp_$_n" "$@" ./many
    expect_eq "$status" 1 "$_n: exit status"
    expect_eq "$(cat "$_n.out")" "" "$_n: the program did not start"
    expect_eq "$(cat "$_n.err")" "[scorep-rt] error: $_m" "$_n: the message"
}
bad_memory page_max "SCOREP_PAGE_SIZE=18446744073709551615 bytes is larger than SCOREP_TOTAL_MEMORY=16384000 bytes: the trace memory would hold no page; choose a smaller SCOREP_PAGE_SIZE (default 8K) or a larger SCOREP_TOTAL_MEMORY" \
    SCOREP_PAGE_SIZE=18446744073709551615
bad_memory total_1k "SCOREP_PAGE_SIZE=8192 bytes is larger than SCOREP_TOTAL_MEMORY=1024 bytes: the trace memory would hold no page; choose a smaller SCOREP_PAGE_SIZE (default 8K) or a larger SCOREP_TOTAL_MEMORY" \
    SCOREP_TOTAL_MEMORY=1k
# 1 GiB above memory and swap (sysinfo's totals are /proc/meminfo's); the address space is
# limited too, so that a runtime without the check fails at mmap, not by the OOM killer
have=$(awk '/^(MemTotal|SwapTotal):/ { s += $2 } END { printf "%.0f", s * 1024 }' /proc/meminfo)
expect_ge "$have" 1 "memory and swap from /proc/meminfo"
over=$(awk -v h="$have" 'BEGIN { printf "%.0f", h + 1073741824 }')
(ulimit -v 8388608 && exec env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp_over \
    SCOREP_TOTAL_MEMORY="$over" ./many) >over.out 2>over.err && status=0 || status=$?
expect_eq "$status" 1 "over: exit status"
tail="; the trace memory is taken in full at the start, so the kernel would kill the program; choose a smaller value (each process of a job takes it)"
if grep -q 'the memory limit of its cgroup' over.err; then
    # in a container whose cgroup limits memory below memory and swap, that limit is named
    expect_grep "^\[scorep-rt\] error: SCOREP_TOTAL_MEMORY=$over bytes is more than this process can have \([0-9]+ bytes: the memory limit of its cgroup\)$(printf '%s' "$tail" | sed 's/[()]/\\&/g')$" \
        over.err "over: the message names the cgroup's limit"
else
    expect_eq "$(cat over.err)" "[scorep-rt] error: SCOREP_TOTAL_MEMORY=$over bytes is more than this process can have ($have bytes: memory and swap)$tail" \
        "over: the message"
fi

part "Cube files cut short"
run_app ok env SCOREP_EXPERIMENT_DIRECTORY=exp_ok ./many
expect_eq "$status:$(cat ok.out)" "0:$result" "the profile's run"
# (not named *.cubex: lib.sh checks every such file as a good profile)
# the first member: a 512-byte header and its data, padded to whole blocks
first=$(od -A n -t c -j 124 -N 11 exp_ok/profile.cubex | tr -d ' ')
member_end=$((512 + ($(printf '%d' "0$first") + 511) / 512 * 512))
expect_ge "$(wc -c <exp_ok/profile.cubex)" $((member_end + 1024)) "the profile holds more than its first member"
inside=$((member_end + 100)) # in the second member's header
for cut in 100 $member_end $inside; do
    head -c $cut exp_ok/profile.cubex >cut$cut.damaged
    case $cut in
    100) want="not a tar archive (100 bytes: shorter than a tar header)" ;;
    $inside) want="truncated tar archive (it ends at byte $inside, inside a member's header, without the end-of-archive block; the file was cut short: a full disk, or a copy that did not finish)" ;;
    *) want="truncated tar archive (it ends at byte $cut, after a member, without the end-of-archive block; the file was cut short: a full disk, or a copy that did not finish)" ;;
    esac
    for tool in score cube-dump; do
        run_app "cut${cut}_$tool" "$top_builddir/scorep-$tool" cut$cut.damaged
        expect_eq "$status:$(cat "cut${cut}_$tool.err")" "1:scorep-$tool: cut$cut.damaged: $want" \
            "scorep-$tool on the profile cut at $cut bytes"
    done
done

part "a full file system when the trace is written"
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
    skip_part_here "a full file system" "needs root and unshare -m (a private 2 MiB tmpfs)"
else
    mkdir disk
    # the tmpfs lives in a private mount namespace: gone with it, whatever happens
    run_app full unshare -m sh -c 'mount -t tmpfs -o size=2m tmpfs disk &&
        env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=disk/exp ./many; rc=$?;
        cp -r disk/exp full_exp; exit $rc'
    expect_eq "$status:$(cat full.out)" "0:$result" "full disk: the program's result and status"
    expect_eq "$(grep -c '^\[scorep-rt\]' full.err)" 1 "full disk: one message of scorep-rt"
    # the buffer held 16 bytes per event: 400000 events, 6.4 MB, and the trace is not tried
    expect_grep "^\[scorep-rt\] warning: the trace \(about [0-9]+ bytes\) does not fit into the [0-9]+ bytes free in the file system of '.*/disk/exp'; it is not written \(the profile and MANIFEST.md are\); free space there, or make the trace smaller \(a filter file, SCOREP_TRACING_REDUCTION\), and run again$" \
        full.err "full disk: the message says what is lost and why"
    need=$(sed -n 's/.*the trace (about \([0-9]*\) bytes).*/\1/p' full.err)
    expect_ge "$need" 2097152 "full disk: the estimate exceeds the file system"
    expect_no_file full_exp/traces.otf2 "full disk: no anchor file"
    expect_no_file full_exp/traces "full disk: no event files"
    expect_grep "^- no trace: it did not fit into the free space of the file system$" \
        full_exp/MANIFEST.md "full disk: MANIFEST.md says so"
    run_app full_score "$top_builddir/scorep-score" -r full_exp
    expect_eq "$status" 0 "full disk: the profile written before the trace reads"
    expect_grep " 200,000 .* work$" full_score.out "full disk: the profile has all 200000 calls of work"
    # a file system with room for it (the estimate plus 1 MiB) gets the whole trace
    run_app room unshare -m sh -c 'mount -t tmpfs -o size=16m tmpfs disk &&
        env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=disk/exp ./many; rc=$?;
        cp -r disk/exp room_exp; exit $rc'
    expect_eq "$status:$(cat room.out):$(cat room.err)" "0:$result:" "16 MiB: no message"
    expect_eq "$(trace_count room_exp ENTER 0 work)" 200000 "16 MiB: the trace has every call"
fi

part "scorep-recover on damaged rank-local trace pieces"
if ! command -v mpirun >/dev/null 2>&1; then
    skip_part_here "scorep-recover" "no mpirun"
else
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    # mpirun SIGKILLs a rank 1 s after its SIGTERM by default: in CI a rank's piece was once
    # not written by then (as in test_rescue_mpi.sh); this part damages whole pieces
    export OMPI_MCA_odls_base_sigkill_timeout=20
    scorep_cc mpicc -O1 -DRESCUE_MPI -o rescue_m "$PROGRAMS/rescue.c"
    run_app crash env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=crashed \
        timeout 120 mpirun -np 3 ./rescue_m abort
    expect_ge "$status" 1 "the job ends by MPI_Abort (mpirun's status)"
    piece=crashed/rescue/rank-1.loc-0.trace
    expect_file "$piece" "rank 1 left its trace piece"
    # a record of the piece: 2 timestamps, 4 32-bit fields, the MPI fields (flush.c spill_rec)
    rec=96
    size=$(wc -c <"$piece")
    expect_eq "$((size % rec))" 0 "the piece holds whole $rec-byte records"
    n=$((size / rec))
    expect_ge "$n" 100 "the piece's records"
    cp -r crashed intact
    run_app rec_intact "$top_builddir/scorep-recover" intact
    expect_eq "$status:$(cat rec_intact.err)" "0:" "the intact pieces recover without a word"
    whole=$(trace_count intact ENTER 1) # rank 1's Enter events (location 1)
    # cut: half a record short; short: its last record missing (cut at a record's end);
    # bad: record k+1 overwritten with 0xff bytes; zero: 0 bytes (the last two were
    # recovered without a word before session 21: the piece did not say how many records
    # the rescue wrote into it)
    k=$((n / 2))
    cp -r crashed cut
    head -c $((size - rec / 2)) "$piece" >cut/rescue/rank-1.loc-0.trace
    cp -r crashed short
    head -c $((size - rec)) "$piece" >short/rescue/rank-1.loc-0.trace
    cp -r crashed bad
    (head -c $((k * rec)) "$piece" && head -c $rec /dev/zero | tr '\0' '\377' &&
        tail -c +$(((k + 1) * rec + 1)) "$piece") >bad/rescue/rank-1.loc-0.trace
    expect_eq "$(wc -c <bad/rescue/rank-1.loc-0.trace)" "$size" "the damaged piece keeps its size"
    cp -r crashed zero
    : >zero/rescue/rank-1.loc-0.trace
    for d in cut short bad zero; do
        cp $d/rescue/rank-1.loc-0.trace $d.piece
        run_app rec_$d "$top_builddir/scorep-recover" $d
        expect_eq "$status" 0 "$d: recovered"
        # the message, and the records lost and why in MANIFEST.md's table
        case $d in
        cut) want="scorep-recover: cut/rescue/rank-1.loc-0.trace is cut short (its last record has $((rec / 2)) of its bytes); its $((n - 1)) whole records are recovered"
            lost=1 why="is cut short" ;;
        short) want="scorep-recover: short/rescue/rank-1.loc-0.trace is cut short ($((n - 1)) of the $n records the rescue wrote into it); they are recovered"
            lost=1 why="is cut short" ;;
        bad) want="scorep-recover: bad/rescue/rank-1.loc-0.trace is damaged from its record $((k + 1)) on (of $n: not as scorep-rt writes them, or out of time order); the $k records before it are recovered, the rest is left out"
            lost=$((n - k)) why="is damaged" ;;
        zero) want="scorep-recover: zero/rescue/rank-1.loc-0.trace is empty (0 bytes; the rescue wrote $n records into it); its location has no events"
            lost=$n why="is empty \(0 bytes\)" ;;
        esac
        expect_eq "$(cat rec_$d.err)" "$want" "$d: the message"
        expect_eq "$(grep -c ' | unread | ' $d/MANIFEST.md)" 1 "$d: one loss in MANIFEST.md"
        expect_grep "^\| 1 \| Master thread \| unread \| [0-9]+ \| $lost \| $lost records lost: its rank-local trace piece $why \(the warnings say more\) \|\$" \
            $d/MANIFEST.md "$d: MANIFEST.md names the $lost records lost"
        cmp -s $d.piece $d/rescue/rank-1.loc-0.trace || fail "$d: the piece was changed"
        got=$(trace_count $d ENTER 1) # otf2-print reads the trace, or the test fails
        case $d in
        cut | short)
            # the lost record is an Enter or a Leave
            expect_ge "$got" "$((whole - 1))" "$d: rank 1 keeps all but the last record"
            expect_ge "$whole" "$got" "$d: rank 1 has no more Enters than the intact recovery"
            ;;
        bad)
            expect_ge "$got" 1 "bad: rank 1 keeps the records before the damage"
            expect_ge "$((whole * 2))" "$((got * 3))" "bad: rank 1 lost the records from the damage on"
            ;;
        zero)
            expect_eq "$got" 0 "zero: rank 1 has no events"
            expect_eq "$(trace_count zero ENTER 0) $(trace_count zero ENTER 2)" \
                "$(trace_count intact ENTER 0) $(trace_count intact ENTER 2)" "zero: ranks 0 and 2 whole"
            ;;
        esac
    done

    # a piece damaged inside (4 bytes in its middle): its closing hash does not match, the
    # rank is left out as missing and the others are recovered (the recovery of every rank
    # failed, or garbage was taken as the rank's data, before the hash)
    cp -r crashed flip
    psize=$(wc -c <crashed/rescue/rank-1.piece)
    printf '\377\377\377\177' | dd of=flip/rescue/rank-1.piece bs=1 seek=$((psize / 2)) \
        conv=notrunc 2>/dev/null || fail "dd into the piece"
    run_app rec_flip "$top_builddir/scorep-recover" flip
    expect_eq "$status" 0 "flip: the other ranks are recovered"
    expect_grep "^scorep-recover: flip/rescue/rank-1.piece is no whole rank-local piece \(cut short or damaged\); left out, its rank is listed as missing$" \
        rec_flip.err "flip: the piece is named"
    expect_grep "missing \(no whole piece\): rank 1\$" flip/MANIFEST.md "flip: rank 1 listed as missing"
    expect_eq "$(trace_count flip ENTER 0) $(trace_count flip ENTER 2)" \
        "$(trace_count intact ENTER 0) $(trace_count intact ENTER 2)" "flip: ranks 0 and 2 whole"

    part "a rank's spill file cut to 0 bytes before its rescue: the piece carries the loss"
    # two ranks flush their traces to disk (SCOREP_TRACING_REDUCTION=flush), cut their spill
    # files to 0 bytes after the rounds (rescue.c cutspill) and are ended by SIGTERM: each
    # names its lost records, its rank-local piece carries them (version 3: the location's
    # log), and scorep-recover's MANIFEST.md lists them; the records in memory are recovered
    start_app spill env SCOREP_TOTAL_MEMORY=24k SCOREP_PAGE_SIZE=512 \
        SCOREP_TRACING_REDUCTION=flush SCOREP_ENABLE_TRACING=true \
        SCOREP_EXPERIMENT_DIRECTORY=spilled mpirun -np 2 ./rescue_m cutspill
    wait_lines spill.out 'rounds$' 2 "spill: the ranks did not reach round 200"
    kill -TERM "$app_pid"
    wait_app 120
    expect_ge "$status" 1 "spill: the job ends by SIGTERM (mpirun's status)"
    for r in 0 1; do
        bytes=$(sed -n "s/^rank $r: spill file of \([0-9]*\) bytes spoilt\$/\1/p" spill.out)
        expect_ge "$bytes" 96 "spill: rank $r's spill file ($bytes bytes)"
        expect_eq "$((bytes % 96))" 0 "spill: rank $r's spill file holds whole records"
        eval "lost$r=$((bytes / 96))"
        expect_grep "^\[scorep-rt\] warning: rank $r location 0: its spill file \(SCOREP_TRACING_REDUCTION=flush\) cannot be read back: it was cut short to 0 of its $bytes bytes; the $((bytes / 96)) trace records flushed to it before are lost, the trace keeps the later ones \(the profile is complete\)\$" \
            spill.err "spill: rank $r names its $((bytes / 96)) lost records"
    done
    expect_eq "$(grep -c 'spill file' spill.err)" 2 "spill: one warning per rank"
    run_app rec_spill "$top_builddir/scorep-recover" spilled
    expect_eq "$status:$(cat rec_spill.err)" "0:" "spill: recovered, the pieces whole"
    for r in 0 1; do
        eval "n=\$lost$r"
        expect_grep "^\| $r \| Master thread \| unread \| [0-9]+ \| $n \| $n records lost: its spill file \(SCOREP_TRACING_REDUCTION=flush\) was cut short \(the warnings say more\) \|\$" \
            spilled/MANIFEST.md "spill: MANIFEST.md lists rank $r's $n lost records"
        # the records in memory: the piece's whole records, main's enter among them
        expect_eq "$(($(wc -c <spilled/rescue/rank-$r.loc-0.trace) % 96))" 0 "spill: rank $r's piece"
        expect_eq "$(trace_count spilled ENTER $r main)" 1 "spill: rank $r's main, entered at its last flush"
        expect_ge "$(trace_count spilled ENTER $r work)" 1 "spill: rank $r's calls of work after its last flush"
    done
    expect_eq "$(trace_check_nesting spilled)" 0 "spill: the recovered trace is well nested"

    part "a location's event file missing or empty: the readers use the others"
    for how in missing empty; do
        cp -r intact $how
        if [ $how = missing ]; then rm $how/traces/1.evt; else : >$how/traces/1.evt; fi
        want="$how/traces/1.evt: $how; none of its events can be read"
        run_app chrome_$how "$top_builddir/scorep-otf2-to-chrome" -o $how.json $how
        expect_eq "$status:$(cat chrome_$how.err)" "0:scorep-otf2-to-chrome: warning: $how: damaged trace, converting what is intact: $want" \
            "$how: scorep-otf2-to-chrome converts the other ranks"
        # region events per rank (pid) in the JSON, against the intact trace's Enters
        python3 -c 'import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
print(" ".join(str(sum(1 for e in ev if e.get("pid") == p and e.get("ph") == "X")) for p in (0, 1, 2)))' \
            $how.json >$how.counts || fail "$how: $how.json is no JSON trace"
        expect_eq "$(cat $how.counts)" "$(trace_count intact ENTER 0) 0 $(trace_count intact ENTER 2)" \
            "$how: ranks 0 and 2 whole, rank 1 without events"
        run_app report_$how "$top_builddir/scorep-report" -o $how.html $how
        expect_eq "$status:$(cat report_$how.err)" "0:scorep-report: warning: $how/traces.otf2: damaged trace, showing what is intact: $want" \
            "$how: scorep-report shows the other ranks"
        run_app analyze_$how timeout 120 mpirun -np 3 "$top_builddir/scorep-analyze" $how
        expect_ge "$status" 1 "$how: scorep-analyze needs every rank's events"
        expect_grep "^scorep-analyze: the events of rank 1 are lost \($want\)$" analyze_$how.err \
            "$how: scorep-analyze names the file"
    done

    part "an unreadable profile beside a whole trace: scorep-report shows the trace"
    # (a directory in its place: lib.sh checks every *.cubex file as a good profile)
    cp -r intact noprof
    rm noprof/profile.cubex
    mkdir noprof/profile.cubex
    run_app report_noprof "$top_builddir/scorep-report" -o noprof.html noprof
    expect_eq "$status:$(cat report_noprof.err)" "0:scorep-report: warning: cannot read the profile noprof/profile.cubex: noprof/profile.cubex: not a file; the report shows the trace" \
        "noprof: the report of the trace, with a warning"
    expect_grep '"timeline"' noprof.html "noprof: the report has the trace's timeline"
fi
done_ok
