#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_libwrap_cxx.sh: user library wrapping of a C++ library (docs/libwrap.md, "C++
# libraries"): scorep-libwrap-init -x c++ on test/programs/libwrap/cxxlib (a namespace,
# overloads, constructor and destructor, const and static members, an operator, an exception,
# a variadic function mapped to its va_list twin), which functions are wrapped and which not
# (inline, private, template), the region names as Score-P shows them, exact visits per region
# at link time and at run time in the trace and the profile, and bad input.
. "$top_srcdir/test/integration/lib.sh"

LWINIT="$top_builddir/scorep-libwrap-init"
SRC="$top_srcdir/test/programs/libwrap"
export SCOREP_LIBWRAP_TEMPLATES="$top_srcdir/share/libwrap" SCOREP_LIBWRAP_SCOREP_CC="$SCOREP_CC"
export SCOREP_RUN_LIBDIR="$top_builddir/.libs"
for t in g++ nm make python3 otf2-print; do
    command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t not installed"; exit 77; }
done
python3 "$top_srcdir/share/libwrap/libwrap-gen.py" --probe-cxx 2>/dev/null ||
    { echo "SKIP: libclang's Python bindings (python3-clang-14) not installed"; exit 77; }

mkdir inc lib
cp "$SRC/cxxlib.h" inc/
g++ -O2 -fPIC -shared -Iinc -o lib/libcxxlib.so "$SRC/cxxlib.cc" || fail "build libcxxlib.so"
g++ -O1 -Iinc -o app_plain "$SRC/cxxapp.cc" -Llib -Wl,-rpath,"$work/lib" -lcxxlib || fail "build app_plain"
./app_plain >plain.out || fail "app_plain fails"
expect_eq "$(cat plain.out)" 479 "the plain program's result"

# the regions of cxxapp.cc's calls, as Score-P names them (clang's display name, qualified)
REGIONS='geo::add(int, int)|geo::add(geo::real, geo::real)|geo::Counter::Counter(int)|geo::Counter::~Counter()|geo::Counter::bump(int)|geo::Counter::value()|geo::Counter::instances()|geo::Counter::operator==(const geo::Counter &)|geo::Counter::apply(int (*)(int))|geo::Counter::label()|geo::fail(int)|geo::sum(int, ...)|geo::vsum(int, va_list)|geo::twice<>(int)|cx_plain(int)'
EXPECTED="geo::add(int, int)=0/0 geo::add(geo::real, geo::real)=2/2 geo::Counter::Counter(int)=2/2 geo::Counter::~Counter()=2/2 geo::Counter::bump(int)=4/4 geo::Counter::value()=2/2 geo::Counter::instances()=1/1 geo::Counter::operator==(const geo::Counter &)=1/1 geo::Counter::apply(int (*)(int))=1/1 geo::Counter::label()=1/1 geo::fail(int)=1/1 geo::sum(int, ...)=1/1 geo::vsum(int, va_list)=0/0 geo::twice<>(int)=1/1 cx_plain(int)=1/1 "
# "REGION=ENTERS/LEAVES " for each of REGIONS in EXPDIR's trace
enters()
{
    trace_file "$1" >/dev/null
    echo "$REGIONS" | tr '|' '\n' | while IFS= read -r r; do
        printf '%s=%s/%s ' "$r" "$(trace_count "$1" ENTER "" "$r")" "$(trace_count "$1" LEAVE "" "$r")"
    done
}
# the call paths of EXPDIR's profile that end in REGEX
paths()
{
    profile_dump "$1" -m visits | awk -F'\t' -v re="$2" '$2 ~ re { print $2 }' | sort | tr '\n' ' '
}
# "REGION=VISITS " summed over the call paths of EXPDIR's profile, for the wrapped regions
visits()
{
    profile_dump "$1" -m visits | awk -F'\t' '{ n = split($2, p, "/"); r = p[n]; split($4, kv, "=")
        if (r ~ /^(geo::|cx_plain)/) v[r] += kv[2] } END { for (r in v) print r "=" v[r] }' | sort | tr '\n' ' '
}

part "scorep-libwrap-init -x c++: bad input"
rc=0; "$LWINIT" --name=cx -x c++17x --libs=-lcxxlib wd >err.txt 2>&1 || rc=$?
expect_eq "$rc:$(cat err.txt)" "1:scorep-libwrap-init: error: -x c++17x: the language is c or c++ (or a standard: c11, gnu17, c++17, ...)" "an unknown language"
mkdir bad
printf 'namespace bad { int f(int) }\n' >bad/bad.h
echo 'int f(int v) { return v; }' >bad/libbad.c
gcc -shared -fPIC -o bad/libbad.so bad/libbad.c
"$LWINIT" --name=bad -x c++ --cppflags="-I$work/bad" --ldflags="-L$work/bad" --libs=-lbad wdbad >init.out 2>&1 ||
    fail "init of the bad wrapper: $(cat init.out)"
