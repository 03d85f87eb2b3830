/* SPDX-License-Identifier: BSD-3-Clause */
/* cube_tar.h: private ustar helpers of the Cube library: a streaming writer whose members
 * may be patched after the fact, and a reader that lists the members of a mapped archive. */
#ifndef SCOREP_CUBE_TAR_H
#define SCOREP_CUBE_TAR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* ------------------------------------------------------------------ writer */
typedef struct {
    FILE *fp;
    off_t header_at; /* offset of the open member's header, -1 when none is open */
    off_t data_at;   /* offset of the open member's first data byte */
    char name[100];  /* the open member's name, needed again when its size is known */
} cube_tar_writer;

/* Writes into an already opened, seekable stream. */
void cube_tar_writer_init(cube_tar_writer *tw, FILE *fp);
/* Starts a member; its content is then written to tw->fp directly (fwrite, fprintf, ...).
 * The size is filled in by cube_tar_end_member, which is why the stream must be seekable. */
int cube_tar_begin_member(cube_tar_writer *tw, const char *name);
/* Offset of the open member's data start, for callers that patch their own content. */
off_t cube_tar_member_start(const cube_tar_writer *tw);
/* Ends the open member; one of a multiple of 512 bytes is followed by an empty member
 * "NAME.pad", the block that CubeLib's tar reader skips after it (cube_tar.c). */
int cube_tar_end_member(cube_tar_writer *tw);
/* Writes the two zero blocks that end an archive. */
int cube_tar_finish(cube_tar_writer *tw);
/* The 512-byte header of a member of known size, for writers that place members at
 * computed offsets themselves (cube_plan.c). */
void cube_tar_header(unsigned char block[512], const char *name, uint64_t size);

/* ------------------------------------------------------------------ reader */
typedef struct {
    char *name;
    const unsigned char *data;
    uint64_t size;
} cube_tar_member;

/* Lists the regular-file members of an archive held in memory. The member data point into
 * buf. Returns 0, or -1 with a message in err. *members must be freed with
 * cube_tar_members_free. */
int cube_tar_list(const unsigned char *buf, size_t len, cube_tar_member **members, size_t *n,
                  char *err, size_t errlen);
void cube_tar_members_free(cube_tar_member *members, size_t n);

#endif
