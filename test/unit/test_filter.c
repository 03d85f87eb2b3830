/* SPDX-License-Identifier: BSD-3-Clause */
/* test_filter.c: unit tests of src/filter: the full filter-file grammar (comments, escapes,
 * MANGLED/DEMANGLED, repeated blocks), last-match-wins evaluation and every syntax error. */
#include "filter/filter.h"
#include "unit_tmp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    int checks;
    int failures;
} tally;

static void check(tally *t, bool ok, const char *what, int line)
{
    t->checks++;
    if (!ok) {
        t->failures++;
        fprintf(stderr, "test_filter.c:%d: FAILED: %s\n", line, what);
    }
}

#define CHECK(t, cond) check((t), (cond), #cond, __LINE__)

static void check_str(tally *t, const char *got, const char *want, int line)
{
    bool ok = strcmp(got, want) == 0;
    check(t, ok, want, line);
    if (!ok) {
        fprintf(stderr, "  got:  %s\n  want: %s\n", got, want);
    }
}

#define CHECK_STR(t, got, want) check_str((t), (got), (want), __LINE__)

/* A new filter with text parsed; aborts the test run if it does not parse. */
static scorep_filter *parsed(const char *text)
{
    scorep_filter *f = scorep_filter_new();
    char err[256];
    if (f == NULL || scorep_filter_parse_text(f, text, "test", err, sizeof err) != 0) {
        fprintf(stderr, "unexpected parse failure: %s\n", err);
        exit(1);
    }
    return f;
}

#define REGION_OUT(f, name) scorep_filter_region_excluded((f), (name), NULL)

static void test_empty(tally *t)
{
    scorep_filter *f = scorep_filter_new();
    CHECK(t, scorep_filter_is_empty(f));
    CHECK(t, !scorep_filter_excluded(f, "a.c", "main", "main"));
    CHECK(t, !scorep_filter_file_excluded(f, NULL));
    char err[128] = "";
    CHECK(t, scorep_filter_parse_text(f, "", "e", err, sizeof err) == 0);
    CHECK(t, scorep_filter_parse_text(f, "# only a comment\n\n   \t\n", "e", err, sizeof err) == 0);
    CHECK(t, scorep_filter_parse_text(f,
                                      "SCOREP_REGION_NAMES_BEGIN\nSCOREP_REGION_NAMES_END\n"
                                      "SCOREP_FILE_NAMES_BEGIN EXCLUDE SCOREP_FILE_NAMES_END",
                                      "e", err, sizeof err) == 0);
    CHECK(t, scorep_filter_is_empty(f));
    scorep_filter_free(f);
    scorep_filter_free(NULL);
}

static void test_documented_example(tally *t)
{
    scorep_filter *f = parsed("# comment\n"
                              "SCOREP_FILE_NAMES_BEGIN\n"
                              "  EXCLUDE */third_party/*\n"
                              "  INCLUDE */third_party/keep.c\n"
                              "SCOREP_FILE_NAMES_END\n"
                              "SCOREP_REGION_NAMES_BEGIN\n"
                              "  EXCLUDE *\n"
                              "  INCLUDE main solve_* MANGLED _Z3fooi\n"
                              "SCOREP_REGION_NAMES_END\n");
    CHECK(t, !scorep_filter_is_empty(f));
    CHECK(t, scorep_filter_file_excluded(f, "/src/third_party/lib.c"));
    CHECK(t, !scorep_filter_file_excluded(f, "/src/third_party/keep.c"));
    CHECK(t, !scorep_filter_file_excluded(f, "/src/app.c"));
    CHECK(t, !REGION_OUT(f, "main"));
    CHECK(t, !REGION_OUT(f, "solve_linear"));
    CHECK(t, REGION_OUT(f, "helper"));
    CHECK(t, !scorep_filter_region_excluded(f, "foo(int)", "_Z3fooi"));
    CHECK(t, scorep_filter_region_excluded(f, "foo(int)", "_Z3food"));
    /* file OR region */
    CHECK(t, scorep_filter_excluded(f, "/x/third_party/a.c", "main", NULL));
    CHECK(t, scorep_filter_excluded(f, "/src/app.c", "helper", NULL));
    CHECK(t, !scorep_filter_excluded(f, "/src/app.c", "main", NULL));
    CHECK(t, !scorep_filter_excluded(f, NULL, "main", NULL));
    scorep_filter_free(f);
}

