/* SPDX-License-Identifier: BSD-3-Clause */
/* symbols.c: maps code addresses of the own process to function name, source file and line
 * with one cached libdwfl session over the objects the dynamic linker has loaded (symbols.h). */
#include "symbols/symbols.h"
#include "filter/filter.h"

#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef char *(*demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

static Dwfl *session;
static char *debuginfo_path; /* NULL: libdwfl's default search path */
static bool demangler_looked_up;
static demangle_fn demangler;

/* dwfl_standard_find_debuginfo ends by asking debuginfod servers when DEBUGINFOD_URLS is set;
 * a measured program must not block on the network, so then only the local build-id tree
 * (where Debian's -dbgsym packages install) is searched. */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
                          const char *file_name, const char *debuglink_file,
                          GElf_Word debuglink_crc, char **debuginfo_file_name)
{
    const char *urls = getenv("DEBUGINFOD_URLS");
    if (urls == NULL || urls[0] == '\0')
        return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
                                            debuglink_crc, debuginfo_file_name);
    return dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
                                        debuglink_crc, debuginfo_file_name);
}

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = find_debuginfo,
    .debuginfo_path = &debuginfo_path,
};

/* Counters of dlopen/dlclose events that the dynamic linker reports with every object. */
static unsigned long long seen_adds, seen_subs;

/* Address range of a loaded object. It starts where libdwfl expects it (first PT_LOAD rounded
 * down to its alignment) so that libdwfl derives the load bias itself. False without PT_LOAD. */
static bool object_range(const struct dl_phdr_info *info, GElf_Addr *low, GElf_Addr *high)
{
    bool found = false;
    *low = *high = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        if (!found)
            *low = info->dlpi_addr + (ph->p_vaddr & -(ph->p_align ? ph->p_align : 1));
        found = true;
        if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > *high)
            *high = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
    }
    return found;
}

/* dl_iterate_phdr callback: the first object is the executable (empty name); objects
 * without a file (the vDSO) are skipped; relative names (dlopen("./x.so"), relative
 * LD_LIBRARY_PATH entries) are made absolute because libdwfl opens modules by absolute path. */
static int report_callback(struct dl_phdr_info *info, size_t size, void *data)
{
    bool *is_first = data;
    char path[PATH_MAX];
    (void)size;
    seen_adds = info->dlpi_adds;
    seen_subs = info->dlpi_subs;
    if (*is_first) {
        *is_first = false;
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
        if (n <= 0)
            return 0;
        path[n] = '\0';
    } else if (info->dlpi_name == NULL || strchr(info->dlpi_name, '/') == NULL) {
        return 0;
    } else if (info->dlpi_name[0] == '/') {
        snprintf(path, sizeof path, "%s", info->dlpi_name);
    } else if (getcwd(path, sizeof path) == NULL ||
               strlen(path) + 1 + strlen(info->dlpi_name) >= sizeof path) {
        return 0;
    } else {
        strcat(strcat(path, "/"), info->dlpi_name);
        scorep_filter_simplify_path(path);
    }
    GElf_Addr low, high;
    if (!object_range(info, &low, &high) || dwfl_report_module(session, path, low, high) != NULL)
        return 0;
    return -1;
}

/* (Re-)reads the list of loaded objects from the dynamic linker, not from /proc/self/maps:
 * libelf maps the ELF files it reads, and those mappings would distort module ranges.
 * Objects still loaded keep their symbol tables and DWARF; unloaded ones are dropped. */
static int report_modules(void)
{
    bool is_first = true;
    dwfl_report_begin(session);
    int rc = dl_iterate_phdr(report_callback, &is_first);
    if (dwfl_report_end(session, NULL, NULL) != 0)
        return -1;
    return rc == 0 ? 0 : -1;
}

static int read_counters(struct dl_phdr_info *info, size_t size, void *data)
{
    unsigned long long *counters = data;
    (void)size;
    counters[0] = info->dlpi_adds;
    counters[1] = info->dlpi_subs;
    return 1;
}

/* True when objects were loaded or unloaded since the last report. */
static bool objects_changed(void)
{
    unsigned long long counters[2] = {seen_adds, seen_subs};
    dl_iterate_phdr(read_counters, counters);
    return counters[0] != seen_adds || counters[1] != seen_subs;
}

static Dwfl *get_session(void)
{
    if (session != NULL)
        return session;
    session = dwfl_begin(&callbacks);
    if (session != NULL && report_modules() != 0) {
        dwfl_end(session);
        session = NULL;
    }
    return session;
}

