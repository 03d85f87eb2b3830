/* SPDX-License-Identifier: BSD-3-Clause */
/* test_config.c: unit tests of src/config: every value form and error of each type, applying a
 * table through a fake lookup, the exact scorep.cfg output and the scorep-info help text. */
#include "config/config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define BOOL_FORMS                                                                                 \
    "expected a bool: true, yes, on or a non-zero integer for true; false, no, off, 0 or empty "   \
    "for false"
#define NUMBER_FORMS "expected a number: decimal digits, e.g. 100"
#define SIZE_FORMS                                                                                 \
    "expected a size: a number with an optional K, M, G, T, P or E suffix (powers of 1024) and "   \
    "optional B, e.g. 16M"
#define SET_FORMS                                                                                  \
    "expected a set: none, or entries separated by blanks, commas, colons or semicolons (~name "   \
    "removes an entry) from: "
#define GROUP_NAMES                                                                                \
    "all, cg, coll, default, env, err, ext, io, p2p, misc, perf, rma, spawn, topo, type, "         \
    "xnonblock, xreqtest"

typedef struct {
    int checks;
    int failures;
} tally;

static void check(tally *t, bool ok, const char *what, int line)
{
    t->checks++;
    if (!ok) {
        t->failures++;
        fprintf(stderr, "test_config.c:%d: FAILED: %s\n", line, what);
    }
}

#define CHECK(t, cond) check((t), (cond), #cond, __LINE__)

static void check_str(tally *t, const char *got, const char *want, int line)
{
    bool ok = got != NULL && strcmp(got, want) == 0;
    check(t, ok, want, line);
    if (!ok) {
        fprintf(stderr, "  got:  %s\n  want: %s\n", got != NULL ? got : "(null)", want);
    }
}

#define CHECK_STR(t, got, want) check_str((t), (got), (want), __LINE__)

enum {
    G_CG = 1 << 0,
    G_COLL = 1 << 1,
    G_ENV = 1 << 2,
    G_ERR = 1 << 3,
    G_EXT = 1 << 4,
    G_IO = 1 << 5,
    G_P2P = 1 << 6,
    G_MISC = 1 << 7,
    G_PERF = 1 << 8,
    G_RMA = 1 << 9,
    G_SPAWN = 1 << 10,
    G_TOPO = 1 << 11,
    G_TYPE = 1 << 12,
    G_XNONBLOCK = 1 << 13,
    G_XREQTEST = 1 << 14,
    G_ALL = (1 << 15) - 1,
    G_DEFAULT = G_CG | G_COLL | G_ENV | G_IO | G_P2P | G_RMA | G_TOPO,
};

static const scorep_cfg_choice groups[] = {
    {"all", G_ALL},           {"cg", G_CG},     {"coll", G_COLL}, {"default", G_DEFAULT},
    {"env", G_ENV},           {"err", G_ERR},   {"ext", G_EXT},   {"io", G_IO},
    {"p2p", G_P2P},           {"misc", G_MISC}, {"perf", G_PERF}, {"rma", G_RMA},
    {"spawn", G_SPAWN},       {"topo", G_TOPO}, {"type", G_TYPE}, {"xnonblock", G_XNONBLOCK},
    {"xreqtest", G_XREQTEST}, {NULL, 0},
};

static const scorep_cfg_choice timers[] = {
    {"tsc", 0}, {"clock_gettime", 1}, {"gettimeofday", 2}, {NULL, 0}};

static void bool_ok(tally *t, const char *s, bool want, int line)
{
    bool v = !want;
    char err[256] = "";
    int rc = scorep_cfg_parse_bool(s, &v, err, sizeof err);
    check(t, rc == 0 && v == want, s, line);
}

static void bool_bad(tally *t, const char *s, int line)
{
    bool v = true;
    char err[256] = "";
    check(t, scorep_cfg_parse_bool(s, &v, err, sizeof err) == -1 && v, s, line);
    check_str(t, err, BOOL_FORMS, line);
}

