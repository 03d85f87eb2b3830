# SPDX-License-Identifier: BSD-3-Clause
# lib.sh: shared helpers of the integration tests: build with the build tree's scorep-cc,
# run under measurement, and read results back (scorep-cube-dump, otf2-print). Every
# profile a test writes under its directory is checked by test/tools/profile_check
# (check_profiles) after each run_app and wait_app and at the end of the test.
# Source it from a test script run through `make check`; it changes into a fresh temporary
# directory that is removed at exit. Every expect_* helper counts one check and stops the
# test with "FAIL: ..." on the first mismatch.
set -eu
: "${top_builddir:?run through make check}"
: "${top_srcdir:?run through make check}"
SCOREP_CC="$top_builddir/scorep-cc"
CUBE_DUMP="$top_builddir/scorep-cube-dump"
SCOREP_SCORE="$top_builddir/scorep-score"
SCOREP_INFO="$top_builddir/scorep-info"
PROFILE_CHECK="$top_builddir/test/tools/profile_check"
PROGRAMS=$(cd "$top_srcdir/test/programs" && pwd -P)
export LC_ALL=C
# Measurement settings of the calling environment must not leak into the tests.
for _v in $(env | sed -n 's/^\(SCOREP_[A-Za-z0-9_]*\)=.*/\1/p'); do
    unset "$_v"
done
# Nor OpenMP settings (libomp's OMP_* and KMP_*, libgomp's GOMP_*): OMP_THREAD_LIMIT,
# OMP_DYNAMIC or OMP_MAX_ACTIVE_LEVELS would change the teams the tests count, OMP_TOOL or
# OMP_TOOL_LIBRARIES the OMPT tool, OMP_DISPLAY_ENV what the programs print. A test sets what
# it needs; the test programs fix their teams' sizes with num_threads (test_lint_tests.sh).
for _v in $(env | sed -n 's/^\(\(OMP\|KMP\|GOMP\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
    unset "$_v"
done
export SCOREP_CC_LIBDIR="$top_builddir/.libs" SCOREP_CC_INCLUDEDIR="$top_srcdir/include"
# the GCC plugin of scorep-cc --filter, from the build directory (absent: not built here);
# TEST_GCC_PLUGIN names another: a cross build's tests (cross_aarch64.sh) load the plugin built
# for the machine the cross gcc runs on, not the build's own, which is for the target
export SCOREP_CC_GCC_PLUGIN="${TEST_GCC_PLUGIN:-$top_builddir/.libs/scorep_filter_gcc.so}"
# the LLVM pass plugin of clang/clang++ (absent: not built here; scorep-cc then falls back)
export SCOREP_CC_LLVM_PLUGIN="$top_builddir/.libs/scorep_llvm_plugin.so"
# The test programs call tiny functions up to millions of times and assert exact timed and
# traced counts of them; throttling (on by default) is tested by test_throttling.sh, which
# switches it on again.
export SCOREP_THROTTLING=false
# Their functions are tiny on purpose (leaf: one statement), and the plugins leave such
# functions uninstrumented by default (#31's threshold): the tests keep them all;
# test_instrument_kept.sh tests the default.
export SCOREP_CC_INSTRUMENT_THRESHOLD=0
work=$(mktemp -d "${TMPDIR:-/tmp}/scorep-test.XXXXXX")
work=$(cd "$work" && pwd -P)
# Open MPI's session directory per test: with one shared /tmp/ompi.HOST.UID, an mpirun that
# ends and cleans up can pull the directory from under one that is starting ("File exists").
mkdir "$work/.ompi"
export OMPI_MCA_orte_tmpdir_base="$work/.ompi"
# A failure inside a command substitution only ends that subshell: fail() also leaves the
# marker .failed, which every later check and the exit of the test look at.
# The directories outside_work made go with it.
trap '_rc=$?; [ "$_rc" = 77 ] || (check_profiles) || true; [ ! -e "$work/.failed" ] || _rc=1; [ ! -f "$work/.outside" ] || while read -r _o; do rm -rf "$_o"; done <"$work/.outside"; chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"; exit $_rc' EXIT
cd "$work"
mkdir "$work/.cache"
checks=0

fail()
{
    echo "FAIL: $*" >&2
    echo "$*" >>"$work/.failed"
    exit 1
}

# _check: count one check; stop if an earlier failure happened in a subshell
_check()
{
    [ ! -e "$work/.failed" ] || exit 1
    checks=$((checks + 1))
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq()
{
    _check
    [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"
    echo "ok: $3 = $2"
}

# expect_ge A B WHAT: A >= B as numbers (decimal or floating point)
expect_ge()
{
    _check
    awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }' || fail "$3: expected $1 >= $2"
    echo "ok: $3 ($1 >= $2)"
}

# expect_file PATH WHAT / expect_no_file PATH WHAT: PATH exists (as anything) or does not
expect_file()
{
    _check
    [ -e "$1" ] || fail "$2: $1 does not exist"
    echo "ok: $2"
}
expect_no_file()
{
    _check
    [ ! -e "$1" ] && [ ! -L "$1" ] || fail "$2: $1 exists"
    echo "ok: $2"
}

# expect_grep ERE FILE WHAT / expect_no_grep ERE FILE WHAT: a line of FILE matches (or none)
expect_grep()
{
    _check
    grep -E -q -e "$1" "$2" || fail "$3: no line of $(basename "$2") matches /$1/; it holds:
$(head -c 2000 "$2")"
    echo "ok: $3"
}
# truncate_unmarked FILE SIZE: cuts FILE to SIZE bytes, or fewer where byte SIZE would be
# 0x01, OTF2's end-of-buffer mark (a chunk cut just after one passes the read guard's chunk
# check and OTF2's own error is reported instead: otf2_read_guard.c, read_done); prints the
# size, so that a test can expect the guard's exact "truncated in chunk 1: N of" whatever
# byte the run's data put there.
truncate_unmarked()
{
    _tn=$2
    while [ "$_tn" -gt 1 ] && [ "$(od -An -tu1 -j $((_tn - 1)) -N1 "$1" | tr -d ' ')" = 1 ]; do
        _tn=$((_tn - 1))
    done
    truncate -s "$_tn" "$1" || return 1
    echo "$_tn"
}
expect_no_grep()
{
    _check
    ! grep -E -q -e "$1" "$2" || fail "$3: $(basename "$2") has a line matching /$1/: $(grep -E -e "$1" "$2" | head -n 3)"
    echo "ok: $3"
}

# run_to FILE COMMAND...: COMMAND's standard output into FILE; a failure of COMMAND fails the
# test. Counts are then taken from FILE: a count at the end of a pipe would read a failed
# command as 0 lines (dash, the tests' shell, has no pipefail).
run_to()
{
    _to=$1
    shift
    "$@" >"$_to" || fail "$* failed (exit status $?)"
}

# entries DIR [ERE]: the number of entries of directory DIR (hidden ones too) whose name
# matches ERE (all without); fails the test when DIR is no directory
entries()
{
    [ -d "$1" ] || fail "entries: $1 is not a directory"
    ls -A "$1" >"$work/.entries" || fail "ls -A $1 failed"
    grep -E -c -e "${2:-.}" "$work/.entries" || true
}

# count_out ERE CMD...: the number of lines of CMD's output matching ERE; fails the test
# when CMD fails (a count taken from a pipe would hide that)
count_out()
{
    _re=$1
    shift
    run_to "$work/.count_out" "$@"
    count_lines "$_re" "$work/.count_out"
}

# build_machine: the machine the build under test is for, x86_64, aarch64 or other; not uname -m,
# which says x86_64 where cross_aarch64.sh runs an aarch64 build's tests under qemu
build_machine()
{
    run_to "$work/.elfhead" readelf -h "$top_builddir/.libs/libscorep-rt.so"
    case "$(sed -n 's/^ *Machine: *//p' "$work/.elfhead")" in
    *X86-64) echo x86_64 ;;
    AArch64) echo aarch64 ;;
    *) echo other ;;
    esac
}