echo '#include <bad.h>' >>wdbad/libwrap.h
rc=0; make -C wdbad scorep_libwrap_bad.cc >bad.out 2>&1 || rc=$?
expect_eq "$rc" 2 "a header that does not compile stops make"
expect_grep "libwrap-gen: $work/bad/bad.h:1:28: error: expected function body after function declarator" bad.out \
    "libclang's error with the header's file and line"
expect_grep "libwrap-gen: error: libwrap.h does not compile as C\\+\\+ \\(2 errors, see above\\)" bad.out \
    "the reason and what to fix"
expect_no_file wdbad/scorep_libwrap_bad.cc "no wrapper source after the error"

part "the workflow: init, make, make check, make install"
"$LWINIT" --name=cxx --display-name="Geo C++" -x c++17 --cppflags="-I$work/inc" \
    --ldflags="-L$work/lib -Wl,-rpath,$work/lib" --libs=-lcxxlib --prefix="$work/prefix" wd >init.out 2>&1 ||
    fail "scorep-libwrap-init: $(cat init.out)"
for f in Makefile libwrap.h libwrap.cc main.cc README.md cxx.filter; do
    expect_file "wd/$f" "init creates $f"
done
expect_no_file wd/libwrap.c "no C translation unit for C++"
echo '#include <cxxlib.h>' >>wd/libwrap.h
# Score-P's filter syntax: MANGLED matches the symbol (the base-object constructor and
# destructor, which a program never calls), the plain rule the demangled name
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE MANGLED _ZN3geo7CounterC2Ei _ZN3geo7CounterD2Ev\n  EXCLUDE geo::add(int,*\nSCOREP_REGION_NAMES_END\n' >>wd/cxx.filter
echo 'LIBWRAP_ELLIPSIS_MAPPING_SYMBOLS += _ZN3geo3sumEiz:_ZN3geo4vsumEiP13__va_list_tag' >>wd/Makefile
make -C wd >make.out 2>&1 || fail "make: $(tail -20 make.out)"
expect_grep "cxx: 14 functions wrapped \\(17 declared, 3 filtered, 0 without a symbol in the libraries, 0 variadic skipped\\)" \
    make.out "make wraps 14 of the 17 symbols (3 filtered; reset() private, inl() inline, twice a template: not counted)"
expect_eq "$(tr '\n' ' ' <wd/cxx.wrap)" \
    "--wrap=_ZN3geo3addEdd --wrap=_ZN3geo7CounterC1Ei --wrap=_ZN3geo7CounterD1Ev --wrap=_ZN3geo7Counter4bumpEi --wrap=_ZNK3geo7Counter5valueEv --wrap=_ZN3geo7Counter9instancesEv --wrap=_ZNK3geo7CountereqERKS0_ --wrap=_ZNK3geo7Counter5applyEPFiiE --wrap=_ZNK3geo7Counter5labelB5cxx11Ev --wrap=_ZN3geo5twiceIiEET_S1_ --wrap=_ZN3geo4failEi --wrap=_ZN3geo3sumEiz --wrap=_ZN3geo4vsumEiP13__va_list_tag --wrap=cx_plain " \
    "cxx.wrap: the mangled symbols (extern \"C\" as it is)"
expect_grep "_ZN3geo7Counter5resetEv" wd/cxx.check "make check's report lists the private member's symbol as undeclared"
expect_no_grep "inl\\|reset" wd/cxx.wrap "inline and private members are not wrapped"
make -C wd check >check.out 2>&1 || fail "make check: $(cat check.out)"
make -C wd install >install.out 2>&1 || fail "make install: $(cat install.out)"
for f in lib/libscorep_libwrap_cxx.so lib/libscorep_libwrap_cxx_linktime.a share/scorep/cxx.libwrap \
    share/scorep/cxx.wrap share/scorep/cxx.filter; do
    expect_file "prefix/$f" "make install: $f"
done
printf '#include "libwrap.h"\nint main() { return geo::Counter(0).value(); }\n' >wd/main.cc
make -C wd installcheck >ic.out 2>&1 || fail "make installcheck: $(cat ic.out)"
run_to ic.nm nm wd/main_linktime
expect_grep " T __wrap__ZNK3geo7Counter5valueEv$" ic.nm "installcheck: main_linktime calls value() through its wrapper"
export SCOREP_LIBWRAP_PATH="$work/prefix"

part "make check: a declaration without a symbol"
"$LWINIT" --name=cxm -x c++ --cppflags="-I$work/inc -DCX_WITH_MISSING" --ldflags="-L$work/lib" \
    --libs=-lcxxlib --prefix="$work/prefix" wdm >/dev/null 2>&1 || fail "init wdm"
echo '#include <cxxlib.h>' >>wdm/libwrap.h
make -C wdm scorep_libwrap_cxm.cc >/dev/null 2>&1 || fail "make (wdm)"
rc=0; make -C wdm check >check.out 2>&1 || rc=$?
expect_eq "$rc" 2 "make check fails on a declaration without a symbol"
expect_grep "^  MISSING _ZN3geo7missingEi $work/inc/cxxlib.h:[0-9]+ geo::missing\\(int\\)$" check.out \
    "make check names its symbol, header and name"
expect_eq "$(tr -s ' ' <wdm/missing.filter | tr '\n' '|')" \
    "SCOREP_REGION_NAMES_BEGIN| EXCLUDE MANGLED _ZN3geo7missingEi|SCOREP_REGION_NAMES_END|" \
    "missing.filter: a MANGLED rule for the C++ symbol"
cat wdm/missing.filter >>wdm/cxm.filter
make -C wdm check >check.out 2>&1 || fail "make check after missing.filter: $(cat check.out)"

part "scorep-info libwrap-summary"
run_to sum.out "$top_builddir/scorep-info" libwrap-summary --build cxx
expect_eq "$(cat sum.out)" "cxx
  Display name:
    Geo C++
  Prefix:
    $work/prefix
  Configure command:
    scorep-libwrap-init           --name cxx \\
                                  --display-name 'Geo C++' \\
                                  --prefix '$work/prefix' \\
                                  -x c++17 \\
                                  --backend vanilla \\
                                  --cppflags '-I$work/inc' \\
                                  --ldflags '-L$work/lib -Wl,-rpath,$work/lib' \\
                                  --libs '-lcxxlib'" "libwrap-summary --build cxx: Score-P's layout"
run_to list.out "$top_builddir/scorep-info" libwrap-summary
expect_eq "$(sed -n 1,5p list.out | tr '\n' '|')" "cxx|  Display name:|    Geo C++|  Prefix:|    $work/prefix|" \
    "libwrap-summary lists the wrappers of SCOREP_LIBWRAP_PATH"
rc=0; "$top_builddir/scorep-info" libwrap-summary nosuch >err.txt 2>&1 || rc=$?
expect_eq "$rc:$(cat err.txt)" "3:scorep-info: could not find library wrapper 'nosuch' (SCOREP_LIBWRAP_PATH: $work/prefix)" \
    "libwrap-summary NAME: a wrapper not found (Score-P's exit status 3)"
sed -i '/^LIBWRAP_NAME=/d' prefix/share/scorep/cxx.libwrap
rc=0; "$top_builddir/scorep-info" libwrap-summary cxx >err.txt 2>&1 || rc=$?
expect_eq "$rc:$(tail -n 1 err.txt)" "2:scorep-info: no LIBWRAP_NAME in $work/prefix/share/scorep/cxx.libwrap: the library wrapper cxx is probably corrupt (run make install in its scorep-libwrap-init directory again)" \
    "libwrap-summary: a corrupt anchor file (exit status 2)"
make -C wd install >install.out 2>&1 || fail "make install again: $(cat install.out)"

part "link-time wrapping"
scorep_cc --libwrap=cxx g++ -O1 -Iinc -o app_lt "$SRC/cxxapp.cc" -Llib -Wl,-rpath,"$work/lib" -lcxxlib
run_app lt env SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=lt ./app_lt
expect_eq "$status" 0 "link time: exit status"
cmp plain.out lt.out || fail "link time: output differs from the plain run"
expect_eq "$(enters lt)" "$EXPECTED" "link time: Enter/Leave per region (the exception leaves fail's region)"
expect_eq "$(trace_check_nesting lt)" 0 "link time: the trace nests"
trace_defs lt >lt.defs
expect_grep 'Name: "geo::Counter::value\(\)" <[0-9]*> \(Aka. "_ZNK3geo7Counter5valueEv" <[0-9]*>\), Descr.: "" <[0-9]*>, Role: WRAPPER, Paradigm: NONE, Flags: NONE, File: "'"$work"'/inc/cxxlib.h" <[0-9]*>, Begin: 21, End: 0' \
    lt.defs "link time: value()'s region (demangled name, the symbol as canonical name, its header and line)"
expect_eq "$(visits lt)" "cx_plain(int)=1 geo::Counter::Counter(int)=2 geo::Counter::apply(int (*)(int))=1 geo::Counter::bump(int)=4 geo::Counter::instances()=1 geo::Counter::label()=1 geo::Counter::operator==(const geo::Counter &)=1 geo::Counter::value()=2 geo::Counter::~Counter()=2 geo::add(geo::real, geo::real)=2 geo::fail(int)=1 geo::sum(int, ...)=1 geo::twice<>(int)=1 " \
    "link time: visits per region in the profile"
# fail() throws: its region is left all the same, the calls after it are not below it
expect_eq "$(paths lt 'fail|cx_plain|sum')" "main/cx_plain(int) main/geo::fail(int) main/geo::sum(int, ...) " \
    "link time: the exception leaves fail's region (the later calls are main's)"
# Score-P's region group: one of type REGIONS named by the display name, the wrapped regions
expect_eq "$(grep '^GROUP.*Type: REGIONS' lt.defs | sed 's/ <[0-9]*>//g; s/^GROUP  *[0-9]*  *//')" \
    'Name: "Geo C++", Type: REGIONS, Paradigm: UNKNOWN, Flags: NONE, 13 Members: "geo::add(geo::real, geo::real)", "geo::Counter::Counter(int)", "geo::Counter::bump(int)", "geo::Counter::value()", "geo::Counter::instances()", "geo::Counter::operator==(const geo::Counter &)", "geo::Counter::apply(int (*)(int))", "geo::Counter::label()", "geo::Counter::~Counter()", "geo::fail(int)", "geo::sum(int, ...)", "geo::twice<>(int)", "cx_plain(int)"' \
    "the trace: the wrapper's region group (Score-P's: REGIONS, the display name, the regions defined)"
run_to lt.anchor tar -xOf lt/profile.cubex anchor.xml
expect_eq "$(awk '/<name>geo::fail\(int\)</ { f = 1 } f && /<paradigm>|<role>/ { printf "%s", $0 } f && /<\/region>/ { exit }' lt.anchor)" \
    "<paradigm>libwrap:Geo C++</paradigm><role>wrapper</role>" \
    "the profile: fail's paradigm is libwrap:DISPLAY_NAME, its role wrapper"
CUBELIB_DUMP=${CUBELIB_DUMP:-$(command -v cube_dump || true)}
if [ -n "$CUBELIB_DUMP" ]; then
    "$CUBELIB_DUMP" -w lt/profile.cubex >lt.cubelib 2>&1 || fail "CubeLib's cube_dump cannot read the profile: $(tail -5 lt.cubelib)"
    expect_grep 'geo::Counter::bump\(int\):_ZN3geo7Counter4bumpEi.*paradigm=libwrap:Geo C\+\+, role=wrapper' lt.cubelib \
        "CubeLib: bump's region, its symbol and paradigm"
fi

part "run-time wrapping: scorep-run with SCOREP_LIBWRAP_ENABLE"
run_app rt env SCOREP_LIBWRAP_ENABLE=cxx SCOREP_ENABLE_TRACING=true SCOREP_EXPERIMENT_DIRECTORY=rt \
    "$top_builddir/scorep-run" ./app_plain
expect_eq "$status:$(cat rt.err)" "0:" "run time: exit status, nothing on stderr"
cmp plain.out rt.out || fail "run time: output differs from the plain run"
expect_eq "$(enters rt)" "$EXPECTED" "run time: Enter/Leave per region"
expect_eq "$(trace_check_nesting rt)" 0 "run time: the trace nests"
expect_eq "$(visits rt)" "cx_plain(int)=1 geo::Counter::Counter(int)=2 geo::Counter::apply(int (*)(int))=1 geo::Counter::bump(int)=4 geo::Counter::instances()=1 geo::Counter::label()=1 geo::Counter::operator==(const geo::Counter &)=1 geo::Counter::value()=2 geo::Counter::~Counter()=2 geo::add(geo::real, geo::real)=2 geo::fail(int)=1 geo::sum(int, ...)=1 geo::twice<>(int)=1 " \
    "run time: visits per region in the profile"
expect_eq "$(paths rt 'fail|cx_plain|sum')" "cx_plain(int) geo::fail(int) geo::sum(int, ...) " \
    "run time: the exception leaves fail's region"
# the measurement's filter sees the demangled name (and, MANGLED, the symbol)
printf 'SCOREP_REGION_NAMES_BEGIN\n  EXCLUDE geo::Counter::bump*\n  EXCLUDE MANGLED _ZNK3geo7Counter5valueEv\nSCOREP_REGION_NAMES_END\n' >rt.filter
run_app rtf env SCOREP_LIBWRAP_ENABLE=cxx SCOREP_FILTERING_FILE=rt.filter SCOREP_ENABLE_TRACING=true \
    SCOREP_EXPERIMENT_DIRECTORY=rtf "$top_builddir/scorep-run" ./app_plain
cmp plain.out rtf.out || fail "run time, filtered: output differs from the plain run"
expect_eq "$(enters rtf)" "$(echo "$EXPECTED" | sed 's|bump(int)=4/4|bump(int)=0/0|; s|value()=2/2|value()=0/0|')" \
    "run time, SCOREP_FILTERING_FILE excludes bump by name and value() by symbol"

done_ok
