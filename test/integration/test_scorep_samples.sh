#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_scorep_samples.sh: the programs of the real Score-P reference samples pthread_roots and
# user_api, measured by scorep-rt: the same call paths with the same visits per location
# (and the same user-metric values) as in the profiles Score-P wrote for them.
. "$top_srcdir/test/integration/lib.sh"

samples="${SHARED_DIR:-$top_srcdir/../shared}/reference/cube-samples"
if [ ! -f "$samples/pthread_roots/pthread_roots.c" ] || [ ! -f "$samples/user_api/user_api.c" ]; then
    echo "SKIP: the Score-P samples are not there (set SHARED_DIR)"
    exit 77
fi

# visits_by_path EXPDIR [METRIC]: "call path<TAB>value" for every location that has a value,
# sorted (locations may be numbered differently). Score-P's pthread wrapper regions
# (pthread_create, pthread_join) are regions of scorep-rt too. The samples were written by
# Score-P 4.0, without a program root: ours (".", Score-P 6 and later) is left out here and
# checked apart (program_root), the trees below it compared.
visits_by_path()
{
    profile_dump "$1" -m "${2:-visits}" | awk -F'\t' '$2 != "." {
        split($4, kv, "="); print $2 "\t" kv[2] }' | sort
}
# program_root EXPDIR NAME: our profile's program root is NAME, visited once, on location 0
program_root()
{
    expect_eq "$(profile_root "$1") $(profile_values "$1" . visits)" "$2 0 1" \
        "$2: the program root (not in Score-P 4.0's sample), visited once on location 0"
}

# --- pthread_roots: main's tree and one THREADS tree per thread (two roots) ---
scorep_cc gcc -O1 -o pthread_roots "$samples/pthread_roots/pthread_roots.c" -lpthread
run_app pthread_roots env SCOREP_EXPERIMENT_DIRECTORY=exp_pthread ./pthread_roots
expect_eq "$status" 0 "pthread_roots: exit status"
visits_by_path "$samples/pthread_roots" >want_pthread
visits_by_path exp_pthread >got_pthread
program_root exp_pthread pthread_roots
expect_eq "$(wc -l <want_pthread | tr -d ' ')" 19 "pthread_roots: Score-P's (path, location) visit rows"
expect_eq "$(grep -c -x -e 'main/pthread_create	3' -e 'main/pthread_join	3' got_pthread)" 2 \
    "pthread_roots: main/pthread_create and main/pthread_join, 3 visits each"
expect_eq "$(cat got_pthread)" "$(cat want_pthread)" "pthread_roots: visits per call path and location as Score-P's"
expect_eq "$(grep -c '^THREADS	1$' got_pthread)" 3 "pthread_roots: THREADS visited once on each of 3 threads"

# --- user_api: parameters, RECORDING_OFF, a user metric; three roots ---
# Score-P names the recording macros SCOREP_RECORDING_OFF/ON; map them while this branch's
# header has only the SCOREP_USER_ names.
defs=""
grep -q 'define SCOREP_RECORDING_OFF' "$top_srcdir/include/scorep/SCOREP_User.h" ||
    defs="-DSCOREP_RECORDING_OFF()=SCOREP_USER_RECORDING_OFF() -DSCOREP_RECORDING_ON()=SCOREP_USER_RECORDING_ON()"
# shellcheck disable=SC2086
scorep_cc --user --nocompiler gcc -O1 $defs -o user_api "$samples/user_api/user_api.c"
run_app user_api env SCOREP_EXPERIMENT_DIRECTORY=exp_user ./user_api
expect_eq "$status" 0 "user_api: exit status"
visits_by_path "$samples/user_api" >want_user
visits_by_path exp_user >got_user
program_root exp_user user_api
expect_eq "$(wc -l <want_user | tr -d ' ')" 13 "user_api: Score-P's call paths"
expect_eq "$(cat got_user)" "$(cat want_user)" "user_api: visits per call path as Score-P's"
expect_eq "$(visits_by_path exp_user residual)" "$(visits_by_path "$samples/user_api" residual)" \
    "user_api: user metric residual per call path as Score-P's"
expect_eq "$(profile_dump exp_user -m visits | awk -F'\t' '$2 != "." && $2 !~ /\// { print $2 }' | tr '\n' ',')" \
    "solve,MEASUREMENT OFF,shown," "user_api: Score-P's three roots in its order (below our program root)"
done_ok
