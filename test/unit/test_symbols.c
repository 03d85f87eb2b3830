/* SPDX-License-Identifier: BSD-3-Clause */
/* test_symbols.c: unit test of the address-to-symbol resolver (symbols.c) on global and static
 * functions of this executable, of a linked and of a dlopen'ed library; built PIE and not;
 * also in two steps, name first and source file and line later. */
#include "symbols/symbols.h"

#include <dlfcn.h>
#include <elf.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef SYMTEST_DL_PATH
#error "SYMTEST_DL_PATH (the dlopen'able test module) must be defined"
#endif
#ifndef SYMTEST_BUILDDIR
#error "SYMTEST_BUILDDIR (the directory the compiler ran in) must be defined"
#endif

int symtest_global(int x);
int _ZN7symtest7mangledEi(int x);
int symtest_lib_global(int x);
int (*symtest_lib_static_fn(int *line))(int);
int (*symtest_lib_global_fn(void))(int);
extern const int symtest_lib_global_line;
extern const char symtest_lib_file[];

static int failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static const int global_line = __LINE__ + 1;
__attribute__((noinline)) int symtest_global(int x)
{
    return x * x + 11;
}

static const int static_line = __LINE__ + 1;
__attribute__((noinline)) static int symtest_static(int x)
{
    return x * x * x + 13;
}

/* A C++-style name in a C program: without the C++ runtime there is no __cxa_demangle and
 * the name stays as it is. */
