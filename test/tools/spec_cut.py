# SPDX-License-Identifier: BSD-3-Clause
"""spec_cut.py SPEC EMBEDDED [PARADIGM...]: checks that the specification a profile embeds is
share/scorep.spec cut to the run's paradigms (docs/analysis.md, "Its size"): it defines exactly
the file's metrics less the subtrees of the paradigms the run lacks, and its lines are exactly,
in order, the file's lines (without indentation, comments left out) less those of the missing
paradigms. Prints the number of metrics it defines; exits non-zero with the first difference.
spec_cut.py --expect SPEC [PARADIGM...]: prints the text the cut must be.
spec_cut.py --sections SPEC: prints each paradigm's metric roots and its number of lines.
spec_cut.py --table SPEC REMAP_SPEC_C REMAP_SPEC_H: the table the writers cut from (generated
at build time, remap_spec.c, with remap_spec.h's paradigm bits) holds the file's lines in
order, each with exactly the paradigms derived here: every cut of every paradigm set is right.

PARADIGM: mpi shmem openmp pthread io libwrap cuda (the Cube paradigm names of the regions:
libwrap for libwrap:NAME). Which lines belong to a paradigm is derived here from the file's
own structure, not taken from the cut's code (src/writers/remap_spec.sh, an awk script):
- a paradigm's metrics: the subtrees under its roots (ROOTS, named from the metric tree);
  every line of such a subtree is the paradigm's;
- its names: those metrics, the arrays ${X}[] their CubePL reads (less those a metric of no
  paradigm reads: execution reads ${idle_gpus}[]), ${has_X} when the block
  "if ( ${has_X} == 0 ) { ... }" hides its metrics, and ${paradigm} eq "NAME" (libwrap:
  ${paradigm} =~ /^libwrap:/);
- any other line (of a metric of no paradigm, or of no metric) is the paradigm's whose names
  it mentions, and a CubePL block (a line "if (...)"/"while (...)", then "{" ... "}") whose
  lines mention the names of one paradigm only is that paradigm's as a whole, braces and
  condition included; a line of no paradigm is in every cut; a line of two is an error."""
import re
import sys
import xml.parsers.expat

PARADIGMS = ["mpi", "shmem", "openmp", "pthread", "io", "libwrap", "cuda"]
ROOTS = {"mpi": ["mpi", "mpi_file_ops", "bytes_p2p", "bytes_coll", "bytes_other"],
         "shmem": ["shmem_time"], "openmp": ["omp_time"], "pthread": ["pthread_time"],
         "io": ["io_time"], "libwrap": ["libwrap_time"],
         "cuda": ["cuda_time", "cuda_kernel_executions", "idle_gpus"]}
ARRAY_READ = re.compile(r"\$\{([a-z_0-9]+)\}\[\$\{calculation::callpath::id\}\]")


class Spec:
    """the file's lines with, per line: comment or not, CubePL or XML, its metric"""

    def __init__(self, path):
        self.lines = open(path).read().split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        n = len(self.lines)
        self.comment = [False] * n
        self.cubepl = [False] * n      # strictly inside <cubepl> or <cubeplinit>
        self.metric = [None] * n       # the innermost metric element's index
        self.metrics = []              # [uniq_name, parent index, cubepl text]
        stack, text, cur = [], [], []
        p = xml.parsers.expat.ParserCreate()

        def start(tag, attrs):
            line = p.CurrentLineNumber - 1
            if tag == "metric":
                self.metrics.append([None, stack[-1] if stack else None, ""])
                stack.append(len(self.metrics) - 1)
            cur.append((tag, line))
            text.append("")

        def end(tag):
            line = p.CurrentLineNumber - 1
            t, first = cur.pop()
            body = text.pop()
            if tag == "metric":
                k = stack.pop()
                for i in range(first, line + 1):
                    # the innermost: a child's lines are set after its parent's
                    if self.metric[i] is None or self.metric[i] < k:
                        self.metric[i] = k
            elif tag == "uniq_name" and stack:
                self.metrics[stack[-1]][0] = body.strip()
            elif tag in ("cubepl", "cubeplinit"):
                for i in range(first + 1, line):
                    self.cubepl[i] = True
                if tag == "cubepl" and stack:
                    self.metrics[stack[-1]][2] += body

        def chars(data):
            if text:
                text[-1] += data

        def comment(data):
            # expat reports an event at its start
            first = p.CurrentLineNumber - 1
            for i in range(first, first + data.count("\n") + 1):
                self.comment[i] = True

        p.StartElementHandler, p.EndElementHandler = start, end
        p.CharacterDataHandler, p.CommentHandler = chars, comment
        p.Parse("\n".join(self.lines), True)
        for i, s in enumerate(self.lines):
            if s.strip().startswith("//"):
                self.comment[i] = True
        self.names = {m[0]: k for k, m in enumerate(self.metrics)}

    def paradigm_of_metric(self, k):
        """the paradigm whose root is k or one of k's ancestors, None for no paradigm"""
        while k is not None:
            for par, roots in ROOTS.items():
                if self.metrics[k][0] in roots:
                    return par
            k = self.metrics[k][1]
        return None


