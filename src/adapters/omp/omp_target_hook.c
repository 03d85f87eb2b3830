/* SPDX-License-Identifier: BSD-3-Clause */
/* omp_target_hook.c: replaces one imported function of one loaded shared object by
 * rewriting that object's GOT entries for it (its JUMP_SLOT and GLOB_DAT relocations). The
 * target-offload adapter uses it for libomptarget's dlsym: libomptarget finds its device
 * plugin's functions with dlsym(handle, ...), which neither LD_PRELOAD nor link order can
 * interpose, and only that object's lookups are to be seen (a global dlsym wrapper would
 * change RTLD_NEXT's meaning for every other caller). */
#include "adapters/omp/omp_target.h"

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__)
typedef struct {
    uintptr_t base; /* the object's load address (dlpi_addr) */
    const char *symbol;
    void *replacement;
    void **old;
    int found, patched;
} patch_job;

typedef struct {
    const ElfW(Sym) *symtab;
    const char *strtab;
    const ElfW(Rela) *jmprel, *rela;
    size_t jmprel_size, rela_size;
} dyn_tables;

static void read_dynamic(const struct dl_phdr_info *info, dyn_tables *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type != PT_DYNAMIC)
            continue;
        const ElfW(Dyn) *d = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
        /* the loader has relocated d_ptr of these entries to addresses already (glibc) */
        for (; d->d_tag != DT_NULL; d++) {
            switch (d->d_tag) {
            case DT_SYMTAB:
                t->symtab = (const ElfW(Sym) *)d->d_un.d_ptr;
                break;
            case DT_STRTAB:
                t->strtab = (const char *)d->d_un.d_ptr;
                break;
            case DT_JMPREL:
                t->jmprel = (const ElfW(Rela) *)d->d_un.d_ptr;
                break;
            case DT_PLTRELSZ:
                t->jmprel_size = d->d_un.d_val;
                break;
            case DT_RELA:
                t->rela = (const ElfW(Rela) *)d->d_un.d_ptr;
                break;
            case DT_RELASZ:
                t->rela_size = d->d_un.d_val;
                break;
            default:
                break;
            }
        }
    }
}

/* One GOT slot: made writable when it lies in a read-only page (RELRO, BIND_NOW). */
static int write_slot(void **slot, void *value)
{
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)slot & ~(uintptr_t)(page - 1);
    if (mprotect((void *)lo, (size_t)page, PROT_READ | PROT_WRITE) != 0)
        return -1;
    __atomic_store_n(slot, value, __ATOMIC_RELEASE);
    return 0;
}

static void patch_table(patch_job *j, const dyn_tables *t, const ElfW(Rela) *r, size_t size)
{
    for (size_t i = 0; r && i < size / sizeof *r; i++) {
        unsigned long type = ELF64_R_TYPE(r[i].r_info);
        if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT)
            continue;
        const ElfW(Sym) *s = &t->symtab[ELF64_R_SYM(r[i].r_info)];
        if (strcmp(t->strtab + s->st_name, j->symbol) != 0)
            continue;
        void **slot = (void **)(j->base + r[i].r_offset);
        j->found = 1;
        if (*slot == j->replacement)
            continue;
        if (j->old && !*j->old)
            *j->old = *slot;
        if (write_slot(slot, j->replacement) == 0)
            j->patched++;
    }
}

static int patch_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    patch_job *j = arg;
    if (info->dlpi_addr != j->base)
        return 0;
    dyn_tables t;
    read_dynamic(info, &t);
    if (!t.symtab || !t.strtab)
        return 1;
    patch_table(j, &t, t.jmprel, t.jmprel_size);
    patch_table(j, &t, t.rela, t.rela_size);
    return 1;
}

int omp_target_patch_import(uintptr_t base, const char *symbol, void *replacement, void **old)
{
    patch_job j = {base, symbol, replacement, old, 0, 0};
    dl_iterate_phdr(patch_object, &j);
    return j.found ? j.patched : -1;
}
#else
int omp_target_patch_import(uintptr_t base, const char *symbol, void *replacement, void **old)
{
    (void)base;
    (void)symbol;
    (void)replacement;
    (void)old;
    return -1; /* relocation types of other architectures: not done */
}
#endif
