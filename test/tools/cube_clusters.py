#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""cube_clusters.py: Score-P's iteration clustering as a Cube4 profile (.cubex) states it,
read from anchor.xml alone (independent of the project's Cube library): the attributes
CLUSTERING, CLUSTER ROOT CNODE ID, CLUSTER PROCESS NUM, CLUSTER ITERATION COUNT and
CLUSTER MAPPING i, cnode ids resolved to call paths ('a/b/c', as scorep-cube-dump names them).
Prints 'clustering ON|OFF', then 'root PATH', 'processes N', 'iterations N', and one line
'I<TAB>PATH,PATH,...' per iteration I (from 0) with the call path of each rank's cluster
('-' for cnode 0: no such iteration on that rank).
Usage: cube_clusters.py PROFILE.cubex"""
import gzip
import sys
import tarfile
import xml.etree.ElementTree as ET


def main(path):
    tar = tarfile.open(path)
    anchor = tar.extractfile('anchor.xml').read()
    if anchor[:2] == b'\x1f\x8b':
        anchor = gzip.decompress(anchor)
    root = ET.fromstring(anchor)
    attrs = {}
    for a in root.iter('attr'):
        attrs[a.get('key')] = a.get('value')
    regions = {r.get('id'): r.findtext('name') for r in root.iter('region')}
    paths = {}

    def walk(cnode, prefix):
        p = prefix + [regions[cnode.get('calleeId')]]
        paths[int(cnode.get('id'))] = '/'.join(p)
        for c in cnode.findall('cnode'):
            walk(c, p)
    for c in root.find('program').findall('cnode'):
        walk(c, [])
    state = attrs.get('CLUSTERING')
    if state is None:
        sys.exit('cube_clusters.py: no attribute CLUSTERING in %s' % path)
    print('clustering', state)
    if state != 'ON':
        return
    print('root', paths[int(attrs['CLUSTER ROOT CNODE ID'])])
    print('processes', attrs['CLUSTER PROCESS NUM'])
    n = int(attrs['CLUSTER ITERATION COUNT'])
    print('iterations', n)
    for i in range(n):
        ids = [int(x) for x in attrs['CLUSTER MAPPING %d' % i].split(',')]
        print('%d\t%s' % (i, ','.join(paths[x] if x else '-' for x in ids)))
    if 'CLUSTER MAPPING %d' % n in attrs:
        sys.exit('cube_clusters.py: more CLUSTER MAPPING lines than CLUSTER ITERATION COUNT')


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
