# SPDX-License-Identifier: BSD-3-Clause
# libwrap-gen.py: the generator behind a scorep-libwrap-init working directory's Makefile.
# It reads the prototypes gcc found in libwrap.h (gcc -aux-info), keeps the functions the
# wrapper filter lets through and the target libraries define (nm), and writes the wrapper
# source (one file, compiled once for link-time and once for run-time wrapping), the list of
# wrapped functions (NAME.wrap: one --wrap=f per line) and a report for `make check`.
import fnmatch
import os
import re
import shlex
import subprocess
import sys

QUALS = {"const", "volatile", "restrict", "__restrict", "__restrict__", "_Atomic"}


def die(msg):
    sys.stderr.write("libwrap-gen: error: %s\n" % msg)
    sys.exit(1)


# ------------------------------------------------------------------ filter file
def read_filter(path):
    """Score-P filter file -> (file_rules, region_rules); a rule: (include?, mangled?, pattern).
    Later rules win, as in Score-P."""
    files, regions, block = [], [], None
    try:
        text = open(path).read()
    except OSError as e:
        die("cannot read the filter file %s: %s" % (path, e.strerror))
    words = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        words.extend(line.split())
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("SCOREP_FILE_NAMES_BEGIN", "SCOREP_REGION_NAMES_BEGIN"):
            if block:
                die("%s: %s inside another block" % (path, w))
            block = files if w.startswith("SCOREP_FILE") else regions
        elif w in ("SCOREP_FILE_NAMES_END", "SCOREP_REGION_NAMES_END"):
            if block is None:
                die("%s: %s without a BEGIN" % (path, w))
            block = None
        elif w in ("INCLUDE", "EXCLUDE"):
            if block is None:
                die("%s: %s outside a SCOREP_*_BEGIN/END block" % (path, w))
            inc, mangled = w == "INCLUDE", False
            i += 1
            if i < len(words) and words[i] == "MANGLED":
                mangled = True
                i += 1
            while i < len(words) and words[i] not in ("INCLUDE", "EXCLUDE") and not words[i].startswith("SCOREP_"):
                block.append((inc, mangled, words[i]))
                i += 1
            continue
        else:
            die("%s: unexpected word '%s'" % (path, w))
        i += 1
    if block is not None:
        die("%s: a block is not closed with its _END" % path)
    return files, regions


def excluded(rules, value):
    ex = False
    for inc, _mangled, pat in rules:
        if fnmatch.fnmatchcase(value, pat):
            ex = not inc
    return ex


# ------------------------------------------------------------------ libraries
def library_files(ldflags, libs, cc):
    """The files of --libs (-lfoo or paths), searched in -L dirs, then where cc looks."""
    dirs = [f[2:] for f in shlex.split(ldflags) if f.startswith("-L")]
    out = []
    for lib in shlex.split(libs):
        if lib.startswith("-l"):
            name, found = lib[2:], None
            for d in dirs:
                for cand in ("lib%s.so" % name, "lib%s.a" % name):
                    if os.path.exists(os.path.join(d, cand)):
                        found = os.path.join(d, cand)
                        break
                if found:
                    break
            if not found:
                for cand in ("lib%s.so" % name, "lib%s.a" % name):
                    p = subprocess.run(shlex.split(cc) + ["-print-file-name=" + cand], capture_output=True, text=True).stdout.strip()
                    if p and os.path.isabs(p) and os.path.exists(p):
                        found = p
                        break
            if not found:
                die("library %s of --libs not found (searched %s and %s's directories)" % (lib, " ".join(dirs) or "no -L", cc))
            out.append(found)
        elif lib.startswith("-"):
            continue
        else:
            if not os.path.exists(lib):
                die("library %s of --libs does not exist" % lib)
            out.append(lib)
    return out


