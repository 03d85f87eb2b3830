/* SPDX-License-Identifier: BSD-3-Clause */
/* test_link_args.c: how scorep-cc reads a link line for memkind (tools/instrumenter/compilers.c):
 * which arguments are the static libmemkind.a, and the linker's -Bstatic state along the
 * command (-Wl, lists, -Xlinker arguments, --push-state/--pop-state), which decides whether
 * a -lmemkind is the static library, whose hbw_* scorep-cc then wraps (docs/memory.md). */
#include "tools/instrumenter/compilers.h"
#include "unit_check.h"

#include <string.h>

/* the -Bstatic state after the arguments of argv (NULL-terminated), from the dynamic default */
static bool state_after(const char *const *argv)
{
    struct link_state st = {0};
    for (int i = 0; argv[i]; i++)
        arg_link_state(argv[i], i > 0 && strcmp(argv[i - 1], "-Xlinker") == 0, &st);
    return st.bstatic;
}

int main(void)
{
    CHECK(arg_is_memkind_archive("/usr/lib/x86_64-linux-gnu/libmemkind.a"), "a path");
    CHECK(arg_is_memkind_archive("libmemkind.a"), "a file name");
    CHECK(arg_is_memkind_archive("-l:libmemkind.a"), "-l:");
    CHECK(!arg_is_memkind_archive("-lmemkind"), "-lmemkind alone is the shared one");
    CHECK(!arg_is_memkind_archive("/usr/lib/libmemkind.so"), "the shared library");
    CHECK(!arg_is_memkind_archive("libmemkind.a.o"), "another file");
    CHECK(!arg_is_memkind_archive("-Wl,libmemkind.a"), "an option");

    CHECK(!state_after((const char *const[]){"-O2", "-lmemkind", NULL}), "dynamic by default");
    CHECK(state_after((const char *const[]){"-Wl,-Bstatic", NULL}), "-Wl,-Bstatic");
    CHECK(state_after((const char *const[]){"-Wl,--as-needed,-Bstatic", NULL}), "in a list");
    CHECK(!state_after((const char *const[]){"-Wl,-Bstatic,-Bdynamic", NULL}), "the last wins");
    CHECK(!state_after((const char *const[]){"-Wl,-Bstatic", "-lx", "-Wl,-Bdynamic", NULL}),
          "-Bdynamic after");
    CHECK(state_after((const char *const[]){"-Wl,-dn", NULL}), "-dn");
    CHECK(state_after((const char *const[]){"-Wl,-non_shared", NULL}), "-non_shared");
    CHECK(state_after((const char *const[]){"-Wl,--Bstatic", NULL}), "two dashes");
    CHECK(!state_after((const char *const[]){"-Wl,-Bstatic", "-Wl,-call_shared", NULL}),
          "-call_shared");
    CHECK(state_after((const char *const[]){"-Xlinker", "-Bstatic", NULL}), "-Xlinker -Bstatic");
    CHECK(!state_after((const char *const[]){"-Bstatic", NULL}),
          "a driver argument that is no linker option");
    CHECK(!state_after((const char *const[]){"-Wl,--push-state,-Bstatic", "-lmemkind",
                                              "-Wl,--pop-state", NULL}),
          "popped");
    CHECK(state_after((const char *const[]){"-Wl,-Bstatic,--push-state,-Bdynamic",
                                             "-Wl,--pop-state", NULL}),
          "popped back to static");
    CHECK(!state_after((const char *const[]){"-Wl,--pop-state", NULL}), "a pop of nothing");
    CHECK(!state_after((const char *const[]){"-Wl,-Bstaticx", NULL}), "another option");
    return failures != 0;
}