static void test_comments(tally *t)
{
    scorep_filter *f = parsed("#SCOREP_REGION_NAMES_BEGIN\n"
                              "SCOREP_REGION_NAMES_BEGIN # trailing comment EXCLUDE all\n"
                              "EXCLUDE foo # bar\n"
                              "EXCLUDE baz#qux\n"
                              "   # EXCLUDE indented\n"
                              "SCOREP_REGION_NAMES_END#done\n");
    CHECK(t, REGION_OUT(f, "foo"));
    CHECK(t, !REGION_OUT(f, "bar"));
    CHECK(t, REGION_OUT(f, "baz"));
    CHECK(t, !REGION_OUT(f, "baz#qux"));
    CHECK(t, !REGION_OUT(f, "qux"));
    CHECK(t, !REGION_OUT(f, "indented"));
    CHECK(t, !REGION_OUT(f, "all"));
    scorep_filter_free(f);
}

static void test_escapes(tally *t)
{
    scorep_filter *f = parsed("SCOREP_REGION_NAMES_BEGIN\n"
                              "EXCLUDE a\\#b my\\ func back\\\\slash\n"
                              "EXCLUDE star\\* wild\\ *\\#\n"
                              "EXCLUDE \\INCLUDE \\ lead\n"
                              "SCOREP_REGION_NAMES_END\n");
    CHECK(t, REGION_OUT(f, "a#b"));
    CHECK(t, !REGION_OUT(f, "a"));
    CHECK(t, REGION_OUT(f, "my func"));
    CHECK(t, !REGION_OUT(f, "my"));
    CHECK(t, !REGION_OUT(f, "func"));
    CHECK(t, REGION_OUT(f, "back\\slash"));
    CHECK(t, REGION_OUT(f, "star*"));
    CHECK(t, !REGION_OUT(f, "starship"));
    CHECK(t, REGION_OUT(f, "wild thing#"));
    CHECK(t, !REGION_OUT(f, "wild thing"));
    CHECK(t, REGION_OUT(f, "INCLUDE"));
    CHECK(t, REGION_OUT(f, " lead"));
    scorep_filter_free(f);
}

static void test_wildcards(tally *t)
{
    scorep_filter *f = parsed("SCOREP_FILE_NAMES_BEGIN EXCLUDE /usr/* SCOREP_FILE_NAMES_END\n"
                              "SCOREP_REGION_NAMES_BEGIN EXCLUDE f? g[0-9] h[!a]* "
                              "SCOREP_REGION_NAMES_END\n");
    CHECK(t, scorep_filter_file_excluded(f, "/usr/include/deep/stdio.h")); /* '*' matches '/' */
    CHECK(t, !scorep_filter_file_excluded(f, "/home/usr/x.c"));
    CHECK(t, REGION_OUT(f, "f1") && !REGION_OUT(f, "f") && !REGION_OUT(f, "f12"));
    CHECK(t, REGION_OUT(f, "g7") && !REGION_OUT(f, "gx"));
    CHECK(t, REGION_OUT(f, "hello") && !REGION_OUT(f, "hallo"));
    CHECK(t, !REGION_OUT(f, "F1")); /* case-sensitive */
    scorep_filter_free(f);
}