def tokens(s):
    """the names a line of CubePL mentions: ("metric", NAME), ("var", NAME), ("paradigm", NAME)"""
    out = [("metric", m) for m in re.findall(r"metric::(?:set::)?([a-z_0-9]+)\(", s)]
    out += [("var", v) for v in re.findall(r"global\(([a-z_0-9]+)\)", s)]
    out += [("var", v) for v in re.findall(r"\$\{([a-z_0-9]+)\}", s)]
    out += [("paradigm", v) for v in re.findall(r'\$\{paradigm\} eq "([a-z]+)"', s)]
    if re.search(r"\$\{paradigm\} =~ /\^libwrap:/", s):
        out.append(("paradigm", "libwrap"))
    return out


def blocks(spec):
    """the CubePL blocks: (first line, last line) of a header line ("if (...)", "while (...)"
    without a brace) with the "{" ... "}"/"};" below it, or of a bare "{" ... "}" """
    out, open_ = [], []
    for i, s in enumerate(spec.lines):
        if not spec.cubepl[i] or spec.comment[i]:
            continue
        t = s.strip()
        if t == "{":
            j = i - 1
            while j >= 0 and spec.comment[j]:
                j -= 1
            head = spec.lines[j].strip() if j >= 0 else ""
            # a header opens no brace of its own (${...} is a variable, not a brace)
            header = re.match(r"^(if|while) *\(", head) and not re.search(r"(?<!\$)\{", head)
            open_.append(j if header else i)
        elif t in ("}", "};"):
            if not open_:
                sys.exit("spec_cut.py: line %d: a brace closes no block" % (i + 1))
            out.append((open_.pop(), i))
    if open_:
        sys.exit("spec_cut.py: line %d: a block is not closed" % (open_[-1] + 1))
    return out


def line_paradigms(spec):
    """per line of the file: the set of paradigms it belongs to (empty: every cut)"""
    metric_par = {m[0]: spec.paradigm_of_metric(k) for k, m in enumerate(spec.metrics)}
    # arrays read per paradigm; those a metric of no paradigm reads belong to none
    var_par, always = {}, set()
    for k, m in enumerate(spec.metrics):
        par = metric_par[m[0]]
        for a in ARRAY_READ.findall(m[2]):
            if par is None:
                always.add(a)
            else:
                var_par.setdefault(a, set()).add(par)
    for a in always:
        var_par.pop(a, None)
    for a, ps in var_par.items():
        if len(ps) > 1:
            sys.exit("spec_cut.py: the array %s is read by metrics of %s" % (a, sorted(ps)))
    var_par = {a: ps.pop() for a, ps in var_par.items()}
    # ${has_X}: the paradigm whose metrics its "== 0" block hides
    blks = blocks(spec)
    for first, last in blks:
        h = re.match(r"^if \( \$\{(has_[a-z_]+)\} == 0 \)$", spec.lines[first].strip())
        if not h:
            continue
        hidden = {metric_par.get(n) for i in range(first, last + 1)
                  for n in re.findall(r"metric::set::([a-z_0-9]+)\(", spec.lines[i])}
        if len(hidden) != 1 or None in hidden:
            sys.exit("spec_cut.py: %s hides metrics of %s" % (h.group(1), sorted(map(str, hidden))))
        var_par[h.group(1)] = hidden.pop()

    def own(i):
        if spec.comment[i] or not spec.cubepl[i]:
            return set()
        ps = set()
        for kind, name in tokens(spec.lines[i]):
            if kind == "metric":
                if name not in metric_par:
                    sys.exit("spec_cut.py: line %d: metric %s defined nowhere" % (i + 1, name))
                ps.add(metric_par[name])
            elif kind == "var":
                ps.add(var_par.get(name))
            elif name in PARADIGMS:
                ps.add(name)
        ps.discard(None)
        return ps

    out = []
    for i in range(len(spec.lines)):
        k = spec.metric[i]
        par = spec.paradigm_of_metric(k) if k is not None else None
        out.append({par} if par else own(i))
    # a block whose lines mention one paradigm only is that paradigm's (outermost first:
    # an inner block of one paradigm inside a mixed one keeps its own)
    for first, last in sorted(blks, key=lambda b: b[0] - b[1]):
        if spec.metric[first] is not None and spec.paradigm_of_metric(spec.metric[first]):
            continue
        u = set().union(*(own(i) for i in range(first, last + 1)))
        if len(u) == 1:
            for i in range(first, last + 1):
                out[i] = set(u)
    for i, ps in enumerate(out):
        if len(ps) > 1:
            sys.exit("spec_cut.py: line %d names two paradigms %s: %s"
                     % (i + 1, sorted(ps), spec.lines[i].strip()))
    return out


