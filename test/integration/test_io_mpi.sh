#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_io_mpi.sh: MPI-IO, POSIX and ISO C I/O on 2 ranks (test/programs/io_mpi.c: on the
# shared m.dat two independent writes of 1024 bytes (one after a seek) and one collective
# write of 2048 bytes per rank, a collective read of 2048, a non-blocking read of 1024; rank<r>.dat: 100 * (r + 1) bytes;
# iso<r>.txt: 50 bytes after fseek to 10 * r), linked with
# scorep-cc mpicc --io=posix,mpiio and unchanged under scorep-run --io=posix: exact bytes and
# operations per rank in the profile and the trace, the collective flag, one MPI-IO handle
# per process on MPI_COMM_WORLD, output as without measurement. Then the split collectives
# (test/programs/io_mpi_split.c, linked).
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/integration/io_trace.sh"
require_mpi

mpicc -fno-builtin -o io_plain "$PROGRAMS/io_mpi.c" || fail "mpicc io_mpi.c"
mkdir plain && (cd plain && timeout 120 mpirun -np 2 ../io_plain >out) || fail "the plain program"
expect_eq "$(cat plain/out)" "ranks 2 total 4496" "plain: output"
scorep_cc --io=posix,mpiio mpicc -fno-builtin -o io_mpi "$PROGRAMS/io_mpi.c"