# loaded_objects PROG: the shared objects the dynamic linker loads for executable PROG, as ldd
# lists them; the program's own loader prints them, also for an aarch64 build under qemu
# (cross_aarch64.sh), where the host's ldd says "not a dynamic executable"
loaded_objects()
{
    env LD_TRACE_LOADED_OBJECTS=1 "$1"
}

# EREs of a call and of a jump in objdump -d's output, for the checks of generated code: x86-64's
# call and jmp, AArch64's bl and b (cross_aarch64.sh runs the tests on aarch64 under qemu)
CALL_INSN='[[:space:]](callq?|bl)[[:space:]]'
JMP_INSN='[[:space:]](jmpq?|b)[[:space:]]'

# disasm_fn PROG FUNC: objdump's disassembly of function FUNC of PROG (from its label to the
# next empty line); fails the test when objdump fails
disasm_fn()
{
    run_to "$work/.disasm" objdump -d "$1"
    awk -v l="<$2>:" 'index($0, l) { on = 1 } on && /^$/ { on = 0 } on' "$work/.disasm"
}

# count_lines ERE FILE: number of lines of FILE matching ERE
count_lines()
{
    grep -E -c -e "$1" "$2" || true
}

# python3_with_otf2: the python3 that imports OTF2's Python reader (Debian's python3-otf2
# is for /usr/bin/python3, which may not be the first python3 on the PATH); empty if none
python3_with_otf2()
{
    for _p in python3 /usr/bin/python3; do
        if "$_p" -c 'import otf2' 2>/dev/null; then
            echo "$_p"
            return 0
        fi
    done
}

# skip_part TOOL: a part of the test left out because TOOL is not installed; with CI=true
# (the quickstart has installed every tool) that fails the test instead. The line
# "SKIP-PART: ..." is counted by build-aux/quickstart check.
skip_part()
{
    [ "${CI:-}" != true ] || fail "$1 is not installed (with CI=true every part must run)"
    echo "SKIP-PART: $1 not installed"
}

