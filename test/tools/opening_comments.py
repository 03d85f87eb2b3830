#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# opening_comments.py: a cheap guard against drift between a file's opening comment (what the
# file is for) and the tree: the file names it mentions must exist in the tree, and the
# functions it names as `name()` or by a project prefix (scorep_*, an_*) must occur somewhere
# else in the tree. Names of other projects' files and functions that comments cite on purpose
# are listed in EXTERNAL with where they live.
# usage: opening_comments.py ROOT  (exit 1 and one line per stale name when one is found)
import os
import re
import subprocess
import sys

# cited on purpose: other projects' sources, system headers, generated or run-time files
EXTERNAL = {
    # generated at build time (build-aux/gen-*, src/tools/report/embed.sh)
    'mpi_wrappers.c', 'shmem_wrappers.c', 'mpi_fortran_wrappers.c', 'report_assets.c',
    'OUT_BASENAME.c', 'OUT_BASENAME.h',
    # written by a measurement or a tool at run time
    'MANIFEST.md', 'script.py', 'setup.py',
    # system and third-party headers
    'mpif.h', 'shmem.h', 'stdio.h', 'omp-tools.h', 'nvtx3/nvtxDetail/nvtxTypes.h',
    'nvtx3/nvtxDetail/nvtxInit.h', 'openmp/libomptarget/include/omptarget.h',
    'omptargetplugin.h', 'hbwmalloc.h',
    # Score-P, Scalasca and OTF2 sources cited for the facts taken from them
    'scorep_selective_parser.c', 'scorep_selective_region.c', 'scorep_profile_cluster.c',
    'scout.spec', 'OTF2_Buffer.c', 'scorep_pthread_mutex',
    # an example file name in a region name's format ("!$omp target @f.c:12")
    'f.c',
}
SOURCE = re.compile(r'\.(c|h|cc|cu|sh|py|inc|am|f90|F90)$')
FILE_RE = re.compile(
    r'(?<![\w/.-])([\w./-]*[\w-]+\.(?:c|h|cc|sh|py|md|inc|am|f90|F90|cu|spec))(?![\w])')
FUNC_RE = re.compile(r'\b([A-Za-z_]\w*)\(\)')
PREFIXED_RE = re.compile(r'(?<![\w.])((?:scorep|an)_[a-z0-9_]*[a-z0-9])(?![\w.(])')


def tree_files(root):
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files'], capture_output=True, text=True,
                             check=True).stdout.split('\n')
        return [f for f in out if f]
    except (OSError, subprocess.CalledProcessError):  # a tarball: walk it
        found = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if not x.startswith(('.', '_'))]
            found += [os.path.relpath(os.path.join(d, n), root) for n in names]
        return found


def opening(path, text):
    """The first comment of the file (after a shebang and an SPDX line)."""
    lines = text.split('\n')
    i = 0
    while i < len(lines) and (lines[i].startswith('#!') or 'SPDX-License-Identifier' in lines[i]):
        i += 1
    body = '\n'.join(lines[i:])
    if path.endswith(('.c', '.h', '.cc', '.cu')):
        m = re.match(r'\s*(/\*.*?\*/)', body, re.S)
        return m.group(1) if m else ''
    out = []
    for line in lines[i:]:
        if line.startswith(('#', '!')):
            out.append(line)
        elif out or line.strip():
            break
    return '\n'.join(out)


def main(root):
    files = tree_files(root)
    basenames = {os.path.basename(f) for f in files}
    texts = {}
    for f in files:
        if SOURCE.search(f) and os.path.isfile(os.path.join(root, f)):
            with open(os.path.join(root, f), errors='replace') as fh:
                texts[f] = fh.read()
    stale = []
    for f, text in sorted(texts.items()):
        op = opening(f, text)
        if not op:
            continue
        elsewhere = None
        for m in FILE_RE.finditer(op):
            name = m.group(1)
            if os.path.basename(name) not in basenames and name not in EXTERNAL:
                stale.append(f'{f}: names the file {name}, which the tree does not have')
        names = {m.group(1) for m in FUNC_RE.finditer(op)}
        names |= {m.group(1) for m in PREFIXED_RE.finditer(op)}
        for name in sorted(names - EXTERNAL):
            if elsewhere is None:  # the tree without this opening comment, built once per file
                elsewhere = [t for g, t in texts.items() if g != f] + [text.replace(op, '', 1)]
            if not any(re.search(r'\b' + re.escape(name) + r'\b', t) for t in elsewhere):
                stale.append(f'{f}: names {name}, which occurs nowhere else in the tree')
    for s in stale:
        print(s)
    print(f'opening_comments: {len(texts)} files, {len(stale)} stale names')
    return 1 if stale else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else '.'))
