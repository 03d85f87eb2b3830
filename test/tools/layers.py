#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# layers.py: the dependency picture of src/, derived from the #include "..." lines and from the
# compiled objects' symbols, and the rule that it points one way (docs/design.md, "Layers").
# A file's layer is its folder's (FOLDERS: the first directory under src/; every adapter
# directory is an adapter): there are no per-file exceptions, a file that belongs to another
# layer moves to a folder of that layer. A file may include a header of its own layer or of a
# lower one, never of a higher one, nor use a function or variable that only a file of a
# higher layer defines; and no circle of includes may pass through src/core/. Calls upward go
# through hooks registered at run time (function pointers), which neither shows.
#
#   layers.py check SRC_DIR            violations on stdout, status 1 when there are any
#   layers.py picture SRC_DIR          the Markdown picture that docs/design.md embeds
#   layers.py doc SRC_DIR DOC          status 1 when DOC's picture is not SRC_DIR's
#   layers.py update SRC_DIR DOC       rewrites DOC's picture
#   layers.py objects SRC_DIR OBJS...  the same rule on the symbols that the compiled objects
#                                      define and use (nm), so that a call through a
#                                      declaration written by hand cannot hide an arrow
import os
import re
import subprocess
import sys

LAYER_NAMES = ["base", "data", "events", "writers", "runtime", "adapters", "tools"]

# The first directory under src/ -> its layer.
FOLDERS = {
    # messages, state, settings, timer, memory budget; the libraries below everything
    "base": "base",
    "config": "base",
    "filter": "base",
    "cube": "base",
    "systree": "base",
    "symbols": "base",  # code address -> function name (compiler adapter, OpenMP, sampling)
    "ipc": "base",  # the measurement's own communication; the runtime registers its hooks
    # per-process records: definitions, trace buffer, call-path profile
    "defs": "data",
    "buffer": "data",
    "profile": "data",
    # locations and events, and the services with per-location state
    "core": "events",
    "metrics": "events",
    "sampling": "events",
    "substrates": "events",
    # functions over the locations and the unified definitions, called at finalize
    "writers": "writers",
    "trace": "writers",
    "analysis": "writers",
    "runtime": "runtime",
    "adapters": "adapters",
    "tools": "tools",
}