static void test_bool(tally *t)
{
    const char *yes[] = {"true", "TRUE",   "True",    "yes",  "YeS",
                         "on",   "ON",     "1",       "42",   "-1",
                         "+7",   " true ", "\tyes\n", "0010", "99999999999999999999999"};
    const char *no[] = {"false", "FALSE", "no", "No", "off", "OFF",
                        "0",     "000",   "-0", "",   "   ", " off "};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        bool_ok(t, yes[i], true, __LINE__);
    }
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        bool_ok(t, no[i], false, __LINE__);
    }
    const char *bad[] = {"maybe", "ture", "y", "n", "1x", "t rue", "-", "+", "0x1", "yes please"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        bool_bad(t, bad[i], __LINE__);
    }
}

static void number_ok(tally *t, const char *s, uint64_t want, int line)
{
    uint64_t v = 12345;
    char err[256] = "";
    int rc = scorep_cfg_parse_number(s, &v, err, sizeof err);
    check(t, rc == 0 && v == want, s, line);
}

static void number_bad(tally *t, const char *s, const char *want_err, int line)
{
    uint64_t v = 12345;
    char err[256] = "";
    check(t, scorep_cfg_parse_number(s, &v, err, sizeof err) == -1 && v == 12345, s, line);
    check_str(t, err, want_err, line);
}

static void test_number(tally *t)
{
    number_ok(t, "0", 0, __LINE__);
    number_ok(t, "100", 100, __LINE__);
    number_ok(t, "  100  ", 100, __LINE__);
    number_ok(t, "\t7\n", 7, __LINE__);
    number_ok(t, "007", 7, __LINE__);
    number_ok(t, "18446744073709551615", UINT64_MAX, __LINE__);
    const char *too_large = "too large (maximum 18446744073709551615); " NUMBER_FORMS;
    number_bad(t, "18446744073709551616", too_large, __LINE__);
    number_bad(t, "99999999999999999999999", too_large, __LINE__);
    const char *negative = "negative values are not allowed; " NUMBER_FORMS;
    number_bad(t, "-1", negative, __LINE__);
    number_bad(t, " -50 ", negative, __LINE__);
    const char *garbage[] = {"",     "  ",  "abc", "12abc", "1 2", "+5",
                             "0x10", "1.5", "10k", "-",     "- 1"};
    for (size_t i = 0; i < sizeof garbage / sizeof *garbage; i++) {
        number_bad(t, garbage[i], NUMBER_FORMS, __LINE__);
    }
}

static void size_ok(tally *t, const char *s, uint64_t want, int line)
{
    uint64_t v = 12345;
    char err[256] = "";
    int rc = scorep_cfg_parse_size(s, &v, err, sizeof err);
    check(t, rc == 0 && v == want, s, line);
    if (v != want) {
        fprintf(stderr, "  got %" PRIu64 " want %" PRIu64 " (%s)\n", v, want, err);
    }
}

static void size_bad(tally *t, const char *s, const char *want_err, int line)
{
    uint64_t v = 12345;
    char err[300] = "";
    check(t, scorep_cfg_parse_size(s, &v, err, sizeof err) == -1 && v == 12345, s, line);
    check_str(t, err, want_err, line);
}

