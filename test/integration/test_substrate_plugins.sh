#!/bin/sh
# test_substrate_plugins.sh: SCOREP_SUBSTRATE_PLUGINS with a plugin built from Score-P's
# public headers only (test/plugins/substrate_count.c): the life cycle in Score-P's order,
# exact event counts of known programs (linked with scorep-cc; an MPI program of 2 ranks
# under scorep-run), the callbacks, and bad plugin lists (one message each, results still
# written).
. "$top_srcdir/test/integration/lib.sh"
export LD_LIBRARY_PATH="$top_builddir/test/plugins/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SCOREP_RUN_LIBDIR="$top_builddir/.libs" # scorep-run: this build's runtime

scorep_cc gcc -O1 -o calls "$PROGRAMS/substrate_calls.c" -lpthread
run_app c1 env SCOREP_EXPERIMENT_DIRECTORY=c1 SCOREP_SUBSTRATE_PLUGINS=count \
    SUBSTRATE_COUNT_OUT="$work/c1.count" ./calls
expect_eq "$status" 0 "linked: exit status"
expect_eq "$(cat c1.err)" "" "linked: nothing on stderr"
expect_eq "$(cat c1.out)" "sink 12" "linked: program output"
f=c1.count.0
expect_file "$f" "linked: the plugin wrote its counts at write_data"
# init, set_callbacks, get_event_functions x2, assign_id, create + activate of the first
# location, ProgramBegin, init_mpp, ProgramEnd, deactivate + delete, pre_unify,
# dump_manifest, write_data
expect_eq "$(sed -n 's/^order //p' "$f")" "ICEDALVBMNXZPGW" "linked: life cycle in Score-P's order"
expect_eq "$(sed -n 's/^program //p' "$f")" "calls pid_ok=1" "linked: ProgramBegin names the program"
expect_eq "$(grep -E '^region (main|mid|leaf|worker) ' "$f" | sort | tr '\n' ';')" \
    "region leaf compiler 12 12;region main compiler 1 1;region mid compiler 4 4;region worker compiler 2 2;" \
    "linked: enters and exits per region from the program's design (paradigm compiler)"
expect_eq "$(sed -n 's/^unannounced //p' "$f")" 0 "linked: every region entered was announced by new_definition_handle"
expect_eq "$(sed -n 's/^locations //p' "$f")" "3 3 3 3 lost 0" \
    "linked: 3 locations created, activated, deactivated, deleted; per-location data kept"
expect_eq "$(awk '/^loc_enters/ { print ($2 == $4) }' "$f")" 1 "linked: per-location counts (SetData/GetData) add up"
expect_eq "$(sed -n 's/^backwards //p' "$f")" 0 "linked: timestamps increase per location"
expect_eq "$(sed -n 's/^pthread //p' "$f")" "2 2 2 0" "linked: 2 threads created, joined, begun (no end event)"
expect_eq "$(sed -n 's/^size //p;s/^allreduce //p' "$f" | tr '\n' ' ')" "1 1 " "linked: ipc size 1, allreduce of 1"
expect_grep '^- `count.txt`: Events per region, 1 ranks\.$' c1/MANIFEST.md "linked: dump_manifest wrote its entry"
expect_file c1/profile.cubex "linked: the profile is written as well"
expect_eq "$(profile_sum c1 main/mid visits)" 2 "linked: the profile has main's 2 calls of mid"

# OpenMP (fork, join, team begin) and the user API (parameters, recording off and on)
if nm -D "$top_builddir/.libs/libscorep-rt.so" 2>/dev/null | grep -q ' T ompt_start_tool$'; then
    scorep_cc --user gcc -fopenmp -O1 -o more "$PROGRAMS/substrate_more.c"
    run_app o1 env SCOREP_EXPERIMENT_DIRECTORY=o1 SCOREP_SUBSTRATE_PLUGINS=count \
        SUBSTRATE_COUNT_OUT="$work/o1.count" ./more
    expect_eq "$status" 0 "omp: exit status"
    expect_eq "$(cat o1.err)" "" "omp: nothing on stderr"
    expect_eq "$(sed -n 's/^omp //p' o1.count.0)" "2 2 4" "omp: 2 forks, 2 joins, 4 team begins"
    expect_eq "$(grep -E '^region leaf ' o1.count.0)" "region leaf compiler 4 4" \
        "omp: leaf 4 times in the teams; the call while recording is off is not delivered"
    expect_eq "$(sed -n 's/^params //p' o1.count.0)" 3 "user: 3 int parameters"
    expect_eq "$(sed -n 's/^recording //p' o1.count.0)" "on 1 off 1" "user: recording off and on once each"
    # Score-P's user metrics: one-metric sampling sets of occurrence ASYNCHRONOUS (2), value
    # type INT64 (0) or DOUBLE (2), source USER (2), mode ABSOLUTE_POINT (4)
    expect_eq "$(sed -n 's/^counters //p' o1.count.0)" \
        "6 0.75 level:n=1,occ=2,type=0,src=2,mode=4 ratio:n=1,occ=2,type=2,src=2,mode=4" \
        "user: counters 1+2+3 and 0.25+0.5, described through the sampling set callbacks"
    expect_eq "$(sed -n 's/^backwards //p' o1.count.0)" 0 "omp: timestamps increase per location"
