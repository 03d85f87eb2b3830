#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_remap_spec_cut.sh: the remapping specification a profile embeds is share/scorep.spec cut
# to the run's paradigms (docs/analysis.md, "Its size"), for the runs test_remap_spec.sh and
# test_cuda_remap.sh leave out: a SHMEM program (oshrun, 2 PEs), a POSIX I/O program, a
# wrapped library (scorep-libwrap-init) and a hybrid MPI+OpenMP program (2 ranks x 2 threads).
# By our own means: the table the writers cut from gives every line of the file the paradigms
# test/tools/spec_cut.py derives from the file's sections (so every cut of every paradigm set
# is right); each run's regions have the paradigms its program implies, and its embedded spec
# is exactly the file's lines less the missing paradigms' (lines, order, metrics).
# Optional part (SQUARE=/path/to/square, CUBELIB_DUMP=/path/to/cube_dump with cube_remap2
# beside it): square -s on each experiment and on a copy whose profile embeds the whole file
# give the same summary, metric tree and every value per call path and location.
. "$top_srcdir/test/integration/lib.sh"

command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 (the spec's sections)"; exit 77; }
SPEC="$top_srcdir/share/scorep.spec"
CUT="$top_srcdir/test/tools/spec_cut.py"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export SCOREP_RUN_LIBDIR="$top_builddir/.libs"

part "the writers' table against the file's sections"
n=$(python3 "$CUT" --table "$SPEC" "$top_builddir/src/writers/remap_spec.c" \
    "$top_srcdir/src/writers/remap_spec.h" 2>&1) || fail "remap_spec.c: $n"
# every line of the file that is no comment is in the table (the cut of every paradigm)
python3 "$CUT" --expect "$SPEC" mpi shmem openmp pthread io libwrap cuda >all.spec ||
    fail "spec_cut.py --expect: $(cat all.spec)"
expect_eq "$n" "$(wc -l <all.spec)" \
    "remap_spec.c: each line of share/scorep.spec with the paradigms of its section"
python3 "$CUT" --sections "$SPEC" >sections.txt || fail "spec_cut.py --sections: $(cat sections.txt)"
# each paradigm has lines of its own (its metrics at least), and some lines are in every cut
expect_eq "$(awk '$NF > 0 { n++ } END { print n + 0 }' sections.txt)" 8 \
    "share/scorep.spec: lines of each of the 7 paradigms and of none ($(tr '\n' ';' <sections.txt))"

# cut_check NAME PARADIGMS: $work/NAME/profile.cubex's regions have exactly the Cube paradigms
# PARADIGMS (what the program calls), and its remapping.spec is the file cut to them (the
# user, compiler and measurement regions have no part of their own; libwrap:LIB is libwrap)
cut_check() {
    expect_file "$work/$1/profile.cubex" "$1: profile.cubex"
    tar xOf "$work/$1/profile.cubex" anchor.xml >"$1.anchor" || fail "$1: anchor.xml"
    expect_eq "$(sed -n 's|.*<paradigm>\([^<]*\)</paradigm>.*|\1|p' "$1.anchor" | LC_ALL=C sort -u |
        tr '\n' ' ')" "$2" "$1: the paradigms of the profile's regions"
    tar xOf "$work/$1/profile.cubex" remapping.spec >"$1.spec" || fail "$1: remapping.spec"
    _ps=$(for _p in $2; do case $_p in
        mpi | shmem | openmp | pthread | io | cuda) echo "$_p" ;; libwrap:*) echo libwrap ;;
        esac; done | tr '\n' ' ')
    _n=$(python3 "$CUT" "$SPEC" "$1.spec" $_ps 2>&1) || fail "$1: the embedded spec: $_n"
    # comments and indentation are left out (the remapper reads neither)
    expect_no_grep '^[[:space:]]|<!--|^//' "$1.spec" "$1: no comment, no indentation"
    echo "$1: $_n metrics, $(wc -c <"$1.spec") bytes embedded (paradigms: $_ps)"
}

SQ=
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
if [ -z "${SQUARE:-}" ] || [ -z "$CUBELIB_DUMP" ] || [ ! -x "${CUBELIB_DUMP%/*}/cube_remap2" ]; then
    skip_part_here "square -s with the cut and the whole specification" \
        "Scalasca and CubeLib are not packaged here (set SQUARE, and CUBELIB_DUMP to a cube_dump with cube_remap2 beside it)"
else
    SQ=yes
    PATH="${CUBELIB_DUMP%/*}:$PATH"
    . "$top_srcdir/test/tools/remap_same.sh"
fi
# shown NAME METRIC...: each METRIC is in NAME's summary (the run's part is compared, not
# just the paradigms' common part)
shown() {
    _s=$1
    shift
    cube_dump -w "$work/$_s/summary.cubex" >"$_s.dims" || fail "cube_dump -w $_s"
    for _m in "$@"; do
        expect_grep "[(] id=[0-9]*, $_m," "$_s.dims" "$_s: $_m in the summary"
    done
}

part "SHMEM: shmem_rma under oshrun and scorep-run (2 PEs)"
if [ ! -x "$top_builddir/test/shmem/shmem_rma" ] || [ ! -e "$top_builddir/.libs/libscorep-rt-shmem.so" ]; then
    skip_part "the SHMEM adapter (oshcc)"
elif ! command -v oshrun >/dev/null 2>&1; then
    skip_part "oshrun"