# skip_part_here PART WHY: a part of the test that cannot run on this machine for a reason no
# package changes (no hardware PMU, not root, ...); the line "SKIP-PART-NOT-A-PACKAGE: ..."
# is counted (and listed) by build-aux/quickstart check, also with CI=true.
skip_part_here()
{
    echo "SKIP-PART-NOT-A-PACKAGE: $1: $2"
}

# not_verbose FILE: FILE's lines but SCOREP_VERBOSE's report (lines "[scorep-rt] " without
# "warning: " or "error: "): what a run with the report on said besides it
not_verbose()
{
    awk '!/^\[scorep-rt\] / || /^\[scorep-rt\] (warning|error): /' "$1"
}

# kernel_signals FILE LOC...: how often the kernel signalled the threads of locations LOC
# (summed), from SCOREP_VERBOSE's report in FILE (sampling_profile.c); fails without one. A
# CPU-time timer (timer@) expires only at a scheduler tick that finds its thread running, so
# on a loaded machine a thread gets far fewer signals than its CPU time / period, or none:
# the kernel alone (no runtime; 4 threads, timer@1000, make -j2 beside them) signalled
# single threads 2 to 7 times in 300 ms of their CPU time (50-90 idle) and 0 times in 60 ms;
# the project's CI once saw a pthread of test_sampling.sh without any in its 300 ms
kernel_signals()
{
    _kf=$1
    shift
    _kn=0
    for _kl in "$@"; do
        _ks=$(awk -v l="$_kl:" '$1 == "[scorep-rt]" && $2 == "location" && $3 == l &&
            $5 ~ /^signals/ { print $4 }' "$_kf")
        case "$_ks" in '' | *[!0-9]*) fail "$_kf: SCOREP_VERBOSE reports no signals of location $_kl" ;; esac
        _kn=$((_kn + _ks))
    done
    echo "$_kn"
}

# expect_samples_ge N MIN WHAT FILE LOC...: N >= MIN samples, checked where the kernel
# signalled the threads of LOC at least 2 x MIN times (kernel_signals; the runtime leaves
# some out, such as those in its own start-up); else listed as skipped: the machine was too
# loaded for the bound
expect_samples_ge()
{
    _sn=$1 _smin=$2 _swhat=$3 _sf=$4
    shift 4
    _ssig=$(kernel_signals "$_sf" "$@")
    [ -n "$_ssig" ] || exit 1
    if [ "$_ssig" -ge $((2 * _smin)) ]; then
        expect_ge "$_sn" "$_smin" "$_swhat"
    else
        skip_part_here "$_swhat" "the kernel signalled the sampled threads $_ssig times (a loaded machine: a CPU-time timer expires at scheduler ticks)"
    fi
}

