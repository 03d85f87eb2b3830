# SPDX-License-Identifier: BSD-3-Clause
# libwrap-gen.py: the generator behind a scorep-libwrap-init working directory's Makefile.
# It reads the prototypes gcc found in libwrap.h (gcc -aux-info), keeps the functions the
# wrapper filter lets through and the target libraries define (nm), and writes the wrapper
# source (one file, compiled once for link-time and once for run-time wrapping), the list of
# wrapped functions (NAME.wrap: one --wrap=f per line) and a report for `make check`.
import ctypes
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


def excluded(rules, value, symbol=None):
    """Score-P's rule: a MANGLED pattern matches the symbol, the others the (demangled) name."""
    ex = False
    for inc, mangled, pat in rules:
        if fnmatch.fnmatchcase(symbol if mangled and symbol is not None else value, pat):
            ex = not inc
    return ex


def ellipsis_mapping(text):
    """LIBWRAP_ELLIPSIS_MAPPING_SYMBOLS: 'f:vf g:vg' -> {f: vf, g: vg} (Score-P's variable: a
    variadic f is wrapped by calling its va_list twin vf)."""
    m = {}
    for w in text.split():
        f, sep, v = w.partition(":")
        if not sep or not f or not v:
            die("LIBWRAP_ELLIPSIS_MAPPING_SYMBOLS: '%s' is not SYMBOL:VA_LIST_SYMBOL" % w)
        m[f] = v
    return m


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


INT_WORDS = {"unsigned", "signed", "long", "short", "int", "char"}


def gcc_display_name(fname, params):
    """The region name libclang would give (Score-P's: clang_getCursorDisplayName,
    'f(int, const char *)'), built from gcc's -aux-info spelling of the parameters when
    libclang is not there: gcc writes 'long unsigned int', 'int (*) (int)', 'complex float',
    a va_list as '__va_list_tag *' and drops 'restrict', clang 'unsigned long',
    'int (*)(int)', '_Complex float', 'struct __va_list_tag *' and keeps 'restrict'
    (which this cannot restore)."""
    out = []
    for p in split_params(params):
        if p in ("void", "/* ??? */"):  # f(void) and f() are both 'f()' in clang's name
            continue
        t = re.findall(r"[A-Za-z_]\w*|\.\.\.|\S", p)
        words, i = [], 0
        while i < len(t):
            if t[i] in INT_WORDS:
                j = i
                while j < len(t) and t[j] in INT_WORDS:
                    j += 1
                run = t[i:j]
                if run == ["long"] and j < len(t) and t[j] == "double":
                    words.append("long")
                else:
                    base = ("char" if "char" in run else "long long" if run.count("long") == 2
                            else "long" if "long" in run else "short" if "short" in run else "int")
                    if "unsigned" in run:
                        base = "unsigned " + base
                    elif "signed" in run and base == "char":
                        base = "signed char"
                    words.append(base)
                i = j
                continue
            words.append({"complex": "_Complex", "__va_list_tag": "struct __va_list_tag"}.get(t[i], t[i]))
            i += 1
        s = " ".join(words)
        # clang's spacing: '*' binds to what follows, nothing inside brackets
        s = re.sub(r"\* (?=[\w*)(])", "*", s)
        s = re.sub(r"([(\[]) ", r"\1", s)
        s = re.sub(r" ([)\],])", r"\1", s)
        s = re.sub(r"\) \(", ")(", s)
        s = re.sub(r" \[", "[", s)
        s = s.replace("struct struct ", "struct ")
        out.append(s)
    return "%s(%s)" % (fname, ", ".join(out))