def expected(spec, keep):
    pars = line_paradigms(spec)
    return [(i, spec.lines[i].strip()) for i in range(len(spec.lines))
            if not spec.comment[i] and (not pars[i] or pars[i] & keep)]


def main():
    args = sys.argv[1:]
    mode = args.pop(0) if args and args[0].startswith("--") else None
    if mode == "--sections":
        spec = Spec(args[0])
        pars = line_paradigms(spec)
        for p in PARADIGMS:
            print("%s %s %d" % (p, ",".join(ROOTS[p]),
                                sum(1 for i, x in enumerate(pars) if p in x and not spec.comment[i])))
        print("always %d" % sum(1 for i, x in enumerate(pars) if not x and not spec.comment[i]))
        return
    if mode == "--table":
        spec = Spec(args[0])
        pars = line_paradigms(spec)
        want = [(pars[i], spec.lines[i].strip()) for i in range(len(spec.lines))
                if not spec.comment[i]]
        bits = {name.lower(): int(v) for name, v in
                re.findall(r"SCOREP_REMAP_([A-Z]+) = ([0-9]+)", open(args[2]).read())}
        if sorted(bits) != sorted(PARADIGMS):
            sys.exit("remap_spec.h's paradigm bits %s, not %s" % (sorted(bits), PARADIGMS))
        got = []
        for m, t in re.findall(r'^    \{ ([0-9]+), "((?:[^"\\]|\\.)*)" \},$', open(args[1]).read(), re.M):
            t = re.sub(r"\\(.)", r"\1", t)
            got.append(({p for p in PARADIGMS if int(m) & bits[p]}, t))
        for j in range(max(len(got), len(want))):
            g = got[j] if j < len(got) else None
            w = want[j] if j < len(want) else None
            if g != w:
                sys.exit("the table's line %d is %s, not %s" % (j + 1, g, w))
        print(len(got))
        return
    if mode == "--expect":
        spec_path, emb, keep = args[0], None, set(args[1:])
    elif mode is None:
        spec_path, emb, keep = args[0], args[1], set(args[2:])
    else:
        sys.exit("spec_cut.py: unknown option %s" % mode)
    if not keep <= set(ROOTS):
        sys.exit("unknown paradigm in %s" % sorted(keep))
    spec = Spec(spec_path)
    for p, roots in ROOTS.items():
        for r in roots:
            if r not in spec.names:
                sys.exit("spec_cut.py: %s's root metric %s is not in %s" % (p, r, spec_path))
    want = expected(spec, keep)
    if emb is None:
        sys.stdout.write("".join(t + "\n" for _, t in want))
        return
    # the metrics: the file's less the subtrees of the missing paradigms
    want_m = [m[0] for k, m in enumerate(spec.metrics)
              if spec.paradigm_of_metric(k) is None or spec.paradigm_of_metric(k) in keep]
    got_text = open(emb).read()
    if got_text and not got_text.endswith("\n"):
        sys.exit("the embedded spec does not end with a newline")
    got = got_text.split("\n")[:-1] if got_text else []
    got_m = re.findall(r"<uniq_name>([^<]*)</uniq_name>", got_text)
    if got_m != want_m:
        sys.exit("metrics %s, not %s" % (got_m, want_m))
    for j in range(max(len(got), len(want))):
        g = got[j] if j < len(got) else None
        w = want[j][1] if j < len(want) else None
        if g != w:
            where = "share/scorep.spec line %d" % (want[j][0] + 1) if w is not None else "its end"
            sys.exit("the embedded spec's line %d is %r, not %r (%s)" % (j + 1, g, w, where))
    print(len(got_m))


main()