# find_cubelib_dump [PART]: CUBELIB_DUMP, CubeLib's cube_dump (as given, else from PATH);
# without one the part that reads the profiles with it (PART) is listed as skipped
find_cubelib_dump()
{
    _part="CubeLib's own reading (cube_dump)"
    [ $# -eq 0 ] || _part=$1
    CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
    [ -n "$CUBELIB_DUMP" ] || skip_part_here "$_part" \
        "CubeLib is not packaged for this system (set CUBELIB_DUMP to a built cube_dump)"
}

# wait_checkpoints PIECE WHAT: waits until a checkpoint has written PIECE (a rescue piece)
# twice after this call, so that one was begun and ended after it (SCOREP_CHECKPOINT_INTERVAL);
# fails after 20 s for either
wait_checkpoints()
{
    for _mark in 1 2; do
        touch "$work/.checkpoint_mark$_mark"
        _k=0
        until [ -n "$(find "$1" -newer "$work/.checkpoint_mark$_mark" 2>/dev/null)" ]; do
            _k=$((_k + 1))
            [ $_k -lt 400 ] || fail "$2: no checkpoint written within 20 s after mark $_mark"
            sleep 0.05
        done
    done
}

# perf_probe EVENT PERIOD: "ok" where this process may open the sampling perf event EVENT
# (task_clock or cycles) as the runtime's sampling does, else "refused: REASON": the kernel's
# answer to test/programs/perf_open_probe.c (built without the runtime), not the runtime's,
# and not a guess from perf_event_paranoid and the user id (Debian's 3 refuses users all,
# the mainline kernel treats 3 as 2; root in a container may lack CAP_PERFMON)
perf_probe()
{
    [ -x "$work/perf_open_probe" ] ||
        gcc -O1 -o "$work/perf_open_probe" "$PROGRAMS/perf_open_probe.c" ||
        fail "gcc failed (perf_open_probe)"
    "$work/perf_open_probe" "$@" || fail "perf_open_probe $*: exit status $?"
}

# part WHAT: says which part of a test runs now (e.g. the real PAPI path or its fallback)
part()
{
    echo "== part: $*"
}

# scorep_cc ARGS...: build with the build tree's scorep-cc; a failed build fails the test
scorep_cc()
{
    "$SCOREP_CC" "$@" || fail "build: scorep-cc $*"
}

# check_profiles: runs profile_check on every profile (*.cubex) under $work that it has not
# checked before in this state (path, inode, size, time); a violation fails the test. Skipped
# while a program of start_app runs: its profile may be half written.
check_profiles()
{
    if [ -n "${app_pid:-}" ] && kill -0 "$app_pid" 2>/dev/null; then
        return 0
    fi
    [ -x "$PROFILE_CHECK" ] || fail "profile checker $PROFILE_CHECK not built"
    find "$work" -name '*.cubex' -type f >"$work/.cubex.list" 2>/dev/null || true
    while read -r _f; do
        _s="$_f $(stat -c '%i %s %Y' "$_f")"
        ! grep -qxF "$_s" "$work/.cubex.checked" 2>/dev/null || continue
        _out=$("$PROFILE_CHECK" -q "$_f" 2>&1) ||
            fail "profile_check: inconsistent profile ${_f#"$work"/}:
$_out"
        echo "$_s" >>"$work/.cubex.checked"
        _check
        echo "ok: profile_check ${_f#"$work"/}"
    done <"$work/.cubex.list"
}

# run_app NAME COMMAND...: run COMMAND with stdout in NAME.out and stderr in NAME.err; the
# exit status is left in $status (a signal death reads 128 + signal number, as in the shell).
run_app()
{
    _name=$1
    shift
    status=0
    # a hang must fail the test, never stall the suite (status 124 then)
    timeout --kill-after=10 "${TEST_TIMEOUT:-300}" "$@" >"$_name.out" 2>"$_name.err" || status=$?
    check_profiles
}

# stacks_of ERE: the threads' stacks of this user's processes whose command line matches ERE
# (gdb; without it the kernel's view: state and wait channel), to show where a hang hangs
stacks_of()
{
    for _p in $(pgrep -f -- "$1" || true); do
        [ "$_p" != $$ ] || continue
        echo "--- process $_p: $(tr '\0' ' ' 2>/dev/null <"/proc/$_p/cmdline")"
        if command -v gdb >/dev/null 2>&1; then
            timeout 30 gdb -p "$_p" -batch -ex 'thread apply all bt 15' 2>/dev/null |
                grep -E '^(#|Thread )' | head -n 60 || true
        else
            for _t in /proc/"$_p"/task/*; do
                echo "thread ${_t##*/}: $(awk '{ print $3 }' "$_t/stat" 2>/dev/null) $(cat "$_t/wchan" 2>/dev/null)"
            done
        fi
    done
}

# run_bounded NAME SECONDS ERE COMMAND...: COMMAND (output in NAME.out, NAME.err) with a limit
# of SECONDS; if it is still running then, the stacks of the processes matching ERE are
# printed (stacks_of; also kept in NAME.stacks) before it is killed, and status is 124; else
# status is its exit status
run_bounded()
{
    _name=$1 _secs=$2 _ere=$3
    shift 3
    "$@" >"$_name.out" 2>"$_name.err" &
    _bpid=$!
    _n=$((_secs * 10))
    while kill -0 "$_bpid" 2>/dev/null && [ "$_n" -gt 0 ]; do
        sleep 0.1
        _n=$((_n - 1))
    done
    if kill -0 "$_bpid" 2>/dev/null; then
        echo "$_name: still running after $_secs s; the stacks of its processes:"
        stacks_of "$_ere" >"$_name.stacks"
        cat "$_name.stacks"
        kill -TERM "$_bpid" 2>/dev/null || true
        sleep 2
        kill -KILL "$_bpid" 2>/dev/null || true
        wait "$_bpid" 2>/dev/null || true
        # and what it left behind (a hung job's processes outlive its launcher)
        for _p in $(sed -n 's/^--- process \([0-9]*\):.*/\1/p' "$_name.stacks"); do
            kill -KILL "$_p" 2>/dev/null || true
        done
        status=124
    else
        status=0
        wait "$_bpid" || status=$?
    fi
}

# start_app NAME COMMAND...: run COMMAND in the background like run_app, with SIGINT and
# SIGTERM at their default handling (a non-interactive shell ignores SIGINT in background
# jobs); its process id is left in $app_pid. Finish with wait_app.
start_app()
{
    _name=$1
    shift
    env --default-signal=INT,TERM "$@" >"$_name.out" 2>"$_name.err" &
    app_pid=$!
}

# wait_output NAME ERE [SECONDS]: wait (default 60 s: a hang detector, generous for a loaded
# machine) until NAME.out has a line matching ERE; on timeout kill the background program
# and fail
wait_output()
{
    _n=$(( ${3:-60} * 20 ))
    while ! grep -E -q -e "$2" "$1.out" 2>/dev/null; do
        _n=$((_n - 1))
        if [ "$_n" -le 0 ] || ! kill -0 "$app_pid" 2>/dev/null; then
            kill -KILL "$app_pid" 2>/dev/null || true
            fail "$1: no output line matching /$2/ (output: $(head -c 500 "$1.out"))"
        fi
        sleep 0.05
    done
}

