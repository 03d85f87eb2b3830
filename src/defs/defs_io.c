/* defs_io.c: I/O file and handle definitions (see defs_io.h). */
#include "defs/defs_io.h"
#include "defs/defs.h"
#include "defs/defs_table.h"

#include <stdlib.h>
#include <string.h>

static defs_table files = DEFS_TABLE_INIT(scorep_io_file_def);
static defs_table handles = DEFS_TABLE_INIT(scorep_io_handle_def);

static int file_equal(const void *e, const void *k)
{
    return strcmp(((const scorep_io_file_def *)e)->name, k) == 0;
}

static int file_init(void *e, const void *k)
{
    return (((scorep_io_file_def *)e)->name = strdup(k)) ? 0 : -1;
}

uint32_t scorep_defs_io_file(const char *name)
{
    return defs_table_intern(&files, defs_hash_str(977, name), name, file_equal, file_init);
}

static int handle_equal(const void *e, const void *k)
{
    const scorep_io_handle_def *a = e, *b = k;
    return a->file == b->file && a->paradigm == b->paradigm && a->flags == b->flags &&
           a->comm == b->comm && a->access == b->access && strcmp(a->name, b->name) == 0;
}

static int handle_init(void *e, const void *k)
{
    scorep_io_handle_def *d = e;
    *d = *(const scorep_io_handle_def *)k;
    return (d->name = strdup(d->name)) ? 0 : -1;
}

uint32_t scorep_defs_io_handle(const scorep_io_handle_def *key)
{
    uint64_t h = defs_hash_str(key->file * 31ull + key->paradigm * 7ull + key->flags, key->name);
    return defs_table_intern(&handles, h, key, handle_equal, handle_init);
}

const scorep_io_file_def *scorep_defs_io_file_get(uint32_t id)
{
    return defs_table_get(&files, id);
}

const scorep_io_handle_def *scorep_defs_io_handle_get(uint32_t id)
{
    return defs_table_get(&handles, id);
}

uint32_t scorep_defs_io_file_count(void)
{
    return defs_table_count(&files);
}

uint32_t scorep_defs_io_handle_count(void)
{
    return defs_table_count(&handles);
}

const char *scorep_io_paradigm_id(uint32_t p)
{
    static const char *const ids[] = {"POSIX", "ISOC", "MPI-IO"};
    return p < SCOREP_IO_PARADIGMS ? ids[p] : "unknown";
}

const char *scorep_io_paradigm_name(uint32_t p)
{
    static const char *const names[] = {"POSIX I/O", "ISO C I/O", "MPI I/O"};
    return p < SCOREP_IO_PARADIGMS ? names[p] : "unknown";
}
