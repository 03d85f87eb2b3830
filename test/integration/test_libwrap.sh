#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_libwrap.sh: user library wrapping (docs/libwrap.md). scorep-libwrap-init's whole
# workflow (make, make check, make install) on a library built here (shared and static:
# test/programs/libwrap), link-time wrapping (scorep-cc --libwrap) and run-time wrapping
# (scorep-run with SCOREP_LIBWRAP_ENABLE, scorep-cc --libwrap=runtime:), exact Enter/Leave
# counts from app.c's loops in the trace and visits per call path in the profile, the
# wrapper's filter and the measurement's filter, bad input, and zlib (a header this test did
# not write).
. "$top_srcdir/test/integration/lib.sh"

LWINIT="$top_builddir/scorep-libwrap-init"
SRC="$top_srcdir/test/programs/libwrap"
# the build tree's templates, libraries and scorep-cc (an installed one has its own paths)
export SCOREP_LIBWRAP_TEMPLATES="$top_srcdir/share/libwrap" SCOREP_LIBWRAP_SCOREP_CC="$SCOREP_CC"
export SCOREP_RUN_LIBDIR="$top_builddir/.libs"
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
for t in gcc nm make python3 otf2-print; do
    command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t not installed"; exit 77; }
done

# the library: shared in lib/, static only in static/
mkdir inc lib static
cp "$SRC/mylib.h" inc/
gcc -O2 -fPIC -shared -Iinc -o lib/libmylib.so "$SRC/mylib.c" || fail "build libmylib.so"
gcc -O2 -Iinc -c -o mylib.o "$SRC/mylib.c" || fail "build mylib.o"
ar rcs static/libmylib.a mylib.o || fail "build libmylib.a"
gcc -O1 -Iinc -o app_plain "$SRC/app.c" -Llib -Wl,-rpath,"$work/lib" -lmylib || fail "build app_plain"
./app_plain >plain.out || fail "app_plain fails"

# The regions' names are Score-P's: libclang's display name of each declaration of mylib.h
# (clang_getCursorDisplayName: the parameter types as declared, typedef names kept, an array
# parameter decayed to a pointer, f(void) as f()), written here from those rules; the
# canonical name is the symbol.
ADD='ml_add(int, int)' PAIR='ml_make_pair(int, int)' APPLY='ml_apply(int (*)(int), int)'
APPLYT='ml_apply_t(ml_fn, int)' SUM='ml_sum(int, ...)' NOOP='ml_noop(const char *const *, double *)'
SKIP='ml_skip(int)'
# lwname SHORT: the region name of mylib's function SHORT (twice: app.c's instrumented callback)
lwname()
{
    case $1 in
    ml_add) echo "$ADD" ;; ml_make_pair) echo "$PAIR" ;; ml_apply) echo "$APPLY" ;;
    ml_apply_t) echo "$APPLYT" ;; ml_sum) echo "$SUM" ;; ml_noop) echo "$NOOP" ;;
    ml_skip) echo "$SKIP" ;; *) echo "$1" ;;
    esac
}

# symbol_only_hint FILE LINE ACTION PATTERN: what scorep-rt and scorep-score say of a plain
# rule that matched no region name but the symbol of a wrapped function (a bare C name)
symbol_only_hint()
{
    echo "$1:$2: '$3 $4' matches no region name, only the symbol of a wrapped library function: a plain rule matches the region name (as Score-P's, 'ml_add(int, int)'), a MANGLED rule the symbol: write '$3 MANGLED $4' or '$3 $4(*' (docs/libwrap.md)"
}

# wrapped: "FUNCTION COUNT" of every Enter of the function's region in EXPDIR's trace, and its Leaves
enters()
{
    trace_file "$1" >/dev/null
    for r in ml_add ml_make_pair ml_apply ml_apply_t ml_sum ml_noop ml_skip twice; do
        printf '%s %s/%s ' "$r" "$(trace_count "$1" ENTER "" "$(lwname $r)")" "$(trace_count "$1" LEAVE "" "$(lwname $r)")"
    done
    echo
}

part "scorep-libwrap-init: bad input"
rc=0; "$LWINIT" -x c wd >err.txt 2>&1 || rc=$?
expect_eq "$rc:$(cat err.txt)" "1:scorep-libwrap-init: error: no name: use --name NAME" "no --name"
rc=0; "$LWINIT" --name=mylib -x fortran --libs=-lmylib wd >err.txt 2>&1 || rc=$?
expect_grep "the language is c or c++" err.txt "-x fortran is refused with the reason"
expect_eq "$rc" 1 "-x fortran: exit status"
rc=0; "$LWINIT" --name=my-lib -x c --libs=-lmylib wd >err.txt 2>&1 || rc=$?
expect_eq "$rc:$(cat err.txt)" "1:scorep-libwrap-init: error: --name 'my-lib': the name must be a C identifier" "a name that is no C identifier"
rc=0; "$LWINIT" --name=mylib -x c --ldflags=-lmylib --libs=-lmylib wd >err.txt 2>&1 || rc=$?
expect_eq "$rc:$(cat err.txt)" "1:scorep-libwrap-init: error: --ldflags has -lmylib: -l flags belong in --libs" "-l in --ldflags"
expect_no_file wd "no working directory after refused options"