# wait_app [SECONDS]: wait (default 60 s) for the program of start_app; its exit status is
# left in $status. A program still running then is killed and the test fails: a hang must
# never stall the suite.
wait_app()
{
    status=0
    if ! timeout "${1:-60}" tail --pid="$app_pid" -s 0.1 -f /dev/null; then
        kill -KILL "$app_pid" 2>/dev/null || true
        wait "$app_pid" 2>/dev/null || true
        fail "the program started by start_app did not end within ${1:-60} s"
    fi
    wait "$app_pid" || status=$?
    check_profiles
}

# wait_lines FILE REGEX N WHAT: waits (60 s at most) until FILE has N lines matching REGEX
# while the program start_app started runs; otherwise kills it and fails with WHAT
wait_lines()
{
    _k=600
    while [ "$(grep -c "$2" "$1" || true)" != "$3" ]; do
        _k=$((_k - 1))
        [ "$_k" -gt 0 ] && kill -0 "$app_pid" 2>/dev/null || {
            kill -KILL "$app_pid" 2>/dev/null || true
            fail "$4"
        }
        sleep 0.1
    done
}

# The program root. Score-P (6 and later) and scorep-rt give every location's call tree one
# root, the program region (named after the executable; its time is the whole run), which
# test/tools/profile_check checks in every profile we write (check_profiles). The helpers
# below address call paths BELOW it: profile_dump removes "ROOT/" from the front of every
# call path and shows the root's own lines with the path "." (ROOT: profile_root). A profile
# without a program root (Score-P 4's samples) is shown as it is. profile_dump_raw shows
# the paths as written, root included.

# profile_root EXPDIR: the program root's name; empty for a profile without one
profile_root()
{
    _key=$(printf '%s\n' "$1" "$(stat -c '%i %s %y' "$1/profile.cubex" 2>/dev/null)" |
        md5sum | cut -d' ' -f1)
    if [ ! -f "$work/.cache/$_key.root" ]; then
        "$CUBE_DUMP" --program-root "$1/profile.cubex" >"$work/.cache/$_key.rtmp" ||
            fail "scorep-cube-dump --program-root $1/profile.cubex failed"
        mv "$work/.cache/$_key.rtmp" "$work/.cache/$_key.root"
    fi
    cat "$work/.cache/$_key.root"
}

# profile_dump_raw EXPDIR [scorep-cube-dump options]: the dump, cached; fails on a bad profile
profile_dump_raw()
{
    _dir=$1
    shift
    _key=$(printf '%s\n' "$_dir" "$*" "$(stat -c '%i %s %y' "$_dir/profile.cubex" 2>/dev/null)" |
        md5sum | cut -d' ' -f1)
    if [ ! -f "$work/.cache/$_key.profile" ]; then
        "$CUBE_DUMP" "$@" "$_dir/profile.cubex" >"$work/.cache/$_key.tmp" ||
            fail "scorep-cube-dump $* $_dir/profile.cubex failed"
        mv "$work/.cache/$_key.tmp" "$work/.cache/$_key.profile"
    fi
    cat "$work/.cache/$_key.profile"
}

# profile_dump EXPDIR [scorep-cube-dump options]: the dump with call paths below the program
# root (see above); --system and --system-groups as they are
profile_dump()
{
    _root=$(profile_root "$1")
    case " $* " in
    *" --system "* | *" --system-groups "*) _root= ;;
    esac
    if [ -z "$_root" ]; then
        profile_dump_raw "$@"
        return
    fi
    profile_dump_raw "$@" | awk -F'\t' -v OFS='\t' -v r="$_root" '
        $2 == r { $2 = "."; print; next }
        index($2, r "/") == 1 { $2 = substr($2, length(r) + 2); print; next }
        { print "profile_dump: call path " $2 " outside the program root " r > "/dev/stderr"; exit 1 }' ||
        fail "profile_dump $*: a call path outside the program root"
}

# below_root EXPDIR: standard input's lines "CALLPATH<TAB>..." (test/tools/cube_values.py's)
# with the call paths below the program root, as profile_dump shows them
below_root()
{
    awk -F'\t' -v OFS='\t' -v r="$(profile_root "$1")" '
        r == "" { print; next }
        $1 == r { $1 = "."; print; next }
        index($1, r "/") == 1 { $1 = substr($1, length(r) + 2); print; next }
        { print "below_root: call path " $1 " outside the program root " r > "/dev/stderr"; exit 1 }' ||
        fail "below_root $1: a call path outside the program root"
}

# cube_values PROFILE METRIC: test/tools/cube_values.py's values of PROFILE (EXPDIR/NAME.cubex)
# with the call paths below the program root (below_root)
cube_values()
{
    python3 "$top_srcdir/test/tools/cube_values.py" "$@" >"$work/.cube_values" || return 1
    below_root "${1%/*}" <"$work/.cube_values"
}

# profile_sum EXPDIR CALLPATH METRIC [LOCATION]: metric summed over locations (exclusive);
# CALLPATH below the program root, "." the root itself (profile_dump)
profile_sum()
{
    profile_dump "$1" -m "$3" | awk -F'\t' -v p="$2" -v loc="${4:-}" '
        $2 == p && (loc == "" || $3 == loc) { split($4, kv, "="); s += kv[2] }
        END { printf "%.17g\n", s + 0 }'
}

