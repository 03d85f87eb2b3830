// scorep_filter_gcc.cc: GCC plugin behind `scorep-cc --filter`: functions that the filter file
// excludes are not instrumented at all (no __cyg_profile_func_enter/exit calls are emitted).
#include <gcc-plugin.h>
#include <plugin-version.h>
#include <tree.h>
#include <diagnostic-core.h>

#include <cxxabi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern "C" {
#include "filter/filter.h"
}

int plugin_is_GPL_compatible;

static scorep_filter *filter;

// The declaration file as DWARF names it: relative names are relative to the compilation
// directory, which gcc takes from getpwd() (the current directory).
static char *source_path(const char *file)
{
    char *path = NULL;
    if (file == NULL)
        return NULL;
    if (file[0] == '/') {
        path = xstrdup(file);
    } else {
        const char *dir = getpwd();
        path = (char *)xmalloc(strlen(dir) + strlen(file) + 2);
        strcpy(path, dir);
        strcat(path, "/");
        strcat(path, file);
    }
    scorep_filter_simplify_path(path);
    return path;
}

// The runtime demangles with __cxa_demangle when the name starts with _Z (symbols.c):
// the same function gives the same names here.
static char *demangled(const char *mangled)
{
    if (strncmp(mangled, "_Z", 2) == 0) {
        int status = -1;
        char *name = abi::__cxa_demangle(mangled, NULL, NULL, &status);
        if (status == 0 && name != NULL)
            return name;
        free(name);
    }
    return xstrdup(mangled);
}

// Runs before gimplification, which inserts the profiling hooks unless the flag is set.
static void exclude_filtered(void *gcc_data, void *)
{
    tree fn = (tree)gcc_data;
    if (fn == NULL_TREE || TREE_CODE(fn) != FUNCTION_DECL ||
        DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT(fn))
        return;
    const char *mangled = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn));
    if (mangled[0] == '*') // asm("name"): the '*' only says "use verbatim"
        mangled++;
    char *file = source_path(DECL_SOURCE_FILE(fn));
    char *name = demangled(mangled);
    if (scorep_filter_excluded(filter, file, name, mangled))
        DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT(fn) = 1;
    free(name);
    free(file);
}

static const char *filter_argument(const struct plugin_name_args *info)
{
    for (int i = 0; i < info->argc; i++)
        if (strcmp(info->argv[i].key, "filter") == 0)
            return info->argv[i].value; // NULL for a bare -fplugin-arg-...-filter
    return NULL;
}

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
    if (!plugin_default_version_check(version, &gcc_version)) {
        error("%s: built for gcc %s, not this compiler (gcc %s)", info->base_name,
              gcc_version.basever, version->basever);
        return 1;
    }
    const char *path = filter_argument(info);
    if (path == NULL) {
        error("%s: no filter file: use %<-fplugin-arg-%s-filter=FILE%>", info->base_name,
              info->base_name);
        return 1;
    }
    char err[512];
    filter = scorep_filter_new();
    if (filter == NULL || scorep_filter_parse_file(filter, path, err, sizeof err) != 0) {
        error("%s: bad filter file: %s", info->base_name, filter ? err : "out of memory");
        return 1;
    }
    static struct plugin_info about = {"0.1", "applies a Score-P filter file at compile time"};
    register_callback(info->base_name, PLUGIN_INFO, NULL, &about);
    register_callback(info->base_name, PLUGIN_PRE_GENERICIZE, exclude_filtered, NULL);
    return 0;
}