static void test_size(tally *t)
{
    size_ok(t, "0", 0, __LINE__);
    size_ok(t, "512", 512, __LINE__);
    size_ok(t, "512B", 512, __LINE__);
    size_ok(t, "512b", 512, __LINE__);
    size_ok(t, "512 B", 512, __LINE__);
    size_ok(t, "8k", 8192, __LINE__);
    size_ok(t, "8K", 8192, __LINE__);
    size_ok(t, "8kb", 8192, __LINE__);
    size_ok(t, "16000k", 16384000, __LINE__);
    size_ok(t, "16M", 16777216, __LINE__);
    size_ok(t, "16 Mb", 16777216, __LINE__);
    size_ok(t, "  16 MB  ", 16777216, __LINE__);
    size_ok(t, "16\tm", 16777216, __LINE__);
    size_ok(t, "4g", 4294967296ULL, __LINE__);
    size_ok(t, "2T", 2199023255552ULL, __LINE__);
    size_ok(t, "3p", 3377699720527872ULL, __LINE__);
    size_ok(t, "15E", 15ULL << 60, __LINE__);
    size_ok(t, "15eB", 15ULL << 60, __LINE__);
    size_ok(t, "18446744073709551615", UINT64_MAX, __LINE__);
    size_ok(t, "18446744073709551615b", UINT64_MAX, __LINE__);
    const char *too_large = "too large (maximum 18446744073709551615 bytes); " SIZE_FORMS;
    size_bad(t, "16E", too_large, __LINE__);
    size_bad(t, "17179869184G", too_large, __LINE__);
    size_bad(t, "18446744073709551616", too_large, __LINE__);
    size_ok(t, "17179869183G", 17179869183ULL << 30, __LINE__);
    size_bad(t, "-16M", "negative values are not allowed; " SIZE_FORMS, __LINE__);
    const char *garbage[] = {"",      "M",    "12Q",  "16MiB", "16 M b", "16KK", "1.5G",
                             "16M x", "0x10", "16BB", "k16",   "+16",    "B"};
    for (size_t i = 0; i < sizeof garbage / sizeof *garbage; i++) {
        size_bad(t, garbage[i], SIZE_FORMS, __LINE__);
    }
}

static void set_ok(tally *t, const char *s, uint64_t want, int line)
{
    uint64_t v = 0xdead;
    char err[600] = "";
    int rc = scorep_cfg_parse_set(s, groups, &v, err, sizeof err);
    check(t, rc == 0 && v == want, s, line);
    if (rc != 0 || v != want) {
        fprintf(stderr, "  got %#" PRIx64 " want %#" PRIx64 " (%s)\n", v, want, err);
    }
}

static void set_bad(tally *t, const char *s, const char *want_err, int line)
{
    uint64_t v = 0xdead;
    char err[600] = "";
    check(t, scorep_cfg_parse_set(s, groups, &v, err, sizeof err) == -1 && v == 0xdead, s, line);
    check_str(t, err, want_err, line);
}

static void test_set(tally *t)
{
    set_ok(t, "none", 0, __LINE__);
    set_ok(t, "NONE", 0, __LINE__);
    set_ok(t, " no ", 0, __LINE__);
    set_ok(t, "", 0, __LINE__);
    set_ok(t, "p2p", G_P2P, __LINE__);
    set_ok(t, "P2P", G_P2P, __LINE__);
    set_ok(t, "cg,coll", G_CG | G_COLL, __LINE__);
    set_ok(t, "cg coll:io;rma", G_CG | G_COLL | G_IO | G_RMA, __LINE__);
    set_ok(t, ",, cg ;;: ,coll,,", G_CG | G_COLL, __LINE__);
    set_ok(t, "default", G_DEFAULT, __LINE__);
    set_ok(t, "default,~p2p", G_DEFAULT & ~G_P2P, __LINE__);
    set_ok(t, "all,~default", G_ALL & ~G_DEFAULT, __LINE__);
    set_ok(t, "~p2p,p2p", G_P2P, __LINE__);
    set_ok(t, "p2p,~p2p", 0, __LINE__);
    set_ok(t, "DEFAULT ~COLL ~Topo xnonblock", (G_DEFAULT & ~(G_COLL | G_TOPO)) | G_XNONBLOCK,
           __LINE__);
    set_ok(t, "\tall\n", G_ALL, __LINE__);
    set_bad(t, "p2p,bogus", "unknown entry 'bogus'; " SET_FORMS GROUP_NAMES, __LINE__);
    set_bad(t, "~bogus", "unknown entry 'bogus'; " SET_FORMS GROUP_NAMES, __LINE__);
    set_bad(t, "none,p2p", "unknown entry 'none'; " SET_FORMS GROUP_NAMES, __LINE__);
    set_bad(t, "p2p ~ coll", "'~' without an entry name; " SET_FORMS GROUP_NAMES, __LINE__);
    set_bad(t, "p2p-io", "unknown entry 'p2p-io'; " SET_FORMS GROUP_NAMES, __LINE__);

    /* A short error buffer truncates the list but stays terminated. */
    char small[16];
    uint64_t v = 0;
    CHECK(t, scorep_cfg_parse_set("x", groups, &v, small, sizeof small) == -1);
    CHECK_STR(t, small, "unknown entry '");
    CHECK(t, scorep_cfg_parse_set("x", groups, &v, NULL, 0) == -1);
}

