/* SPDX-License-Identifier: BSD-3-Clause */
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

/* substrate plugins' new_definition_handle (scorep_defs_on_new_io) */
static void (*file_hook)(uint32_t id), (*handle_hook)(uint32_t id);

void scorep_defs_on_new_io(void (*on_file)(uint32_t id), void (*on_handle)(uint32_t id))
{
    __atomic_store_n(&file_hook, on_file, __ATOMIC_RELEASE);
    __atomic_store_n(&handle_hook, on_handle, __ATOMIC_RELEASE);
}

static void announce(void (**hook)(uint32_t), bool created, uint32_t id)
{
    void (*h)(uint32_t) = __atomic_load_n(hook, __ATOMIC_ACQUIRE);
    if (created && h)
        h(id);
}

uint32_t scorep_defs_io_file(const char *name)
{
    bool created = false;
    uint32_t id = defs_table_intern_new(&files, defs_hash_str(977, name), name, file_equal,
                                        file_init, &created);
    announce(&file_hook, created, id);
    return id;
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
    bool created = false;
    uint32_t id = defs_table_intern_new(&handles, h, key, handle_equal, handle_init, &created);
    announce(&handle_hook, created, id);
    return id;
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