/* Re-reports when objects were dlopen'ed (a miss otherwise) or dlclose'd (a stale module
 * could otherwise claim the address of a library loaded in its place) since the last time. */
static Dwfl_Module *find_module(uintptr_t addr)
{
    if (get_session() == NULL)
        return NULL;
    if (objects_changed() && report_modules() != 0)
        return NULL;
    return dwfl_addrmodule(session, addr);
}

/* Non-PIE executables that take the address of a shared-library function make a PLT entry
 * its canonical address, and the library's -fPIC code then passes that entry to
 * __cyg_profile_func_enter. The executable holds it as an undefined symbol with a value. */
static const char *canonical_plt_name(Dwfl_Module *mod, uintptr_t addr)
{
    int n = dwfl_module_getsymtab(mod);
    for (int i = 1; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr value = 0;
        GElf_Word shndx = 0;
        const char *name = dwfl_module_getsym_info(mod, i, &sym, &value, &shndx, NULL, NULL);
        if (name != NULL && shndx == SHN_UNDEF && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
            sym.st_value != 0 && value == addr)
            return name;
    }
    return NULL;
}

static bool defines_function(Dwfl_Module *mod, const char *wanted, GElf_Addr *addr)
{
    int n = dwfl_module_getsymtab(mod);
    for (int i = 1; i < n; i++) {
        GElf_Sym sym;
        GElf_Word shndx = 0;
        const char *name = dwfl_module_getsym_info(mod, i, &sym, addr, &shndx, NULL, NULL);
        if (name != NULL && shndx != SHN_UNDEF && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
            GELF_ST_BIND(sym.st_info) != STB_LOCAL && strcmp(name, wanted) == 0)
            return true;
    }
    return false;
}

struct definition {
    const char *name;
    Dwfl_Module *mod;
    GElf_Addr addr;
    bool past_executable;
};

/* dl_iterate_phdr callback: the first library in load order that defines the name is the
 * one the dynamic linker bound the executable's reference to. */
static int find_definition(struct dl_phdr_info *info, size_t size, void *data)
{
    struct definition *def = data;
    GElf_Addr low, high;
    (void)size;
    if (!def->past_executable) {
        def->past_executable = true;
        return 0;
    }
    Dwfl_Module *mod = object_range(info, &low, &high) ? dwfl_addrmodule(session, low) : NULL;
    if (mod == NULL || !defines_function(mod, def->name, &def->addr))
        return 0;
    def->mod = mod;
    return 1;
}

/* Moves mod/addr from a canonical PLT entry to the function it stands for; unchanged
 * when addr is no such entry. */
static Dwfl_Module *follow_canonical_plt(Dwfl_Module *mod, uintptr_t *addr)
{
    struct definition def = {.name = canonical_plt_name(mod, *addr)};
    if (def.name == NULL || dl_iterate_phdr(find_definition, &def) == 0 || def.mod == NULL)
        return mod;
    *addr = def.addr;
    return def.mod;
}

/* __cxa_demangle exists only in processes that load the C++ runtime; the measurement runtime
 * must not pull libstdc++ into C programs, so it is looked up once and used when present. */
static char *demangle(const char *mangled)
{
    if (!demangler_looked_up) {
        *(void **)&demangler = dlsym(RTLD_DEFAULT, "__cxa_demangle");
        demangler_looked_up = true;
    }
    if (demangler != NULL && strncmp(mangled, "_Z", 2) == 0) {
        int status = -1;
        char *name = demangler(mangled, NULL, NULL, &status);
        if (status == 0 && name != NULL)
            return name;
        free(name);
    }
    return strdup(mangled);
}

/* Depth-first search below parent for the concrete DW_TAG_subprogram whose code covers pc.
 * Only scopes that can hold function definitions are entered: namespaces and classes (clang
 * nests definitions there) and Fortran modules; dwarf_getscopes is of no use because it does
 * not enter DIEs without an address range. Abstract instances of inline functions have no
 * range and never match; functions nested in other functions are not searched. */