part "the workflow: init, make, make check, make install"
"$LWINIT" --name=mylib -x c --cppflags="-I$work/inc" --ldflags="-L$work/lib -Wl,-rpath,$work/lib" \
    --libs=-lmylib --prefix="$work/prefix" wd >init.out 2>&1 || fail "scorep-libwrap-init: $(cat init.out)"
for f in Makefile libwrap.h libwrap.c main.c README.md mylib.filter; do
    expect_file "wd/$f" "init creates $f"
done
expect_eq "$(sed -n '/FILE_NAMES_BEGIN/,/FILE_NAMES_END/p' wd/mylib.filter | tr -s ' ' | tr '\n' '|')" \
    "SCOREP_FILE_NAMES_BEGIN| EXCLUDE *| INCLUDE $work/inc/*|SCOREP_FILE_NAMES_END|" \
    "the filter wraps the -I directory's headers only"
rc=0; "$LWINIT" --name=mylib -x c --libs=-lmylib wd >err.txt 2>&1 || rc=$?
expect_eq "$rc:$(cat err.txt)" "1:scorep-libwrap-init: error: wd/Makefile exists: use --update to rewrite the Makefile of an existing working directory" "an existing working directory needs --update"
echo '#include <mylib.h>' >>wd/libwrap.h
"$LWINIT" --name=mylib -x c --cppflags="-I$work/inc" --ldflags="-L$work/lib -Wl,-rpath,$work/lib" \
    --libs=-lmylib --prefix="$work/prefix" --update wd >update.out 2>&1 || fail "--update: $(cat update.out)"
expect_grep "mylib.filter kept as it is" update.out "--update keeps the filter"
expect_eq "$(tail -n 1 wd/libwrap.h)" "#include <mylib.h>" "--update keeps libwrap.h"
# the wrapper's filter matches the region name (Score-P's: a bare "ml_skip" would not match)
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE ml_skip(int)\nSCOREP_REGION_NAMES_END\n' >>wd/mylib.filter
make -C wd >make.out 2>&1 || fail "make: $(tail -20 make.out)"
expect_grep "ml_sum: variadic function skipped" make.out "make notes the variadic function"
expect_grep "mylib: 5 functions wrapped \\(7 declared, 1 filtered, 0 without a symbol in the libraries, 1 variadic skipped\\)" \
    make.out "make wraps 5 of 7 declarations"
expect_eq "$(tr '\n' ' ' <wd/mylib.wrap)" \
    "--wrap=ml_add --wrap=ml_make_pair --wrap=ml_apply --wrap=ml_apply_t --wrap=ml_noop " "mylib.wrap"
# without libclang's bindings the names are built from gcc's declarations: the same ones
expect_eq "$(python3 -c '
import importlib.util, sys
spec = importlib.util.spec_from_file_location("g", sys.argv[1])
g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)
for line in open(sys.argv[2]):
    m = g.AUX.match(line.strip())
    if m and m.group(1).endswith("mylib.h"):
        f, head, params, tail = g.parse_decl(m.group(5)[len("extern "):])
        print(g.gcc_display_name(f, params), end=";")' "$top_srcdir/share/libwrap/libwrap-gen.py" wd/libwrap.aux)" \
    "$ADD;$PAIR;$APPLY;$APPLYT;$SUM;$NOOP;$SKIP;" "region names from gcc's declarations (no libclang)"
make -C wd check >check.out 2>&1 || fail "make check: $(cat check.out)"
expect_grep "every declared function that passes the filter has a symbol" check.out "make check passes"
make -C wd install >install.out 2>&1 || fail "make install: $(cat install.out)"
for f in lib/libscorep_libwrap_mylib.so lib/libscorep_libwrap_mylib_linktime.a \
    share/scorep/mylib.libwrap share/scorep/mylib.wrap share/scorep/mylib.filter; do
    expect_file "prefix/$f" "make install: $f"
done
# step 2 of the workflow: main.c calls the library; installcheck links it both ways
printf '#include "libwrap.h"\nint main(void) { return ml_add(1, -1); }\n' >wd/main.c
make -C wd installcheck >ic.out 2>&1 || fail "make installcheck: $(cat ic.out)"
run_to ic.nm nm wd/main_linktime
expect_grep " T __wrap_ml_add$" ic.nm "installcheck: main_linktime calls ml_add through its wrapper"
run_to ic.dynamic readelf -d wd/main_runtime
expect_grep "NEEDED.*libscorep_libwrap_mylib.so" ic.dynamic "installcheck: main_runtime needs the run-time wrapper"
export SCOREP_LIBWRAP_PATH="$work/prefix"

part "link-time wrapping of the shared library"
scorep_cc --libwrap=mylib gcc -O1 -Iinc -o app_lt "$SRC/app.c" -Llib -Wl,-rpath,"$work/lib" -lmylib
run_app lt env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=lt ./app_lt
expect_eq "$status" 0 "link time: exit status"
cmp plain.out lt.out || fail "link time: output differs from the plain run"
expect_eq "$(enters lt)" \
    "ml_add 10/10 ml_make_pair 3/3 ml_apply 4/4 ml_apply_t 1/1 ml_sum 0/0 ml_noop 2/2 ml_skip 0/0 twice 5/5 " \
    "link time: Enter/Leave per region (ml_apply_t's ml_add is inside the library: not wrapped)"
