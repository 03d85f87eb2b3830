#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_experiment_dir.sh: the experiment directory: default name, SCOREP_EXPERIMENT_DIRECTORY,
# renaming an existing one aside, refusing to overwrite, an unwritable location, MANIFEST.md,
# children made by fork() writing nothing into it, two jobs at once with one name.
. "$top_srcdir/test/integration/lib.sh"

scorep_cc gcc -O2 -o calls "$PROGRAMS/calls.c" -lpthread
out_calls="recursion 150
done 1"

# --- default name in the working directory ---
mkdir run && cd run
run_app ../dflt ../calls
cd "$work"
expect_eq "$status" 3 "default: exit status"
expect_eq "$(cat dflt.out)" "$out_calls" "default: output"
expect_eq "$(cat dflt.err)" "" "default: nothing on stderr"
expect_eq "$(entries run '^scorep-[0-9]{8}_[0-9]{4}_')" 1 \
    "default: one directory scorep-YYYYMMDD_HHMM_... in the working directory"
expect_eq "$(entries run)" 1 "default: nothing else created in the working directory"
d=run/$(ls run)
expect_file "$d/profile.cubex" "default: profile.cubex"
expect_eq "$(profile_sum "$d" main/leaf visits)" 1000000 "default: profile readable"
expect_grep "^SCOREP_EXPERIMENT_DIRECTORY=''\$" "$d/scorep.cfg" "default: SCOREP_EXPERIMENT_DIRECTORY empty in scorep.cfg"
# A second run gets a different default name.
cd run && run_app ../dflt2 ../calls && cd "$work"
expect_eq "$(entries run '^scorep-[0-9]{8}_[0-9]{4}_')" 2 "default: a second run gets its own directory"

# --- SCOREP_EXPERIMENT_DIRECTORY=x twice: the old one is renamed aside ---
run_app run_x1 env SCOREP_EXPERIMENT_DIRECTORY=x SCOREP_ENABLE_TRACING=true SCOREP_TOTAL_MEMORY=100M ./calls
expect_eq "$status" 3 "x first run: exit status"
expect_eq "$(ls -d x* | tr '\n' ' ')" "x " "x first run: directory x"
# MANIFEST.md lists every file and lists nothing that is not there.
for f in $(ls x); do
    [ "$f" = MANIFEST.md ] && continue
    expect_grep "\`$f/?\`" x/MANIFEST.md "MANIFEST.md lists $f"
done
for f in $(grep -o '`[^`]*`' x/MANIFEST.md | tr -d '`' | grep -v ' '); do
    expect_file "x/${f%/}" "MANIFEST.md's $f exists"
done
expect_eq "$(ls x | tr '\n' ' ')" "MANIFEST.md profile.cubex scorep.cfg traces traces.def traces.otf2 " \
    "x first run: files of the experiment"
cp -R x x_copy
run_app run_x2 env SCOREP_EXPERIMENT_DIRECTORY=x ./calls
expect_eq "$status" 3 "x second run: exit status"
expect_eq "$(cat run_x2.out)" "$out_calls" "x second run: output"
expect_eq "$(entries . '^x(-old-.*)?$')" 2 "x second run: x and one renamed directory"
old=$(ls -d x-old-* 2>/dev/null | head -n 1)
expect_eq "$(echo "$old" | grep -c '^x-old-')" 1 "x second run: the old directory is renamed to x-old-..."
expect_eq "$(diff -r x_copy "$old" >/dev/null && echo same)" same "x second run: the renamed directory is unchanged"
expect_eq "$(ls x | tr '\n' ' ')" "MANIFEST.md profile.cubex scorep.cfg " "x second run: the new directory is complete"
expect_eq "$(profile_sum x main/leaf visits)" 1000000 "x second run: new profile readable"
expect_eq "$(trace_count "$old" ENTER)" 1008212 "x second run: old trace still readable"
# A third run in the same second still gets a distinct name.
run_app run_x3 env SCOREP_EXPERIMENT_DIRECTORY=x ./calls
expect_eq "$(entries . '^x-old-')" 2 "x third run: two distinct renamed directories"

# --- SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=false with an existing directory ---
rm -rf x_copy && cp -R x x_copy && touch stamp
run_app noover env SCOREP_EXPERIMENT_DIRECTORY=x SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=false ./calls
expect_eq "$status" 1 "no overwrite: exit status"
expect_eq "$(cat noover.out)" "" "no overwrite: program output absent"
expect_eq "$(wc -l <noover.err | tr -d ' ')" 1 "no overwrite: one message"
expect_grep "x'? exists" noover.err "no overwrite: message says the directory exists"
expect_grep 'SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY' noover.err "no overwrite: message names the variable"
expect_eq "$(diff -r x_copy x >/dev/null && echo same)" same "no overwrite: the old directory's files unchanged"
run_to x.newer find x -newer stamp
expect_eq "$(wc -l <x.newer | tr -d ' ')" 0 "no overwrite: nothing in x modified"
expect_eq "$(entries . '^x-old-')" 2 "no overwrite: nothing renamed"
run_app newdir env SCOREP_EXPERIMENT_DIRECTORY=fresh SCOREP_OVERWRITE_EXPERIMENT_DIRECTORY=false ./calls
expect_eq "$status" 3 "no overwrite, new directory: exit status"
expect_file fresh/profile.cubex "no overwrite, new directory: profile written"

# --- absolute path ---
run_app abs env SCOREP_EXPERIMENT_DIRECTORY="$work/absolute" ./calls
expect_eq "$status" 3 "absolute path: exit status"
expect_file "$work/absolute/profile.cubex" "absolute path: profile written"