static void test_mangled(tally *t)
{
    scorep_filter *f = parsed("SCOREP_REGION_NAMES_BEGIN\n"
                              "EXCLUDE MANGLED _Z3foo* DEMANGLED bar*\n"
                              "EXCLUDE MANGLED\n"
                              "  _Z4quxv\n"
                              "INCLUDE _Z3fooi\n"
                              "SCOREP_REGION_NAMES_END\n");
    CHECK(t, scorep_filter_region_excluded(f, "foo(int)", "_Z3fooi"));
    CHECK(t, scorep_filter_region_excluded(f, "foo(double)", "_Z3food"));
    CHECK(t, !scorep_filter_region_excluded(f, "_Z3fooi", "x")); /* MANGLED: demangled ignored */
    CHECK(t, scorep_filter_region_excluded(f, "bar(int)", "_Z3bari"));
    CHECK(t, !scorep_filter_region_excluded(f, "x", "bar"));        /* DEMANGLED: mangled ignored */
    CHECK(t, scorep_filter_region_excluded(f, "qux()", "_Z4quxv")); /* MANGLED across lines */
    /* INCLUDE reset to demangled: "_Z3fooi" now matches the demangled name only. */
    CHECK(t, !scorep_filter_region_excluded(f, "_Z3fooi", "_Z3fooi"));
    CHECK(t, scorep_filter_region_excluded(f, "foo", "_Z3fooi"));
    /* no mangled name given: the name stands for both */
    CHECK(t, REGION_OUT(f, "_Z4quxv"));
    CHECK(t, !REGION_OUT(f, "_Z3fooi"));
    scorep_filter_free(f);
}

static void test_last_match_wins(tally *t)
{
    scorep_filter *f = parsed("SCOREP_REGION_NAMES_BEGIN\n"
                              "EXCLUDE *\nINCLUDE main\n"
                              "INCLUDE keep_*\nEXCLUDE keep_not\n"
                              "SCOREP_REGION_NAMES_END\n");
    CHECK(t, !REGION_OUT(f, "main"));
    CHECK(t, REGION_OUT(f, "other"));
    CHECK(t, !REGION_OUT(f, "keep_me"));
    CHECK(t, REGION_OUT(f, "keep_not"));
    scorep_filter_free(f);

    f = parsed("SCOREP_REGION_NAMES_BEGIN INCLUDE main EXCLUDE * SCOREP_REGION_NAMES_END");
    CHECK(t, REGION_OUT(f, "main"));
    scorep_filter_free(f);
}

static void test_repeated_blocks(tally *t)
{
    scorep_filter *f =
        parsed("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE a* b\nc\nSCOREP_REGION_NAMES_END\n"
               "SCOREP_FILE_NAMES_BEGIN\nEXCLUDE *.f90\nSCOREP_FILE_NAMES_END\n"
               "SCOREP_REGION_NAMES_BEGIN\nINCLUDE ab\nSCOREP_REGION_NAMES_END\n");
    CHECK(t, REGION_OUT(f, "ax") && REGION_OUT(f, "b") && REGION_OUT(f, "c"));
    CHECK(t, !REGION_OUT(f, "ab"));
    CHECK(t, scorep_filter_file_excluded(f, "x.f90") && !scorep_filter_file_excluded(f, "x.c"));
    char err[128] = "";
    /* a second text adds to the same filter, after the earlier rules */
    CHECK(t, scorep_filter_parse_text(f,
                                      "SCOREP_REGION_NAMES_BEGIN\n"
                                      "\tEXCLUDE\tab\r\n"
                                      "SCOREP_REGION_NAMES_END\r\n",
                                      "more", err, sizeof err) == 0);
    CHECK(t, REGION_OUT(f, "ab"));
    scorep_filter_free(f);
}