static void option_ok(tally *t, const char *s, uint64_t want, int line)
{
    uint64_t v = 99;
    char err[256] = "";
    int rc = scorep_cfg_parse_option(s, timers, &v, err, sizeof err);
    check(t, rc == 0 && v == want, s, line);
}

static void option_bad(tally *t, const char *s, int line)
{
    uint64_t v = 99;
    char err[256] = "";
    check(t, scorep_cfg_parse_option(s, timers, &v, err, sizeof err) == -1 && v == 99, s, line);
    check_str(t, err, "expected one of: tsc, clock_gettime, gettimeofday", line);
}

static void test_option(tally *t)
{
    option_ok(t, "tsc", 0, __LINE__);
    option_ok(t, "TSC", 0, __LINE__);
    option_ok(t, "clock_gettime", 1, __LINE__);
    option_ok(t, "  GetTimeOfDay\t", 2, __LINE__);
    const char *bad[] = {"",   " ",    "rdtsc", "tsc,clock_gettime", "tsc clock_gettime",
                         "ts", "tscc", "none"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        option_bad(t, bad[i], __LINE__);
    }
}

/* The table under test: one variable of every type. */
typedef struct {
    bool profiling;
    bool tracing;
    uint64_t depth;
    uint64_t memory;
    char *dir;
    char *machine;
    uint64_t groups;
    uint64_t timer;
} settings;

enum { N_VARS = 8 };

static void make_table(settings *s, scorep_cfg_var vars[N_VARS])
{
    const scorep_cfg_var table[N_VARS] = {
        {"SCOREP_ENABLE_PROFILING", SCOREP_CFG_BOOL, &s->profiling, "true", NULL,
         "Enable profiling", "Writes profile.cubex into the experiment directory."},
        {"SCOREP_ENABLE_TRACING", SCOREP_CFG_BOOL, &s->tracing, "false", NULL, "Enable tracing",
         NULL},
        {"SCOREP_PROFILING_MAX_CALLPATH_DEPTH", SCOREP_CFG_NUMBER, &s->depth, "100", NULL,
         "Maximum depth of the calltree", NULL},
        {"SCOREP_TOTAL_MEMORY", SCOREP_CFG_SIZE, &s->memory, "16000k", NULL,
         "Total memory in bytes for the measurement system", NULL},
        {"SCOREP_EXPERIMENT_DIRECTORY", SCOREP_CFG_PATH, &s->dir, "", NULL,
         "Name of the experiment directory", NULL},
        {"SCOREP_MACHINE_NAME", SCOREP_CFG_STRING, &s->machine, "Linux", NULL,
         "The machine name used in profile and trace output", NULL},
        {"SCOREP_MPI_ENABLE_GROUPS", SCOREP_CFG_SET, &s->groups, "default", groups,
         "The names of the function groups which are measured", NULL},
        {"SCOREP_TIMER", SCOREP_CFG_OPTION, &s->timer, "tsc", timers, "Timer used for time stamps",
         NULL},
    };
    memcpy(vars, table, sizeof table);
}

static const char *lookup_unset(const char *name)
{
    (void)name;
    return NULL;
}