else
    skip_part "OMPT (omp-tools.h)"
fi

# bad lists: a missing library, a newer interface version, the good one twice
run_app b1 env SCOREP_EXPERIMENT_DIRECTORY=b1 SCOREP_SUBSTRATE_PLUGINS=nosuch:newer:count:count \
    SCOREP_SUBSTRATE_PLUGINS_SEP=: SUBSTRATE_COUNT_OUT="$work/b1.count" ./calls
expect_eq "$status" 0 "bad: exit status"
expect_eq "$(grep -c "substrate plugin 'nosuch' not loaded: .*libscorep_substrate_nosuch.so.*goes on without it" b1.err)" 1 \
    "bad: missing library, one message naming the library"
expect_eq "$(grep -c "substrate plugin 'newer' was built for interface version 4, newer than this runtime's (3); it is not used" b1.err)" 1 \
    "bad: newer interface version, one message"
expect_eq "$(wc -l <b1.err | tr -d ' ')" 2 "bad: nothing else on stderr (count listed twice, loaded once)"
expect_eq "$(grep -E '^region main ' b1.count.0)" "region main compiler 1 1" "bad: the good plugin ran, once"
expect_file b1/profile.cubex "bad: the measurement wrote its profile"

# MPI, 2 ranks, the plain program under scorep-run
if [ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] && command -v mpicc >/dev/null 2>&1 &&
    command -v mpirun >/dev/null 2>&1; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    mpicc -O1 -o smpi "$PROGRAMS/substrate_mpi.c" || fail "mpicc"
    rc=0
    SCOREP_EXPERIMENT_DIRECTORY=m1 SCOREP_SUBSTRATE_PLUGINS=count SUBSTRATE_COUNT_OUT="$work/m1.count" \
        timeout 120 mpirun -np 2 "$top_builddir/scorep-run" ./smpi >m1.out 2>m1.err || rc=$?
    expect_eq "$rc" 0 "mpi: 2 ranks under scorep-run"
    expect_eq "$(cat m1.out)" "sum 2" "mpi: program output"
    expect_no_grep 'scorep-rt' m1.err "mpi: no message of the runtime"
    expect_eq "$(sed -n 's/^order //p' m1.count.0)" "ICEDALVBMNXZPGW" "mpi: rank 0 life cycle (init_mpp after MPI_Init)"
    expect_eq "$(sed -n 's/^order //p' m1.count.1)" "ICEDALVBMNXZPW" "mpi: rank 1 life cycle (no manifest)"
    expect_eq "$(sed -n 's/^size //p;s/^allreduce //p' m1.count.0 m1.count.1 | tr '\n' ' ')" "2 3 2 3 " \
        "mpi: ipc size 2 and allreduce 1 + 2 through the callbacks"
    expect_eq "$(sed -n 's/^p2p //p' m1.count.0)" "3 0 1 0 bytes 1240 0" "mpi: rank 0 sent 3 x 400 bytes and isent 40"
    expect_eq "$(sed -n 's/^p2p //p' m1.count.1)" "0 3 0 1 bytes 0 1240" "mpi: rank 1 received 3 x 400 bytes and irecv'd 40"
    expect_eq "$(sed -n 's/^requests //p' m1.count.0 m1.count.1 | tr '\n' ';')" \
        "isend_complete 1 irecv_request 0;isend_complete 0 irecv_request 1;" \
        "mpi: the isend completed on rank 0, the irecv requested on rank 1"
    expect_eq "$(sed -n 's/^coll //p' m1.count.0 m1.count.1 | tr '\n' ';')" \
        "3 3 barrier 1 allreduce 2;3 3 barrier 1 allreduce 2;" "mpi: 3 collectives per rank: 1 barrier, 2 allreduce"
    expect_eq "$(grep -E '^region MPI_(Send|Recv|Allreduce|Barrier) ' m1.count.0 | sort | tr '\n' ';')" \
        "region MPI_Allreduce mpi 2 2;region MPI_Barrier mpi 1 1;region MPI_Send mpi 3 3;" "mpi: rank 0's MPI regions"
    expect_eq "$(grep -E '^region MPI_(Send|Recv|Allreduce|Barrier) ' m1.count.1 | sort | tr '\n' ';')" \
        "region MPI_Allreduce mpi 2 2;region MPI_Barrier mpi 1 1;region MPI_Recv mpi 3 3;" "mpi: rank 1's MPI regions"
    expect_grep '^- `count.txt`: Events per region, 2 ranks\.$' m1/MANIFEST.md "mpi: manifest entry"
    expect_file m1/profile.cubex "mpi: the profile is written"
else
    skip_part mpi
fi
done_ok