def defined_symbols(files):
    syms = set()
    for f in files:
        real = os.path.realpath(f)
        # a linker script (libc.so, libm.so on glibc) names the real objects: read those
        with open(real, "rb") as fp:
            head = fp.read(4)
        if head != b"\x7fELF" and head != b"!<ar":
            text = open(real, errors="replace").read()
            more = re.findall(r"(/[^\s()]+\.so[.\d]*|/[^\s()]+\.a)", text)
            syms |= defined_symbols([m for m in more if os.path.exists(m)])
            continue
        cmd = ["nm", "-D", "--defined-only", real] if head == b"\x7fELF" else ["nm", "-g", "--defined-only", real]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            die("nm %s: %s" % (real, r.stderr.strip()))
        for line in r.stdout.splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[1] in ("T", "W", "i"):
                syms.add(parts[2].split("@")[0])
    return syms


# ------------------------------------------------------------------ prototypes
AUX = re.compile(r"^/\* (.*):(\d+):([NIO])([CF]) \*/ (.*);\s*(/\*.*\*/)?\s*$")


def tokens(s):
    return re.findall(r"[A-Za-z_]\w*|\.\.\.|\S", s)


def split_params(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def name_param(p, nm):
    """Insert the name nm into the abstract declarator p ("int (*) (int)" -> "int (*a1) (int)")."""
    # gcc spells a va_list parameter as the pointer it decays to on x86-64
    if re.fullmatch(r"(const\s+)?__va_list_tag\s*\*", p.strip()):
        return "va_list " + nm
    t = tokens(p)
    i = 0
    while i < len(t) and t[i] not in ("*", "(", "["):
        i += 1
    while True:
        while i < len(t) and (t[i] == "*" or t[i] in QUALS):
            i += 1
        if i + 1 < len(t) and t[i] == "(" and t[i + 1] in ("*", "(", "^"):
            i += 1
            continue
        break
    t.insert(i, nm)
    return " ".join(t)


def parse_decl(decl):
    """'extern int f (int, char *)' -> (name, head, params, tail) where the declaration is
    head + name + ' (' + params + ')' + tail; None when it is not a function."""
    for m in re.finditer(r"([A-Za-z_]\w*)\s*\(", decl):
        name = m.group(1)
        if name in ("__attribute__", "__typeof__", "typeof") or decl[m.end():].lstrip().startswith(("*", "^")):
            continue
        depth, j = 1, m.end()
        while j < len(decl) and depth:
            depth += {"(": 1, ")": -1}.get(decl[j], 0)
            j += 1
        return name, decl[: m.start()], decl[m.end(): j - 1], decl[j:]
    return None


def check(path):
    """make check: report NAME.check; declared functions without a symbol are an error."""
    lines = open(path).read().splitlines()
    missing = [l.split()[1] for l in lines if l.startswith("MISSING ")]
    undeclared = [l.split()[1] for l in lines if l.startswith("UNDECLARED ")]
    print("[libwrap] " + lines[0])
    print("[libwrap] " + lines[1])
    for l in lines[2:]:
        print("  " + l)
    if undeclared:
        print("[libwrap] %d symbols of the libraries have no declaration in libwrap.h: not wrapped" % len(undeclared))
    if missing:
        with open("missing.filter", "w") as fp:
            fp.write("SCOREP_REGION_NAMES_BEGIN\n" + "".join("  EXCLUDE %s\n" % m for m in missing)
                     + "SCOREP_REGION_NAMES_END\n")
        sys.stderr.write("[libwrap] error: %d declared functions have no symbol in the libraries (not wrapped); "
                         "they are listed in missing.filter: add them to the wrapper's filter if that is right, "
                         "then make; make check\n" % len(missing))
        sys.exit(1)
    print("[libwrap] every declared function that passes the filter has a symbol in the libraries")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        return check(sys.argv[2])
    a = {}
    args = sys.argv[1:]
    while args:
        k = args.pop(0)
        if not k.startswith("--") or not args:
            die("usage: libwrap-gen.py --name N --aux F --filter F --libs L --ldflags L --cc CC --out-dir D")
        a[k[2:]] = args.pop(0)
    name, outdir = a["name"], a.get("out-dir", ".")
    files_rules, region_rules = read_filter(a["filter"])
    libfiles = library_files(a.get("ldflags", ""), a.get("libs", ""), a.get("cc", "gcc"))
    if not libfiles:
        die("--libs names no library: nothing to wrap (give the target library, e.g. --libs=-lz)")
    syms = defined_symbols(libfiles)
    if not syms:
        die("the libraries of --libs (%s) define no function symbols" % " ".join(libfiles))

    declared, seen, notes = [], set(), []
    for line in open(a["aux"], errors="replace"):
        m = AUX.match(line.strip())
        if not m:
            continue
        path, lineno, origin, kind, decl = m.group(1), int(m.group(2)), m.group(3), m.group(4), m.group(5)
        if origin != "N" or kind != "C" or not decl.startswith("extern "):
            continue
        p = parse_decl(decl[len("extern "):])
        if p is None:
            continue
        fname, head, params, tail = p
        if fname in seen:
            continue
        seen.add(fname)
        path = os.path.normpath(os.path.join(a.get("src-dir", "."), path)) if not path.startswith("<") else path
        declared.append((fname, path, lineno, head, params, tail))

    wrapped, filtered, nosym, variadic = [], [], [], []
    for fname, path, lineno, head, params, tail in declared:
        if excluded(files_rules, path) or excluded(region_rules, fname):
            filtered.append(fname)
            continue
        if fname not in syms:
            nosym.append((fname, path, lineno))
            continue
        if "..." in params:
            variadic.append(fname)
            notes.append("%s:%d: %s: variadic function skipped (C cannot forward '...')" % (path, lineno, fname))
            continue
        if "/* ??? */" in params:
            notes.append("%s:%d: %s: no prototype (unknown arguments) skipped" % (path, lineno, fname))
            continue
        wrapped.append((fname, path, lineno, head, params, tail))
    if not wrapped:
        die("no function to wrap: libwrap.h declares %d functions, %d of them filtered by %s, %d without a symbol "
            "in %s (add the library's #include lines to libwrap.h, check --libs and the filter)"
            % (len(declared), len(filtered), a["filter"], len(nosym), " ".join(libfiles)))

    c = []
    c.append("/* SPDX-License-Identifier: BSD-3-Clause */")
    c.append("/* scorep_libwrap_%s.c: generated by scorep-libwrap-init's make (libwrap-gen.py); do not edit." % name)
    c.append(" * Compiled with -DSCOREP_LIBWRAP_LINKTIME (__wrap_f, linked with -Wl,--wrap=f) or")
    c.append(" * -DSCOREP_LIBWRAP_RUNTIME (f itself, the real one found with dlsym(RTLD_NEXT)). */")
    c.append("#ifdef SCOREP_LIBWRAP_RUNTIME")
    c.append("#ifndef _GNU_SOURCE")
    c.append("#define _GNU_SOURCE 1 /* RTLD_NEXT */")
    c.append("#endif")
    c.append("#include <dlfcn.h>")
    c.append("#endif")
    c.append("#include <stdarg.h>")
    c.append('#include "libwrap.h"')
    c.append("#include <scorep/SCOREP_Libwrap_rt.h>")
    c.append("")
    c.append('#define LW_GROUP "%s"' % a.get("display-name", name))
    c.append("")
    c.append("/* tells the runtime that this wrapper is in the program (SCOREP_LIBWRAP_ENABLE's check) */")
    c.append("__attribute__((constructor)) static void lw_register(void)")
    c.append("{")
    c.append('    scorep_libwrap_register("%s");' % name)
    c.append("}")
    c.append("")
    for i, (fname, path, lineno, head, params, tail) in enumerate(wrapped):
        plist = split_params(params)
        if plist == ["void"] or plist == []:
            named, names = "void", []
        else:
            names = ["a%d" % (k + 1) for k in range(len(plist))]
            named = ", ".join(name_param(pp, nn) for pp, nn in zip(plist, names))
        call = ", ".join(names)
        is_void = head.strip() == "void" and tail.strip() == ""
        c.append("/* %s:%d */" % (path, lineno))
        c.append('static scorep_libwrap_fn lw_fn_%s = {"%s", "%s", "%s", %d, LW_GROUP, 0};'
                 % (fname, fname, fname, path.replace("\\", "\\\\").replace('"', '\\"'), lineno))
        c.append("#ifdef SCOREP_LIBWRAP_LINKTIME")
        c.append("extern __typeof__(%s) __real_%s;" % (fname, fname))
        c.append("#define LW_REAL_%s __real_%s" % (fname, fname))
        c.append("#define LW_CALLER_%s 0" % fname)
        c.append("%s__wrap_%s (%s)%s" % (head, fname, named, tail))
        c.append("#else")
        c.append("static __typeof__(%s) *lw_real_%s;" % (fname, fname))
        c.append("#define LW_REAL_%s (*lw_real_%s)" % (fname, fname))
        c.append("#define LW_CALLER_%s __builtin_return_address(0)" % fname)
        c.append("%s(%s) (%s)%s" % (head, fname, named, tail))
        c.append("#endif")
        c.append("{")
        c.append("#ifdef SCOREP_LIBWRAP_RUNTIME")
        c.append('    if (__builtin_expect(!lw_real_%s, 0) &&' % fname)
        c.append('        !(lw_real_%s = (__typeof__(%s) *)dlsym(RTLD_NEXT, "%s")))' % (fname, fname, fname))
        c.append('        scorep_libwrap_no_real("%s", LW_GROUP);' % fname)
        c.append("#endif")
        c.append("    if (__builtin_expect(lw_fn_%s.state == SCOREP_LIBWRAP_OFF, 0))" % fname)
        if is_void:
            c.append("    {\n        LW_REAL_%s(%s);\n        return;\n    }" % (fname, call))
        else:
            c.append("        return LW_REAL_%s(%s);" % (fname, call))
        c.append("    uint32_t lw_token = scorep_libwrap_enter(&lw_fn_%s, LW_CALLER_%s);" % (fname, fname))
        if is_void:
            c.append("    LW_REAL_%s(%s);" % (fname, call))
            c.append("    scorep_libwrap_leave(lw_token);")
        else:
            c.append("    __typeof__((%s)(%s)) lw_ret = LW_REAL_%s(%s);" % (fname, call, fname, call))
            c.append("    scorep_libwrap_leave(lw_token);")
            c.append("    return lw_ret;")
        c.append("}")
        c.append("")
    with open(os.path.join(outdir, "scorep_libwrap_%s.c" % name), "w") as fp:
        fp.write("\n".join(c) + "\n")
    with open(os.path.join(outdir, "%s.wrap" % name), "w") as fp:
        for w in wrapped:
            fp.write("--wrap=%s\n" % w[0])
    # make check's report: declared functions without a symbol and symbols without a
    # declaration. Only the headers that declare something of the libraries count: without -I
    # (a system library) libwrap.h also brings libc's declarations, which are not missing.
    lib_headers = {w[1] for w in wrapped} | {d[1] for d in declared if d[0] in syms}
    others = [n for n in nosym if n[1] not in lib_headers]
    nosym = [n for n in nosym if n[1] in lib_headers]
    declared_names = {d[0] for d in declared}
    with open(os.path.join(outdir, "%s.check" % name), "w") as fp:
        fp.write("libraries: %s\n" % " ".join(libfiles))
        fp.write("declared: %d wrapped: %d filtered: %d variadic-skipped: %d other-headers: %d\n"
                 % (len(declared), len(wrapped), len(filtered), len(variadic), len(others)))
        for fname, path, lineno in nosym:
            fp.write("MISSING %s %s:%d\n" % (fname, path, lineno))
        for s in sorted(syms - declared_names):
            fp.write("UNDECLARED %s\n" % s)
    for n in notes:
        sys.stderr.write("libwrap-gen: note: %s\n" % n)
    sys.stderr.write("libwrap-gen: %s: %d functions wrapped (%d declared, %d filtered, %d without a symbol in "
                     "the libraries, %d variadic skipped)\n"
                     % (name, len(wrapped), len(declared), len(filtered), len(nosym), len(variadic)))


if __name__ == "__main__":
    main()