static const int mangled_line = __LINE__ + 1;
__attribute__((noinline)) int _ZN7symtest7mangledEi(int x)
{
    return x - 17;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

static void check_str(const char *what, const char *got, const char *want)
{
    if (got == NULL || strcmp(got, want) != 0) {
        fprintf(stderr, "%s: got '%s', want '%s'\n", what, got ? got : "(null)", want);
        failures++;
    }
}

static void check_int(const char *what, long got, long want)
{
    if (got != want) {
        fprintf(stderr, "%s: got %ld, want %ld\n", what, got, want);
        failures++;
    }
}

/* The file must be absolute, without "." or ".." components, and the same file as want. */
static void check_file(const char *what, const char *got, const char *want)
{
    char real_got[PATH_MAX], real_want[PATH_MAX];
    if (got == NULL || got[0] != '/' || strstr(got, "/./") != NULL || strstr(got, "/../") != NULL ||
        realpath(got, real_got) == NULL || realpath(want, real_want) == NULL ||
        strcmp(real_got, real_want) != 0) {
        fprintf(stderr, "%s: file '%s' is not '%s'\n", what, got ? got : "(null)", want);
        failures++;
    }
}

struct expect {
    const char *what;
    uintptr_t addr;
    const char *name;
    const char *source; /* __FILE__ of the unit: as the compiler saw it, in SYMTEST_BUILDDIR */
    int line;
    const char *module; /* base name of the ELF object */
};

static void check_symbol(const struct expect *e)
{
    scorep_symbol sym;
    int rc = scorep_symbols_resolve(e->addr, &sym);
    char source[PATH_MAX];
    snprintf(source, sizeof source, "%s%s%s", e->source[0] == '/' ? "" : SYMTEST_BUILDDIR,
             e->source[0] == '/' ? "" : "/", e->source);
    check_int(e->what, rc, 0);
    check_str(e->what, sym.name, e->name);
    check_str(e->what, sym.mangled, e->name);
    check_file(e->what, sym.file, source);
    check_int(e->what, sym.line, e->line);
    check_str(e->what, sym.module ? base_name(sym.module) : NULL, e->module);
    scorep_symbol_clear(&sym);
    CHECK(sym.name == NULL && sym.file == NULL && sym.module == NULL);
    /* in two steps (the sampling's frames): first name and module without the source,
     * which every expected function has in the ELF tables; then file and line as above */
    char what[200];
    snprintf(what, sizeof what, "%s (name first)", e->what);
    check_int(what, scorep_symbols_resolve_name(e->addr, &sym), 0);
    check_str(what, sym.name, e->name);
    check_str(what, sym.mangled, e->name);
    check_str(what, sym.module ? base_name(sym.module) : NULL, e->module);
    CHECK(sym.file == NULL && sym.line == 0 && !sym.have_source);
    scorep_symbols_resolve_source(e->addr, &sym);
    check_file(what, sym.file, source);
    check_int(what, sym.line, e->line);
    CHECK(sym.have_source);
    /* a second call reads nothing again: the same file string */
    const char *file = sym.file;
    scorep_symbols_resolve_source(e->addr, &sym);
    CHECK(sym.file == file);
    scorep_symbol_clear(&sym);
}

static const char *exe_name(void)
{
    static char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    path[n > 0 ? n : 0] = '\0';
    return base_name(path);
}

/* Guards against a build that silently produced the other kind of executable. */
static void check_executable_kind(void)
{
    Elf64_Ehdr ehdr;
    FILE *f = fopen("/proc/self/exe", "rb");
    CHECK(f != NULL && fread(&ehdr, sizeof ehdr, 1, f) == 1);
#ifdef SYMTEST_NOPIE
    check_int("executable type", ehdr.e_type, ET_EXEC);
#else
    check_int("executable type", ehdr.e_type, ET_DYN);
#endif
    if (f != NULL)
        fclose(f);
}

static void test_executable(void)
{
    const struct expect global = {
        "global", (uintptr_t)&symtest_global, "symtest_global", __FILE__, global_line, exe_name()};
    const struct expect local = {
        "static", (uintptr_t)&symtest_static, "symtest_static", __FILE__, static_line, exe_name()};
    const struct expect mangled = {"mangled",
                                   (uintptr_t)&_ZN7symtest7mangledEi,
                                   "_ZN7symtest7mangledEi",
                                   __FILE__,
                                   mangled_line,
                                   exe_name()};
    check_symbol(&global);
    check_symbol(&local);
    check_symbol(&mangled);
    /* An address inside the body resolves to the same function and declaration line. */
    struct expect inside = global;
    inside.what = "inside global";
    inside.addr += 4;
    check_symbol(&inside);
    CHECK(scorep_symbols_in_runtime((uintptr_t)&symtest_static));
}

static void test_linked_library(void)
{
    int line = 0;
    uintptr_t local = (uintptr_t)symtest_lib_static_fn(&line);
    const struct expect global = {
        "lib global",     (uintptr_t)&symtest_lib_global, "symtest_lib_global",
        symtest_lib_file, symtest_lib_global_line,        "libsymtest.so.0"};
    const struct expect stat = {"lib static",     local, "symtest_lib_static",
                                symtest_lib_file, line,  "libsymtest.so.0"};
    check_symbol(&global);
    check_symbol(&stat);
    CHECK(!scorep_symbols_in_runtime(local));
    /* Function pointers compare equal across objects, so in the non-PIE build both are the
     * canonical PLT entry in the executable, which must resolve to the library function. */
    CHECK((uintptr_t)symtest_lib_global_fn() == global.addr);
#ifdef SYMTEST_NOPIE
    CHECK(scorep_symbols_in_runtime(global.addr));
#else
    CHECK(!scorep_symbols_in_runtime(global.addr));
#endif
}

/* The module list was read before the dlopen (and the dlclose), so this needs a re-report. */
static void test_dlopened_library(void)
{
    void *handle = dlopen(SYMTEST_DL_PATH, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        fprintf(stderr, "dlopen %s: %s\n", SYMTEST_DL_PATH, dlerror());
        failures++;
        return;
    }
    const int *line = dlsym(handle, "symtest_dl_line");
    const char *file = dlsym(handle, "symtest_dl_file");
    void *fn = dlsym(handle, "symtest_dl_function");
    CHECK(line != NULL && file != NULL && fn != NULL);
    if (line == NULL || file == NULL || fn == NULL)
        return;
    const struct expect e = {"dlopen'ed", (uintptr_t)fn, "symtest_dl_function",
                             file,        *line,         base_name(SYMTEST_DL_PATH)};
    check_symbol(&e);
    CHECK(!scorep_symbols_in_runtime((uintptr_t)fn));
    /* After dlclose the module is gone from the resolver too. */
    CHECK(dlclose(handle) == 0);
    scorep_symbol sym;
    check_int("dlclose'd rc", scorep_symbols_resolve((uintptr_t)fn, &sym), -1);
    CHECK(sym.module == NULL && sym.file == NULL);
    scorep_symbol_clear(&sym);
}

/* An address in no file mapping gives -1 and its hex form as the name. */
static void test_unknown_address(void)
{
    void *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(page != MAP_FAILED);
    char want[32];
    snprintf(want, sizeof want, "0x%" PRIxPTR, (uintptr_t)page + 16);
    scorep_symbol sym;
    check_int("unknown rc", scorep_symbols_resolve((uintptr_t)page + 16, &sym), -1);
    check_str("unknown name", sym.name, want);
    check_str("unknown mangled", sym.mangled, want);
    CHECK(sym.file == NULL && sym.line == 0 && sym.module == NULL);
    scorep_symbol_clear(&sym);
    CHECK(!scorep_symbols_in_runtime((uintptr_t)page));
    munmap(page, 4096);
}

/* A library without DWARF still yields its ELF symbol name. */
static void test_library_without_dwarf(void)
{
    void *fn = dlsym(RTLD_DEFAULT, "qsort");
    scorep_symbol sym;
    check_int("qsort rc", scorep_symbols_resolve((uintptr_t)fn, &sym), 0);
    check_str("qsort name", sym.name, "qsort");
    CHECK(sym.module != NULL && strncmp(base_name(sym.module), "libc.so", 7) == 0);
    scorep_symbol_clear(&sym);
}

int main(void)
{
    /* Call through a volatile pointer so the functions exist and are not folded. */
    int (*volatile call)(int) = symtest_global;
    CHECK(call(2) == 15);
    call = symtest_static;
    CHECK(call(2) == 21);
    call = _ZN7symtest7mangledEi;
    CHECK(call(20) == 3);
    check_executable_kind();
    test_executable();
    test_linked_library();
    test_dlopened_library();
    test_unknown_address();
    test_library_without_dwarf();
    /* The session is rebuilt after finalize. */
    scorep_symbols_finalize();
    test_executable();
    scorep_symbols_finalize();
    if (failures != 0)
        fprintf(stderr, "test_symbols: %d check(s) failed\n", failures);
    return failures == 0 ? 0 : 1;
}
