/* SPDX-License-Identifier: BSD-3-Clause */
/* plugin_notes.c: reads the compiler plugins' notes of what they left uninstrumented
 * (plugin_notes.h) from the PT_NOTE segments of every loaded object, for MANIFEST.md. */
#include "symbols/plugin_notes.h"

#include <link.h>
#include <string.h>

/* One translation unit's note, checked. */
typedef struct {
    uint32_t w[SCOREP_LEFTOUT_WORDS];
    const char *file;   /* NUL-terminated within the note */
    const char *names;  /* `listed` entries follow */
    const char *object; /* the loaded object's name, "" for the program */
} leftout_note;

enum { W_VERSION, W_FLAGS, W_UNIT, W_THRESHOLD, W_FUNCTIONS, W_COUNT };
#define W_LISTED (W_COUNT + SCOREP_LEFTOUT_REASONS)

/* The descriptor as the plugins write it, or 0 when it is not (another version, cut short). */
static int parse(const char *desc, size_t size, leftout_note *n)
{
    size_t head = sizeof n->w;
    if (size < head + 1)
        return 0;
    memcpy(n->w, desc, head);
    if (n->w[W_VERSION] != SCOREP_LEFTOUT_VERSION)
        return 0;
    const char *p = desc + head, *end = desc + size;
    n->file = p;
    for (uint32_t i = 0; i <= n->w[W_LISTED]; i++) {
        const char *nul = memchr(p, '\0', (size_t)(end - p));
        if (!nul || (i > 0 && (p[0] < '0' || p[0] >= '0' + SCOREP_LEFTOUT_REASONS)))
            return 0;
        if (i == 0)
            n->names = nul + 1;
        p = nul + 1;
    }
    return 1;
}

typedef void (*note_fn)(const leftout_note *n, void *arg);

typedef struct {
    note_fn fn;
    void *arg;
} walk;

static size_t aligned(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

/* The notes of one PT_NOTE segment; its alignment decides the padding (gABI: 4, or 8 for
 * .note.gnu.property's segments). */
static void segment(const char *p, size_t size, size_t align, const char *object, walk *w)
{
    const size_t hdr = sizeof(ElfW(Nhdr));
    while (size >= hdr) {
        ElfW(Nhdr) h;
        memcpy(&h, p, hdr);
        size_t desc_at = aligned(hdr + h.n_namesz, align);
        size_t next = aligned(desc_at + h.n_descsz, align);
        if (desc_at > size || h.n_descsz > size - desc_at)
            return;
        leftout_note n;
        if (h.n_type == SCOREP_LEFTOUT_NOTE_TYPE && h.n_namesz == sizeof SCOREP_LEFTOUT_NOTE_NAME &&
            memcmp(p + hdr, SCOREP_LEFTOUT_NOTE_NAME, h.n_namesz) == 0 &&
            parse(p + desc_at, h.n_descsz, &n)) {
            n.object = object;
            w->fn(&n, w->arg);
        }
        if (next >= size)
            return;
        p += next;
        size -= next;
    }
}

static int object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_NOTE)
            segment((const char *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz,
                    ph->p_align == 8 ? 8 : 4, info->dlpi_name ? info->dlpi_name : "", arg);
    }
    return 0;
}

static void each_note(note_fn fn, void *arg)
{
    walk w = {fn, arg};
    dl_iterate_phdr(object, &w);
}

typedef struct {
    unsigned units, links, with_leftout, lto;
} summary;

static uint32_t left_out(const leftout_note *n)
{
    uint32_t sum = 0;
    for (unsigned r = 0; r < SCOREP_LEFTOUT_REASONS; r++)
        sum += n->w[W_COUNT + r];
    return sum;
}