# profile_isum EXPDIR CALLPATH METRIC [LOCATION]: the same with inclusive values
profile_isum()
{
    profile_dump "$1" -i -m "$3" | awk -F'\t' -v p="$2" -v loc="${4:-}" '
        $2 == p && (loc == "" || $3 == loc) { split($4, kv, "="); s += kv[2] }
        END { printf "%.17g\n", s + 0 }'
}

# profile_values EXPDIR CALLPATH METRIC: "location value" per location holding CALLPATH
profile_values()
{
    profile_dump "$1" -m "$3" | awk -F'\t' -v p="$2" '
        $2 == p { split($4, kv, "="); print $3, kv[2] }'
}

# profile_paths EXPDIR: the distinct call paths below the program root ("." not listed)
profile_paths()
{
    profile_dump "$1" -m visits | awk -F'\t' '$2 != "." { print $2 }' | sort -u
}

# profile_locations EXPDIR: number of locations in the system tree
profile_locations()
{
    profile_dump "$1" --system | wc -l | tr -d ' '
}

# trace_file EXPDIR: path of a file with otf2-print's output (cached); fails if otf2-print does.
# One pass over it leaves next to it (same name, other suffix):
#   .summary  "TYPE<TAB>LOCATION<TAB>REGION<TAB>COUNT" ("-" for events without a region)
#   .other    the event lines other than ENTER and LEAVE
#   .checks   "order N" (events not later than their location's previous one; a BUFFER_FLUSH
#             may share its predecessor's timestamp), "nesting N"
#             (LEAVEs not matching the innermost open ENTER, plus ENTERs never left),
#             "first LOC TYPE" and "last LOC TYPE" per location
trace_file()
{
    _key=$(printf '%s\n' "$1" "$(stat -c '%i %s %y' "$1/traces.otf2" "$1/traces.def" 2>/dev/null)" |
        md5sum | cut -d' ' -f1)
    _c="$work/.cache/$_key"
    if [ ! -f "$_c.trace" ]; then
        { otf2-print "$1/traces.otf2" 2>"$_c.err"; echo $? >"$_c.rc"; } | tee "$_c.tmp" |
        awk -v other="$_c.other" -v checks="$_c.checks" '
            $3 !~ /^[0-9]+$/ || $2 !~ /^[0-9]+$/ || $1 !~ /^[A-Z][A-Z0-9_]*$/ { next }
            {
                l = $2
                i = index($0, "Region: \"")
                if (i) { r = substr($0, i + 9); r = substr(r, 1, index(r, "\" <") - 1) } else r = "-"
                n[$1 "\t" l "\t" r]++
                # strictly increasing per location; a BufferFlush marker may share the
                # timestamp of the record before it (src/core/flush.c)
                if ((l in last) && ($3 + 0 < last[l] + 0 || ($3 + 0 == last[l] + 0 && $1 != "BUFFER_FLUSH"))) order++
                last[l] = $3
                if (!(l in first)) first[l] = $1
                lasttype[l] = $1
                if ($1 == "ENTER") st[l, ++d[l]] = r
                else if ($1 == "LEAVE") { if (d[l] < 1 || st[l, d[l]] != r) nest++; else d[l]-- }
                else print > other
            }
            END {
                for (k in n) print k "\t" n[k]
                for (l in d) nest += d[l]
                printf "order %d\nnesting %d\n", order, nest > checks
                for (l in first) print "first", l, first[l] > checks
                for (l in lasttype) print "last", l, lasttype[l] > checks
            }' | sort >"$_c.summary"
        [ "$(cat "$_c.rc")" = 0 ] ||
            fail "otf2-print $1/traces.otf2 failed: $(head -c 1000 "$_c.err")"
        touch "$_c.other"
        mv "$_c.tmp" "$_c.trace"
    fi
    echo "$_c.trace"
}

