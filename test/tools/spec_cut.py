# SPDX-License-Identifier: BSD-3-Clause
"""spec_cut.py SPEC EMBEDDED [PARADIGM...]: checks that the specification a profile embeds is
share/scorep.spec cut to the run's paradigms (docs/analysis.md, "Its size"): its lines, in
order, are lines of the file (without indentation; comments left out), and it defines exactly
the file's metrics less the subtrees of the paradigms the run lacks. PARADIGM: mpi shmem openmp
pthread io libwrap cuda; each one's subtrees are named here from the metric tree, not taken
from the cut's code (src/writers/remap_spec.sh). Prints the number of metrics it defines; exits
non-zero with the first difference."""
import sys
import xml.etree.ElementTree as ET

ROOTS = {"mpi": ["mpi", "mpi_file_ops", "bytes_p2p", "bytes_coll", "bytes_other"],
         "shmem": ["shmem_time"], "openmp": ["omp_time"], "pthread": ["pthread_time"],
         "io": ["io_time"], "libwrap": ["libwrap_time"],
         "cuda": ["cuda_time", "cuda_kernel_executions", "idle_gpus"]}


def main():
    spec, emb, keep = sys.argv[1], sys.argv[2], set(sys.argv[3:])
    if not keep <= set(ROOTS):
        sys.exit("unknown paradigm in %s" % sorted(keep))
    full = ET.parse(spec).getroot()
    dropped = set()
    for m in full.iter("metric"):
        for p, names in ROOTS.items():
            if p not in keep and m.findtext("uniq_name") in names:
                dropped |= {x.findtext("uniq_name") for x in m.iter("metric")}
    want = [m.findtext("uniq_name") for m in full.iter("metric")]
    want = [x for x in want if x not in dropped]
    got = [m.findtext("uniq_name") for m in ET.parse(emb).getroot().iter("metric")]
    if got != want:
        sys.exit("metrics %s, not %s" % (got, want))
    lines = [l.strip() for l in open(spec)]
    k = 0
    for l in open(emb):
        l = l.rstrip("\n")
        while k < len(lines) and lines[k] != l:
            k += 1
        if k == len(lines):
            sys.exit("line not in share/scorep.spec (in its order): %s" % l)
        k += 1
    print(len(got))


main()