def c_display_names(source, cppflags, std):
    """Score-P's region names of the C functions libwrap.c declares: libclang's display
    name of the first declaration ('ml_add(int, int)'), by function name. (None, reason)
    when libclang is missing or cannot parse what gcc did."""
    try:
        ci = load_cindex(required=False)
    except NoLibclang as e:
        return None, str(e)
    args = ["-x", "c"] + (["-std=" + std] if std else []) + shlex.split(cppflags)
    try:
        tu = ci.Index.create().parse(source, args=args)
    except ci.TranslationUnitLoadError as e:
        return None, "libclang cannot parse %s: %s" % (source, e)
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        return None, "libclang cannot parse %s: %s" % (source, errors[0].spelling)
    names = {}
    for c in tu.cursor.get_children():
        if c.kind == ci.CursorKind.FUNCTION_DECL and c.spelling not in names:
            names[c.spelling] = c.displayname
    return names, None


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
            # the symbol: a MANGLED rule (plain rules match the region name, Score-P's display
            # name 'f(int)' of C and C++ functions alike)
            fp.write("SCOREP_REGION_NAMES_BEGIN\n"
                     + "".join("  EXCLUDE MANGLED %s\n" % m for m in missing)
                     + "SCOREP_REGION_NAMES_END\n")
        sys.stderr.write("[libwrap] error: %d declared functions have no symbol in the libraries (not wrapped); "
                         "they are listed in missing.filter: add them to the wrapper's filter if that is right, "
                         "then make; make check\n" % len(missing))
        sys.exit(1)
    print("[libwrap] every declared function that passes the filter has a symbol in the libraries")


# ------------------------------------------------------------------ C++ (libclang)
class NoLibclang(Exception):
    pass


def load_cindex(required=True):
    """libclang's Python bindings (Debian: python3-clang-14), as Score-P parses with libclang.
    Without them: an error (C++), or NoLibclang (C, which then names regions from gcc's
    declarations)."""
    def fail(msg):
        if required:
            die(msg)
        raise NoLibclang(msg)
    try:
        import clang.cindex as ci
    except ImportError:
        # Debian installs them for its own python3; a python3 of pyenv or a venv does not see them
        for d in ("/usr/lib/python3/dist-packages",):
            if d not in sys.path and os.path.isdir(os.path.join(d, "clang")):
                sys.path.append(d)
        try:
            import clang.cindex as ci
        except ImportError:
            fail("%s libclang's Python bindings: install python3-clang-14 (Debian)"
                 % ("C++ wrappers need" if required else "no"))
    try:
        ci.Index.create()
    except Exception:
        for lib in ("/usr/lib/llvm-14/lib/libclang-14.so.1", "/usr/lib/llvm-14/lib/libclang.so.1"):
            if os.path.exists(lib):
                ci.Config.set_library_file(lib)
                break
        try:
            ci.Index.create()
        except Exception as e:
            fail("%s libclang (Debian: libclang1-14): %s" % ("C++ wrappers need" if required else "no", e))
    return ci


def cxx_manglings(ci, cursor):
    """Every symbol of a constructor or destructor (complete and base object, deleting):
    clang_Cursor_getCXXManglings, which the bindings do not wrap."""

    class CXString(ctypes.Structure):  # the bindings' _CXString disposes of itself: the set owns these
        _fields_ = [("data", ctypes.c_void_p), ("flags", ctypes.c_uint)]

    class CXStringSet(ctypes.Structure):
        _fields_ = [("strings", ctypes.POINTER(CXString)), ("count", ctypes.c_uint)]

    lib = ci.conf.lib
    f = lib.clang_Cursor_getCXXManglings
    f.argtypes, f.restype = [ci.Cursor], ctypes.POINTER(CXStringSet)
    lib.clang_disposeStringSet.argtypes = [ctypes.POINTER(CXStringSet)]
    s = f(cursor)
    if not s:
        return [cursor.mangled_name]
    getcstr = ctypes.CDLL(lib._name).clang_getCString  # the bindings' own one converts differently
    getcstr.argtypes, getcstr.restype = [CXString], ctypes.c_char_p
    # the set owns its strings: read them, then dispose of the set once
    out = [getcstr(s.contents.strings[i]).decode() for i in range(s.contents.count)]
    lib.clang_disposeStringSet(s)
    return out


