#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_mutants.sh: random mutants of a whole 2-rank experiment (profile, anchor, definitions,
# events: truncated, bytes flipped, ranges zeroed, garbage appended; test/fuzz/mutants.py)
# through scorep-score, scorep-cube-dump, scorep-otf2-to-chrome, scorep-report and
# `mpirun -np 2 scorep-analyze`, each limited to 60 s and 4 GiB: no hang, no signal, no
# sanitizer report, and every failure a message naming the experiment or the damaged file.
# The undamaged experiment passes all five first (the control). MUTANTS (default 20) from
# MUTANT_SEED (default 29); `make fuzz-mutants` runs the 150 of the acceptance.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/fuzz/lib_damage.sh"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
# 30000 rounds: 3 chunks of events per rank, so that cuts land in a later chunk too
late_experiment exp 30000
mkdir mutants
python3 "$top_srcdir/test/fuzz/mutants.py" exp mutants "${MUTANTS:-20}" "${MUTANT_SEED:-29}" \
    "$top_builddir" >mutants.out 2>&1 || fail "mutants: $(grep -v '^mutant ' mutants.out | tail -n 30)"
_check
sed -n 's/^\(mutants=.*\)/ok: \1/p' mutants.out
expect_eq "$(count_lines '^mutant [0-9]*: ' mutants.out)" "${MUTANTS:-20}" "every mutant ran"
done_ok