# metric_values: filter of otf2-print event lines (trace_events, trace_other): a METRIC record
# with several values (a metric class of several members: the strictly synchronous metrics
# recorded together) becomes one line per value, "METRIC LOCATION TIMESTAMP Metric: CLASS,
# 1 Value: ("NAME" <ID>; TYPE; VALUE)", the form of a one-value record; other lines pass
metric_values()
{
    awk '$1 != "METRIC" || !/ Values: / { print; next }
        {
            head = $0; sub(/ Metric: .*/, "", head)
            cls = $0; sub(/.* Metric: /, "", cls); sub(/,.*/, "", cls)
            rest = $0; sub(/^[^(]*/, "", rest)
            while (match(rest, /\("[^"]*" <[0-9]+>; [A-Z0-9_]+; [^)]*\)/)) {
                print head "  Metric: " cls ", 1 Value: " substr(rest, RSTART, RLENGTH)
                rest = substr(rest, RSTART + RLENGTH)
            }
        }'
}

# trace_defs EXPDIR: otf2-print -G (global definitions); fails if otf2-print does
trace_defs()
{
    otf2-print -G "$1/traces.otf2" || fail "otf2-print -G $1/traces.otf2 failed"
}

# trace_events EXPDIR: otf2-print's event lines as "TYPE LOCATION TIMESTAMP rest"
trace_events()
{
    _f=$(trace_file "$1")
    awk '$3 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $1 ~ /^[A-Z][A-Z0-9_]*$/' "$_f"
}

# trace_region_order EXPDIR [LOCATION]: the location's (default 0) Enters and Leaves in the
# trace's order, "E:REGION L:REGION ..." on one line
trace_region_order()
{
    trace_events "$1" | awk -v loc="${2:-0}" '
        ($1 == "ENTER" || $1 == "LEAVE") && $2 == loc {
            i = index($0, "Region: \""); r = substr($0, i + 9); r = substr(r, 1, index(r, "\"") - 1)
            printf "%s%s:%s", sep, substr($1, 1, 1), r; sep = " "
        }'
}

# metric_list EXPDIR: the unique names of EXPDIR's profile's metrics in its order, our own
# reading of its anchor.xml (nothing when there is none)
metric_list()
{
    tar -xOf "$1/profile.cubex" anchor.xml | sed -n 's/.*<uniq_name>\([^<]*\)<.*/\1/p' | tr '\n' ' '
}

# cubelib_metrics CUBE_DUMP PROFILE OUT: CubeLib's metric dimension of PROFILE (cube_dump -w)
# into OUT, one line per metric: its display and unique names, id, unit, type, description,
# kind
cubelib_metrics()
{
    "$1" -w "$2" >"$3.w" 2>&1 || fail "CubeLib's cube_dump -w cannot read $2: $(tail -c 400 "$3.w")"
    sed -n '/=== METRIC DIMENSION ===/,/=== CALLTREE DIMENSION ===/p' "$3.w" |
        grep -v -e '===' -e '^ *$' >"$3" || fail "CubeLib's cube_dump -w: no metric in $2"
}

# cubelib_visits CUBE_DUMP PROFILE [REGEX]: CubeLib's own reading of PROFILE's visits, one
# line "LOCATION PATH=VISITS" per call path below the root and thread with visits (sorted),
# PATH from cube_dump -w's call tree ("|-NAME", a child's to the right of its parent's),
# the visits from its csv2 output; only paths matching REGEX when given
cubelib_visits()
{
    "$1" -w "$2" >cl.tree 2>&1 || fail "CubeLib's cube_dump -w cannot read $2"
    "$1" -m visits -s csv2 "$2" >cl.csv 2>&1 || fail "CubeLib's cube_dump -m visits $2"
    awk '/-- CALL TREE --/ { t = 1; next } /=== SYSTEM/ { t = 0 }
        t && /id=[0-9]+,/ {
            id = $0; sub(/.*id=/, "", id); sub(/,.*/, "", id)
            c = index($0, "|-"); n = c ? substr($0, c + 2) : $1; sub(/ .*/, "", n)
            while (d > 0 && col[d] >= c) d--
            path[d + 1] = d ? path[d] "/" n : n; col[++d] = c
            print "P", id, path[d]
        }' cl.tree >cl.paths
    awk -F, -v re="${3:-}" 'NR == FNR { p[$2] = $3; next } FNR > 1 && $3 > 0 {
            q = p[$1 + 0]; sub(/^[^\/]*\/?/, "", q)
            if (q != "" && (re == "" || q ~ re)) print $2 + 0, q "=" $3 + 0 }' \
        FS=' ' cl.paths FS=, cl.csv | sort
}

# trace_other EXPDIR: the event lines other than ENTER and LEAVE (quicker than trace_events)
trace_other()
{
    _f=$(trace_file "$1")
    cat "${_f%.trace}.other"
}

# loc_id RANK LOCAL: the OTF2 id of location LOCAL (its number in the process, 0 the master)
# of rank RANK, as Score-P and our trace writer make it: LOCAL << 32 | RANK
loc_id()
{
    echo $((($2 << 32) | $1))
}

# trace_count EXPDIR TYPE [LOCATION] [REGION]: number of events of TYPE
trace_count()
{
    _f=$(trace_file "$1")
    awk -F'\t' -v t="$2" -v loc="${3:-}" -v r="${4:-}" '
        $1 == t && (loc == "" || $2 == loc) && (r == "" || $3 == r) { n += $4 }
        END { print n + 0 }' "${_f%.trace}.summary"
}

# request_ids EXPDIR EVENT: "RANK ID LOCATION" for every EVENT record of the trace that names
# a request (MPI_ISEND, MPI_ISEND_COMPLETE, ...), the rank from its location's group: request
# ids are per process
request_ids()
{
    run_to "$work/.defs" otf2-print -G "$1/traces.otf2"
    awk '$1 == "LOCATION" { g = $0; sub(/.*Group: "[^"]*" </, "", g); sub(/>.*/, "", g)
        print $2, g }' "$work/.defs" >"$work/.loc_rank"
    _f=$(trace_file "$1")
    awk -v ev="$2" 'NR == FNR { rank[$1] = $2; next }
        $1 == ev { id = $0; sub(/.*Request: /, "", id); sub(/[^0-9].*/, "", id)
            print rank[$2], id, $2 }' \
        "$work/.loc_rank" "$_f"
}