# check_run DIR PREFIX: the profile and trace of one measured run in DIR (exp); PREFIX: the
# call path above the program's calls ("main/" linked, "" under scorep-run)
check_run()
{
    _d=$1
    _p=$2
    cmp plain/out "$_d/out" || fail "$_d: output differs from the plain run"
    cmp plain/m.dat "$_d/m.dat" || fail "$_d: m.dat differs from the plain run"
    for _m in "MPI_File_write_at io_bytes_written 1 1024" "MPI_File_write io_bytes_written 1 1024" \
        "MPI_File_write_at_all io_bytes_written 1 2048" \
        "MPI_File_read_at_all io_bytes_read 1 2048" "MPI_Wait io_bytes_read 1 1024" \
        "MPI_File_iread_at io_bytes_read 1 0"; do
        set -- $_m
        expect_eq "$(profile_dump "$_d/exp" -m visits,$2 | awk -F'\t' -v p="$_p$1" '$2 == p { print $4, $5 }' | sort -u)" \
            "visits=$3 $2=$4" "$_d: $1 on both ranks: $3 visits, $4 bytes"
    done
    # the MPI library's own I/O (configuration files in MPI_Init, progress threads) is not the
    # program's: nothing below MPI_Init, no location besides the ranks' master threads
    expect_eq "$(profile_paths "$_d/exp" | grep -c "^${_p}MPI_Init/" || true)" 0 "$_d: no I/O recorded inside MPI_Init"
    expect_eq "$(profile_locations "$_d/exp")" 2 "$_d: two locations (the ranks), none for MPI's threads"
    expect_eq "$(profile_dump "$_d/exp" -m io_bytes_written | awk -F'\t' -v p="${_p}write" '$2 == p { print $4 }' | tr '\n' ' ')" \
        "io_bytes_written=100 io_bytes_written=200 " "$_d: the POSIX write of 100 * (r + 1) bytes"
    _f=$(cd "$_d" && pwd -P)
    io_ops "$_d/exp" | awk -v f="$_f" '$1 == "MPI-IO" || $2 ~ /\/(rank[01]\.dat|iso[01]\.txt)$/ { sub(f "/", "", $2); print }' >"$_d.ops"
    expect_eq "$(cat "$_d.ops")" "ISOC iso0.txt WRITE 0 1 50
ISOC iso1.txt WRITE 1 1 50
MPI-IO m.dat READ 0 2 3072
MPI-IO m.dat READ 1 2 3072
MPI-IO m.dat WRITE 0 3 4096
MPI-IO m.dat WRITE 1 3 4096
POSIX rank0.dat WRITE 0 1 100
POSIX rank1.dat WRITE 1 1 200" "$_d: MPI-IO, POSIX and ISO C operations and bytes per rank in the trace"
    trace_defs "$_d/exp" >"$_d.defs"
    # IO_SEEK events as "LOCATION FILE OFFSET WHENCE" (the handle's file from the definitions)
    trace_other "$_d/exp" | awk -v defs="$_d.defs" '
        BEGIN { while ((getline line < defs) > 0) if (line ~ /^IO_HANDLE /) {
                    split(line, w, " "); f = line; sub(/.*File: "file:\/\/[^"]*\//, "", f); sub(/".*/, "", f); file[w[2]] = f } }
        $1 == "IO_SEEK" { h = $0; sub(/.*Handle: "[^"]*" </, "", h); sub(/>.*/, "", h)
                          o = $0; sub(/.*Offset Request: /, "", o); sub(/,.*/, "", o)
                          wh = $0; sub(/.*Whence: /, "", wh); sub(/,.*/, "", wh)
                          if (file[h] ~ /^(m\.dat|iso[01]\.txt)$/) print $2, file[h], o, wh }' | sort >"$_d.seeks"
    expect_eq "$(tr '\n' ';' <"$_d.seeks")" "0 iso0.txt 0 FROM_START;0 m.dat 1024 FROM_START;1 iso1.txt 10 FROM_START;1 m.dat 5120 FROM_START;" \
        "$_d: the MPI_File_seek and the fseek of each rank"
    expect_eq "$(trace_other "$_d/exp" | awk '$1 == "IO_OPERATION_BEGIN" && /MPI_File/ && /Operation Flags: \{COLLECTIVE\}/ { n[$2]++ } END { for (l in n) print l, n[l] }' | sort | tr '\n' ';')" \
        "0 2;1 2;" "$_d: write_at_all and read_at_all are collective operations on each rank"
    expect_eq "$(trace_other "$_d/exp" | awk '($1 == "IO_OPERATION_BEGIN" && /Operation Flags: \{NON_BLOCKING\}/) || $1 == "IO_OPERATION_ISSUED" { if (/Handle: "MPI_File/) print $2, $1 }' | sort | tr '\n' ';')" \
        "0 IO_OPERATION_BEGIN;0 IO_OPERATION_ISSUED;1 IO_OPERATION_BEGIN;1 IO_OPERATION_ISSUED;" \
        "$_d: MPI_File_iread_at: a non-blocking operation begun and issued on each rank (completed in MPI_Wait)"
    expect_eq "$(grep -c '^IO_HANDLE .*Name: "MPI_File 1".*file://'"$_f"'/m.dat".*I/O Paradigm: "MPI I/O".*Communicator: "MPI_COMM_WORLD"' "$_d.defs")" 2 \
        "$_d: one MPI-IO handle of m.dat on MPI_COMM_WORLD per process"
    expect_eq "$(trace_other "$_d/exp" | awk '/Handle: "MPI_File 1"/ && ($1 == "IO_CREATE_HANDLE" || $1 == "IO_DESTROY_HANDLE") { print $1, $2 }' | sort | tr '\n' ';')" \
        "IO_CREATE_HANDLE 0;IO_CREATE_HANDLE 1;IO_DESTROY_HANDLE 0;IO_DESTROY_HANDLE 1;" \
        "$_d: MPI_File_open creates and MPI_File_close destroys the handle on each rank"
    expect_eq "$(trace_check_nesting "$_d/exp")" 0 "$_d: well-nested trace"
    # scorep-report: m.dat's MPI-IO row (4 writes of 1024 and 2 of 2048 bytes, 2 reads of
    # 2048 and 2 of 1024: all in the 1K-10K bucket) and each rank's own files
    io_report "$_d/exp" "$_d.report" | awk -v f="$_f" '$1 == "MPI-IO" || $2 ~ /\/(rank[01]\.dat|iso[01]\.txt)$/ { sub(f "/", "", $2); print }' >"$_d.rows"
    _z=0,0,0,0,0,0,0,0,0,0
    expect_eq "$(cat "$_d.rows")" "ISOC iso0.txt 0 50 0 1 0 0 ranks 0 sizes $_z / 1,0,0,0,0,0,0,0,0,0
ISOC iso1.txt 0 50 0 1 0 0 ranks 1 sizes $_z / 1,0,0,0,0,0,0,0,0,0
MPI-IO m.dat 6144 8192 4 6 0 0 ranks 0 1 sizes 0,0,4,0,0,0,0,0,0,0 / 0,0,6,0,0,0,0,0,0,0
POSIX rank0.dat 0 100 0 1 0 0 ranks 0 sizes $_z / 0,1,0,0,0,0,0,0,0,0
POSIX rank1.dat 0 200 0 1 0 0 ranks 1 sizes $_z / 0,1,0,0,0,0,0,0,0,0" "$_d: scorep-report's rows of m.dat (MPI-IO) and rank<r>.dat"
    if command -v chromium >/dev/null 2>&1; then
        expect_eq "$(io_render "$_d.report" | grep -E '^(status|io MPI-IO)')" "io MPI-IO $_f/m.dat 6144 8192 4 6 0 0 ranks 0 1
status ok" "$_d: the rendered report shows the MPI-IO row"
    else
        skip_part chromium
    fi
}

mkdir linked && cd linked
SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp timeout 120 mpirun -np 2 ../io_mpi >out 2>err ||
    fail "linked: mpirun exit status $?"
cd ..
check_run linked main/