static void test_many_rules(tally *t)
{
    char text[8192] = "SCOREP_REGION_NAMES_BEGIN\n";
    for (int i = 0; i < 200; i++) {
        char line[40];
        snprintf(line, sizeof line, "%s r%d\n", i % 2 == 0 ? "EXCLUDE" : "INCLUDE", i);
        strcat(text, line);
    }
    strcat(text, "SCOREP_REGION_NAMES_END\n");
    scorep_filter *f = parsed(text);
    CHECK(t, REGION_OUT(f, "r0") && REGION_OUT(f, "r198"));
    CHECK(t, !REGION_OUT(f, "r1") && !REGION_OUT(f, "r199") && !REGION_OUT(f, "r200"));
    scorep_filter_free(f);
}

/* Parses text into a filter holding one earlier rule; expects the exact error and no change. */
static void bad(tally *t, const char *text, const char *want, int line)
{
    scorep_filter *f = parsed("SCOREP_REGION_NAMES_BEGIN EXCLUDE old SCOREP_REGION_NAMES_END");
    char err[256] = "";
    check(t, scorep_filter_parse_text(f, text, "filter.txt", err, sizeof err) == -1, want, line);
    check_str(t, err, want, line);
    check(t,
          REGION_OUT(f, "old") && !REGION_OUT(f, "new") && !REGION_OUT(f, "foo") &&
              !scorep_filter_file_excluded(f, "a.c"),
          "filter unchanged", line);
    scorep_filter_free(f);
}

#define OUTSIDE ": expected SCOREP_FILE_NAMES_BEGIN or SCOREP_REGION_NAMES_BEGIN"