static bool find_function_die(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *fn)
{
    Dwarf_Die child;
    if (dwarf_child(parent, &child) != 0)
        return false;
    do {
        switch (dwarf_tag(&child)) {
        case DW_TAG_subprogram:
            if (dwarf_haspc(&child, pc) == 1) {
                *fn = child;
                return true;
            }
            break;
        case DW_TAG_namespace:
        case DW_TAG_class_type:
        case DW_TAG_structure_type:
        case DW_TAG_union_type:
        case DW_TAG_module:
            if (find_function_die(&child, pc, fn))
                return true;
            break;
        default:
            break;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
    return false;
}

/* Makes a file name from the line table absolute against the unit's compilation directory. */
static char *source_path(Dwarf_Die *cu, const char *file)
{
    Dwarf_Attribute attr;
    const char *dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
    char *path = NULL;
    if (file[0] != '/' && dir != NULL) {
        if (asprintf(&path, "%s/%s", dir, file) < 0)
            path = NULL;
    } else {
        path = strdup(file);
    }
    if (path != NULL)
        scorep_filter_simplify_path(path);
    return path;
}

/* The compilation unit containing addr. libdwfl finds units through .debug_aranges, which
 * clang does not emit, and then also returns the unit of the preceding range for addresses
 * in a gap (code of a clang object linked next to gcc ones); so its answer is checked and,
 * when wrong, the units' own address ranges are scanned. */
static Dwarf_Die *find_unit(Dwfl_Module *mod, uintptr_t addr, Dwarf_Addr *bias)
{
    Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, bias);
    if (cu != NULL && dwarf_haspc(cu, addr - *bias) == 1)
        return cu;
    cu = NULL;
    while ((cu = dwfl_module_nextcu(mod, cu, bias)) != NULL) {
        if (dwarf_haspc(cu, addr - *bias) == 1)
            return cu;
    }
    return NULL;
}

/* Line table entry for pc: where the function's code starts. */
static void line_of_code(Dwarf_Die *cu, Dwarf_Addr pc, scorep_symbol *sym)
{
    Dwarf_Line *line = dwarf_getsrc_die(cu, pc);
    const char *file = line != NULL ? dwarf_linesrc(line, NULL, NULL) : NULL;
    int lineno = 0;
    if (file != NULL && dwarf_lineno(line, &lineno) == 0) {
        sym->file = source_path(cu, file);
        sym->line = lineno;
    }
}

/* The function's declaration file, absolute. Not dwarf_decl_file: libdw 0.188 rejects file
 * index 0, which DWARF 5 (clang 14) uses for the primary source file. The attribute may come
 * from another DIE (abstract origin, specification) whose unit holds the file table. */
static char *decl_file(Dwarf_Die *fn)
{
    Dwarf_Attribute attr;
    Dwarf_Word idx = 0;
    Dwarf_Die unit;
    Dwarf_Half version = 0;
    Dwarf_Files *files = NULL;
    size_t nfiles = 0;
    if (dwarf_formudata(dwarf_attr_integrate(fn, DW_AT_decl_file, &attr), &idx) != 0 ||
        dwarf_cu_die(attr.cu, &unit, &version, NULL, NULL, NULL, NULL, NULL) == NULL ||
        (idx == 0 && version < 5) || dwarf_getsrcfiles(&unit, &files, &nfiles) != 0 ||
        idx >= nfiles)
        return NULL;
    const char *file = dwarf_filesrc(files, idx, NULL, NULL);
    return file != NULL ? source_path(&unit, file) : NULL;
}

/* Declaration file and line of the function from its DIE (where its name is written, not
 * where its first instruction comes from); without them (clang -gline-tables-only, code
 * written in assembly such as ld.so's _dl_runtime_resolve_xsavec), the line table entry of
 * the function's first instruction (start, from its ELF symbol; addr without one): one line
 * for every address of the function, so that sampling makes one region of it, not one per
 * sampled line. Returns the linkage or plain name of the DIE, which serves symbols missing
 * from the ELF tables. */
static const char *function_source(Dwfl_Module *mod, uintptr_t addr, uintptr_t start,
                                   scorep_symbol *sym)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = find_unit(mod, addr, &bias);
    Dwarf_Die fn;
    const char *die_name = NULL;
    if (cu == NULL)
        return NULL;
    if (find_function_die(cu, addr - bias, &fn)) {
        int line = 0;
        if (dwarf_decl_line(&fn, &line) == 0 && line > 0)
            sym->file = decl_file(&fn);
        if (sym->file != NULL)
            sym->line = line;
        Dwarf_Attribute attr;
        die_name = dwarf_formstring(dwarf_attr_integrate(&fn, DW_AT_linkage_name, &attr));
        if (die_name == NULL)
            die_name = dwarf_diename(&fn);
    }
    if (sym->file == NULL)
        line_of_code(cu, start - bias, sym);
    return die_name;
}