# --- a file in the way (the directory named after the program itself): the file is left
# alone, the results go to a new directory beside it, one warning says where ---
cp calls calls_copy
run_app infile env SCOREP_EXPERIMENT_DIRECTORY=calls ./calls
expect_eq "$status" 3 "a file in the way: exit status of the program"
expect_eq "$(cmp calls calls_copy && echo same)" same "a file in the way: the file is unchanged"
expect_eq "$(entries . '^calls-old-')" 0 "a file in the way: nothing renamed"
beside=$(ls -d calls-2* 2>/dev/null | head -n 1)
expect_eq "$(wc -l <infile.err | tr -d ' ')" 1 "a file in the way: one message"
expect_grep "warning: SCOREP_EXPERIMENT_DIRECTORY '$work/calls' is a file, not a directory; .*results go to '$work/$beside'" \
    infile.err "a file in the way: the message says where the results are"
expect_eq "$(profile_sum "$beside" main/leaf visits)" 1000000 "a file in the way: the profile beside it"
ln -s nowhere dangling
run_app dangling env SCOREP_EXPERIMENT_DIRECTORY=dangling ./calls
expect_eq "$(readlink dangling)" nowhere "a dangling link in the way: left alone"
expect_eq "$(profile_sum "$(ls -d dangling-2* | head -n 1)" main/leaf visits)" 1000000 \
    "a dangling link in the way: the profile beside it"

# --- an unwritable location: the program runs unmeasured, with a warning ---
run_app proc env SCOREP_EXPERIMENT_DIRECTORY=/proc/nope SCOREP_ENABLE_TRACING=true ./calls
expect_eq "$status" 3 "unwritable: exit status of the program"
expect_eq "$(cat proc.out)" "$out_calls" "unwritable: program output"
expect_eq "$(wc -l <proc.err | tr -d ' ')" 1 "unwritable: one message"
expect_grep 'warning.*/proc/nope' proc.err "unwritable: warning naming the directory"
expect_no_file /proc/nope "unwritable: nothing created"
# --- fork without exec: the children (exit() runs their exit handlers) write nothing; the
# parent's results are whole ---
scorep_cc gcc -O1 -o forks "$PROGRAMS/forks.c" -lpthread
run_app forks env SCOREP_EXPERIMENT_DIRECTORY=exp_forks SCOREP_ENABLE_TRACING=true ./forks
expect_eq "$status" 0 "fork: exit status"
expect_eq "$(cat forks.out)" "parent done" "fork: output"
expect_eq "$(cat forks.err)" "" "fork: nothing on stderr"
expect_eq "$(profile_sum exp_forks main/work visits)" 10 "fork: the parent's 10 calls of work, none of the children's"
expect_eq "$(trace_count exp_forks ENTER "" work)" 10 "fork: 10 work calls in the trace"
expect_eq "$(trace_count exp_forks ENTER "" pthread_create)" 1 "fork: the thread that forked is measured"
expect_eq "$(ls exp_forks | tr '\n' ' ')" "MANIFEST.md profile.cubex scorep.cfg traces traces.def traces.otf2 " \
    "fork: the experiment directory holds one run's files"

# --- two jobs at once with one SCOREP_EXPERIMENT_DIRECTORY: the second moves the first's
# directory aside while the first runs; the first's results follow its directory (by inode)
# instead of landing in the second's (before: alpha's profile replaced beta's in two/) ---
scorep_cc gcc -O0 -o two_jobs "$PROGRAMS/two_jobs.c"
env SCOREP_EXPERIMENT_DIRECTORY=two ./two_jobs alpha go >alpha.out 2>alpha.err &
first=$!
for _i in $(seq 200); do [ -d two ] && break; sleep 0.05; done
expect_file two "two jobs: the first created two/"
run_app beta env SCOREP_EXPERIMENT_DIRECTORY=two ./two_jobs beta
expect_eq "$status" 0 "two jobs: the second ran"
touch go
status=0
wait "$first" || status=$?
expect_eq "$status" 0 "two jobs: the first ran"
old=$(ls -d two-old-* 2>/dev/null | head -n 1)
expect_eq "$(entries . '^two(-old-.*)?$')" 2 "two jobs: two/ and the first's, moved aside"
expect_eq "$(profile_paths two | tr '\n' ' ')" "main main/beta " "two jobs: two/ holds the second's profile"
expect_eq "$(profile_paths "$old" | tr '\n' ' ')" "main main/alpha " \
    "two jobs: the moved directory holds the first's profile"
expect_grep "moved to '.*/$old' by another job" alpha.err "two jobs: the first says where its results went"
expect_eq "$(cat beta.err)" "" "two jobs: the second says nothing"

# --- the experiment directory removed while the program runs: the results go to a new
# one, <dir>-<pid>, and the program says so ---
env SCOREP_EXPERIMENT_DIRECTORY=gone ./two_jobs alpha go_gone >gone.out 2>gone.err &
pid=$!
for _i in $(seq 200); do [ -d gone ] && break; sleep 0.05; done
expect_file gone "removed: the program created gone/"
rm -rf gone
touch go_gone
status=0
wait "$pid" || status=$?
expect_eq "$status" 0 "removed: the program ran"
expect_eq "$(profile_paths "gone-$pid" | tr '\n' ' ')" "main main/alpha " "removed: the results in gone-$pid"
expect_grep "'.*/gone' is gone .*results go to '.*/gone-$pid'" gone.err "removed: the program says where"
expect_no_file gone "removed: gone/ not created again"
done_ok