static const char *lookup_set(const char *name)
{
    static const char *const env[][2] = {
        {"SCOREP_ENABLE_PROFILING", "no"},
        {"SCOREP_ENABLE_TRACING", "ON"},
        {"SCOREP_PROFILING_MAX_CALLPATH_DEPTH", " 30 "},
        {"SCOREP_TOTAL_MEMORY", "1 G"},
        {"SCOREP_EXPERIMENT_DIRECTORY", "  /tmp/my exp  "},
        {"SCOREP_MACHINE_NAME", " it's here "},
        {"SCOREP_MPI_ENABLE_GROUPS", "all:~default;ext"},
        {"SCOREP_TIMER", "gettimeofday"},
        {"SCOREP_UNKNOWN", "ignored"},
    };
    for (size_t i = 0; i < sizeof env / sizeof *env; i++) {
        if (strcmp(env[i][0], name) == 0) {
            return env[i][1];
        }
    }
    return NULL;
}

static const char *lookup_bad_size(const char *name)
{
    if (strcmp(name, "SCOREP_TOTAL_MEMORY") == 0) {
        return "12Q";
    }
    return strcmp(name, "SCOREP_MACHINE_NAME") == 0 ? "never applied" : NULL;
}

static const char *lookup_bad_set(const char *name)
{
    return strcmp(name, "SCOREP_MPI_ENABLE_GROUPS") == 0 ? "p2p,colll" : NULL;
}

static const char *lookup_bad_option(const char *name)
{
    return strcmp(name, "SCOREP_TIMER") == 0 ? "rdtsc" : NULL;
}

static const char *lookup_bad_bool(const char *name)
{
    return strcmp(name, "SCOREP_ENABLE_TRACING") == 0 ? "sure" : NULL;
}

/* scorep_cfg_write into a string (caller frees). */
static char *written(const scorep_cfg_var *vars, size_t n, int *rc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    *rc = scorep_cfg_write(vars, n, f);
    fclose(f);
    return text;
}

static void test_apply_defaults(tally *t)
{
    settings s = {0};
    scorep_cfg_var vars[N_VARS];
    make_table(&s, vars);
    char err[512] = "";
    CHECK(t, scorep_cfg_apply(vars, N_VARS, lookup_unset, err, sizeof err) == 0);
    CHECK(t, s.profiling && !s.tracing && s.depth == 100 && s.memory == 16384000);
    CHECK_STR(t, s.dir, "");
    CHECK_STR(t, s.machine, "Linux");
    CHECK(t, s.groups == G_DEFAULT && s.timer == 0);
    int rc;
    char *out = written(vars, N_VARS, &rc);
    CHECK(t, rc == 0);
    CHECK_STR(t, out,
              "SCOREP_ENABLE_PROFILING=true\n"
              "SCOREP_ENABLE_TRACING=false\n"
              "SCOREP_PROFILING_MAX_CALLPATH_DEPTH=100\n"
              "SCOREP_TOTAL_MEMORY=16384000\n"
              "SCOREP_EXPERIMENT_DIRECTORY=''\n"
              "SCOREP_MACHINE_NAME='Linux'\n"
              "SCOREP_MPI_ENABLE_GROUPS=cg,coll,env,io,p2p,rma,topo\n"
              "SCOREP_TIMER=tsc\n");
    free(out);
    scorep_cfg_free_strings(vars, N_VARS);
    CHECK(t, s.dir == NULL && s.machine == NULL);
}

static void test_apply_environment(tally *t)
{
    settings s = {0};
    scorep_cfg_var vars[N_VARS];
    make_table(&s, vars);
    char err[512] = "";
    CHECK(t, scorep_cfg_apply(vars, N_VARS, lookup_set, err, sizeof err) == 0);
    CHECK(t, !s.profiling && s.tracing && s.depth == 30 && s.memory == 1073741824);
    CHECK_STR(t, s.dir, "/tmp/my exp");
    CHECK_STR(t, s.machine, " it's here ");
    CHECK(t, s.groups == ((G_ALL & ~G_DEFAULT) | G_EXT) && s.timer == 2);
    int rc;
    char *out = written(vars, N_VARS, &rc);
    CHECK(t, rc == 0);
    CHECK_STR(t, out,
              "SCOREP_ENABLE_PROFILING=false\n"
              "SCOREP_ENABLE_TRACING=true\n"
              "SCOREP_PROFILING_MAX_CALLPATH_DEPTH=30\n"
              "SCOREP_TOTAL_MEMORY=1073741824\n"
              "SCOREP_EXPERIMENT_DIRECTORY='/tmp/my exp'\n"
              "SCOREP_MACHINE_NAME=' it'\\''s here '\n"
              "SCOREP_MPI_ENABLE_GROUPS=err,ext,misc,perf,spawn,type,xnonblock,xreqtest\n"
              "SCOREP_TIMER=gettimeofday\n");
    free(out);
    scorep_cfg_free_strings(vars, N_VARS);
}

