/* SPDX-License-Identifier: BSD-3-Clause */
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
#include "adapters/compiler/gcc_plugin/plugin.h"

int plugin_is_GPL_compatible;

static scorep_filter *filter;
// exclude-file=SUBSTRING and exclude-function=SUBSTRING arguments (scorep-cc: NVTX's and
// CUDA's headers, nvcc's generated __nv_ helpers): functions declared in a file whose path
// holds one, or whose name holds one, are not instrumented (GCC's
// -finstrument-functions-exclude-file-list and -function-list)
static const char **excluded_files, **excluded_functions;
static int n_excluded_files, n_excluded_functions;

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

bool scorep_gcc_names_of(tree fn, scorep_gcc_names *names)
{
    const char *mangled = IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn));
    if (mangled[0] == '*') // asm("name"): the '*' only says "use verbatim"
        mangled++;
    names->mangled = (char *)mangled;
    names->file = source_path(DECL_SOURCE_FILE(fn));
    names->name = demangled(mangled);
    return names->file != NULL;
}

void scorep_gcc_names_free(scorep_gcc_names *names)
{
    free(names->name);
    free(names->file);
    names->name = names->file = NULL;
}

bool scorep_gcc_excluded(const scorep_gcc_names *names)
{
    for (int i = 0; i < n_excluded_files; i++)
        if (strstr(names->file, excluded_files[i]) != NULL)
            return true;
    for (int i = 0; i < n_excluded_functions; i++)
        if (strstr(names->name, excluded_functions[i]) != NULL)
            return true;
    return filter != NULL &&
           scorep_filter_excluded(filter, names->file, names->name, names->mangled);
}

// Runs before gimplification, which inserts the profiling hooks unless the flag is set.
static void exclude_filtered(void *gcc_data, void *)
{
    tree fn = (tree)gcc_data;
    if (fn == NULL_TREE || TREE_CODE(fn) != FUNCTION_DECL ||
        DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT(fn))
        return;
    scorep_gcc_names names;
    if (scorep_gcc_names_of(fn, &names) && scorep_gcc_excluded(&names))
        DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT(fn) = 1;
    scorep_gcc_names_free(&names);
}

static const char *argument(const struct plugin_name_args *info, const char *key, bool *given)
{
    for (int i = 0; i < info->argc; i++)
        if (strcmp(info->argv[i].key, key) == 0) {
            *given = true;
            return info->argv[i].value; // NULL for a bare -fplugin-arg-...-KEY
        }
    *given = false;
    return NULL;
}

enum : unsigned { INLINED = ~0u };

// inlined (scorep-cc --instrument-inlined): every copy keeps its instrumentation, as before
// #31, threshold=N: the statement threshold of after_inline.cc (0: none)
static bool instrument_options(const struct plugin_name_args *info, unsigned *threshold)
{
    bool inlined, given;
    argument(info, "inlined", &inlined);
    const char *n = argument(info, "threshold", &given);
    *threshold = SCOREP_GCC_DEFAULT_THRESHOLD;
    if (given) {
        char *end = NULL;
        unsigned long v = n ? strtoul(n, &end, 10) : 0;
        if (n == NULL || *n == '\0' || *end != '\0' || v >= INLINED) {
            error("%s: %<threshold=%s%>: expected a number of statements", info->base_name,
                  n ? n : "");
            return false;
        }
        *threshold = (unsigned)v;
    }
    if (inlined)
        *threshold = INLINED;
    return true;
}

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
    if (!plugin_default_version_check(version, &gcc_version)) {
        error("%s: built for gcc %s, not this compiler (gcc %s)", info->base_name,
              gcc_version.basever, version->basever);
        return 1;
    }
    bool with_filter, instrumenting;
    const char *path = argument(info, "filter", &with_filter);
    argument(info, "instrument", &instrumenting);
    if (!instrumenting && path == NULL) {
        error("%s: no filter file: use %<-fplugin-arg-%s-filter=FILE%>", info->base_name,
              info->base_name);
        return 1;
    }
    if (with_filter && path == NULL) {
        error("%s: %<-fplugin-arg-%s-filter%> needs a file: %<filter=FILE%>", info->base_name,
              info->base_name);
        return 1;
    }
    excluded_files = (const char **)xmalloc((info->argc + 1) * sizeof *excluded_files);
    excluded_functions = (const char **)xmalloc((info->argc + 1) * sizeof *excluded_functions);
    for (int i = 0; i < info->argc; i++) {
        if (info->argv[i].value == NULL)
            continue;
        if (strcmp(info->argv[i].key, "exclude-file") == 0)
            excluded_files[n_excluded_files++] = info->argv[i].value;
        else if (strcmp(info->argv[i].key, "exclude-function") == 0)
            excluded_functions[n_excluded_functions++] = info->argv[i].value;
    }
    char err[512];
    if (path != NULL) {
        filter = scorep_filter_new();
        if (filter == NULL || scorep_filter_parse_file(filter, path, err, sizeof err) != 0) {
            error("%s: bad filter file: %s", info->base_name, filter ? err : "out of memory");
            return 1;
        }
    }
    static struct plugin_info about = {
        "0.2", "applies a Score-P filter file at compile time; instrument: inserts scorep-rt's "
               "region descriptors and the inline throttle check instead of "
               "-finstrument-functions"};
    register_callback(info->base_name, PLUGIN_INFO, NULL, &about);
    if (instrumenting) {
        scorep_gcc_instrument_register(info->base_name);
        unsigned threshold;
        if (!instrument_options(info, &threshold))
            return 1;
        scorep_gcc_link_rule = threshold == INLINED ? 0 : threshold + 1;
        scorep_gcc_late_wanted = threshold != INLINED;
        if (threshold != INLINED)
            scorep_gcc_after_inline_register(info->base_name, threshold);
        scorep_gcc_leftout_register(info->base_name);
    } else
        register_callback(info->base_name, PLUGIN_PRE_GENERICIZE, exclude_filtered, NULL);
    return 0;
}
