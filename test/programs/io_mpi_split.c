/* SPDX-License-Identifier: BSD-3-Clause */
/* io_mpi_split.c: MPI-IO's split collectives on every rank for test_io_mpi.sh: on s.dat
 * (shared) MPI_File_write_at_all_begin/_end of 1024 bytes at rank * 1024, after a seek to
 * 2048 + rank * 512 MPI_File_write_all_begin/_end of 512, MPI_File_write_ordered_begin/_end
 * of 256 (the shared pointer, at 3072 + rank * 256); then the same three as reads of the same
 * bytes (the shared pointer back at 3072 first): per rank 3 writes of 1792 bytes and 3 reads
 * of 1792 bytes. Prints the bytes the statuses count, summed over the ranks. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int bytes(MPI_Status *st)
{
    int n = 0;
    MPI_Get_count(st, MPI_BYTE, &n);
    return n;
}

int main(int argc, char **argv)
{
    static char buf[1024], in[1024];
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    memset(buf, 'A' + rank, sizeof buf);
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, "s.dat", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_Status st;
    long local = 0;
    MPI_File_write_at_all_begin(fh, (MPI_Offset)rank * 1024, buf, 1024, MPI_BYTE);
    MPI_File_write_at_all_end(fh, buf, &st);
    local += bytes(&st);
    MPI_File_seek(fh, 2048 + (MPI_Offset)rank * 512, MPI_SEEK_SET);
    MPI_File_write_all_begin(fh, buf, 512, MPI_BYTE);
    MPI_File_write_all_end(fh, buf, &st);
    local += bytes(&st);
    MPI_File_seek_shared(fh, 3072, MPI_SEEK_SET);
    MPI_File_write_ordered_begin(fh, buf, 256, MPI_BYTE);
    MPI_File_write_ordered_end(fh, buf, &st);
    local += bytes(&st);
    MPI_File_read_at_all_begin(fh, (MPI_Offset)rank * 1024, in, 1024, MPI_BYTE);
    MPI_File_read_at_all_end(fh, in, &st);
    local += bytes(&st);
    MPI_File_seek(fh, 2048 + (MPI_Offset)rank * 512, MPI_SEEK_SET);
    MPI_File_read_all_begin(fh, in, 512, MPI_BYTE);
    MPI_File_read_all_end(fh, in, &st);
    local += bytes(&st);
    MPI_File_seek_shared(fh, 3072, MPI_SEEK_SET);
    MPI_File_read_ordered_begin(fh, in, 256, MPI_BYTE);
    MPI_File_read_ordered_end(fh, in, &st);
    local += bytes(&st);
    int same = memcmp(in, buf, 256) == 0;
    MPI_File_close(&fh);
    long total = 0;
    int all_same = 0;
    MPI_Reduce(&local, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&same, &all_same, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("split ranks %d bytes %ld same %d\n", size, total, all_same);
    MPI_Finalize();
    return 0;
}