static void apply_bad(tally *t, const char *(*lookup)(const char *), const char *want, int line)
{
    settings s = {0};
    scorep_cfg_var vars[N_VARS];
    make_table(&s, vars);
    char err[1024] = "";
    check(t, scorep_cfg_apply(vars, N_VARS, lookup, err, sizeof err) == -1, want, line);
    check_str(t, err, want, line);
    scorep_cfg_free_strings(vars, N_VARS);
}

static void test_apply_errors(tally *t)
{
    apply_bad(t, lookup_bad_size, "SCOREP_TOTAL_MEMORY='12Q' is invalid: " SIZE_FORMS, __LINE__);
    apply_bad(t, lookup_bad_set,
              "SCOREP_MPI_ENABLE_GROUPS='p2p,colll' is invalid: unknown entry 'colll'; " SET_FORMS
                  GROUP_NAMES,
              __LINE__);
    apply_bad(t, lookup_bad_option,
              "SCOREP_TIMER='rdtsc' is invalid: expected one of: tsc, clock_gettime, gettimeofday",
              __LINE__);
    apply_bad(t, lookup_bad_bool, "SCOREP_ENABLE_TRACING='sure' is invalid: " BOOL_FORMS, __LINE__);

    /* Variables before the bad one are set, the ones after it keep their old values. */
    settings s = {0};
    scorep_cfg_var vars[N_VARS];
    make_table(&s, vars);
    char err[512];
    CHECK(t, scorep_cfg_apply(vars, N_VARS, lookup_bad_size, err, sizeof err) == -1);
    CHECK(t, s.profiling && s.depth == 100 && s.memory == 0 && s.machine == NULL);
    scorep_cfg_free_strings(vars, N_VARS);

    /* A broken default is reported like a broken environment value. */
    uint64_t n = 0;
    const scorep_cfg_var broken = {"SCOREP_BROKEN", SCOREP_CFG_NUMBER, &n, "ten", NULL, "", NULL};
    CHECK(t, scorep_cfg_apply(&broken, 1, lookup_unset, err, sizeof err) == -1);
    CHECK_STR(t, err, "SCOREP_BROKEN='ten' is invalid: " NUMBER_FORMS);
}

static void test_apply_getenv(tally *t)
{
    uint64_t n = 0;
    const scorep_cfg_var var = {
        "SCOREP_TEST_CONFIG_NUMBER", SCOREP_CFG_NUMBER, &n, "1", NULL, "", NULL};
    setenv("SCOREP_TEST_CONFIG_NUMBER", "77", 1);
    CHECK(t, scorep_cfg_apply(&var, 1, NULL, NULL, 0) == 0 && n == 77);
    unsetenv("SCOREP_TEST_CONFIG_NUMBER");
    CHECK(t, scorep_cfg_apply(&var, 1, NULL, NULL, 0) == 0 && n == 1);
}