static void test_errors(tally *t)
{
    bad(t, "\n# c\n\nSCOREP_REGION_NAMES_BEGIN\nEXCLUDE new\n\nfoo", /* missing END */
        "filter.txt:4: SCOREP_REGION_NAMES_BEGIN without SCOREP_REGION_NAMES_END before the end "
        "of the file",
        __LINE__);
    bad(t, "SCOREP_FILE_NAMES_BEGIN\n",
        "filter.txt:1: SCOREP_FILE_NAMES_BEGIN without SCOREP_FILE_NAMES_END before the end of "
        "the file",
        __LINE__);
    bad(t,
        "SCOREP_REGION_NAMES_BEGIN\nEXCLUDE new\nSCOREP_REGION_NAMES_END\n\n\n\n"
        "SCOREP_REGION_NAMES_BEGIN\nfoo\n",
        "filter.txt:8: pattern 'foo' before INCLUDE or EXCLUDE", __LINE__);
    bad(t, "foo\n", "filter.txt:1: 'foo' outside a block" OUTSIDE, __LINE__);
    bad(t, "SCOREP_FILE_NAMES_BEGIN\nSCOREP_FILE_NAMES_END\nEXCLUDE a.c\n",
        "filter.txt:3: 'EXCLUDE' outside a block" OUTSIDE, __LINE__);
    bad(t, "\n  MANGLED", "filter.txt:2: 'MANGLED' outside a block" OUTSIDE, __LINE__);
    bad(t, "SCOREP_FILE_NAMES_END",
        "filter.txt:1: SCOREP_FILE_NAMES_END without SCOREP_FILE_NAMES_BEGIN", __LINE__);
    bad(t, "\nSCOREP_REGION_NAMES_BEGIN SCOREP_REGION_NAMES_END SCOREP_REGION_NAMES_END",
        "filter.txt:2: SCOREP_REGION_NAMES_END without SCOREP_REGION_NAMES_BEGIN", __LINE__);
    bad(t, "SCOREP_FILE_NAMES_BEGIN\nEXCLUDE a.c\nSCOREP_REGION_NAMES_END\n",
        "filter.txt:3: SCOREP_REGION_NAMES_END does not match the SCOREP_FILE_NAMES_BEGIN of line "
        "1",
        __LINE__);
    bad(t, "SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE new\n  SCOREP_REGION_NAMES_BEGIN\n",
        "filter.txt:3: SCOREP_REGION_NAMES_BEGIN inside the SCOREP_REGION_NAMES_BEGIN block of "
        "line 1 (missing SCOREP_REGION_NAMES_END)",
        __LINE__);
    bad(t, "\nSCOREP_FILE_NAMES_BEGIN\nSCOREP_REGION_NAMES_BEGIN\n",
        "filter.txt:3: SCOREP_REGION_NAMES_BEGIN inside the SCOREP_FILE_NAMES_BEGIN block of line "
        "2 (missing SCOREP_FILE_NAMES_END)",
        __LINE__);
    bad(t, "SCOREP_FILE_NAMES_BEGIN\nEXCLUDE\nMANGLED a.c\nSCOREP_FILE_NAMES_END\n",
        "filter.txt:3: MANGLED is only allowed in a SCOREP_REGION_NAMES block", __LINE__);
    bad(t, "SCOREP_FILE_NAMES_BEGIN\nINCLUDE DEMANGLED\n",
        "filter.txt:2: DEMANGLED is only allowed in a SCOREP_REGION_NAMES block", __LINE__);
    bad(t, "SCOREP_REGION_NAMES_BEGIN\n\nMANGLED _Z3fooi\n",
        "filter.txt:3: MANGLED before INCLUDE or EXCLUDE", __LINE__);
    bad(t, "SCOREP_REGION_NAMES_BEGIN DEMANGLED",
        "filter.txt:1: DEMANGLED before INCLUDE or EXCLUDE", __LINE__);
    bad(t, "SCOREP_REGION_NAMES_BEGIN\nEXCLUDE new\nexclude foo\n",
        "filter.txt:1: SCOREP_REGION_NAMES_BEGIN without SCOREP_REGION_NAMES_END before the end "
        "of the file",
        __LINE__);
    bad(t, "SCOREP_REGION_NAMES_BEGIN\ninclude foo\n",
        "filter.txt:2: pattern 'include' before INCLUDE or EXCLUDE", __LINE__);
    bad(t, "SCOREP_REGION_NAMES_BEGIN\nEXCLUDEfoo\n",
        "filter.txt:2: pattern 'EXCLUDEfoo' before INCLUDE or EXCLUDE", __LINE__);
    bad(t, "SCOREP_REGION_NAMES_BEGIN\nEXCLUDE new foo\\\nSCOREP_REGION_NAMES_END\n",
        "filter.txt:2: backslash at the end of the line (there is no line continuation)", __LINE__);
    bad(t, "scorep_region_names_begin",
        "filter.txt:1: 'scorep_region_names_begin' outside a block" OUTSIDE, __LINE__);
    bad(t, "SCOREP_REGION_NAMES_BEGIN\n\\#x\n",
        "filter.txt:2: pattern '\\#x' before INCLUDE or EXCLUDE", __LINE__);

    /* a small buffer truncates the message; a NULL buffer is allowed */
    scorep_filter *f = scorep_filter_new();
    char small[12];
    CHECK(t, scorep_filter_parse_text(f, "foo", "filter.txt", small, sizeof small) == -1);
    CHECK_STR(t, small, "filter.txt:");
    CHECK(t, scorep_filter_parse_text(f, "foo", NULL, NULL, 0) == -1);
    CHECK(t, scorep_filter_is_empty(f));
    scorep_filter_free(f);
}