expect_eq "$(trace_check_nesting lt)" 0 "link time: the trace nests"
trace_defs lt >lt.defs
expect_grep 'Name: "ml_make_pair\(int, int\)" <[0-9]*> \(Aka. "ml_make_pair" <[0-9]*>\), Descr.: "" <[0-9]*>, Role: WRAPPER, Paradigm: NONE, Flags: NONE, File: "'"$work"'/inc/mylib.h" <[0-9]*>, Begin: 13, End: 0' \
    lt.defs "link time: ml_make_pair's region (Score-P's name, the symbol as canonical name, role wrapper, its header and line)"
# every wrapped function's region: "NAME|CANONICAL NAME", in the order of the definitions
expect_eq "$(sed -n 's/^REGION .*Name: "\([^"]*\)" <[0-9]*> (Aka. "\([^"]*\)".*Role: WRAPPER.*/\1|\2/p' lt.defs | sort | tr '\n' ';')" \
    "$ADD|ml_add;$APPLY|ml_apply;$APPLYT|ml_apply_t;$PAIR|ml_make_pair;$NOOP|ml_noop;" \
    "link time: the OTF2 regions of the wrapped functions: Score-P's names, the symbols as canonical names"
expect_eq "$(profile_dump lt -m visits | awk -F'\t' '$2 ~ /ml_|twice/ { split($4, kv, "="); print $2 "=" kv[2] }' | sort | tr '\n' ' ')" \
    "main/$ADD=10 main/$APPLY/twice=4 main/$APPLY=4 main/$APPLYT/twice=1 main/$APPLYT=1 main/$PAIR=3 main/$NOOP=2 " \
    "link time: visits per call path in the profile (the callback inside the wrapped call)"
run_to lt.anchor tar -xOf lt/profile.cubex anchor.xml
expect_eq "$(awk '/<name>ml_noop\(const char \*const \*, double \*\)</ { f = 1 } f && /<paradigm>|<role>/ { printf "%s", $0 } f && /<\/region>/ { exit }' lt.anchor)" \
    "<paradigm>libwrap:mylib</paradigm><role>wrapper</role>" \
    "the profile: ml_noop's paradigm is Score-P's libwrap:NAME, its role wrapper"
if [ -n "$CUBELIB_DUMP" ]; then
    "$CUBELIB_DUMP" -w lt/profile.cubex >lt.cubelib 2>&1 || fail "CubeLib's cube_dump cannot read the profile"
    expect_grep 'ml_add\(int, int\):ml_add.*paradigm=libwrap:mylib, role=wrapper, .*mod='"$work"'/inc/mylib.h' lt.cubelib \
        "CubeLib: ml_add's region is paradigm libwrap:mylib (the wrapper), role wrapper"
    for r in ml_add ml_make_pair ml_apply ml_apply_t ml_noop twice; do
        "$CUBELIB_DUMP" -m visits -c "name=/^$(lwname $r | sed 's/[()*]/\\&/g')\$/" -s csv2 lt/profile.cubex >cl.csv ||
            fail "CubeLib's cube_dump -c name=$r"
        printf '%s %s ' "$r" "$(awk -F, 'NR > 1 { s += $3 } END { print s + 0 }' cl.csv)"
    done >cl.visits
    expect_eq "$(cat cl.visits)" "ml_add 10 ml_make_pair 3 ml_apply 4 ml_apply_t 1 ml_noop 2 twice 5 " \
        "CubeLib: visits per wrapped function (and of the callback)"
else
    skip_part_here "CubeLib's own reading (cube_dump)" "CubeLib is not packaged for this system (set CUBELIB_DUMP to a built cube_dump)"
fi
"$SCOREP_SCORE" lt/profile.cubex >lt.score || fail "scorep-score"
expect_grep '^ *LIB ' lt.score "scorep-score: the wrapped functions are of type LIB"
# scorep-score -f: as the measurement's filter, a plain rule matches the region name, a
# MANGLED one the symbol; the bare name ml_make_pair matches nothing
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE MANGLED ml_add\n  EXCLUDE ml_noop(*\n  EXCLUDE ml_make_pair\nSCOREP_REGION_NAMES_END\n' >ltscore.filter
"$SCOREP_SCORE" -r -f ltscore.filter lt/profile.cubex >ltf.score 2>ltf.err || fail "scorep-score -r -f"
# ... and says so for the bare name, which matches the symbol of a wrapped function only
expect_eq "$(cat ltf.err)" "scorep-score: warning: $(symbol_only_hint ltscore.filter 4 EXCLUDE ml_make_pair)" \
    "scorep-score -f: the rule with a bare C name, what to write instead"
# "FLAG NAME" of the rows of type LIB: the regions (+ removed, - kept) and the groups LIB and LIB-FLT
expect_eq "$(awk '$2 == "LIB" { f = $1; sub(/^ *[-+*] +LIB +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, ""); print f " " $0 }' ltf.score | sort | tr '\n' ';')" \
    "* LIB-FLT;+ $ADD;+ $NOOP;- LIB;- $APPLY;- $APPLYT;- $PAIR;" \
    "scorep-score -r -f: the LIB regions the filter excludes (+), by name or MANGLED symbol (LIB can be filtered, as in Score-P)"

# scorep-config for Makefiles that link with the plain compiler
run_to cfg.ldflags "$top_builddir/scorep-config" --libwrap=mylib --ldflags
run_to cfg.libs "$top_builddir/scorep-config" --libwrap=mylib --libs
# shellcheck disable=SC2046 # the flags are split on purpose
gcc -O1 -Iinc -o app_cfg "$SRC/app.c" -Llib -Wl,-rpath,"$work/lib" -lmylib $(cat cfg.ldflags) $(cat cfg.libs) ||
    fail "link with scorep-config --libwrap=mylib --ldflags/--libs"
run_app cfg env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=cfg ./app_cfg
cmp plain.out cfg.out || fail "scorep-config: output differs from the plain run"
expect_eq "$(enters cfg)" \
    "ml_add 10/10 ml_make_pair 3/3 ml_apply 4/4 ml_apply_t 1/1 ml_sum 0/0 ml_noop 2/2 ml_skip 0/0 twice 0/0 " \
    "scorep-config --libwrap=mylib: Enter/Leave per region"

part "link-time wrapping of the static library"
"$LWINIT" --name=mylibs -x c --cppflags="-I$work/inc" --ldflags="-L$work/static" --libs=-lmylib \
    --prefix="$work/prefix" wds >inits.out 2>&1 || fail "scorep-libwrap-init (static): $(cat inits.out)"
cp wd/libwrap.h wds/ && cat wd/mylib.filter >wds/mylibs.filter
make -C wds install >makes.out 2>&1 || fail "make install (static): $(tail -20 makes.out)"
scorep_cc --libwrap=linktime:mylibs gcc -O1 -Iinc -o app_st "$SRC/app.c" -Lstatic -lmylib
run_to st.dynamic readelf -d app_st
expect_no_grep libmylib st.dynamic "static: the program needs no libmylib.so"
run_app st env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=st ./app_st
cmp plain.out st.out || fail "static: output differs from the plain run"
expect_eq "$(enters st)" \
    "ml_add 10/10 ml_make_pair 3/3 ml_apply 4/4 ml_apply_t 1/1 ml_sum 0/0 ml_noop 2/2 ml_skip 0/0 twice 5/5 " \
    "static: Enter/Leave per region"

part "run-time wrapping: scorep-run with SCOREP_LIBWRAP_ENABLE"
run_app rt env SCOREP_LIBWRAP_ENABLE=mylib SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=rt \
    "$top_builddir/scorep-run" ./app_plain
expect_eq "$status:$(cat rt.err)" "0:" "run time: exit status, nothing on stderr"
cmp plain.out rt.out || fail "run time: output differs from the plain run"
# every caller's call is intercepted, ml_apply_t's call of ml_add inside the library too;
# twice is not instrumented in the plain program
expect_eq "$(enters rt)" \
    "ml_add 11/11 ml_make_pair 3/3 ml_apply 4/4 ml_apply_t 1/1 ml_sum 0/0 ml_noop 2/2 ml_skip 0/0 twice 0/0 " \
    "run time: Enter/Leave per region"
expect_eq "$(profile_dump rt -m visits | awk -F'\t' '$2 ~ /ml_/ { split($4, kv, "="); print $2 "=" kv[2] }' | sort | tr '\n' ' ')" \
    "$ADD=10 $APPLY=4 $APPLYT/$ADD=1 $APPLYT=1 $PAIR=3 $NOOP=2 " \
    "run time: visits per call path (the library's own call nested)"
# the measurement's filter: a wrapped function it excludes costs a check and records nothing.
# As in Score-P, a plain rule matches the region name, a MANGLED one the symbol: the bare
# names of before session 22 exclude nothing now, which is said once per such rule at the end
# of the run; a rule that matches nothing at all (ml_nothing) is not the measurement's business
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE ml_make_pair ml_noop\n  EXCLUDE ml_nothing\n  INCLUDE ml_ad?\nSCOREP_REGION_NAMES_END\n' >rt0.filter
run_app rtf0 env SCOREP_LIBWRAP_ENABLE=mylib SCOREP_FILTERING_FILE=rt0.filter SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=rtf0 "$top_builddir/scorep-run" ./app_plain
W='[scorep-rt] warning: SCOREP_FILTERING_FILE'
expect_eq "$status:$(cat rtf0.err)" "0:$W $(symbol_only_hint rt0.filter 2 EXCLUDE ml_make_pair)
$W $(symbol_only_hint rt0.filter 2 EXCLUDE ml_noop)
$W $(symbol_only_hint rt0.filter 4 INCLUDE 'ml_ad?')" \
    "run time, SCOREP_FILTERING_FILE with the bare names: one warning per rule that matched a symbol only"
expect_eq "$(enters rtf0)" \
    "ml_add 11/11 ml_make_pair 3/3 ml_apply 4/4 ml_apply_t 1/1 ml_sum 0/0 ml_noop 2/2 ml_skip 0/0 twice 0/0 " \
    "run time, SCOREP_FILTERING_FILE with the bare names: nothing excluded (Score-P's semantics)"
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE ml_make_pair(int,*\n  EXCLUDE MANGLED ml_noop\nSCOREP_REGION_NAMES_END\n' >rt.filter
run_app rtf env SCOREP_LIBWRAP_ENABLE=mylib SCOREP_FILTERING_FILE=rt.filter SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=rtf "$top_builddir/scorep-run" ./app_plain
cmp plain.out rtf.out || fail "run time, filtered: output differs from the plain run"
expect_eq "$status:$(cat rtf.err)" "0:" "run time, filtered by region name and symbol: no warning"
expect_eq "$(enters rtf)" \
    "ml_add 11/11 ml_make_pair 0/0 ml_apply 4/4 ml_apply_t 1/1 ml_sum 0/0 ml_noop 0/0 ml_skip 0/0 twice 0/0 " \
    "run time, SCOREP_FILTERING_FILE excludes ml_make_pair and ml_noop"
# scorep-cc --libwrap=runtime: the wrapper library ahead of the wrapped one in the link
scorep_cc --libwrap=runtime:mylib --nocompiler gcc -O1 -Iinc -o app_rtl "$SRC/app.c" -Llib -Wl,-rpath,"$work/lib" -lmylib
run_app rtl env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=rtl ./app_rtl
cmp plain.out rtl.out || fail "scorep-cc --libwrap=runtime: output differs from the plain run"
expect_eq "$(enters rtl)" \
    "ml_add 11/11 ml_make_pair 3/3 ml_apply 4/4 ml_apply_t 1/1 ml_sum 0/0 ml_noop 2/2 ml_skip 0/0 twice 0/0 " \
    "scorep-cc --libwrap=runtime:mylib: Enter/Leave per region"

part "wrapped calls from several threads"
# threads.c: thread i calls ml_add 100*i times (i = 1..3), the main thread none: each thread's
# location has its own count, sorted "100 200 300", Leaves as many
gcc -O1 -Iinc -pthread -o threads_plain "$SRC/threads.c" -Llib -Wl,-rpath,"$work/lib" -lmylib ||
    fail "build threads_plain"
scorep_cc --libwrap=mylib gcc -O1 -Iinc -pthread -o threads_lt "$SRC/threads.c" -Llib \
    -Wl,-rpath,"$work/lib" -lmylib
# per_thread EXPDIR EVENT: the count of EVENT of ml_add on every location that has any, sorted
per_thread()
{
    _f=$(trace_file "$1")
    awk -F'\t' -v t="$2" -v r="$ADD" '$1 == t && $3 == r { n[$2] += $4 }
        END { for (l in n) print n[l] }' "${_f%.trace}.summary" | sort -n | tr '\n' ' '
}
for mode in lt rt; do
    if [ "$mode" = lt ]; then
        run_app thr_lt env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=thr_lt ./threads_lt
    else
        run_app thr_rt env SCOREP_LIBWRAP_ENABLE=mylib SCOREP_ENABLE_TRACING=true \
            SCOREP_EXPERIMENT_DIRECTORY=thr_rt "$top_builddir/scorep-run" ./threads_plain
    fi
    expect_eq "$status:$(cat thr_$mode.out)" "0:69700" "threads ($mode): exit status and the sum"
    expect_eq "$(per_thread thr_$mode ENTER)/$(per_thread thr_$mode LEAVE)" "100 200 300 /100 200 300 " \
        "threads ($mode): ml_add's Enters/Leaves per thread location"
    expect_eq "$(trace_check_nesting thr_$mode)" 0 "threads ($mode): the trace nests"
done

part "an MPI program: 2 ranks, link time and run time"
# mpiapp.c: rank r calls ml_add 10*(r+1) times and MPI_Allreduce once: per rank's location
# "10 20" Enters of ml_add, one MPI_Allreduce each
if command -v mpicc >/dev/null 2>&1 && command -v mpirun >/dev/null 2>&1; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
    mpicc -O1 -Iinc -o mpiapp_plain "$SRC/mpiapp.c" -Llib -Wl,-rpath,"$work/lib" -lmylib ||
        fail "build mpiapp_plain"
    scorep_cc --libwrap=mylib mpicc -O1 -Iinc -o mpiapp_lt "$SRC/mpiapp.c" -Llib \
        -Wl,-rpath,"$work/lib" -lmylib
    for mode in lt rt; do
        if [ "$mode" = lt ]; then
            run_app mpi_lt env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=mpi_lt \
                timeout 120 mpirun -np 2 ./mpiapp_lt
        else
            run_app mpi_rt env SCOREP_LIBWRAP_ENABLE=mylib SCOREP_ENABLE_TRACING=true \
                SCOREP_EXPERIMENT_DIRECTORY=mpi_rt timeout 120 mpirun -np 2 "$top_builddir/scorep-run" ./mpiapp_plain
        fi
        expect_eq "$status:$(cat mpi_$mode.out)" "0:235" "MPI ($mode): exit status and the sum"
        expect_eq "$(per_thread mpi_$mode ENTER)/$(per_thread mpi_$mode LEAVE)" "10 20 /10 20 " \
            "MPI ($mode): ml_add's Enters/Leaves per rank"
        expect_eq "$(trace_count mpi_$mode ENTER "" MPI_Allreduce)" 2 "MPI ($mode): one MPI_Allreduce per rank"
        # the region group after MPI's and the threads' groups: every group id once
        trace_defs mpi_$mode >mpi_$mode.defs
        expect_eq "$(awk '$1 == "GROUP" { print $2 }' mpi_$mode.defs | sort | uniq -d | wc -l)" 0 \
            "MPI ($mode): the group ids are distinct"
        expect_eq "$(grep '^GROUP.*Type: REGIONS' mpi_$mode.defs | sed 's/ <[0-9]*>//g; s/^GROUP  *[0-9]*  *//')" \
            'Name: "mylib", Type: REGIONS, Paradigm: UNKNOWN, Flags: NONE, 1 Member: "ml_add(int, int)"' \
            "MPI ($mode): the wrapper's region group"
    done
    # a symbol-only filter rule (a bare C name) in a job: one warning for the job, by rank 0
    # after unification, covering what every rank defined: ml_make_pair is called on rank 1
    # only ("one"), ml_add on both; each rule said once, in the file's order
    printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE ml_make_pair\n  EXCLUDE ml_add\nSCOREP_REGION_NAMES_END\n' >mpi.filter
    run_app mpi_f env SCOREP_FILTERING_FILE=mpi.filter SCOREP_ENABLE_TRACING=true \
        SCOREP_EXPERIMENT_DIRECTORY=mpi_f timeout 120 mpirun -np 2 ./mpiapp_lt one
    expect_eq "$status:$(cat mpi_f.out)" "0:235" "MPI, symbol-only filter rules: exit status and the sum"
    expect_eq "$(grep -F 'SCOREP_FILTERING_FILE' mpi_f.err)" "[scorep-rt] warning: SCOREP_FILTERING_FILE $(symbol_only_hint mpi.filter 2 EXCLUDE ml_make_pair)
[scorep-rt] warning: SCOREP_FILTERING_FILE $(symbol_only_hint mpi.filter 3 EXCLUDE ml_add)" \
        "MPI, symbol-only filter rules: one warning per rule for the job, rank 1's function too"
    expect_eq "$(per_thread mpi_f ENTER)" "10 20 " "MPI, symbol-only filter rules: ml_add is not excluded"
    expect_eq "$(trace_count mpi_f ENTER "" "$PAIR")" 1 "MPI, symbol-only filter rules: rank 1's ml_make_pair"
else
    skip_part "mpicc and mpirun (Open MPI)"
fi

part "the measurement's own calls: libc's clock_gettime wrapped, SCOREP_TIMER=clock_gettime"
# the runtime reads its timer through the very function the wrapper interposes: its own calls
# must neither be recorded nor recurse into the wrapper (without the check: a stack overflow)
"$LWINIT" --name=clk -x c --libs=-lc --prefix="$work/prefix" wdc >/dev/null 2>&1 || fail "init wdc"
echo '#include <time.h>' >>wdc/libwrap.h
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE *\n  INCLUDE MANGLED clock_gettime\nSCOREP_REGION_NAMES_END\n' >>wdc/clk.filter
make -C wdc install >makec.out 2>&1 || fail "make install (clk): $(tail -20 makec.out)"
expect_grep "clk: 1 functions wrapped" makec.out "clk: clock_gettime only"
gcc -o clock_plain "$SRC/clock.c" || fail "build clock_plain"
run_app clk env SCOREP_TIMER=clock_gettime SCOREP_LIBWRAP_ENABLE=clk SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=clk "$top_builddir/scorep-run" ./clock_plain
expect_eq "$status:$(cat clk.out)" "0:3 calls" "clk: exit status and output"
expect_eq "$(trace_count clk ENTER "" "clock_gettime(clockid_t, struct timespec *)"):$(trace_count clk ENTER)" "3:3" \
    "clk: the program's 3 calls of clock_gettime, none of the runtime's"

part "bad input"
rc=0; "$SCOREP_CC" --libwrap=nosuch gcc -o x "$SRC/app.c" >err.txt 2>&1 || rc=$?
expect_eq "$rc:$(cat err.txt)" "1:scorep-cc: --libwrap: library wrapper 'nosuch' not found: no nosuch.libwrap in SCOREP_LIBWRAP_PATH ($work/prefix) nor in $(sed -n 's/^SCOREP_PREFIX *= *//p' wd/Makefile)/share/scorep; build and install it with scorep-libwrap-init (make install), and set SCOREP_LIBWRAP_PATH to its --prefix" \
    "scorep-cc --libwrap=NAME of a wrapper not installed"
rc=0; env SCOREP_LIBWRAP_ENABLE=mylib,nosuch "$top_builddir/scorep-run" ./app_plain >err.txt 2>&1 || rc=$?
expect_eq "$rc" 1 "scorep-run, a wrapper not installed: exit status"
expect_grep "^scorep-run: SCOREP_LIBWRAP_ENABLE: library wrapper 'nosuch' not found" err.txt \
    "scorep-run, a wrapper not installed: the message"
# SCOREP_LIBWRAP_ENABLE for a program that has not got the wrapper: said, not silent
scorep_cc --nocompiler gcc -O1 -Iinc -o app_nowrap "$SRC/app.c" -Llib -Wl,-rpath,"$work/lib" -lmylib
run_app nowrap env SCOREP_LIBWRAP_ENABLE=mylib SCOREP_EXPERIMENT_DIRECTORY=nowrap ./app_nowrap
expect_eq "$status" 0 "SCOREP_LIBWRAP_ENABLE without the wrapper: exit status"
expect_grep "SCOREP_LIBWRAP_ENABLE: the library wrapper 'mylib' is not in this program, its calls were not recorded: run the program under scorep-run" \
    nowrap.err "SCOREP_LIBWRAP_ENABLE without the wrapper: the warning"
run_app ltenable env SCOREP_LIBWRAP_ENABLE="$work/prefix/share/scorep/mylib.libwrap" SCOREP_EXPERIMENT_DIRECTORY=ltenable ./app_lt
expect_eq "$status:$(cat ltenable.err)" "0:" "SCOREP_LIBWRAP_ENABLE naming the link-time wrapper the program has: silent"
# a header that does not exist
"$LWINIT" --name=nohdr -x c --libs=-lmylib --ldflags="-L$work/lib" wdh >/dev/null 2>&1 || fail "init wdh"
echo '#include <no_such_header.h>' >>wdh/libwrap.h
rc=0; make -C wdh >err.txt 2>&1 || rc=$?
expect_eq "$rc" 2 "a missing header: make fails"
expect_grep "no_such_header.h: No such file or directory" err.txt "a missing header: gcc says which"
# a library without the header's functions
"$LWINIT" --name=nosym -x c --cppflags="-I$work/inc" --libs=-lm wdm >/dev/null 2>&1 || fail "init wdm"
echo '#include <mylib.h>' >>wdm/libwrap.h
rc=0; make -C wdm >err.txt 2>&1 || rc=$?
expect_eq "$rc" 2 "a library without the functions: make fails"
expect_grep "libwrap-gen: error: no function to wrap: libwrap.h declares 7 functions, 0 of them filtered by nosym.filter, 7 without a symbol in" \
    err.txt "a library without the functions: the message"
# a declaration without a symbol: wrapped functions are the others, make check fails
"$LWINIT" --name=miss -x c --cppflags="-I$work/inc -DML_WITH_MISSING" --ldflags="-L$work/lib" --libs=-lmylib wdx >/dev/null 2>&1 ||
    fail "init wdx"
echo '#include <mylib.h>' >>wdx/libwrap.h
make -C wdx >/dev/null 2>&1 || fail "make with a declaration without a symbol"
rc=0; make -C wdx check >check.out 2>&1 || rc=$?
expect_eq "$rc" 2 "make check fails on a declaration without a symbol"
expect_grep "^  MISSING ml_missing $work/inc/mylib.h:[0-9]* ml_missing\\(int\\)$" check.out "make check names it"
expect_eq "$(tr -s ' ' <wdx/missing.filter | tr '\n' '|')" \
    "SCOREP_REGION_NAMES_BEGIN| EXCLUDE MANGLED ml_missing|SCOREP_REGION_NAMES_END|" "missing.filter: the symbol"
# pasted into the wrapper's filter, it settles make check
cat wdx/missing.filter >>wdx/miss.filter
make -C wdx check >check2.out 2>&1 || fail "make check with missing.filter in the filter: $(cat check2.out)"

part "variadic functions: LIBWRAP_ELLIPSIS_MAPPING_SYMBOLS, LIBWRAP_VARIADIC_IS_VOID_SYMBOLS"
mkdir vinc vlib
cp "$SRC/varlib.h" vinc/
gcc -O2 -fPIC -shared -Ivinc -o vlib/libvarlib.so "$SRC/varlib.c" || fail "build libvarlib.so"
gcc -O1 -Ivinc -o varapp_plain "$SRC/varapp.c" -Lvlib -Wl,-rpath,"$work/vlib" -lvarlib || fail "build varapp_plain"
./varapp_plain >varplain.out || fail "varapp_plain fails"
expect_eq "$(cat varplain.out | tr '\n' '|')" "one 1|2 3 4.5|three|count 2 3|" "the plain program's output"
"$LWINIT" --name=varlib -x c --cppflags="-I$work/vinc" --ldflags="-L$work/vlib -Wl,-rpath,$work/vlib" \
    --libs=-lvarlib --prefix="$work/prefix" wdv >/dev/null 2>&1 || fail "init wdv"
echo '#include <varlib.h>' >>wdv/libwrap.h
make -C wdv >makev.out 2>&1 || fail "make (varlib): $(tail -20 makev.out)"
expect_grep "vl_log: variadic function skipped .*add 'vl_log:VARIANT' to LIBWRAP_ELLIPSIS_MAPPING_SYMBOLS" makev.out \
    "without the mapping vl_log is skipped, with the hint"
expect_grep "vl_count: no prototype \\(unknown arguments\\) skipped .*LIBWRAP_VARIADIC_IS_VOID_SYMBOLS" makev.out \
    "without the mapping vl_count is skipped, with the hint"
printf 'LIBWRAP_ELLIPSIS_MAPPING_SYMBOLS += vl_log:vl_vlog\nLIBWRAP_VARIADIC_IS_VOID_SYMBOLS += vl_count\n' >>wdv/Makefile
make -C wdv >makev.out 2>&1 || fail "make (varlib, mapped): $(tail -20 makev.out)"
expect_eq "$(tr '\n' ' ' <wdv/varlib.wrap)" "--wrap=vl_log --wrap=vl_vlog --wrap=vl_count " "varlib.wrap: all three"
make -C wdv install >/dev/null 2>&1 || fail "make install (varlib)"
scorep_cc --libwrap=varlib --nocompiler gcc -O1 -Ivinc -o varapp_lt "$SRC/varapp.c" -Lvlib -Wl,-rpath,"$work/vlib" -lvarlib
run_app vlt env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=vlt ./varapp_lt
cmp varplain.out vlt.out || fail "varlib, link time: output differs (the variadic arguments were not forwarded)"
vregions()
{
    trace_file "$1" >/dev/null
    for r in "vl_log(const char *, ...)" "vl_vlog(const char *, struct __va_list_tag *)" "vl_count()"; do
        printf '%s %s/%s ' "${r%%(*}" "$(trace_count "$1" ENTER "" "$r")" "$(trace_count "$1" LEAVE "" "$r")"
    done
}
# vl_log's wrapper calls the real vl_vlog (as Score-P's does): not a region of its own
expect_eq "$(vregions vlt)" "vl_log 3/3 vl_vlog 0/0 vl_count 2/2 " "varlib, link time: Enter/Leave per region"
run_app vrt env SCOREP_LIBWRAP_ENABLE=varlib SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=vrt \
    "$top_builddir/scorep-run" ./varapp_plain
cmp varplain.out vrt.out || fail "varlib, run time: output differs"
# at run time too: the wrapper replaced vl_log and calls the real vl_vlog through dlsym
expect_eq "$(vregions vrt)" "vl_log 3/3 vl_vlog 0/0 vl_count 2/2 " "varlib, run time: Enter/Leave per region"

part "a system library: zlib"
if [ -f /usr/include/zlib.h ]; then
    "$LWINIT" --name=z -x c --libs=-lz --prefix="$work/prefix" wdz >/dev/null 2>&1 || fail "init wdz"
    echo '#include <zlib.h>' >>wdz/libwrap.h
    make -C wdz >makez.out 2>&1 || fail "make (zlib): $(tail -20 makez.out)"
    expect_grep "gzprintf: variadic function skipped" makez.out "zlib: gzprintf is skipped"
    make -C wdz check >checkz.out 2>&1 || fail "make check (zlib): $(cat checkz.out)"
    make -C wdz install >/dev/null 2>&1 || fail "make install (zlib)"
    for w in crc32 compress uncompress zlibVersion deflate inflate gzvprintf; do
        expect_grep "^--wrap=$w\$" wdz/z.wrap "zlib: $w is wrapped"
    done
    gcc -o zapp_plain "$top_srcdir/test/programs/libwrap/zapp.c" -lz || fail "build zapp_plain"
    ./zapp_plain >zplain.out || fail "zapp_plain fails"
    scorep_cc --libwrap=z --nocompiler gcc -o zapp_lt "$top_srcdir/test/programs/libwrap/zapp.c" -lz
    run_app zlt env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=zlt ./zapp_lt
    cmp zplain.out zlt.out || fail "zlib, link time: output differs"
    zregions()
    {
        trace_file "$1" >/dev/null
        for r in "crc32(uLong, const Bytef *, uInt)" "compress(Bytef *, uLongf *, const Bytef *, uLong)" \
            "uncompress(Bytef *, uLongf *, const Bytef *, uLong)" "zlibVersion()"; do
            printf '%s %s ' "${r%%(*}" "$(trace_count "$1" ENTER "" "$r")"
        done
        echo
    }
    expect_eq "$(zregions zlt)" "crc32 5 compress 1 uncompress 1 zlibVersion 1 " "zlib, link time: Enters per region"
    expect_eq "$(trace_count zlt ENTER)" 8 "zlib, link time: nothing else"
    expect_grep 'Name: "compress\(Bytef \*, uLongf \*, const Bytef \*, uLong\)" .*Aka. "compress".*Role: WRAPPER, .*File: "/usr/include/zlib.h"' "$(trace_defs zlt >zlt.defs; echo zlt.defs)" \
        "zlib: compress's region names zlib.h"
    # run time, together with mylib (SCOREP_LIBWRAP_ENABLE_SEP)
    run_app zrt env SCOREP_LIBWRAP_ENABLE='z;mylib' SCOREP_LIBWRAP_ENABLE_SEP=';' SCOREP_ENABLE_TRACING=true \
        SCOREP_EXPERIMENT_DIRECTORY=zrt "$top_builddir/scorep-run" ./zapp_plain
    expect_eq "$status:$(cat zrt.err)" "0:" "zlib, run time: exit status, nothing on stderr"
    cmp zplain.out zrt.out || fail "zlib, run time: output differs"
    # the program's calls at the top of the trace (zlib's calls of its own functions below them)
    expect_eq "$(trace_events zrt | awk '
            $1 == "ENTER" && d++ == 0 {
                r = substr($0, index($0, "Region: \"") + 9); n[substr(r, 1, index(r, "\"") - 1)]++
            }
            $1 == "LEAVE" { d-- }
            END { for (r in n) print r, n[r] }' | sort | tr '\n' ' ')" \
        "compress(Bytef *, uLongf *, const Bytef *, uLong) 1 crc32(uLong, const Bytef *, uInt) 5 uncompress(Bytef *, uLongf *, const Bytef *, uLong) 1 zlibVersion() 1 " \
        "zlib, run time: the program's calls at the top"
else
    skip_part "zlib's header (zlib1g-dev)"
fi

done_ok
