# SPDX-License-Identifier: BSD-3-Clause
# rma_sequence.py: one location's RMA records in otf2-print's event lines (stdin, that
# location's only), as "NAME@CALL m<k>" joined by ";" (k: the operation's order of issue,
# from its matching id; an id used again by a later operation keeps its number, as Score-P's
# operations without a request share one) or, for puts and gets,
# "NAME@CALL m<k> -> <remote> <bytes>", for atomics "NAME@CALL m<k> -> <remote>"; CALL is
# the innermost open region. Window and collective records are left out. Used by
# test_mpi_rma_remote.sh, test_mpi_rma_many.sh and test_mpi_rma_freed.sh.
import re
import sys

stack, ops, out = [], {}, []
for line in sys.stdin:
    name = line.split()[0]
    m = re.search(r"Region: \"([^\"]*)\"", line)
    if name == "ENTER":
        stack.append(m.group(1))
        continue
    if name == "LEAVE":
        stack.pop()
        continue
    if not name.startswith("RMA_") or name.startswith("RMA_WIN") or name.startswith("RMA_COLL"):
        continue
    if "Matching: " not in line:
        out.append("%s@%s" % (name, stack[-1]))
        continue
    mid = re.search(r"Matching: (\d+)", line).group(1)
    if name in ("RMA_PUT", "RMA_GET"):
        if mid not in ops:
            ops[mid] = "m%d" % (len(ops) + 1)
        f = dict(re.findall(r"(Remote|Bytes): (\d+)", line))
        out.append("%s@%s %s -> %s %s" % (name, stack[-1], ops[mid], f["Remote"], f["Bytes"]))
    elif name == "RMA_ATOMIC":
        if mid not in ops:
            ops[mid] = "m%d" % (len(ops) + 1)
        remote = re.search(r"Remote: (\d+)", line).group(1)
        out.append("%s@%s %s -> %s" % (name, stack[-1], ops[mid], remote))
    else:
        out.append("%s@%s %s" % (name, stack[-1], ops.get(mid, "unknown")))
print(";".join(out))
