#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# remap_spec.sh SPEC OUTPUT: writes SPEC's lines as the C table scorep_remap_lines (remap_spec.h),
# each with the paradigms it belongs to, so that the profile writer embeds only the lines of the
# paradigms a run recorded (scorep_remap_spec_cut).
# remap_spec.sh --cut MASK SPEC: prints the text the writer embeds for that paradigm mask (the
# bits of remap_spec.h's SCOREP_REMAP_*; for the tests and for checking a cut by hand).
#
# Why lines can go: the spec hides (VOID) the metric subtrees of the paradigms a run lacks, and
# square's output has no VOID metric; a line of a paradigm the run lacks only declares, zeroes
# or classifies into such a subtree. Each line's mask: the metric subtree it lies in (by the
# subtree's uniq_name), else the names it mentions (${paradigm} eq "...", ${has_...},
# global(...), ${category}[...], metric::...(), cube::metric::set::...(...)); the lines of an
# if block without braces on its own line take the if line's mask. Lines of no paradigm stay.
# comp's and bytes' sums have one term a line so that each term goes with its metric. Comments
# and indentation are left out (the remapper needs neither). A line naming two paradigms stops
# the build: it could be neither kept nor cut exactly.
set -eu
if [ "$1" = --cut ]; then
    mode=cut mask=$2 spec=$3
else
    mode=c mask=0 spec=$1 out=$2
fi

classify() {
    awk -v mode="$mode" -v want="$mask" '
    # the paradigm bits (remap_spec.h)
    BEGIN { MPI = 1; SHMEM = 2; OPENMP = 4; PTHREAD = 8; IO = 16; LIBWRAP = 32; CUDA = 64 }
    # a metric name or a category array name -> its paradigm bit, 0 for always
    function fam(n) {
        if (n ~ /^(omp_idle_threads|omp_limited_parallelism)$/) return 0
        if (n ~ /^mpi/ || n ~ /^bytes_.*(p2p|coll|other)$/) return MPI
        if (n ~ /^shmem/) return SHMEM
        if (n ~ /^omp_/ || n == "openmp") return OPENMP
        if (n ~ /^pthread/) return PTHREAD
        if (n ~ /^(fileio|io_)/ || n == "io") return IO
        if (n ~ /^libwrap/) return LIBWRAP
        if (n ~ /^cuda/ || n == "idle_gpus") return CUDA
        return 0
    }
    function bits(m,   c) { c = 0; while (m > 0) { c += m % 2; m = int(m / 2) }; return c }
    function bor(a, b,   r, k) {
        r = 0
        for (k = 1; k <= 64; k *= 2)
            if ((a % (2 * k)) >= k || (b % (2 * k)) >= k) r += k
        return r
    }
    function band(a, b,   r, k) {
        r = 0
        for (k = 1; k <= 64; k *= 2)
            if ((a % (2 * k)) >= k && (b % (2 * k)) >= k) r += k
        return r
    }
    # the mask of a line of CubePL by the names it mentions
    function mentions(s,   m, t, n) {
        m = 0
        if (s ~ /callsite id=/) m = bor(m, CUDA)
        t = s
        while (match(t, /\$\{paradigm\} (eq "[a-z]+"|=~ \/\^libwrap:)/)) {
            n = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH)
            if (n ~ /libwrap/) m = bor(m, LIBWRAP)
            else { sub(/.*eq "/, "", n); sub(/"$/, "", n); m = bor(m, fam(n)) }
        }
        t = s
        while (match(t, /\$\{has_[a-z_]+\}/)) {
            n = substr(t, RSTART + 6, RLENGTH - 7); t = substr(t, RSTART + RLENGTH)
            m = bor(m, fam(n))
        }
        t = s
        while (match(t, /(global\(|metric::(set::)?)[a-z_0-9]+/)) {
            n = substr(t, RSTART, RLENGTH); t = substr(t, RSTART + RLENGTH)
            # global(idle_gpus) goes with the array execution reads (always)
            if (n == "global(idle_gpus") continue
            sub(/.*(\(|::)/, "", n)
            m = bor(m, fam(n))
        }
        # a category array: ${idle_gpus}[] is read by execution (always)
        t = s
        while (match(t, /\$\{[a-z_0-9]+\}\[/)) {
            n = substr(t, RSTART + 2, RLENGTH - 4); t = substr(t, RSTART + RLENGTH)
            if (n != "idle_gpus") m = bor(m, fam(n))
        }
        return m
    }
    { line[NR] = $0 }
    END {
        depth = 0; blk = 0; incomment = 0; n_out = 0
        for (i = 1; i <= NR; i++) {
            s = line[i]; sub(/^[ \t]+/, "", s)
            # comments (XML ones may span lines; CubePL ones are whole lines here)
            if (incomment) { if (s ~ /-->/) incomment = 0; continue }
            if (s ~ /^<!--/) { if (s !~ /-->/) incomment = 1; continue }
            if (s ~ /^\/\//) continue
            if (s ~ /^<metric[ >]/) {
                for (j = i + 1; j <= NR && line[j] !~ /<uniq_name>/; j++) ;
                u = line[j]; sub(/.*<uniq_name>/, "", u); sub(/<\/uniq_name>.*/, "", u)
                depth++
                mm[depth] = fam(u) ? fam(u) : (depth > 1 ? mm[depth - 1] : 0)
                m = mm[depth]
            } else if (s ~ /^<\/metric>/) {
                m = mm[depth]; depth--
            } else {
                m = depth > 0 ? mm[depth] : 0
                if (m == 0) {
                    m = mentions(s)
                    if (s == "{") { bstack[++blk] = pending; m = pending }
                    else if (s ~ /^};?$/) { m = bstack[blk]; blk-- }
                    else if (blk > 0 && bstack[blk] != 0) {
                        if (m != 0 && m != bstack[blk]) {
                            printf "remap_spec.sh: line %d: paradigm mask %d inside a block of %d\n", i, m, bstack[blk] > "/dev/stderr"
                            exit 1
                        }
                        m = bstack[blk]
                    }
                    # an if or while line opens the block on the next line with its mask
                    pending = (s ~ /^(if|while) *\(/ && s !~ /\) *\{/) ? m : 0
                }
            }
            if (bits(m) > 1) {
                printf "remap_spec.sh: line %d names two paradigms (mask %d): %s\n", i, m, s > "/dev/stderr"
                exit 1
            }
            if (mode == "cut") {
                if (m == 0 || band(m, want) != 0) print s
            } else {
                printf "%d\t%s\n", m, s
            }
        }
        if (depth != 0 || blk != 0) {
            print "remap_spec.sh: unbalanced metrics or blocks" > "/dev/stderr"
            exit 1
        }
    }' "$spec"
}

if [ "$mode" = cut ]; then
    classify
    exit 0
fi
{
    printf '/* SPDX-License-Identifier: BSD-3-Clause */\n'
    printf '/* generated from share/scorep.spec by src/writers/remap_spec.sh: do not edit */\n'
    printf '#include "writers/remap_spec.h"\n\n'
    printf 'const scorep_remap_line scorep_remap_lines[] = {\n'
    # backslashes and quotes escaped (sed: awk's replacement strings differ between awks)
    classify | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^\([0-9]*\)	\(.*\)$/    { \1, "\2" },/'
    printf '};\n'
    printf 'const size_t scorep_remap_n_lines = sizeof scorep_remap_lines / sizeof scorep_remap_lines[0];\n'
} >"$out.tmp"
mv "$out.tmp" "$out"
