/* SPDX-License-Identifier: BSD-3-Clause */
/* defs_io.h: I/O definitions: files (by name) and handles (an open file of one I/O paradigm:
 * a POSIX descriptor, an ISO C stream, an MPI file). Deduplicated by content; read lock-free
 * by id like the other definitions. */
#ifndef SCOREP_DEFS_IO_H
#define SCOREP_DEFS_IO_H

#include <stdint.h>

/* The I/O paradigms, identified as Score-P identifies them (IoParadigm "identification"). */
typedef enum {
    SCOREP_IO_POSIX,
    SCOREP_IO_ISOC,
    SCOREP_IO_MPIIO,
    SCOREP_IO_PARADIGMS
} scorep_io_paradigm;

/* handle flags: the values of OTF2_IoHandleFlag */
enum { SCOREP_IO_HANDLE_PRE_CREATED = 1, SCOREP_IO_HANDLE_ALL_PROXY = 2 };

typedef struct {
    const char *name;
} scorep_io_file_def;

typedef struct {
    const char *name;  /* the descriptor / stream, e.g. "fd 5", "STDOUT_FILENO", "stdout" */
    uint32_t file;     /* io file id, or SCOREP_INVALID_ID (a pipe, socket: no file) */
    uint32_t paradigm; /* scorep_io_paradigm */
    uint32_t flags;    /* SCOREP_IO_HANDLE_* */
    uint32_t comm;     /* MPI-IO: the communicator of MPI_File_open (defs id), else invalid */
    uint32_t access;   /* pre-created handles: OTF2_IoAccessMode */
} scorep_io_handle_def;

uint32_t scorep_defs_io_file(const char *name);
uint32_t scorep_defs_io_handle(const scorep_io_handle_def *key);
const scorep_io_file_def *scorep_defs_io_file_get(uint32_t id);
const scorep_io_handle_def *scorep_defs_io_handle_get(uint32_t id);
uint32_t scorep_defs_io_file_count(void);
/* substrate plugins' new_definition_handle: called with the id of every file and handle
 * defined from now on (by the defining thread, after the definition is complete) */
void scorep_defs_on_new_io(void (*file_hook)(uint32_t id), void (*handle_hook)(uint32_t id));
uint32_t scorep_defs_io_handle_count(void);

const char *scorep_io_paradigm_id(uint32_t p);   /* "POSIX", "ISOC", "MPI-IO" */
const char *scorep_io_paradigm_name(uint32_t p); /* "POSIX I/O", "ISO C I/O", "MPI I/O" */

#endif
