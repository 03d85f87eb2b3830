/* SPDX-License-Identifier: BSD-3-Clause */
/* test_selective_file.c: the parser of the selective recording file (src/adapters/user/
 * selective_file.c) on files written here: Score-P's own test file, every accepted form of
 * instances, merging, comments, and every error with its line. */
#include "adapters/user/selective_file.h"
#include "unit_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[256];

static int parse_text(scorep_selection_table *t, const char *text, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
    return scorep_selection_parse(t, path, err, errlen);
}

/* "first-last first-last ..." of the region's intervals; "-" for UINT64_MAX */
static const char *intervals(const scorep_selection_table *t, const char *name)
{
    static char out[512];
    const scorep_selection *s = scorep_selection_find(t, name);
    if (!s)
        return "(none)";
    out[0] = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        char one[64];
        if (s->iv[i].last == UINT64_MAX)
            snprintf(one, sizeof one, "%s%llu-", i ? " " : "", (unsigned long long)s->iv[i].first);
        else
            snprintf(one, sizeof one, "%s%llu-%llu", i ? " " : "",
                     (unsigned long long)s->iv[i].first, (unsigned long long)s->iv[i].last);
        strcat(out, one);
    }
    return out;
}

int main(void)
{
    snprintf(path, sizeof path, "%s/sel.%ld.cfg", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (long)getpid());
    scorep_selection_table t;
    char err[1024];

    /* Score-P's test/adapters/user/C/selective.cfg */
    CHECK(parse_text(&t, "loop 3:6, 10 ,  17:23\n", err, sizeof err) == 0, "%s", err);
    CHECK(t.n == 1, "one region, got %zu", t.n);
    CHECK(strcmp(intervals(&t, "loop"), "3-6 10-10 17-23") == 0, "loop: %s",
          intervals(&t, "loop"));
    uint64_t in[] = {3, 4, 5, 6, 10, 17, 23}, out[] = {0, 2, 7, 9, 11, 16, 24, UINT64_MAX};
    for (size_t i = 0; i < sizeof in / sizeof *in; i++)
        CHECK(scorep_selection_contains(scorep_selection_find(&t, "loop"), in[i]),
              "instance %llu selected", (unsigned long long)in[i]);
    for (size_t i = 0; i < sizeof out / sizeof *out; i++)
        CHECK(!scorep_selection_contains(scorep_selection_find(&t, "loop"), out[i]),
              "instance %llu not selected", (unsigned long long)out[i]);
    CHECK(scorep_selection_find(&t, "loo") == NULL, "no prefix match");
    scorep_selection_free(&t);

    /* a name alone: every instance; blanks, tabs, CR; a second line adds; merging; N: and :M;
     * comments; empty tokens between commas */
    CHECK(parse_text(&t,
                     "# comment line\n"
                     "\n"
                     "   all\r\n"
                     "b 5:\tc_ignored_no\n",
                     err, sizeof err) == -2,
          "a word after instances is an error");
    CHECK(strstr(err, ":4: 'c_ignored_no' after region 'b'") != NULL, "error names line 4: %s",
          err);
    CHECK(t.n == 0, "nothing applied on error");
    CHECK(parse_text(&t,
                     "# comment line\n"
                     "\n"
                     "   all\r\n"
                     "b 5: # from 5 on\n"
                     "c 1,,2 4:6\n"
                     "c 3, 8 :0\n"
                     "d 10:20, 15:30, 31\n"
                     "e 1 # 2\n"
                     "zz 0\n",
                     err, sizeof err) == 0,
          "%s", err);
    CHECK(t.n == 6, "six regions, got %zu", t.n);
    CHECK(strcmp(intervals(&t, "all"), "0-") == 0, "all: %s", intervals(&t, "all"));
    CHECK(strcmp(intervals(&t, "b"), "5-") == 0, "b: %s", intervals(&t, "b"));
    CHECK(strcmp(intervals(&t, "c"), "0-6 8-8") == 0, "c: %s", intervals(&t, "c"));
    CHECK(strcmp(intervals(&t, "d"), "10-31") == 0, "d: %s", intervals(&t, "d"));
    CHECK(strcmp(intervals(&t, "e"), "1-1") == 0, "e: %s", intervals(&t, "e"));
    CHECK(strcmp(intervals(&t, "zz"), "0-0") == 0, "zz: %s", intervals(&t, "zz"));
    CHECK(scorep_selection_find(&t, "#") == NULL, "comments are no regions");
    CHECK(scorep_selection_contains(scorep_selection_find(&t, "b"), UINT64_MAX), "b: open end");
    scorep_selection_free(&t);

    /* errors: every bad token with its line; the file is not applied */
    CHECK(parse_text(&t,
                     "loop 3:x, 5\n"
                     "outer 2:1\n"
                     "inner 1::2\n"
                     "rec 18446744073709551616\n"
                     "ok 18446744073709551615\n"
                     "colon :\n",
                     err, sizeof err) == -2,
          "syntax errors");
    const char *want[] = {":1: '3:x' after region 'loop': not an instance number",
                          ":2: '2:1' after region 'outer': an interval that ends before it",
                          ":3: '1::2' after region 'inner': more than one ':'",
                          ":4: '18446744073709551616' after region 'rec': an instance number "
                          "beyond 2^64-1",
                          ":6: ':' after region 'colon': ':' without numbers"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        CHECK(strstr(err, want[i]) != NULL, "error %zu (%s) in: %s", i, want[i], err);
    CHECK(strstr(err, ":5:") == NULL, "line 5 is fine: %s", err);
    CHECK(strncmp(err, path, strlen(path)) == 0, "errors begin with the file name: %s", err);
    CHECK(t.n == 0, "nothing applied");

    /* a short error buffer: truncated, still terminated */
    char small[16];
    CHECK(parse_text(&t, "a x\nb y\n", small, sizeof small) == -2, "errors with a small buffer");
    CHECK(strlen(small) < sizeof small, "terminated");

    /* an empty file is valid and names nothing; a missing one cannot be opened */
    CHECK(parse_text(&t, "", err, sizeof err) == 0 && t.n == 0, "empty file");
    remove(path);
    CHECK(scorep_selection_parse(&t, path, err, sizeof err) == -1, "missing file");
    CHECK(strstr(err, "cannot open") && strstr(err, "No such file"), "says why: %s", err);
    CHECK(scorep_selection_parse(&t, "/", err, sizeof err) == -1, "a directory");
    CHECK(strstr(err, "cannot read '/'"), "says why: %s", err);

    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("ok: selective file parser\n");
    return failures != 0;
}
