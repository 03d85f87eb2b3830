/* SPDX-License-Identifier: BSD-3-Clause */
/* io_mpi.c: MPI-IO, POSIX and ISO C I/O on every rank for test_io_mpi.sh: on m.dat (shared)
 * two independent writes of 1024 bytes (MPI_File_write_at; MPI_File_seek + MPI_File_write)
 * and one collective write of 2048 bytes (MPI_File_write_at_all), then a collective read of
 * the 2048 bytes back and a non-blocking read of the first 1024 (MPI_File_iread_at,
 * MPI_Wait); on rank<r>.dat (own) one POSIX write of 100 * (r + 1) bytes; on
 * iso<r>.txt (own) fseek to 10 * r and fwrite of 50 bytes. */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    static char buf[4096];
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    memset(buf, 'a' + rank, sizeof buf);
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, "m.dat", MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_Offset base = (MPI_Offset)rank * 4096;
    MPI_File_write_at(fh, base, buf, 1024, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_File_seek(fh, base + 1024, MPI_SEEK_SET);
    MPI_File_write(fh, buf, 1024, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_File_write_at_all(fh, base + 2048, buf, 2048, MPI_BYTE, MPI_STATUS_IGNORE);
    MPI_Status st;
    MPI_File_read_at_all(fh, base + 2048, buf, 2048, MPI_BYTE, &st);
    int got = 0;
    MPI_Get_count(&st, MPI_BYTE, &got);
    MPI_Request req;
    MPI_File_iread_at(fh, base, buf, 1024, MPI_BYTE, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    char name[32];
    snprintf(name, sizeof name, "rank%d.dat", rank);
    int fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    ssize_t w = write(fd, buf, 100 * (size_t)(rank + 1));
    close(fd);
    snprintf(name, sizeof name, "iso%d.txt", rank);
    FILE *f = fopen(name, "w");
    fseek(f, 10L * rank, SEEK_SET);
    size_t items = fwrite(buf, 1, 50, f);
    fclose(f);
    long local = got + w + (long)items, total = 0;
    MPI_Reduce(&local, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("ranks %d total %ld\n", size, total);
    MPI_Finalize();
    return 0;
}