static void test_files(tally *t)
{
    char dir[1024];
    unit_tmp_template(dir, sizeof dir, "test_filter");
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        exit(1);
    }
    char path[1100], err[1600] = "";
    snprintf(path, sizeof path, "%s/filter.txt", dir);
    FILE *out = fopen(path, "w");
    fputs("SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE bad*\nSCOREP_REGION_NAMES_END\n", out);
    fclose(out);
    scorep_filter *f = scorep_filter_new();
    CHECK(t, scorep_filter_parse_file(f, path, err, sizeof err) == 0);
    CHECK(t, REGION_OUT(f, "bad_one") && !REGION_OUT(f, "good"));

    out = fopen(path, "a");
    fputs("\n  EXCLUDE oops\n", out);
    fclose(out);
    char want[1600];
    CHECK(t, scorep_filter_parse_file(f, path, err, sizeof err) == -1);
    snprintf(want, sizeof want, "%s:5: 'EXCLUDE' outside a block" OUTSIDE, path);
    CHECK_STR(t, err, want);

    snprintf(want, sizeof want, "%s/missing.txt: cannot open: No such file or directory", dir);
    char missing[1100];
    snprintf(missing, sizeof missing, "%s/missing.txt", dir);
    CHECK(t, scorep_filter_parse_file(f, missing, err, sizeof err) == -1);
    CHECK_STR(t, err, want);

    snprintf(want, sizeof want, "%s: cannot read: Is a directory", dir);
    CHECK(t, scorep_filter_parse_file(f, dir, err, sizeof err) == -1);
    CHECK_STR(t, err, want);
    CHECK(t, REGION_OUT(f, "bad_one") && !REGION_OUT(f, "oops"));
    scorep_filter_free(f);

    /* a file larger than the first read buffer */
    out = fopen(path, "w");
    fputs("SCOREP_REGION_NAMES_BEGIN\nEXCLUDE\n", out);
    for (int i = 0; i < 2000; i++) {
        fprintf(out, "region_%04d\n", i);
    }
    fputs("SCOREP_REGION_NAMES_END", out);
    fclose(out);
    f = scorep_filter_new();
    CHECK(t, scorep_filter_parse_file(f, path, err, sizeof err) == 0);
    CHECK(t, REGION_OUT(f, "region_0000") && REGION_OUT(f, "region_1999"));
    CHECK(t, !REGION_OUT(f, "region_2000"));
    scorep_filter_free(f);
    unlink(path);
    rmdir(dir);
}

/* scorep_filter_symbol_only_rules: which plain rules are said to match a wrapped function's
 * symbol (ml_add) but no region name (ml_add(int, int)); "file:line rule" of each, in order */
static void collect(void *ctx, const char *origin, int line, bool exclude, const char *pattern)
{
    char *out = ctx;
    size_t n = strlen(out);
    snprintf(out + n, 512 - n, "%s:%d %s %s;", origin, line, exclude ? "EXCLUDE" : "INCLUDE",
             pattern);
}

