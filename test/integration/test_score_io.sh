#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_score_io.sh: scorep-score's trace estimate of POSIX and ISO C I/O calls against the bytes
# the trace buffer really used (SCOREP_VERBOSE). test/programs/io_score.c (unchanged, under
# scorep-run --io=posix,isoc) makes calls that write 0 I/O records (stat, fstat, ftell,
# ftruncate), 1 (open, close, lseek, fopen, fseek, fclose, unlink) and 2 (write, fread,
# fflush, printf): the estimate counts them per function from the wrappers' own table
# (build-aux/gen-io-wrappers --records). Found by Quantum ESPRESSO (session 25): 2 records
# per call for every I/O region put pw.x's I/O at 146,016 bytes instead of 110,304.
. "$top_srcdir/test/integration/lib.sh"

gcc -O1 -o io_score "$PROGRAMS/io_score.c" 2>build.err || fail "gcc io_score.c: $(cat build.err)"
run_app plain ./io_score 200
expect_eq "$status:$(cat plain.out)" "0:400995" "plain: exit status and output"

run_app e env SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_ENABLE_TRACING=true SCOREP_VERBOSE=true \
    SCOREP_EXPERIMENT_DIRECTORY=e "$top_builddir/scorep-run" --io=posix,isoc ./io_score 200
expect_eq "$status:$(cat e.out)" "0:400995" "measured: exit status and output"
used=$(sed -n 's/^\[scorep-rt\] trace buffer of rank 0 location 0: \([0-9]*\) bytes used in [0-9]* pages, 0 flushes$/\1/p' e.err)
[ -n "$used" ] || fail "no 'trace buffer' line of SCOREP_VERBOSE in e.err: $(head -c 300 e.err)"
"$SCOREP_SCORE" -r e >e.score 2>e.score.err || fail "scorep-score -r e: $(cat e.score.err)"
# the precondition: the calls of every record count are there, as io_score.c makes them
rows=$(awk '$1 == "IO" && $NF ~ /^(stat|fstat|ftell|ftruncate|open|close|lseek|fopen|fseek|fclose|unlink|write|fread|fflush|printf)$/ {
        gsub(",", "", $3); print $NF "=" $3 }' e.score | sort | tr '\n' ' ')
expect_eq "$rows" "close=200 fclose=200 fflush=200 fopen=200 fread=200 fseek=400 fstat=200 ftell=200 ftruncate=200 lseek=200 open=200 printf=1 stat=1000 unlink=1 write=600 " \
    "visits of the I/O regions"
# the estimate of the ALL row: the buffer's bytes plus the program root's enter and leave (2 x
# 32 bytes: counted as Score-P counts it, written by the trace writer, not in the buffer)
est=$(awk '$1 == "ALL" && $NF == "ALL" { gsub(",", "", $2); print $2; exit }' e.score)
expect_eq "$est" "$((used + 64))" "max_buf = the trace buffer's $used bytes + the program root's 64"
# per region: Enter and Leave 32 bytes together, 64 per I/O record (0 for stat, 1 for open, 2
# for write), a 32-byte header per 8 KiB page: stat 1000 x 32 + 4 x 32, open 200 x 96 + 3 x 32,
# write 600 x 160 + 12 x 32
expect_eq "$(awk '$1 == "IO" && ($NF == "stat" || $NF == "open" || $NF == "write") { gsub(",", "", $2); print $NF "=" $2 }' e.score | sort | tr '\n' ' ')" \
    "open=19296 stat=32128 write=96384 " "max_buf of stat, open and write (with their page headers)"