static int set_names(scorep_symbol *sym, const char *mangled)
{
    sym->mangled = strdup(mangled);
    sym->name = demangle(mangled);
    return sym->mangled != NULL && sym->name != NULL ? 0 : -1;
}

static int set_unknown(scorep_symbol *sym, uintptr_t addr)
{
    char buf[2 + 2 * sizeof addr + 1];
    snprintf(buf, sizeof buf, "0x%" PRIxPTR, addr);
    sym->name = strdup(buf);
    sym->mangled = strdup(buf);
    return -1;
}

/* An ARM/AArch64 mapping symbol ($x code, $d data; $a, $t on 32-bit ARM; each may carry a
 * ".suffix"): it marks where a kind of contents starts and names no function. libdwfl
 * returns $x, sizeless and local, as the symbol of an address no function symbol covers,
 * such as a non-PIE executable's PLT entry (found on AArch64 under qemu: test_symbols_nopie
 * named the shared library's function "$x"). */
static bool is_mapping_symbol(const char *name)
{
    return name[0] == '$' && name[1] != '\0' && strchr("xdat", name[1]) != NULL &&
           (name[2] == '\0' || name[2] == '.');
}

/* dwfl_module_addrinfo without mapping symbols: NULL where only one covers addr; *start:
 * the symbol's address (addr when there is none) */
static const char *function_symbol(Dwfl_Module *mod, uintptr_t addr, uintptr_t *start)
{
    GElf_Off offset = 0;
    GElf_Sym elfsym;
    const char *name = dwfl_module_addrinfo(mod, addr, &offset, &elfsym, NULL, NULL, NULL);
    if (name != NULL && is_mapping_symbol(name))
        name = NULL;
    *start = name != NULL && offset <= addr ? addr - offset : addr;
    return name;
}

/* The module of addr, a canonical PLT entry followed (*addr moved), and the function's
 * ELF symbol (NULL: none; *start as function_symbol gives it). */
static Dwfl_Module *function_of(uintptr_t *addr, uintptr_t *start, const char **name)
{
    Dwfl_Module *mod = find_module(*addr);
    if (mod == NULL)
        return NULL;
    if (function_symbol(mod, *addr, start) == NULL)
        mod = follow_canonical_plt(mod, addr);
    *name = function_symbol(mod, *addr, start);
    return mod;
}

/* scorep_symbols_resolve; without source, the DWARF only where the ELF tables name nothing */
static int resolve(uintptr_t addr, scorep_symbol *sym, bool source)
{
    memset(sym, 0, sizeof *sym);
    uintptr_t start;
    const char *name = NULL;
    Dwfl_Module *mod = function_of(&addr, &start, &name);
    if (mod == NULL)
        return set_unknown(sym, addr);
    const char *module = dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    sym->module = module != NULL ? strdup(module) : NULL;
    const char *die_name = NULL;
    sym->have_source = source || name == NULL || name[0] == '\0';
    if (sym->have_source)
        die_name = function_source(mod, addr, start, sym);
    if (name == NULL || name[0] == '\0')
        name = die_name;
    if (name == NULL)
        return set_unknown(sym, addr);
    return set_names(sym, name);
}

int scorep_symbols_resolve(uintptr_t addr, scorep_symbol *sym)
{
    return resolve(addr, sym, true);
}

int scorep_symbols_resolve_name(uintptr_t addr, scorep_symbol *sym)
{
    return resolve(addr, sym, false);
}

void scorep_symbols_resolve_source(uintptr_t addr, scorep_symbol *sym)
{
    uintptr_t start;
    const char *name = NULL;
    if (sym->have_source)
        return;
    sym->have_source = true;
    Dwfl_Module *mod = function_of(&addr, &start, &name);
    if (mod != NULL)
        function_source(mod, addr, start, sym);
}

void scorep_symbol_clear(scorep_symbol *sym)
{
    free(sym->name);
    free(sym->mangled);
    free(sym->file);
    free(sym->module);
    memset(sym, 0, sizeof *sym);
}

/* Compares link maps rather than names or base addresses: exact even when one file is
 * mapped twice and cheap enough for every region creation. */
bool scorep_symbols_in_runtime(uintptr_t addr)
{
    static struct link_map *self;
    Dl_info info;
    struct link_map *map = NULL;
    if (self == NULL &&
        dladdr1((void *)&scorep_symbols_in_runtime, &info, (void **)&self, RTLD_DL_LINKMAP) == 0)
        return false;
    if (dladdr1((void *)addr, &info, (void **)&map, RTLD_DL_LINKMAP) == 0)
        return false;
    return map != NULL && map == self;
}