def parse_cxx(source, cppflags, std, src_dir):
    """The functions Score-P's libclang parser wraps in a C++ header, in declaration order:
    external functions (namespaces, overloads, extern "C", explicit template specializations)
    and public member functions, static members, operators, constructors and destructors that
    are not inline (defined in the class or declared inline) and not members of a class
    template. Each: dict(name = the qualified display name as Score-P's region name,
    symbol, path, line, ret, params [canonical types], member, variadic)."""
    ci = load_cindex()
    lib = ci.conf.lib
    lib.clang_Cursor_isFunctionInlined.argtypes = [ci.Cursor]
    lib.clang_Cursor_isFunctionInlined.restype = ctypes.c_uint
    args = ["-x", "c++"] + (["-std=" + std] if std else []) + shlex.split(cppflags)
    try:
        tu = ci.Index.create().parse(source, args=args)
    except ci.TranslationUnitLoadError as e:
        die("libclang cannot parse %s: %s" % (source, e))
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        for d in errors[:10]:
            loc = d.location
            where = "%s:%d:%d: " % (loc.file.name, loc.line, loc.column) if loc.file else ""
            sys.stderr.write("libwrap-gen: %serror: %s\n" % (where, d.spelling))
        die("libwrap.h does not compile as C++ (%d errors, see above): fix the #include lines "
            "or CPPFLAGS (-I, -D, -std)" % len(errors))
    K = ci.CursorKind
    FUNCS = (K.FUNCTION_DECL, K.CXX_METHOD, K.CONSTRUCTOR, K.DESTRUCTOR)
    seen_canon, decls = set(), []

    def qualified(c):
        if c is None or c.kind == K.TRANSLATION_UNIT:
            return ""
        parent = qualified(c.semantic_parent)
        return (parent + "::" if parent else "") + c.displayname

    def in_class_template(c):
        p = c.semantic_parent
        while p is not None and p.kind != K.TRANSLATION_UNIT:
            if p.kind in (K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION):
                return True
            if p.kind not in (K.CLASS_DECL, K.STRUCT_DECL, K.UNION_DECL):
                return False
            p = p.semantic_parent
        return False

    def visit(c):
        for ch in c.get_children():
            if ch.kind not in FUNCS:
                if ch.kind in (K.NAMESPACE, K.CLASS_DECL, K.STRUCT_DECL, K.UNION_DECL,
                               K.LINKAGE_SPEC, K.CLASS_TEMPLATE, K.UNEXPOSED_DECL):
                    visit(ch)
                continue
            loc = ch.location
            if loc.file is None:
                continue
            canon = ch.canonical.get_usr() or ch.canonical.hash  # a declaration seen before
            if canon in seen_canon:
                continue
            seen_canon.add(canon)
            if lib.clang_Cursor_isFunctionInlined(ch):
                continue
            if ch.kind == K.FUNCTION_DECL:
                if ch.linkage != ci.LinkageKind.EXTERNAL:
                    continue
                syms, member = [ch.mangled_name or ch.spelling], False
                # extern "C": clang gives the plain name
                if syms[0] == "_Z%d%s" % (len(ch.spelling), ch.spelling):
                    syms = [ch.spelling]
            else:
                if ch.access_specifier != ci.AccessSpecifier.PUBLIC or in_class_template(ch):
                    continue
                if ch.kind == K.CXX_METHOD:
                    if ch.linkage not in (ci.LinkageKind.EXTERNAL, ci.LinkageKind.UNIQUE_EXTERNAL):
                        continue
                    syms, member = [ch.mangled_name], not ch.is_static_method()
                else:
                    syms, member = cxx_manglings(ci, ch), True
            path = os.path.normpath(os.path.join(src_dir, loc.file.name))
            ret = ch.result_type.get_canonical().spelling
            params = [cxx_param_type(a.type) for a in ch.get_arguments()]
            for s in syms:
                if s and not s.startswith("__builtin_"):
                    decls.append(dict(name=qualified(ch), symbol=s, path=path, line=loc.line, ret=ret,
                                      params=params, member=member,
                                      variadic=ch.type.kind == ci.TypeKind.FUNCTIONPROTO
                                      and ch.type.is_function_variadic()))
    visit(tu.cursor)
    return decls