static void test_format(tally *t)
{
    uint64_t groups_value = 0;
    scorep_cfg_var set = {"S", SCOREP_CFG_SET, &groups_value, "", groups, "", NULL};
    char buf[128];
    CHECK(t, scorep_cfg_format_value(&set, buf, sizeof buf) == 4);
    CHECK_STR(t, buf, "none");
    groups_value = G_ALL;
    scorep_cfg_format_value(&set, buf, sizeof buf);
    CHECK_STR(t, buf,
              "cg,coll,env,err,ext,io,p2p,misc,perf,rma,spawn,topo,type,xnonblock,xreqtest");

    /* A combination is written only for bits no single-bit entry names. */
    static const scorep_cfg_choice combos[] = {{"pair", 6}, {"one", 1}, {"uno", 1}, {NULL, 0}};
    set.choices = combos;
    groups_value = 7;
    scorep_cfg_format_value(&set, buf, sizeof buf);
    CHECK_STR(t, buf, "one,pair");

    char *str = "a'b''c";
    scorep_cfg_var s = {"S", SCOREP_CFG_STRING, &str, "", NULL, "", NULL};
    CHECK(t, scorep_cfg_format_value(&s, buf, sizeof buf) == 17);
    CHECK_STR(t, buf, "'a'\\''b'\\'''\\''c'");
    char tiny[5];
    CHECK(t, scorep_cfg_format_value(&s, tiny, sizeof tiny) == 17);
    CHECK_STR(t, tiny, "'a'\\");
    str = NULL;
    scorep_cfg_format_value(&s, buf, sizeof buf);
    CHECK_STR(t, buf, "''");

    uint64_t timer = 7;
    scorep_cfg_var opt = {"T", SCOREP_CFG_OPTION, &timer, "tsc", timers, "", NULL};
    scorep_cfg_format_value(&opt, buf, sizeof buf);
    CHECK_STR(t, buf, "7");
    CHECK_STR(t, scorep_cfg_type_name(SCOREP_CFG_SIZE), "Size");
    CHECK_STR(t, scorep_cfg_type_name(SCOREP_CFG_BOOL), "Boolean");
}

static void test_write_long_string(tally *t)
{
    char *long_value = malloc(1001);
    memset(long_value, 'x', 1000);
    long_value[1000] = '\0';
    const scorep_cfg_var var = {"SCOREP_LONG", SCOREP_CFG_STRING, &long_value, "", NULL, "", NULL};
    int rc;
    char *out = written(&var, 1, &rc);
    CHECK(t, rc == 0 && strlen(out) == strlen("SCOREP_LONG=''\n") + 1000);
    CHECK(t, strncmp(out, "SCOREP_LONG='xxxx", 17) == 0 && strcmp(out + 1010, "xxx'\n") == 0);
    free(out);
    free(long_value);
}

static char *help_text(const scorep_cfg_var *vars, size_t n, bool full)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    scorep_cfg_print_help(vars, n, full, f);
    fclose(f);
    return text;
}

static void test_help(tally *t)
{
    settings s = {0};
    scorep_cfg_var vars[N_VARS];
    make_table(&s, vars);
    char *brief = help_text(vars, 2, false);
    CHECK_STR(t, brief,
              "SCOREP_ENABLE_PROFILING\n"
              "  Description: Enable profiling\n"
              "         Type: Boolean\n"
              "      Default: true\n"
              "SCOREP_ENABLE_TRACING\n"
              "  Description: Enable tracing\n"
              "         Type: Boolean\n"
              "      Default: false\n");
    free(brief);

    char *full = help_text(vars, N_VARS, true);
    CHECK(t, strstr(full, "SCOREP_ENABLE_PROFILING\n"
                          "  Description: Enable profiling\n"
                          "         Type: Boolean\n"
                          "      Default: true\n"
                          "         Help: Writes profile.cubex into the experiment directory.\n"
                          "\n"
                          "SCOREP_ENABLE_TRACING\n") == full);
    CHECK(t, strstr(full, "SCOREP_EXPERIMENT_DIRECTORY\n"
                          "  Description: Name of the experiment directory\n"
                          "         Type: Path\n"
                          "      Default: \"\"\n\n") != NULL);
    CHECK(t, strstr(full, "SCOREP_MPI_ENABLE_GROUPS\n"
                          "  Description: The names of the function groups which are measured\n"
                          "         Type: Set\n"
                          "      Default: default\n"
                          "       Values: all, cg, coll, default, env, err, ext, io, p2p, misc, "
                          "perf, rma,\n"
                          "               spawn, topo, type, xnonblock, xreqtest\n\n") != NULL);
    CHECK(t, strstr(full, "         Type: Option\n"
                          "      Default: tsc\n"
                          "       Values: tsc, clock_gettime, gettimeofday\n\n") != NULL);
    CHECK(t, strstr(full, "         Type: Size\n      Default: 16000k\n") != NULL);
    free(full);

    /* Long help wraps at 80 columns; a newline in the help starts a new line without trailing
     * blanks. */
    uint64_t n = 0;
    const scorep_cfg_var wrapped = {
        "SCOREP_X",
        SCOREP_CFG_NUMBER,
        &n,
        "1",
        NULL,
        "Brief",
        "The quick brown fox jumps over the lazy dog and keeps running through the wide field "
        "until dusk.\n\nSecond paragraph."};
    char *text = help_text(&wrapped, 1, true);
    CHECK_STR(t, text,
              "SCOREP_X\n"
              "  Description: Brief\n"
              "         Type: Number\n"
              "      Default: 1\n"
              "         Help: The quick brown fox jumps over the lazy dog and keeps running\n"
              "               through the wide field until dusk.\n"
              "\n"
              "               Second paragraph.\n"
              "\n");
    free(text);
}

