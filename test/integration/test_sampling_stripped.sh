#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# test_sampling_stripped.sh: sampling a stripped program (as Debian ships pw.x and
# cp2k.psmp, session 25) names each of its functions by its start from the unwind tables,
# "[object+0xOFFSET]", not all of them "[object]": test/programs/sampling_hot.c built with
# -O1, stripped (strip -s: no .symtab), run unchanged under scorep-run with
# SCOREP_ENABLE_UNWINDING: the sampled call path of hot() is
# "[hot_s+0xMAIN]/[hot_s+0xHOT]" below the root, the offsets those of main and hot in the
# unstripped build's symbol table (nm), and most samples lie under it. Before, every frame
# was "[hot_s]" (pw.x's and cp2k.psmp's call trees: chains of "[pw.x]").
. "$top_srcdir/test/integration/lib.sh"

command -v strip >/dev/null 2>&1 && command -v nm >/dev/null 2>&1 || { echo "SKIP: no strip or nm (binutils)"; exit 77; }
gcc -O1 -o hot_s "$PROGRAMS/sampling_hot.c" || fail "gcc sampling_hot.c"
# the functions' offsets (ELF addresses) before stripping
off() { nm hot_s | awk -v f="$1" '$3 == f { sub(/^0+/, "", $1); print "0x" $1 }'; }
main_off=$(off main) hot_off=$(off hot)
[ -n "$main_off" ] && [ -n "$hot_off" ] || fail "nm found no main or hot in hot_s"
strip -s hot_s
syms=$(readelf -W --syms hot_s) || fail "readelf cannot read hot_s"
expect_eq "$(printf '%s\n' "$syms" | grep -c ' hot$')" 0 "hot_s is stripped (no symbol hot left)"
run_app r env SCOREP_ENABLE_UNWINDING=true SCOREP_SAMPLING_EVENTS=timer@1000 SCOREP_VERBOSE=true \
    SCOREP_EXPERIMENT_DIRECTORY=exp SCOREP_RUN_LIBDIR="$top_builddir/.libs" "$top_builddir/scorep-run" ./hot_s
expect_eq "$status" 0 "exit status"
expect_eq "$(not_verbose r.err)" "" "nothing on stderr but SCOREP_VERBOSE's report"
# (the entry point _start, nameless too, is folded into its callee as in a program with
# symbols: AT_ENTRY)
path="[hot_s+$main_off]/[hot_s+$hot_off]"
total=$(profile_dump exp -m samples | awk -F'\t' '{ split($4, kv, "="); s += kv[2] } END { print s + 0 }')
hot=$(profile_isum exp "$path" samples)
# (where the kernel signalled the thread at least 10 times: lib.sh kernel_signals)
expect_samples_ge "$total" 5 "at least 5 samples" r.err 0
expect_ge "$((hot * 100))" "$((total * 80))" "samples under $path (main and hot by their offsets, below the root): $hot of $total"
expect_eq "$(profile_paths exp | awk '/\[hot_s\]/ { n++ } END { print n + 0 }')" 0 "no frame named after the object alone"