def cxx_param_type(t):
    """A parameter's type for the wrapper: the canonical one (no typedef of the library's scope
    to resolve), except a va_list, whose canonical type is the builtin it decays to."""
    canon = t.get_canonical().spelling
    if t.spelling in ("va_list", "std::va_list", "__gnuc_va_list") or \
            canon in ("__va_list_tag *", "struct __va_list_tag *"):
        return "va_list"
    return canon


def cstr(s):
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def gen_cxx_wrapper(i, d):
    """One wrapper, a C-linkage function named by the mangled symbol (as Score-P writes it:
    a member function's object is its first argument, void *), so that -Wl,--wrap=SYMBOL and
    the run-time library's interposition work on the symbol as it is. The region is left by a
    guard's destructor: an exception the library throws leaves it too."""
    sym = d["symbol"]
    # one alias per parameter type: a C++ type spelling (function pointers, references,
    # qualified names) needs no declarator surgery then
    ptypes = (["void *"] if d["member"] else []) + d["params"]
    names = ["lw_this"] if d["member"] else []
    names += ["a%d" % (k + 1) for k in range(len(d["params"]))]
    aliases = ["lw_p%d_%d" % (i, k) for k in range(len(ptypes))]
    if d.get("va_list_symbol"):
        decl_params = ", ".join("%s %s" % (t, n) for t, n in zip(aliases, names)) + ", ..."
        types_only = ", ".join(aliases + ["va_list"])
    else:
        decl_params = ", ".join("%s %s" % (t, n) for t, n in zip(aliases, names)) or "void"
        types_only = ", ".join(aliases) or "void"
    call = ", ".join(names + (["lw_va"] if d.get("va_list_symbol") else []))
    c = []
    c.append("/* %s:%d: %s */" % (d["path"], d["line"], d["name"]))
    c.append("static scorep_libwrap_fn lw_fn_%d = {%s, %s, %s, %d, %s, 0};"
             % (i, cstr(d["name"]), cstr(sym), cstr(d["path"]), d["line"], "LW_GROUP"))
    c.append("using lw_ret_%d = %s;" % (i, d["ret"]))
    for alias, t in zip(aliases, ptypes):
        c.append("using %s = %s;" % (alias, t))
    real = d.get("va_list_symbol") or sym
    c.append("#ifdef SCOREP_LIBWRAP_LINKTIME")
    if d.get("va_list_symbol") and not d.get("va_list_wrapped"):
        # the va_list twin is not --wrap'ed: no __real_ of it, the call goes to it directly
        # (an assembler name: libwrap.h may declare it with other C++ types or specifiers)
        c.append('extern "C" lw_ret_%d lw_twin_%d(%s) __asm__("%s");' % (i, i, types_only, real))
        c.append("#define LW_REAL_%d lw_twin_%d" % (i, i))
    else:
        c.append('extern "C" lw_ret_%d __real_%s(%s);' % (i, real, types_only))
        c.append("#define LW_REAL_%d __real_%s" % (i, real))
    c.append("#define LW_CALLER_%d 0" % i)
    c.append('extern "C" lw_ret_%d __wrap_%s(%s)' % (i, sym, decl_params))
    c.append("#else")
    c.append("static lw_ret_%d (*lw_real_%d)(%s);" % (i, i, types_only))
    c.append("#define LW_REAL_%d (*lw_real_%d)" % (i, i))
    c.append("#define LW_CALLER_%d __builtin_return_address(0)" % i)
    c.append('extern "C" lw_ret_%d %s(%s)' % (i, sym, decl_params))
    c.append("#endif")
    c.append("{")
    c.append("#ifdef SCOREP_LIBWRAP_RUNTIME")
    c.append("    if (__builtin_expect(!lw_real_%d, 0) &&" % i)
    c.append('        !(lw_real_%d = (lw_ret_%d (*)(%s))dlsym(RTLD_NEXT, "%s")))' % (i, i, types_only, real))
    c.append('        scorep_libwrap_no_real("%s", LW_GROUP);' % real)
    c.append("#endif")
    if d.get("va_list_symbol"):
        c.append("    lw_va_guard lw_vg;")
        c.append("    va_start(lw_vg.va, %s);" % names[-1])
        c.append("    va_list &lw_va = lw_vg.va;")
    c.append("    if (__builtin_expect(lw_fn_%d.state == SCOREP_LIBWRAP_OFF, 0))" % i)
    c.append("        return LW_REAL_%d(%s);" % (i, call))
    c.append("    lw_guard lw_g(scorep_libwrap_enter(&lw_fn_%d, LW_CALLER_%d));" % (i, i))
    c.append("    return LW_REAL_%d(%s);" % (i, call))
    c.append("}")
    c.append("")
    return c


