#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_score_poll.sh: scorep-score's max_buf is the buffer the complete trace needs, also when
# the run's buffer was flushed (session 26: CP2K's DBCSR polled with MPI_Testany 4.5x more on
# a loaded machine, its trace outgrew the default 16000k and was flushed, and the buffer's
# last fill, 3,454,648 bytes, was compared with the 17,656,048 estimated). score_poll.c on 2
# ranks under scorep-run (16 MPI_Irecv a round polled with MPI_Testany, at least 40 polls
# that complete nothing) traced twice with SCOREP_VERBOSE:
#  * 64M, no flush: each rank's buffer bytes = the bytes computed from its trace's records
#    (otf2-print: Enters and Leaves 16 bytes each in one stream, 510 to an 8 KiB page of
#    32-byte header; the MPI records 64 bytes each, 127 to a page: scorep-score counted
#    127.5 until session 26) and the ALL row's max_buf = the largest rank's bytes + 64 (the
#    program root's Enter and Leave, as Score-P counts them, and their page's header);
#  * 1M: flushed, the buffer's last fill far below the estimate (CP2K's mismatch), yet the
#    trace holds every call the profile counts and max_buf = the bytes of its complete
#    records, computed as above: the estimate is right, a check must compare with the
#    complete trace, not with the flushed buffer's fill (test/apps/apps_lib.sh check_score).
# Also the MPI_Testany row = its visits' Enters and Leaves with their page headers.
. "$top_srcdir/test/integration/lib.sh"

[ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: the MPI adapter was not built"; exit 77; }
command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1 ||
    { echo "SKIP: no mpirun or mpicc"; exit 77; }
command -v otf2-print >/dev/null 2>&1 || { echo "SKIP: no otf2-print"; exit 77; }
mpicc -O1 -Wall -Wextra -Werror -o score_poll "$top_srcdir/test/mpi/score_poll.c" 2>build.err ||
    fail "build: score_poll.c: $(cat build.err)"

# trace_bytes EXP: per rank "RANK BYTES", the buffer bytes of its records in the trace (the
# master location of rank R has the id R)
trace_bytes() {
    trace_summary "$1" | awk '
        $1 == "ENTER" || $1 == "LEAVE" { r[$2] += $3 }
        $1 ~ /^MPI_/ { m[$2] += $3 }
        END { for (l in r) { n = r[l]; k = m[l]
            printf "%s %d\n", l, n * 16 + int((n + 509) / 510) * 32 + k * 64 + int((k + 126) / 127) * 32 } }' | sort
}
# max_buf SCORE: the ALL row's max_buf; row SCORE REGION: that region's
max_buf() { awk '$1 == "ALL" && $NF == "ALL" { gsub(",", "", $2); print $2; exit }' "$1"; }
row() { awk -v r="$2" '$NF == r { gsub(",", "", $2); print $2; exit }' "$1"; }
# testany_bytes EXP: the largest rank's MPI_Testany row computed from its trace's Enters
testany_bytes() {
    trace_summary "$1" >/dev/null
    for l in 0 1; do
        n=$(trace_count "$1" ENTER "$l" MPI_Testany)
        echo $((n * 32 + (2 * n + 509) / 510 * 32))
    done | sort -n | tail -n 1
}

# 401 rounds: 401 x 52 = 20,852 MPI records a rank (16 Irecv requests and completions, 16
# sends, 2 barriers' begins and ends), 164.2 pages at 127 records a page, 163.5 at 127.5:
# the rounding scorep-score did until session 26 shows (one header, 32 bytes, short)
for mem in 64M 1M; do
    run_app "r$mem" env SCOREP_ENABLE_TRACING=true SCOREP_VERBOSE=true SCOREP_TOTAL_MEMORY=$mem \
        SCOREP_EXPERIMENT_DIRECTORY="$work/exp$mem" SCOREP_RUN_LIBDIR="$top_builddir/.libs" \
        mpirun --oversubscribe --allow-run-as-root -np 2 "$top_builddir/scorep-run" ./score_poll 401
    expect_eq "$status:$(sort "r$mem.out" | tr '\n' ' ')" \
        "0:rank 0 rounds 401 sum 328601856 rank 1 rounds 401 sum 328595440 " "$mem: exit status and output"
    # "RANK USED FLUSHES" per rank
    sed -n 's/^\[scorep-rt\] trace buffer of rank \([0-9]*\) location 0: \([0-9]*\) bytes used in [0-9]* pages, \([0-9]*\) flushes$/\1 \2 \3/p' \
        "r$mem.err" | sort >"used$mem"
    expect_eq "$(wc -l <"used$mem")" 2 "$mem: both ranks reported their buffer"
    "$SCOREP_SCORE" -r "exp$mem" >"score$mem" 2>score.err || fail "scorep-score -r exp$mem: $(cat score.err)"
    tests=$(profile_sum "exp$mem" MPI_Testany visits)
    expect_ge "$tests" $((2 * 401 * 56)) "$mem: MPI_Testany at least 56 visits a round and rank"
    expect_eq "$(trace_count "exp$mem" ENTER "" MPI_Testany)" "$tests" "$mem: the trace has every MPI_Testany the profile counts"
    expect_eq "$(trace_check_nesting "exp$mem")" 0 "$mem: Enters and Leaves nest"
    trace_bytes "exp$mem" >"need$mem"
    expect_eq "$(max_buf "score$mem")" "$(awk '$2 > m { m = $2 } END { print m + 64 }' "need$mem")" \
        "$mem: max_buf = the largest rank's complete trace records ($(tr '\n' ' ' <"need$mem")) + the root's 64"
    expect_eq "$(row "score$mem" MPI_Testany)" "$(testany_bytes "exp$mem")" "$mem: the MPI_Testany row = its Enters and Leaves"
done

# unflushed: the buffer held the complete trace, which the records computed give exactly
expect_eq "$(awk '{ print $1, $2, $3 }' used64M | tr '\n' ' ')" "$(trace_bytes exp64M | awk '{ print $1, $2, 0 }' | tr '\n' ' ')" \
    "64M: each rank's buffer bytes = its trace's records, no flush"
# flushed: what the buffer held at the end is a fraction of the trace
expect_eq "$(awk '$3 > 0 { n++ } END { print n + 0 }' used1M)" 2 "1M: both ranks' buffers flushed"
last=$(awk '$2 > m { m = $2 } END { print m + 0 }' used1M)
expect_eq "$(awk -v u="$last" -v e="$(max_buf score1M)" 'BEGIN { print (u < e / 2) }')" 1 \
    "1M: the largest last fill ($last bytes) under half of max_buf $(max_buf score1M): the fill is not the trace's size"
done_ok
