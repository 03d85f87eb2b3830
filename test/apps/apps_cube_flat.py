# SPDX-License-Identifier: BSD-3-Clause
# test/apps/apps_cube_flat.py HEADER FLAT: "RANK<TAB>THREAD<TAB>REGION<TAB>VISITS" of every
# region but the measurement's own (the program's root) from CubeLib's cube_dump -w (regions:
# "<TAB>name:mangled<TAB>   ( id=N, ..., paradigm=P, ..."; system tree: a location group
# "|-MPI Rank 0 (id=0, type=process, rank=0 )" above its locations "|-Master thread (id=0,
# type=thread, rank=0)") and cube_dump -m visits -r -s csv2 (flat profile: Region ID, Thread
# ID, visits, ...). Used by apps_lib.sh's cube_visits (lammps.sh, gromacs.sh).
import collections
import re
import sys

region, thread, group = {}, {}, None
for line in open(sys.argv[1]):
    m = re.match(r'\t(.*)\t   \( id=(\d+),.* paradigm=([^,]*),', line)
    if m:
        # "name:mangled" (the same for these regions); a name may hold ':' itself
        # (@file.c:LINE; gromacs.sh found it), so an equal halves split comes first
        s, h = m.group(1), (len(m.group(1)) - 1) // 2
        name = s[:h] if s[h:h + 1] == ':' and s[:h] == s[h + 1:] else s.rsplit(':', 1)[0]
        region[m.group(2)] = None if m.group(3) == 'measurement' else name
        continue
    m = re.search(r'\|-(.*) \(id=(\d+), type=[^,]*, rank=(\d+)( ?)\)$', line.rstrip('\n'))
    if m and m.group(4):
        group = m.group(3)
    elif m:
        thread[m.group(2)] = (group, m.group(1))
n = collections.Counter()
rows = open(sys.argv[2]).read().split('\n')
assert rows[0].replace(' ', '').startswith('RegionID,ThreadID,visits'), rows[0]
for row in rows[1:]:
    if row.strip():
        rid, tid, v = [f.strip() for f in row.split(',')[:3]]
        if region[rid] is not None:
            n[thread[tid] + (region[rid],)] += int(float(v))
for k, v in n.items():
    if v:
        print('\t'.join(k + (str(v),)))
