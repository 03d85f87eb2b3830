#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_python_user.sh: Score-P's Python user idioms record the regions Score-P's bindings
# record, with their names (idioms.py): `with scorep.user.region("x")` is the user region
# "user:x", @scorep.user.region() the function's "module:function" (recorded by the
# instrumenter when it is on, by the decorator when it is off), @scorep.user.region("x")
# "user:x" around the call; parameters; scorep.instrumenter.disable()/enable() as context
# managers, "user_instrumenter:NAME" around a block whose state they changed. Once with the
# instrumenter on, once with --noinstrumenter; then --instrumenter-file and force_finalize.
. "$top_srcdir/test/integration/lib.sh"
. "$top_srcdir/test/python/lib_python.sh"

M='__main__:<module>'
# visits_of EXPDIR: "CALLPATH VISITS" below the program root, sorted, without the
# interpreter's own calls (imports, the GIL's mutexes)
visits_of()
{
    profile_dump "$1" -m visits >"$1.dump"
    awk -F'\t' '$2 != "." && $2 !~ /importlib|pthread_|functools|threading|_weakrefset/ {
        split($4, kv, "="); print $2, kv[2] }' "$1.dump" | sort
}
run_py on SCOREP_EXPERIMENT_DIRECTORY=on "$SCOREP_PYTHON" "$PYPROGS/idioms.py"
expect_grep '^done$' on.out "the script ran"
visits_of on >on.visits
cat >on.want <<W
$M 1
$M/__main__:decorated 2
$M/__main__:decorated/__main__:work 2
$M/__main__:work 2
$M/user:named 1
$M/user:named/__main__:named 1
$M/user:params 1
$M/user:params/iterations=3 1
$M/user:params/iterations=3/count=4 1
$M/user:params/iterations=3/count=4/mode=fast 1
$M/user:phase 1
$M/user:phase/__main__:work 1
$M/user_instrumenter:quiet 1
W
expect_eq "$(cat on.visits)" "$(cat on.want)" "instrumenter on: the regions and their visits"

run_py off SCOREP_EXPERIMENT_DIRECTORY=off "$SCOREP_PYTHON" --noinstrumenter "$PYPROGS/idioms.py"
visits_of off >off.visits
cat >off.want <<W
__main__:decorated 2
__main__:work 1
user:named 1
user:params 1
user:params/iterations=3 1
user:params/iterations=3/count=4 1
user:params/iterations=3/count=4/mode=fast 1
user:phase 1
user_instrumenter:loud 1
user_instrumenter:loud/__main__:work 1
W
expect_eq "$(cat off.visits)" "$(cat off.want)" "--noinstrumenter: the regions and their visits"
# --instrumenter-file runs before the script; scorep.user.force_finalize() writes the results
# at once: the call after it is not in them
cat >setup_file.py <<'P'
import builtins
builtins.MARK = "the instrumenter file ran first"
P
cat >fin.py <<'P'
import scorep.user


def work():
    return 1


work()
work()
scorep.user.force_finalize()
work()
print(MARK)
P
run_py fin SCOREP_EXPERIMENT_DIRECTORY=fin "$SCOREP_PYTHON" --instrumenter-file=setup_file.py fin.py
expect_eq "$(cat fin.out)" "the instrumenter file ran first" "--instrumenter-file: run before the script"
expect_eq "$(profile_sum fin "$M/__main__:work" visits)" 2 "force_finalize: the 2 calls before it"
done_ok