def register_lines(name):
    """The generated constructor that tells the runtime this wrapper is in the program
    (SCOREP_LIBWRAP_ENABLE's check), in C and C++ alike."""
    return ["/* tells the runtime that this wrapper is in the program (SCOREP_LIBWRAP_ENABLE's check) */",
            "__attribute__((constructor)) static void lw_register(void)",
            "{",
            '    scorep_libwrap_register("%s");' % name,
            "}",
            ""]


def load_library(a, default_cc, example):
    """What both languages start from: the filters, the libraries of --libs and their
    function symbols, and the Makefile's variadic settings."""
    files_rules, region_rules = read_filter(a["filter"])
    libfiles = library_files(a.get("ldflags", ""), a.get("libs", ""), a.get("cc", default_cc))
    if not libfiles:
        die("--libs names no library: nothing to wrap (give the target library, e.g. --libs=%s)" % example)
    syms = defined_symbols(libfiles)
    if not syms:
        die("the libraries of --libs (%s) define no function symbols" % " ".join(libfiles))
    mapping = ellipsis_mapping(a.get("ellipsis-mapping", ""))
    void_syms = set(a.get("variadic-is-void", "").split())
    return files_rules, region_rules, libfiles, syms, mapping, void_syms


def check_selection(a, mapping, declared_symbols, n_wrapped, n_filtered, n_nosym, libfiles):
    """Stops where the Makefile names an undeclared function or nothing is left to wrap."""
    unknown = set(mapping) - set(declared_symbols)
    if unknown:
        die("LIBWRAP_ELLIPSIS_MAPPING_SYMBOLS names %s, which libwrap.h does not declare"
            % ", ".join(sorted(unknown)))
    if not n_wrapped:
        die("no function to wrap: libwrap.h declares %d functions, %d of them filtered by %s, %d without a symbol "
            "in %s (add the library's #include lines to libwrap.h, check --libs and the filter)"
            % (len(declared_symbols), n_filtered, a["filter"], n_nosym, " ".join(libfiles)))


