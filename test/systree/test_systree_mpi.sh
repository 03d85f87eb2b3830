#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_systree_mpi.sh: runs test_systree_mpi with 8 MPI ranks on 2 simulated nodes (the
# system-tree construction over PMPI must equal the simulated one). Skipped (77) without MPI.
T="$top_builddir/test/systree/test_systree_mpi"
[ -x "$T" ] || { echo "SKIP: built without MPI"; exit 77; }
command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
# a session directory of its own (see test/integration/lib.sh)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test_systree_mpi.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
rc=0
OMPI_MCA_orte_tmpdir_base=$tmp timeout 300 mpirun --oversubscribe --allow-run-as-root -np 8 "$T" || rc=$?
exit $rc