void scorep_symbols_finalize(void)
{
    if (session != NULL)
        dwfl_end(session);
    session = NULL;
}

/* ------------------------------------------------ line of a code address (other adapters) */
/* A second libdwfl session behind its own lock: line lookups of other adapters (OMPT region
 * names) may run while a caller of scorep_symbols_resolve, serialised by its own lock, uses
 * the first session. */
static pthread_mutex_t line_lock = PTHREAD_MUTEX_INITIALIZER;
static Dwfl *line_session;
static unsigned long long line_adds, line_subs;

/* dl_iterate_phdr callback as report_callback; objects named by relative paths are skipped. */
static int line_report_callback(struct dl_phdr_info *info, size_t size, void *data)
{
    bool *is_first = data;
    char path[PATH_MAX];
    GElf_Addr low, high;
    (void)size;
    line_adds = info->dlpi_adds;
    line_subs = info->dlpi_subs;
    if (*is_first) {
        *is_first = false;
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
        if (n <= 0)
            return 0;
        path[n] = '\0';
    } else if (info->dlpi_name == NULL || info->dlpi_name[0] != '/') {
        return 0;
    } else {
        snprintf(path, sizeof path, "%s", info->dlpi_name);
    }
    if (object_range(info, &low, &high))
        dwfl_report_module(line_session, path, low, high);
    return 0;
}

static Dwfl_Module *line_module(uintptr_t addr)
{
    unsigned long long counters[2] = {line_adds, line_subs};
    if (line_session == NULL && (line_session = dwfl_begin(&callbacks)) == NULL)
        return NULL;
    dl_iterate_phdr(read_counters, counters);
    if (counters[0] != line_adds || counters[1] != line_subs || line_adds == 0) {
        bool is_first = true;
        dwfl_report_begin(line_session);
        dl_iterate_phdr(line_report_callback, &is_first);
        if (dwfl_report_end(line_session, NULL, NULL) != 0)
            return NULL;
    }
    return dwfl_addrmodule(line_session, addr);
}

int scorep_symbols_resolve_line(uintptr_t addr, char **file, int *line)
{
    *file = NULL;
    *line = 0;
    pthread_mutex_lock(&line_lock);
    Dwfl_Module *mod = line_module(addr);
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = mod != NULL ? find_unit(mod, addr, &bias) : NULL;
    Dwarf_Line *entry = cu != NULL ? dwarf_getsrc_die(cu, addr - bias) : NULL;
    const char *src = entry != NULL ? dwarf_linesrc(entry, NULL, NULL) : NULL;
    if (src != NULL && dwarf_lineno(entry, line) == 0)
        *file = source_path(cu, src);
    pthread_mutex_unlock(&line_lock);
    if (*file == NULL)
        *line = 0;
    return *file != NULL ? 0 : -1;
}

/* ---------------------------------------------- object and offset of a code address */
int scorep_symbols_object_offset(uintptr_t addr, char *buf, size_t size)
{
    Dl_info info;
    struct link_map *map = NULL;
    if (dladdr1((void *)addr, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL) {
        snprintf(buf, size, "0x%" PRIxPTR, addr);
        return -1;
    }
    /* The executable's link map has no name (dladdr gives argv[0], which a program may
     * rewrite): its file. Region creation is rare, so the system call does not matter. */
    char exe[PATH_MAX];
    const char *path = map->l_name;
    if (path[0] == '\0') {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = '\0';
        path = n > 0 ? exe : info.dli_fname;
    }
    const char *base = path != NULL ? strrchr(path, '/') : NULL;
    base = base != NULL ? base + 1 : path;
    snprintf(buf, size, "%s+0x%" PRIxPTR, base != NULL && base[0] != '\0' ? base : "exe",
             addr - (uintptr_t)map->l_addr);
    return 0;
}

int scorep_symbols_object_path(uintptr_t addr, char *path, size_t size, uint64_t *offset)
{
    Dl_info info;
    struct link_map *map = NULL;
    if (size == 0 || dladdr1((void *)addr, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 ||
        map == NULL)
        return -1;
    /* the executable's link map has no name: its file, as above */
    if (map->l_name[0] == '\0') {
        ssize_t n = readlink("/proc/self/exe", path, size - 1);
        if (n <= 0)
            return -1;
        path[n] = '\0';
    } else {
        snprintf(path, size, "%s", map->l_name);
    }
    *offset = addr - (uintptr_t)map->l_addr;
    return 0;
}