static void test_symbol_only(tally *t)
{
    scorep_filter *f = parsed("SCOREP_REGION_NAMES_BEGIN\n"
                              "  EXCLUDE ml_add ml_nothing\n" /* 2: a symbol; nothing */
                              "  EXCLUDE MANGLED ml_sub\n"    /* 3: the symbol, meant so */
                              "  EXCLUDE ml_mul\n"            /* 4: also a user region's name */
                              "  EXCLUDE ml_d*\n"             /* 5: name and symbol */
                              "  INCLUDE ml_ne?\n"            /* 6: a symbol, by wildcard */
                              "  EXCLUDE ml_add(*\n"          /* 7: the name */
                              "SCOREP_REGION_NAMES_END\n");
    char out[512] = "";
    CHECK(t, scorep_filter_symbol_only_rules(f, collect, out) == 0); /* nothing defined yet */
    const char *names[][2] = {{"ml_add(int, int)", "ml_add"},
                              {"ml_sub(int)", "ml_sub"},
                              {"ml_mul(int)", "ml_mul"},
                              {"ml_div(int)", "ml_div"},
                              {"ml_neg(int)", "ml_neg"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        scorep_filter_region_excluded(f, names[i][0], names[i][1]);
        scorep_filter_note_symbol(f, names[i][0], names[i][1]);
    }
    CHECK(t, scorep_filter_region_excluded(f, "ml_mul", NULL)); /* a user region ml_mul */
    CHECK(t, scorep_filter_symbol_only_rules(f, collect, out) == 2);
    CHECK_STR(t, out, "test:2 EXCLUDE ml_add;test:6 INCLUDE ml_ne?;");
    scorep_filter_note_symbol(f, "same", "same"); /* a name that is its symbol: no hint */
    CHECK(t, scorep_filter_symbol_only_rules(f, NULL, NULL) == 2);
    scorep_filter_free(f);
}

/* The job's view (scorep_filter_rule_marks OR-ed over processes): rank 0 defines ml_add only,
 * rank 1 ml_neg and ml_div; a rule is said when it matched a symbol on some process and a
 * name on none. 70 rules: the marks span 3 words. Equal filters, equal fingerprints. */
static void test_symbol_only_job(tally *t)
{
    char text[4096] = "SCOREP_REGION_NAMES_BEGIN\n"
                      "  EXCLUDE ml_add\n" /* 2: a symbol on rank 0 */
                      "  EXCLUDE ml_ne?\n" /* 3: a symbol on rank 1 */
                      "  EXCLUDE ml_d*\n"; /* 4: name and symbol on rank 1 */
    for (int i = 0; i < 66; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "  EXCLUDE pad_%d\n", i);
    strcat(text, "  INCLUDE ml_div\n" /* 71: a symbol on rank 1, in the third word */
                 "SCOREP_REGION_NAMES_END\n");
    scorep_filter *r0 = parsed(text), *r1 = parsed(text),
                  *other = parsed("SCOREP_REGION_NAMES_BEGIN\n"
                                  "  EXCLUDE ml_add\n"
                                  "SCOREP_REGION_NAMES_END\n");
    uint64_t fp0, fp1, fpo;
    size_t n = scorep_filter_rule_words(r0, &fp0);
    CHECK(t, n == 3 && scorep_filter_rule_words(r1, &fp1) == 3 && fp0 == fp1);
    CHECK(t, scorep_filter_rule_words(other, &fpo) == 1 && fpo != fp0);
    scorep_filter_region_excluded(r0, "ml_add(int, int)", "ml_add");
    scorep_filter_note_symbol(r0, "ml_add(int, int)", "ml_add");
    const char *names[][2] = {{"ml_neg(int)", "ml_neg"}, {"ml_div(int)", "ml_div"}};
    for (size_t i = 0; i < 2; i++) {
        scorep_filter_region_excluded(r1, names[i][0], names[i][1]);
        scorep_filter_note_symbol(r1, names[i][0], names[i][1]);
    }
    uint64_t w0[3] = {0}, w1[3] = {0}, job[3];
    scorep_filter_rule_marks(r0, w0);
    scorep_filter_rule_marks(r1, w1);
    char out[512] = "";
    CHECK(t, scorep_filter_symbol_only_rules_of(r0, w0, collect, out) == 1);
    CHECK_STR(t, out, "test:2 EXCLUDE ml_add;");
    for (int i = 0; i < 3; i++)
        job[i] = w0[i] | w1[i];
    out[0] = 0;
    CHECK(t, scorep_filter_symbol_only_rules_of(r0, job, collect, out) == 3);
    CHECK_STR(t, out, "test:2 EXCLUDE ml_add;test:3 EXCLUDE ml_ne?;test:71 INCLUDE ml_div;");
    scorep_filter_free(r0);
    scorep_filter_free(r1);
    scorep_filter_free(other);
}

int main(void)
{
    tally t = {0, 0};
    test_empty(&t);
    test_documented_example(&t);
    test_comments(&t);
    test_escapes(&t);
    test_wildcards(&t);
    test_mangled(&t);
    test_last_match_wins(&t);
    test_repeated_blocks(&t);
    test_many_rules(&t);
    test_errors(&t);
    test_files(&t);
    test_symbol_only(&t);
    test_symbol_only_job(&t);
    printf("test_filter: %d checks, %d failed\n", t.checks, t.failures);
    return t.failures == 0 ? 0 : 1;
}