SOURCE = re.compile(r"\.(c|h|cc|cpp|cxx|hpp)$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(rel):
    parts = rel.split("/")
    return FOLDERS.get(parts[0]) if len(parts) > 1 else None


def module(rel):
    return os.path.splitext(rel)[0]


def topdir(rel):
    parts = rel.split("/")
    return "/".join(parts[:2]) if parts[0] == "adapters" and len(parts) > 2 else parts[0]


def component_names(files):
    """{file: name}: a component is a folder, "core/" (every adapter its own, "adapters/mpi/")."""
    return {f: topdir(f) + "/" for f in files}


def scan(src):
    """{file: [included files of src/]}, unclassified files, includes that name no file."""
    files = []
    for root, dirs, names in os.walk(src):
        dirs.sort()
        for n in sorted(names):
            if SOURCE.search(n):
                files.append(os.path.relpath(os.path.join(root, n), src))
    present = set(files)
    subdirs = {f.split("/")[0] for f in files}
    graph, unclassified, dangling = {}, [], []
    for f in files:
        if layer_of(f) is None:
            unclassified.append(f)
        with open(os.path.join(src, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        deps = []
        for inc in INCLUDE.findall(text):
            if inc in present:
                deps.append(inc)
            elif os.path.normpath(os.path.join(os.path.dirname(f), inc)) in present:
                deps.append(os.path.normpath(os.path.join(os.path.dirname(f), inc)))
            elif inc.split("/")[0] in subdirs:
                dangling.append("%s: includes %s, which does not exist" % (f, inc))
        graph[f] = deps
    return graph, unclassified, dangling


def upward(graph):
    out = []
    rank = {n: i for i, n in enumerate(LAYER_NAMES)}
    for f, deps in graph.items():
        lf = layer_of(f)
        for d in deps:
            ld = layer_of(d)
            if lf and ld and rank[ld] > rank[lf]:
                out.append("upward: %s (%s) includes %s (%s)" % (f, lf, d, ld))
    return out


def sccs(nodes, edges):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def module_edges(graph):
    edges = {}
    for f, deps in graph.items():
        for d in deps:
            if module(d) != module(f):
                edges.setdefault(module(f), set()).add(module(d))
    return edges


def circles(graph):
    edges = module_edges(graph)
    nodes = {module(f) for f in graph}
    return ["circle through core/: " + " <-> ".join(c)
            for c in sccs(nodes, edges) if any(m.startswith("core/") for m in c)]


def check(src):
    graph, unclassified, dangling = scan(src)
    problems = ["unclassified: %s (its folder is not in FOLDERS of test/tools/layers.py)" % f
                for f in unclassified]
    problems += dangling + upward(graph) + circles(graph)
    for p in problems:
        print(p)
    print("layers: %d files, %d includes checked, %d problems"
          % (len(graph), sum(len(d) for d in graph.values()), len(problems)))
    return 1 if problems else 0


BEGIN = "<!-- layers picture: generated by `test/tools/layers.py picture src`; test_layers.sh checks it -->"
END = "<!-- end of the layers picture -->"


def picture_text(src):
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        picture(src)
    return buf.getvalue()


def embedded(doc):
    with open(doc, encoding="utf-8") as fh:
        text = fh.read()
    if BEGIN not in text or END not in text:
        return text, None
    head, rest = text.split(BEGIN, 1)
    body, tail = rest.split(END, 1)
    return text, (head, body.strip("\n") + "\n", tail)


def doc_check(src, doc):
    _, parts = embedded(doc)
    if parts is None:
        print("%s: no layers picture (the lines %s ... %s)" % (doc, BEGIN, END))
        return 1
    want = picture_text(src)
    if parts[1] != want:
        print("%s: the layers picture is not the tree's; regenerate it with\n"
              "  python3 test/tools/layers.py update src docs/design.md" % doc)
        return 1
    return 0


def doc_update(src, doc):
    _, parts = embedded(doc)
    if parts is None:
        print("%s: no layers picture markers" % doc)
        return 1
    with open(doc, "w", encoding="utf-8") as fh:
        fh.write(parts[0] + BEGIN + "\n" + picture_text(src) + END + parts[2])
    return 0


def picture(src):
    graph, _, _ = scan(src)
    rank = {n: i for i, n in enumerate(LAYER_NAMES)}
    names = component_names(list(graph))
    comps, arrows = {}, {}
    for f, deps in graph.items():
        c = names[f]
        comps[c] = layer_of(f)
        for d in deps:
            if names[d] != c:
                arrows.setdefault(c, set()).add(names[d])
    print("```")
    print("layer     component: the components it includes (own layer, then lower ones)")
    for layer in reversed(LAYER_NAMES):
        for c in sorted(x for x in comps if comps[x] == layer):
            uses = sorted(arrows.get(c, ()), key=lambda x: (-rank[comps[x]], x))
            line, out = "%-9s %s:" % (layer, c), []
            for u in uses or ["-"]:
                if len(line) + 1 + len(u) > 92:
                    out.append(line)
                    line = " " * 14
                line += " " + u
            out.append(line)
            print("\n".join(out))
    print("```")
    return 0


# Functions of the C and C++ libraries that the memory adapter's wrappers (libscorep-rt-memory,
# docs/memory.md) and the pthread adapter define to interpose them: a call of malloc or
# pthread_create is a call of the C library's, not of the adapter (the distributed Cube
# engine of the tools starts threads, docs/scale.md).
INTERPOSED = re.compile(r"^(malloc|calloc|realloc|free|memalign|posix_memalign|valloc|"
                        r"aligned_alloc|_Zn[wa]m.*|_Zd[la]Pv.*|pthread_create|pthread_join|"
                        r"pthread_mutex_(init|destroy|lock|trylock|unlock)|"
                        r"pthread_cond_(init|destroy|signal|broadcast|wait|timedwait))$")


def object_source(src, o):
    """An object of the build tree, src/DIR/[.libs/][TARGET-|TARGET_la-]FILE.o (automake
    prefixes the target's name when it has flags of its own), -> DIR/FILE.c (or .cc, .cpp)
    relative to src/; None for an object of no source of src/ (one left from a file that
    moved, or outside src/)."""
    d = os.path.dirname(o).replace("/.libs", "")
    if not d.startswith("src/"):
        return None  # objects are named relative to the build tree
    base = os.path.splitext(os.path.basename(o))[0]
    for stem in (base, re.sub(r"^[A-Za-z0-9_]+?(_la)?-", "", base)):
        for ext in (".c", ".cc", ".cpp"):
            rel = os.path.join(d[len("src/"):], stem + ext)
            if os.path.exists(os.path.join(src, rel)):
                return rel
    return None


def objects(src, objs):
    """Rule 1 on the symbols of compiled objects: an object of layer L must not use (an
    undefined reference, weak ones too) a symbol that only objects of higher layers define
    (the interposed C library functions aside). nm sees what the linker resolves, however the
    declaration came in (a header, a prototype written by hand, an inline function of a
    header); static functions and lookups by name (dlsym) it does not see."""
    defined, used = {}, {}
    for o in objs:
        rel = object_source(src, o)
        if rel is None:
            continue
        out = subprocess.run(["nm", "-P", o], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) < 2:
                continue
            sym, kind = parts[0], parts[1]
            if kind in "Uwv":
                used.setdefault(rel, set()).add(sym)
            elif kind.isupper() and kind != "N":
                defined.setdefault(sym, set()).add(rel)
    rank = {n: i for i, n in enumerate(LAYER_NAMES)}
    problems = []
    for rel, syms in sorted(used.items()):
        lf = layer_of(rel)
        for s in sorted(syms):
            owners = defined.get(s)
            if not owners or lf is None or INTERPOSED.match(s):
                continue
            ranks = [rank[layer_of(o)] for o in owners if layer_of(o)]
            if ranks and min(ranks) > rank[lf]:
                problems.append("upward call: %s (%s) uses %s of %s" % (
                    rel, lf, s, ", ".join(sorted(owners))))
    for p in problems:
        print(p)
    print("layers (objects): %d objects, %d problems" % (len(used), len(problems)))
    return 1 if problems else 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "check":
        return check(argv[2])
    if len(argv) >= 3 and argv[1] == "picture":
        return picture(argv[2])
    if len(argv) == 4 and argv[1] == "doc":
        return doc_check(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == "update":
        return doc_update(argv[2], argv[3])
    if len(argv) >= 4 and argv[1] == "objects":
        return objects(argv[2], argv[3:])
    sys.stderr.write("usage: layers.py check|picture SRC_DIR | doc|update SRC_DIR DOC | "
                     "objects SRC_DIR OBJS...\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
