#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""lint_tests.py: finds the patterns that let a test pass when it should fail (issue 18) in
the shell scripts of the test suite, and prints one line per finding ("FILE:LINE: rule:
text"); exit status 1 when there is one.

Rules:
  echo-default  `|| echo 0` (or printf 0): a failed command reads as a count of 0
  rerun         the test runs itself again ("$0" "$@", exec ... "$0"): a whole-test
                repetition lets an intermittent wrong result pass
  count-pipe    a count (grep -c, wc -l/-w/-c) at the end of a pipeline whose first command is
                a program that can fail (otf2-print, scorep-cube-dump, objdump, nm, ldd, ls,
                find, ...): without pipefail (dash has none) its failure reads as a count.
                Allowed first commands: echo/printf, the text tools reading a file, and the
                shell functions of the tests (lib.sh's fail the test themselves on an error).
A line may carry "# lint: ok (REASON)" where the rule does not apply; the reason is required.
"""
import re
import sys

ALLOWED_FIRST = {
    "echo", "printf", "cat", "awk", "sed", "grep", "sort", "head", "tail", "cut", "tr", "uniq",
    "wc", "true", "sleep", ":",
}
COUNT_END = re.compile(r"(grep\b[^|]*\s-[A-Za-z]*c[A-Za-z]*\b[^|]*|wc\s+-[lwc])\s*$")
FUNC_DEF = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(\)", re.M)


def logical_lines(text):
    """(first line number, joined text): backslash continuations, and lines inside an open
    quote or an open $( ... ), are joined to the line they continue"""
    out, buf, start = [], "", None
    q, depth = None, 0
    for no, line in enumerate(text.split("\n"), 1):
        if start is None:
            start = no
        i = 0
        while i < len(line):
            c = line[i]
            if q:
                if c == q:
                    q = None
                elif c == "\\" and q == '"':
                    i += 1
            elif c == "\\":
                i += 1
            elif c in "'\"":
                q = c
            elif c == "#" and (i == 0 or line[i - 1] in " \t;"):
                break
            elif line.startswith("$(", i):
                depth += 1
                i += 1
            elif c == "(" and depth:
                depth += 1
            elif c == ")" and depth:
                depth -= 1
            i += 1
        if line.endswith("\\") and not q:
            buf += line[:-1] + " "
            continue
        if q or depth > 0:
            buf += line + " ; " if not q else line + "\n"
            continue
        out.append((start, buf + line))
        buf, start, depth = "", None, 0
    if buf:
        out.append((start, buf))
    return out


def strip_comment(line):
    # a '#' that starts a word outside quotes begins a comment (good enough for these scripts)
    q = None
    for i, c in enumerate(line):
        if q:
            if c == q:
                q = None
        elif c in "'\"":
            q = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t;"):
            return line[:i]
    return line


def substitutions_and_pipelines(line):
    """the command texts of the line: every $( ... ) body and the line itself"""
    bodies, stack = [], []
    i = 0
    while i < len(line):
        if line.startswith("$(", i) and not line.startswith("$((", i):
            stack.append(i + 2)
            i += 2
            continue
        if line[i] == ")" and stack:
            bodies.append(line[stack.pop():i])
        i += 1
    return bodies + [line]


def split_outside(text, sep_at):
    """splits text where sep_at(text, i) gives a separator's length, outside quotes and
    parentheses"""
    parts, depth, q, cur, i = [], 0, None, "", 0
    while i < len(text):
        c = text[i]
        n = 0
        if q:
            if c == q:
                q = None
        elif c in "'\"":
            q = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth == 0:
            n = sep_at(text, i)
        if n:
            parts.append(cur)
            cur = ""
            i += n
            continue
        cur += c
        i += 1
    parts.append(cur)
    return parts


def split_top(text, sep):
    """splits text at sep (not a doubled sep such as || or ;;) outside quotes and parentheses"""
    def sep_at(t, i):
        single = t.startswith(sep, i) and not t.startswith(sep * 2, i) \
            and (i == 0 or t[i - 1] != sep)
        return len(sep) if single else 0
    return split_outside(text, sep_at)


def split_andor(text):
    """splits text at && and || outside quotes and parentheses"""
    return split_outside(text, lambda t, i: 2 if t[i:i + 2] in ("&&", "||") else 0)


def first_word(cmd):
    words = cmd.strip().lstrip("!(").split()
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words = words[1:]
    if words and words[0] in ("env", "timeout", "exec"):
        words = [w for w in words[1:] if not w.startswith("-") and not re.match(r"^[0-9]", w)
                 and not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w)]
    return words[0] if words else ""


def lint(path, text):
    found = []
    functions = set(FUNC_DEF.findall(text)) | LIB_FUNCTIONS
    uses_pipefail = "set -o pipefail" in text
    for no, raw in logical_lines(text):
        if re.search(r"#\s*lint:\s*ok\s*\(\S", raw):
            continue
        line = strip_comment(raw)
        if re.search(r"\|\|\s*(echo|printf)\s+[\"']?0\b", line):
            found.append((no, "echo-default", raw.strip()))
        if re.search(r"(^|[\s;(])(sh|bash|\$\{?SHELL[^\s]*|exec)\s[^#]*\"\$0\"", line) or \
                re.search(r"\"\$0\"\s+\"\$@\"", line):
            found.append((no, "rerun", raw.strip()))
        if uses_pipefail:
            continue
        for cmd in substitutions_and_pipelines(line):
            for seq in split_top(cmd, ";"):
                for andor in split_andor(seq):
                    stages = split_top(andor, "|")
                    if not any(COUNT_END.search(st) for st in stages[1:]):
                        continue
                    w = first_word(stages[0])
                    if w in ALLOWED_FIRST or w in functions:
                        continue
                    found.append((no, "count-pipe", raw.strip()))
    return found


def lib_functions():
    names = set()
    for p in LIBS:
        try:
            names |= set(FUNC_DEF.findall(open(p, encoding="utf-8").read()))
        except OSError:
            pass
    return names


LIBS = []
LIB_FUNCTIONS = set()


def main(argv):
    global LIB_FUNCTIONS
    files = []
    for a in argv[1:]:
        if a.startswith("--lib="):
            LIBS.append(a[6:])
        else:
            files.append(a)
    LIB_FUNCTIONS = lib_functions()
    bad = 0
    for path in files:
        text = open(path, encoding="utf-8").read()
        seen = set()
        for no, rule, line in lint(path, text):
            if (no, rule) in seen:
                continue
            seen.add((no, rule))
            print(f"{path}:{no}: {rule}: {' '.join(line.split())[:160]}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