# trace_summary EXPDIR: "TYPE LOCATION COUNT" for every event type and location, sorted
trace_summary()
{
    _f=$(trace_file "$1")
    awk -F'\t' '{ n[$1 " " $2] += $4 } END { for (k in n) print k, n[k] }' \
        "${_f%.trace}.summary" | sort
}

# trace_check_order EXPDIR: number of events whose timestamp is not greater than the
# previous one of the same location (0 for a well-ordered trace)
trace_check_order()
{
    _f=$(trace_file "$1")
    awk '$1 == "order" { print $2 }' "${_f%.trace}.checks"
}

# trace_check_nesting EXPDIR: number of LEAVE events that do not match the innermost open
# ENTER of their location plus the ENTERs left open at the end (0 for a well-nested trace)
trace_check_nesting()
{
    _f=$(trace_file "$1")
    awk '$1 == "nesting" { print $2 }' "${_f%.trace}.checks"
}

# trace_first_last EXPDIR: "LOCATION FIRST_TYPE LAST_TYPE" per location, sorted by location
trace_first_last()
{
    _f=$(trace_file "$1")
    awk '$1 == "first" { f[$2] = $3 } $1 == "last" { l[$2] = $3 }
        END { for (k in f) print k, f[k], l[k] }' "${_f%.trace}.checks" | sort -n
}

done_ok()
{
    _check
    echo "PASS: $checks checks"
}

# expect_defs_clean EXPDIR WHAT: otf2-print -G reads the global definitions without a
# warning (it warns on stderr about definitions out of id order or unknown references)
expect_defs_clean()
{
    _check
    otf2-print -G "$1/traces.otf2" >"$work/.defs.out" 2>"$work/.defs.err" ||
        fail "$2: otf2-print -G $1/traces.otf2 failed"
    [ ! -s "$work/.defs.err" ] || fail "$2: otf2-print -G warns: $(head -c 600 "$work/.defs.err")"
    echo "ok: $2: definitions without warnings"
}

# chromium_headless ERRFILE ARG...: headless Chromium with a fresh profile under $work and
# the flags a machine without network needs, then ARGs (--dump-dom URL, --screenshot=...);
# stdout as the caller redirects it, stderr in ERRFILE; fails the test when Chromium fails
chromium_headless()
{
    _err=$1
    shift
    timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d "$work/chromium.XXXXXX")" "$@" 2>"$_err" ||
        fail "chromium $*: $(tail -n 3 "$_err")"
}

# require_mpi: skips the test (77) without the MPI adapter or mpirun; lets mpirun run as
# root with more ranks than cores (Open MPI's variables)
require_mpi()
{
    [ -e "$top_builddir/.libs/libscorep-rt-mpi.so" ] || { echo "SKIP: no MPI adapter"; exit 77; }
    command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
}

# require_mpi_programs PROG...: skips the test (77) unless every PROG of test/mpi was built
# (they are built only with the MPI adapter) and mpirun is found; sets T (the directory of
# the MPI test programs) and MESSAGES (test/tools/trace_messages).
require_mpi_programs()
{
    T="$top_builddir/test/mpi"
    MESSAGES="$top_builddir/test/tools/trace_messages"
    for _p in "$@"; do
        if [ ! -x "$T/$_p" ]; then
            echo "SKIP: the MPI adapter and its test programs were not built ($_p)"
            exit 77
        fi
    done
    command -v mpirun >/dev/null 2>&1 || { echo "SKIP: no mpirun"; exit 77; }
}

# trace_paths EVENTS: the Enter records per call path of otf2-print's listing EVENTS
# ("path<TAB>enters", sorted; a path is the region names of the location's open Enters), and
# "NESTING ..." lines for a Leave that does not match its location's innermost Enter or a
# location left with open Enters
trace_paths()
{
    awk '$1 == "ENTER" || $1 == "LEAVE" {
        loc = $2; name = $0; sub(/^.*Region: "/, "", name); sub(/" <[0-9]+>.*$/, "", name)
        if ($1 == "ENTER") {
            d = ++depth[loc]; stk[loc, d] = name
            p = stk[loc, 1]; for (i = 2; i <= d; i++) p = p "/" stk[loc, i]
            n[p]++
        } else if (depth[loc] == 0 || stk[loc, depth[loc]] != name) print "NESTING " loc " " name
        else depth[loc]--
    } END {
        for (l in depth) if (depth[l] != 0) print "NESTING open at the end: location " l
        for (p in n) printf "%s\t%d\n", p, n[p]
    }' "$1" | sort
}

# outside_work: a new directory outside $work (for files that check_profiles must not see,
# such as another tool's raw report), removed at the test's exit with $work; prints its path
outside_work()
{
    _d=$(mktemp -d) || return 1
    echo "$_d" >>"$work/.outside"
    echo "$_d"
}