else
    # oshmem segfaults in shmem_finalize without this (reference/environment.md)
    run_bounded shmem 120 'shmem_rma' env OMPI_MCA_osc='^rdma' SCOREP_EXPERIMENT_DIRECTORY="$work/shmem" \
        oshrun --oversubscribe -np 2 "$top_builddir/scorep-run" "$top_builddir/test/shmem/shmem_rma"
    expect_eq "$status" 0 "shmem: runs ($(tail -c 300 shmem.err))"
    expect_grep "shmem_rma: 2 PEs ok" shmem.out "shmem: the program's own check"
    cut_check shmem "measurement shmem "
    [ -z "$SQ" ] || { sq_same shmem; shown shmem shmem_time shmem_comm_rma_time bytes_rma; }
fi

part "POSIX I/O: scorep-run --io=posix"
cat >io.c <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void)
{
    char buf[4096] = {1};
    int fd = open("io.dat", O_CREAT | O_TRUNC | O_RDWR, 0600);
    if (fd < 0)
        return 1;
    for (int i = 0; i < 8; i++)
        if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            return 1;
    lseek(fd, 0, SEEK_SET);
    while (read(fd, buf, sizeof buf) > 0)
        ;
    fsync(fd);
    close(fd);
    FILE *f = fopen("io.dat", "r");
    if (!f || fread(buf, 1, sizeof buf, f) != sizeof buf)
        return 1;
    fclose(f);
    return unlink("io.dat");
}
EOF
gcc -O1 -o io_plain io.c || fail "build io.c"
run_app io env SCOREP_EXPERIMENT_DIRECTORY="$work/io" "$top_builddir/scorep-run" --io=posix ./io_plain
expect_eq "$status" 0 "io: runs ($(tail -c 300 io.err))"
cut_check io "io measurement "
[ -z "$SQ" ] || { sq_same io; shown io io_time io_meta_time io_reading_time io_writing_time; }

part "libwrap: a library wrapped with scorep-libwrap-init, run-time wrapping"
if ! command -v nm >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
    skip_part "nm or make (scorep-libwrap-init's workflow)"
else
    LW="$top_srcdir/test/programs/libwrap"
    mkdir inc lib
    cp "$LW/mylib.h" inc/
    gcc -O2 -fPIC -shared -Iinc -o lib/libmylib.so "$LW/mylib.c" || fail "build libmylib.so"
    gcc -O1 -Iinc -o app_plain "$LW/app.c" -Llib -Wl,-rpath,"$work/lib" -lmylib || fail "build app_plain"
    # the build tree's templates and scorep-cc (an installed one has its own paths)
    SCOREP_LIBWRAP_TEMPLATES="$top_srcdir/share/libwrap" SCOREP_LIBWRAP_SCOREP_CC="$SCOREP_CC" \
        "$top_builddir/scorep-libwrap-init" --name=mylib -x c --cppflags="-I$work/inc" \
        --ldflags="-L$work/lib -Wl,-rpath,$work/lib" --libs=-lmylib --prefix="$work/prefix" wd \
        >lwinit.out 2>&1 || fail "scorep-libwrap-init: $(cat lwinit.out)"
    echo '#include <mylib.h>' >>wd/libwrap.h
    (export SCOREP_LIBWRAP_TEMPLATES="$top_srcdir/share/libwrap" SCOREP_LIBWRAP_SCOREP_CC="$SCOREP_CC"
        make -C wd && make -C wd install) >lwmake.out 2>&1 || fail "libwrap make: $(tail -20 lwmake.out)"
    run_app lw env SCOREP_LIBWRAP_PATH="$work/prefix" SCOREP_LIBWRAP_ENABLE=mylib \
        SCOREP_EXPERIMENT_DIRECTORY="$work/lw" "$top_builddir/scorep-run" ./app_plain
    expect_eq "$status" 0 "lw: runs ($(tail -c 300 lw.err))"
    cut_check lw "libwrap:mylib measurement "
    [ -z "$SQ" ] || { sq_same lw; shown lw libwrap_time; }
fi

part "hybrid MPI+OpenMP: 2 ranks x 2 threads"
if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
    skip_part "mpicc or mpirun"
elif [ ! -x "$top_builddir/test/mpi/collectives_scorep" ]; then
    skip_part "the MPI adapter"
else
    cat >hyb.c <<'EOF'
#include <mpi.h>
#include <omp.h>
int main(int argc, char **argv)
{
    int provided, r;
    double s = 0, t = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
#pragma omp parallel num_threads(2) reduction(+ : s)
    {
        for (long i = 0; i < 200000L * (omp_get_thread_num() + 1); i++)
            s += i * 1e-9;
#pragma omp barrier
#pragma omp critical
        s += 1;
    }
    MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return t > 0 ? 0 : 1;
}
EOF
    scorep_cc mpicc -fopenmp -o hyb.exe hyb.c >hyb.cc 2>&1
    run_bounded hyb 120 '(mpirun|hyb.exe)( |$)' env SCOREP_EXPERIMENT_DIRECTORY="$work/hyb" \
        mpirun --oversubscribe --allow-run-as-root -np 2 ./hyb.exe
    expect_eq "$status" 0 "hyb: runs ($(tail -c 300 hyb.err))"
    cut_check hyb "compiler measurement mpi openmp "
    if [ -n "$SQ" ]; then
        sq_same hyb
        shown hyb mpi mpi_collective mpi_init_exit omp_time omp_ebarrier omp_critical omp_idle_threads
        # the remapper adds the idle threads' time to `time` but leaves max_time as copied, so an
        # OpenMP summary breaks profile_check's mean <= max rule by construction: out of its reach
        mv "$work/hyb/summary.cubex" "$work/hyb/summary.remapped" &&
            mv "$work/hyb.full/summary.cubex" "$work/hyb.full/summary.remapped" || fail "mv hyb summaries"
    fi
fi
echo "checks: $checks"