def main_cxx(a):
    name, outdir = a["name"], a.get("out-dir", ".")
    files_rules, region_rules, libfiles, syms, mapping, void_syms = load_library(a, "g++", "-lfoo")
    declared = parse_cxx(a["source"], a.get("cppflags", ""), a.get("std", ""), a.get("src-dir", "."))
    wrapped, filtered, nosym, variadic, notes, seen = [], [], [], [], [], set()
    for d in declared:
        # as Score-P's parser: the headers the filter excludes (the C++ library's, <string>)
        # are not looked at, nor counted
        if d["symbol"] in seen or excluded(files_rules, d["path"]):
            continue
        seen.add(d["symbol"])
        if excluded(region_rules, d["name"], d["symbol"]):
            filtered.append(d)
            continue
        if d["symbol"] not in syms:
            nosym.append(d)
            continue
        if d["variadic"]:
            if d["symbol"] not in mapping:
                variadic.append(d)
                notes.append("%s:%d: %s: variadic function skipped (if it has a va_list variant, add "
                             "'%s:VARIANT' to LIBWRAP_ELLIPSIS_MAPPING_SYMBOLS in the Makefile)"
                             % (d["path"], d["line"], d["name"], d["symbol"]))
                continue
            if not d["params"] and not d["member"]:
                die("%s: LIBWRAP_ELLIPSIS_MAPPING_SYMBOLS: %s has no argument before '...' to start "
                    "the va_list from" % (d["path"], d["name"]))
            d["va_list_symbol"] = mapping[d["symbol"]]
        wrapped.append(d)
    for d in wrapped:
        if d.get("va_list_symbol"):
            d["va_list_wrapped"] = d["va_list_symbol"] in {w["symbol"] for w in wrapped}
    check_selection(a, mapping, [d["symbol"] for d in declared], len(wrapped), len(filtered), len(nosym),
                    libfiles)
    c = []
    c.append("/* SPDX-License-Identifier: BSD-3-Clause */")
    c.append("/* scorep_libwrap_%s.cc: generated by scorep-libwrap-init's make (libwrap-gen.py, libclang);" % name)
    c.append(" * do not edit. Compiled with -DSCOREP_LIBWRAP_LINKTIME (__wrap_SYMBOL, linked with")
    c.append(" * -Wl,--wrap=SYMBOL) or -DSCOREP_LIBWRAP_RUNTIME (SYMBOL itself, the real one found with")
    c.append(" * dlsym(RTLD_NEXT)). */")
    c.append("#include <dlfcn.h>")
    c.append("#include <stdarg.h>")
    c.append('#include "libwrap.h"')
    c.append("#include <scorep/SCOREP_Libwrap_rt.h>")
    c.append("")
    c.append("#define LW_GROUP %s" % cstr(a.get("display-name", name)))
    c.append("")
    c.append("namespace {")
    c.append("/* leaves the region on return and on an exception of the wrapped function */")
    c.append("struct lw_guard {")
    c.append("    uint32_t token;")
    c.append("    explicit lw_guard(uint32_t t) : token(t) {}")
    c.append("    ~lw_guard() { scorep_libwrap_leave(token); }")
    c.append("};")
    c.append("struct lw_va_guard {")
    c.append("    va_list va;")
    c.append("    ~lw_va_guard() { va_end(va); }")
    c.append("};")
    c.append("}")
    c.append("")
    c.extend(register_lines(name))
    for i, d in enumerate(wrapped):
        c.extend(gen_cxx_wrapper(i, d))
    with open(os.path.join(outdir, "scorep_libwrap_%s.cc" % name), "w") as fp:
        fp.write("\n".join(c) + "\n")
    with open(os.path.join(outdir, "%s.wrap" % name), "w") as fp:
        for d in wrapped:
            fp.write("--wrap=%s\n" % d["symbol"])
    lib_headers = {d["path"] for d in wrapped} | {d["path"] for d in declared if d["symbol"] in syms}
    others = [n for n in nosym if n["path"] not in lib_headers]
    nosym = [n for n in nosym if n["path"] in lib_headers]
    with open(os.path.join(outdir, "%s.check" % name), "w") as fp:
        fp.write("libraries: %s\n" % " ".join(libfiles))
        fp.write("declared: %d wrapped: %d filtered: %d variadic-skipped: %d other-headers: %d\n"
                 % (len(seen), len(wrapped), len(filtered), len(variadic), len(others)))
        for d in nosym:
            fp.write("MISSING %s %s:%d %s\n" % (d["symbol"], d["path"], d["line"], d["name"]))
        for s in sorted(syms - seen):
            fp.write("UNDECLARED %s\n" % s)
    for n in notes:
        sys.stderr.write("libwrap-gen: note: %s\n" % n)
    sys.stderr.write("libwrap-gen: %s: %d functions wrapped (%d declared, %d filtered, %d without a symbol in "
                     "the libraries, %d variadic skipped)\n"
                     % (name, len(wrapped), len(seen), len(filtered), len(nosym), len(variadic)))


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--probe-cxx":
        load_cindex()
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        return check(sys.argv[2])
    a = {}
    args = sys.argv[1:]
    while args:
        k = args.pop(0)
        if not k.startswith("--") or not args:
            die("usage: libwrap-gen.py --name N --aux F --filter F --libs L --ldflags L --cc CC --out-dir D")
        a[k[2:]] = args.pop(0)
    if a.get("lang") == "c++":
        return main_cxx(a)
    name, outdir = a["name"], a.get("out-dir", ".")
    files_rules, region_rules, libfiles, syms, mapping, void_syms = load_library(a, "gcc", "-lz")
    declared, seen, notes = [], set(), []
    for line in open(a["aux"], errors="replace"):
        m = AUX.match(line.strip())
        if not m:
            continue
        path, lineno, origin, kind, decl = m.group(1), int(m.group(2)), m.group(3), m.group(4), m.group(5)
        # N: a prototype, O: an old-style declaration (f(), LIBWRAP_VARIADIC_IS_VOID_SYMBOLS)
        if origin not in ("N", "O") or kind != "C" or not decl.startswith("extern "):
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

    # the region's name is Score-P's: libclang's display name (parameter types), the symbol
    # its canonical name; the filter's plain rules match the former, MANGLED ones the latter
    clang_names, why = c_display_names(a["source"], a.get("cppflags", ""), a.get("std", "")) \
        if a.get("source") else (None, "a Makefile of before session 22: scorep-libwrap-init --update rewrites it")
    if clang_names is None:
        notes.append("region names from gcc's declarations, not libclang's (%s): 'restrict' is "
                     "not in them" % why)
    display = {}
    for fname, path, lineno, head, params, tail in declared:
        display[fname] = clang_names.get(fname) if clang_names else None
        if display[fname] is None:
            display[fname] = gcc_display_name(fname, params)

    wrapped, filtered, nosym, variadic = [], [], [], []
    for fname, path, lineno, head, params, tail in declared:
        if excluded(files_rules, path) or excluded(region_rules, display[fname], fname):
            filtered.append(fname)
            continue
        if fname not in syms:
            nosym.append((fname, path, lineno))
            continue
        if "..." in params and fname not in mapping:
            variadic.append(fname)
            notes.append("%s:%d: %s: variadic function skipped (C cannot forward '...'; if it has a va_list "
                         "variant, add '%s:VARIANT' to LIBWRAP_ELLIPSIS_MAPPING_SYMBOLS in the Makefile)"
                         % (path, lineno, fname, fname))
            continue
        if "/* ??? */" in params:
            if fname not in void_syms:
                notes.append("%s:%d: %s: no prototype (unknown arguments) skipped (if it takes no arguments, add "
                             "it to LIBWRAP_VARIADIC_IS_VOID_SYMBOLS in the Makefile)" % (path, lineno, fname))
                continue
            params = "void"
        if "..." in params and len(split_params(params)) < 2:
            die("%s:%d: LIBWRAP_ELLIPSIS_MAPPING_SYMBOLS: %s has no argument before '...' to start the va_list from"
                % (path, lineno, fname))
        wrapped.append((fname, path, lineno, head, params, tail))
    check_selection(a, mapping, [d[0] for d in declared], len(wrapped), len(filtered), len(nosym), libfiles)
    wrapped_names = {w[0] for w in wrapped}

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
    c.append("#define LW_GROUP %s" % cstr(a.get("display-name", name)))
    c.append("")
    c.extend(register_lines(name))
    for i, (fname, path, lineno, head, params, tail) in enumerate(wrapped):
        plist = split_params(params)
        # a variadic function of LIBWRAP_ELLIPSIS_MAPPING_SYMBOLS calls its va_list twin
        twin = mapping.get(fname) if plist and plist[-1] == "..." else None
        if twin:
            plist = plist[:-1]
        if plist == ["void"] or plist == []:
            named, names = "void", []
        else:
            names = ["a%d" % (k + 1) for k in range(len(plist))]
            named = ", ".join(name_param(pp, nn) for pp, nn in zip(plist, names))
        if twin:
            named += ", ..."
        call = ", ".join(names + (["lw_va"] if twin else []))
        real = twin or fname
        is_void = head.strip() == "void" and tail.strip() == ""
        c.append("/* %s:%d: %s */" % (path, lineno, display[fname]))
        c.append('static scorep_libwrap_fn lw_fn_%s = {%s, "%s", %s, %d, LW_GROUP, 0};'
                 % (fname, cstr(display[fname]), fname, cstr(path), lineno))
        c.append("#ifdef SCOREP_LIBWRAP_LINKTIME")
        if twin and twin not in wrapped_names:
            c.append("#define LW_REAL_%s %s /* the va_list twin, not wrapped */" % (fname, twin))
        else:
            c.append("extern __typeof__(%s) __real_%s;" % (real, real))
            c.append("#define LW_REAL_%s __real_%s" % (fname, real))
        c.append("#define LW_CALLER_%s 0" % fname)
        c.append("%s__wrap_%s (%s)%s" % (head, fname, named, tail))
        c.append("#else")
        c.append("static __typeof__(%s) *lw_real_%s;" % (real, fname))
        c.append("#define LW_REAL_%s (*lw_real_%s)" % (fname, fname))
        c.append("#define LW_CALLER_%s __builtin_return_address(0)" % fname)
        c.append("%s(%s) (%s)%s" % (head, fname, named, tail))
        c.append("#endif")
        c.append("{")
        c.append("#ifdef SCOREP_LIBWRAP_RUNTIME")
        c.append('    if (__builtin_expect(!lw_real_%s, 0) &&' % fname)
        c.append('        !(lw_real_%s = (__typeof__(%s) *)dlsym(RTLD_NEXT, "%s")))' % (fname, real, real))
        c.append('        scorep_libwrap_no_real("%s", LW_GROUP);' % real)
        c.append("#endif")
        if twin:
            c.append("    va_list lw_va;")
            c.append("    va_start(lw_va, %s);" % names[-1])
        if twin:  # one path: va_end on it
            c.append("    uint32_t lw_token = 0;")
            c.append("    if (__builtin_expect(lw_fn_%s.state != SCOREP_LIBWRAP_OFF, 1))" % fname)
            c.append("        lw_token = scorep_libwrap_enter(&lw_fn_%s, LW_CALLER_%s);" % (fname, fname))
        else:
            c.append("    if (__builtin_expect(lw_fn_%s.state == SCOREP_LIBWRAP_OFF, 0))" % fname)
            if is_void:
                c.append("    {\n        LW_REAL_%s(%s);\n        return;\n    }" % (fname, call))
            else:
                c.append("        return LW_REAL_%s(%s);" % (fname, call))
            c.append("    uint32_t lw_token = scorep_libwrap_enter(&lw_fn_%s, LW_CALLER_%s);" % (fname, fname))
        if is_void:
            c.append("    LW_REAL_%s(%s);" % (fname, call))
            c.append("    scorep_libwrap_leave(lw_token);")
            if twin:
                c.append("    va_end(lw_va);")
        else:
            c.append("    __typeof__((%s)(%s)) lw_ret = LW_REAL_%s(%s);" % (real, call, fname, call))
            c.append("    scorep_libwrap_leave(lw_token);")
            if twin:
                c.append("    va_end(lw_va);")
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
            fp.write("MISSING %s %s:%d %s\n" % (fname, path, lineno, display[fname]))
        for s in sorted(syms - declared_names):
            fp.write("UNDECLARED %s\n" % s)
    for n in notes:
        sys.stderr.write("libwrap-gen: note: %s\n" % n)
    sys.stderr.write("libwrap-gen: %s: %d functions wrapped (%d declared, %d filtered, %d without a symbol in "
                     "the libraries, %d variadic skipped)\n"
                     % (name, len(wrapped), len(declared), len(filtered), len(nosym), len(variadic)))


if __name__ == "__main__":
    main()