/* the SCOREP_* variables a table does not know: misspellings and Score-P's unsupported ones */
static void test_unknown_note(tally *t)
{
    static bool b;
    static uint64_t u;
    static const scorep_cfg_var vars[] = {
        {"SCOREP_ENABLE_TRACING", SCOREP_CFG_BOOL, &b, "false", NULL, "", ""},
        {"SCOREP_TOTAL_MEMORY", SCOREP_CFG_SIZE, &u, "16M", NULL, "", ""},
    };
    char out[512];
    char *none[] = {"PATH=/bin", "SCOREP_ENABLE_TRACING=1", "SCOREP_METRIC_MYPLUGIN_X=3",
                    "SCOREP_WRAPPER=off", NULL};
    scorep_cfg_unknown_note(vars, 2, none, out, sizeof out);
    CHECK_STR(t, out, "");
    char *typo[] = {"SCOREP_ENABLE_TRACEING=1", "SCOREP_TOTAL_MEMRY=1G", NULL};
    scorep_cfg_unknown_note(vars, 2, typo, out, sizeof out);
    CHECK_STR(t, out,
              "SCOREP_ENABLE_TRACEING is not a variable of scorep-rt (did you mean "
              "SCOREP_ENABLE_TRACING?); SCOREP_TOTAL_MEMRY is not a variable of scorep-rt (did "
              "you mean SCOREP_TOTAL_MEMORY?)");
    char *foreign[] = {"SCOREP_TRACING_USE_SION=true", "SCOREP_ENABLE_TRACNG=1",
                       "SCOREP_OPENCL_ENABLE=yes", NULL};
    scorep_cfg_unknown_note(vars, 2, foreign, out, sizeof out);
    CHECK_STR(t, out,
              "SCOREP_ENABLE_TRACNG is not a variable of scorep-rt (did you mean "
              "SCOREP_ENABLE_TRACING?); Score-P variables that scorep-rt does not support are "
              "ignored: SCOREP_TRACING_USE_SION, SCOREP_OPENCL_ENABLE");
    char small[24];
    scorep_cfg_unknown_note(vars, 2, foreign, small, sizeof small);
    CHECK(t, strlen(small) == sizeof small - 1); /* truncated, still terminated */
}

int main(void)
{
    tally t = {0, 0};
    test_bool(&t);
    test_number(&t);
    test_size(&t);
    test_set(&t);
    test_option(&t);
    test_apply_defaults(&t);
    test_apply_environment(&t);
    test_apply_errors(&t);
    test_apply_getenv(&t);
    test_format(&t);
    test_write_long_string(&t);
    test_help(&t);
    test_unknown_note(&t);
    printf("test_config: %d checks, %d failed\n", t.checks, t.failures);
    return t.failures == 0 ? 0 : 1;
}