# without a trace: the report's rows from the two ranks' io_summary.<rank>.tsv
mkdir notrace && cd notrace
SCOREP_EXPERIMENT_DIRECTORY=exp timeout 120 mpirun -np 2 ../io_mpi >out 2>err ||
    fail "no trace: mpirun exit status $?"
cd ..
expect_eq "$(cd notrace/exp && ls io_summary.*.tsv | tr '\n' ' ')" "io_summary.0.tsv io_summary.1.tsv " \
    "no trace: one summary per rank"
_f=$(cd notrace && pwd -P)
io_report notrace/exp notrace.report | awk -v f="$_f" '$1 == "MPI-IO" || $2 ~ /\/(rank[01]\.dat|iso[01]\.txt)$/ || /^from/ { sub(f "/", "", $2); print }' >notrace.rows
cp linked.rows expected.rows
echo "from the summaries" >>expected.rows
expect_eq "$(cat notrace.rows)" "$(cat expected.rows)" "no trace: the same rows as from the linked run's trace"

# split collectives (test/programs/io_mpi_split.c): each _begin begins a collective
# non-blocking operation and issues it, its _end completes it with the status's bytes
mpicc -o split_plain "$PROGRAMS/io_mpi_split.c" || fail "mpicc io_mpi_split.c"
mkdir split_plain.d && (cd split_plain.d && timeout 120 mpirun -np 2 ../split_plain >out) || fail "the plain split program"
expect_eq "$(cat split_plain.d/out)" "split ranks 2 bytes 7168 same 2" "split, plain: output"
scorep_cc --io=posix,mpiio mpicc -o split_io "$PROGRAMS/io_mpi_split.c"
mkdir split.d && cd split.d
SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp timeout 120 mpirun -np 2 ../split_io >out 2>err ||
    fail "split: mpirun exit status $?"
cd ..
cmp split_plain.d/out split.d/out || fail "split: output differs from the plain run"
cmp split_plain.d/s.dat split.d/s.dat || fail "split: s.dat differs from the plain run"
for _m in "write_at_all_end io_bytes_written 1024" "write_all_end io_bytes_written 512" \
    "write_ordered_end io_bytes_written 256" "read_at_all_end io_bytes_read 1024" \
    "read_all_end io_bytes_read 512" "read_ordered_end io_bytes_read 256" \
    "write_at_all_begin io_bytes_written 0" "read_ordered_begin io_bytes_read 0"; do
    set -- $_m
    expect_eq "$(profile_dump split.d/exp -m visits,$2 | awk -F'\t' -v p="main/MPI_File_$1" '$2 == p { print $3, $4, $5 }' | tr '\n' ';')" \
        "0 visits=1 $2=$3;1 visits=1 $2=$3;" "split: MPI_File_$1 on each rank: 1 visit, $3 bytes"
done
_f=$(cd split.d && pwd -P)
expect_eq "$(io_ops split.d/exp | awk -v f="$_f/s.dat" '$1 == "MPI-IO" && $2 == f { $2 = "s.dat"; print }')" "MPI-IO s.dat READ 0 3 1792
MPI-IO s.dat READ 1 3 1792
MPI-IO s.dat WRITE 0 3 1792
MPI-IO s.dat WRITE 1 3 1792" "split: 3 reads and 3 writes of 1792 bytes per rank in the trace"
expect_eq "$(trace_other split.d/exp | awk '/Handle: "MPI_File/ && (($1 == "IO_OPERATION_BEGIN" && /Operation Flags: \{NON_BLOCKING, COLLECTIVE\}/) || $1 == "IO_OPERATION_ISSUED") { n[$2 " " $1]++ } END { for (k in n) print k, n[k] }' | sort | tr '\n' ';')" \
    "0 IO_OPERATION_BEGIN 6;0 IO_OPERATION_ISSUED 6;1 IO_OPERATION_BEGIN 6;1 IO_OPERATION_ISSUED 6;" \
    "split: each _begin: a collective non-blocking begin and its issue, 6 per rank"
expect_eq "$(trace_check_nesting split.d/exp)" 0 "split: well-nested trace"
expect_eq "$(io_report split.d/exp split.report | awk -v f="$_f/s.dat" '$1 == "MPI-IO" && $2 == f { $2 = "s.dat"; print }')" \
    "MPI-IO s.dat 3584 3584 6 6 0 0 ranks 0 1 sizes 0,4,2,0,0,0,0,0,0,0 / 0,4,2,0,0,0,0,0,0,0" \
    "split: scorep-report's row of s.dat"

mkdir run && cd run
SCOREP_RUN_LIBDIR="$top_builddir/.libs" SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=exp \
    timeout 120 mpirun -np 2 "$top_builddir/scorep-run" --io=posix,mpiio ../io_plain >out 2>err ||
    fail "scorep-run: mpirun exit status $?"
cd ..
check_run run ""
done_ok
