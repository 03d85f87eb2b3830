#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""cube_values.py: reads the stored values of one metric from a Cube4 profile (.cubex):
exclusive along the call tree for an EXCLUSIVE metric, and along the metric tree what
CubeLib shows for the collapsed metric (a stored value includes the sub-metrics; the
profiles read here have root metrics only); written from docs of the format alone
(shared/reference/cube4-format.md), independent of the project's own Cube library: tar
members, anchor.xml, sparse index, plain or zlib data.
Prints 'call/path<TAB>location<TAB>value' for every stored nonzero value.
Usage: cube_values.py PROFILE.cubex METRIC_UNIQ_NAME"""
import struct
import sys
import tarfile
import gzip
import zlib
import xml.etree.ElementTree as ET

DTYPES = {'DOUBLE': ('d', 8), 'MINDOUBLE': ('d', 8), 'MAXDOUBLE': ('d', 8),
          'UINT64': ('Q', 8), 'INT64': ('q', 8)}


def main(path, name):
    tar = tarfile.open(path)
    anchor = tar.extractfile('anchor.xml').read()
    if anchor[:2] == b'\x1f\x8b':
        anchor = gzip.decompress(anchor)
    root = ET.fromstring(anchor)
    metric = None
    for m in root.iter('metric'):
        if m.findtext('uniq_name') == name:
            metric = m
    if metric is None:
        sys.exit('cube_values.py: no metric %s in %s' % (name, path))
    if metric.get('type', 'EXCLUSIVE') != 'EXCLUSIVE':
        sys.exit('cube_values.py: %s is not an exclusive metric' % name)
    fmt, size = DTYPES[metric.findtext('dtype')]
    regions = {r.get('id'): r.findtext('name') for r in root.iter('region')}
    nlocs = sum(1 for _ in root.iter('location'))
    # deep order: depth-first pre-order over the roots
    order, paths = [], {}
    program = root.find('program')

    def walk(cnode, prefix):
        p = prefix + [regions[cnode.get('calleeId')]]
        order.append(cnode.get('id'))
        paths[cnode.get('id')] = '/'.join(p)
        for c in cnode.findall('cnode'):
            walk(c, p)
    for c in program.findall('cnode'):
        walk(c, [])
    mid = metric.get('id')
    try:
        index = tar.extractfile('%s.index' % mid).read()
        data = tar.extractfile('%s.data' % mid).read()
    except KeyError:
        return  # no values at all
    assert index[:11] == b'CUBEX.INDEX', 'bad index magic'
    end = '<' if struct.unpack('<i', index[11:15])[0] == 1 else '>'
    kind = index[17]
    if kind == 1:
        n = struct.unpack(end + 'I', index[18:22])[0]
        positions = struct.unpack(end + '%dI' % n, index[22:22 + 4 * n])
    else:
        positions = list(range(len(order)))
    rowlen = nlocs * size
    if data.startswith(b'ZCUBEX.DATA'):
        count = struct.unpack(end + 'Q', data[11:19])[0]
        heads = [struct.unpack(end + '3Q', data[19 + 24 * i:43 + 24 * i]) for i in range(count)]
        base = 19 + 24 * count
        rows = [zlib.decompress(data[base + c:base + c + s]) if s else b'\0' * rowlen
                for (_, c, s) in heads]
    else:
        assert data.startswith(b'CUBEX.DATA'), 'bad data magic'
        body = data[10:]
        rows = [body[i * rowlen:(i + 1) * rowlen] for i in range(len(positions))]
    for pos, row in zip(positions, rows):
        values = struct.unpack(end + '%d%s' % (nlocs, fmt), row)
        for loc, v in enumerate(values):
            if v:
                print('%s\t%d\t%s' % (paths[order[pos]], loc,
                                      ('%d' % v) if fmt != 'd' or v == int(v) else repr(v)))


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