static void sum_up(const leftout_note *n, void *arg)
{
    summary *s = arg;
    if (n->w[W_FLAGS] & SCOREP_LEFTOUT_LINK)
        s->links++;
    else
        s->units++;
    s->with_leftout += left_out(n) > 0;
    s->lto += (n->w[W_FLAGS] & SCOREP_LEFTOUT_LTO) != 0;
}

static const char *const reason_word[SCOREP_LEFTOUT_REASONS] = {"inlined", "below threshold",
                                                                "filtered"};

/* - `FILE`: 2 of 5 functions: 1 inlined everywhere or unused, 1 below 200 statements without
 *   loops or calls, 0 filtered at compile time: `a` (inlined), `b` (below threshold) */
typedef struct {
    FILE *f;
    unsigned link; /* link-time units listed so far */
} listing;

static void unit_line(const leftout_note *n, void *arg)
{
    listing *l = arg;
    FILE *f = l->f;
    uint32_t total = left_out(n);
    if (total == 0)
        return;
    const uint32_t *c = n->w + W_COUNT;
    if (n->w[W_FLAGS] & SCOREP_LEFTOUT_LINK)
        fprintf(f, "- link-time unit %u of gcc -flto", ++l->link);
    else
        fprintf(f, "- `%s`", n->file);
    fprintf(f, "%s%s: %u of %u functions: %u inlined everywhere or unused",
            n->object[0] ? " in " : "", n->object, total, n->w[W_FUNCTIONS],
            c[SCOREP_LEFTOUT_INLINED]);
    if (n->w[W_THRESHOLD] > 0)
        fprintf(f, ", %u below %u %s without loops or calls", c[SCOREP_LEFTOUT_THRESHOLD],
                n->w[W_THRESHOLD],
                n->w[W_UNIT] == SCOREP_LEFTOUT_INSTRUCTIONS ? "instructions" : "statements");
    fprintf(f, ", %u filtered at compile time:", c[SCOREP_LEFTOUT_FILTERED]);
    const char *p = n->names;
    for (uint32_t i = 0; i < n->w[W_LISTED]; i++) {
        fprintf(f, "%s `%s` (%s)", i ? "," : "", p + 1, reason_word[p[0] - '0']);
        p += strlen(p) + 1;
    }
    if (total > n->w[W_LISTED])
        fprintf(f, "%s and %u more", n->w[W_LISTED] ? "," : "", total - n->w[W_LISTED]);
    fputc('\n', f);
}

int scorep_plugin_notes_write(FILE *f)
{
    summary s = {0, 0, 0, 0};
    each_note(sum_up, &s);
    if (s.units + s.links == 0)
        return 0;
    fprintf(f, "\n" SCOREP_LEFTOUT_HEADING "\n");
    if (s.with_leftout == 0)
        fprintf(f, "%u translation unit%s compiled by the plugin: nothing left out.\n", s.units,
                s.units == 1 ? "" : "s");
    else
        fprintf(f,
                "%u of %u %s compiled by the plugin left functions uninstrumented (scorep-cc "
                "--instrument-inlined, --instrument-threshold=0 keep them; "
                "docs/user-guide.md):\n",
                s.with_leftout, s.units + s.links,
                s.links        ? "translation and link-time units"
                : s.units == 1 ? "translation unit"
                               : "translation units");
    listing l = {f, 0};
    if (s.with_leftout > 0)
        each_note(unit_line, &l);
    if (s.lto > 0 && s.links > 0)
        fprintf(f,
                "%u translation unit%s compiled with gcc -flto: the plugin in lto1 decided at "
                "link time what to leave out (with several link-time units, a function inlined "
                "in one may be kept in another).\n",
                s.lto, s.lto == 1 ? "" : "s");
    else if (s.lto > 0)
        fprintf(f,
                "%u translation unit%s compiled with gcc -flto: every inlined copy kept its check "
                "and its visits (--instrument-inlined, or linked without the plugin in lto1).\n",
                s.lto, s.lto == 1 ? "" : "s");
    return ferror(f) ? -1 : 0;
}
