# SPDX-License-Identifier: BSD-3-Clause
# io_trace.sh: reads the I/O records of a trace back through otf2-print (sourced by the I/O
# tests after lib.sh).
# the awk part both readers share (with -v defs=FILE of otf2-print -G's lines): file[ID] and
# par[ID] of every I/O handle from the definitions, handle() the id of the event's Handle
# (RSTART and RLENGTH left at the match)
IO_HANDLES_AWK='
        BEGIN {
            while ((getline line < defs) > 0) {
                if (line !~ /^IO_HANDLE /) continue
                split(line, w, " "); id = w[2]
                f = "-"
                if (match(line, /File: "file:\/\/[^"]*"/)) f = substr(line, RSTART + 14, RLENGTH - 15)
                p = "?"
                if (line ~ /I\/O Paradigm: "POSIX I\/O"/) p = "POSIX"
                if (line ~ /I\/O Paradigm: "ISO C I\/O"/) p = "ISOC"
                if (line ~ /I\/O Paradigm: "MPI I\/O"/) p = "MPI-IO"
                file[id] = f; par[id] = p
            }
        }
        function handle(  s) { match($0, /Handle: "[^"]*" <[0-9]+>/); s = substr($0, RSTART, RLENGTH); sub(/.*</, "", s); sub(/>/, "", s); return s }
'

# io_ops EXPDIR: one line per (paradigm, file, mode, location) with the operations completed and
# their bytes: "PARADIGM FILE MODE LOCATION OPS BYTES" (FILE: the file's path, "-" for a handle
# without file; bytes of failed operations count 0, their number as FAILED in MODE FAILED-<mode>;
# completions of unknown size without the attribute io_error (fscanf) as UNSIZED-<mode>).
# Begin and complete are paired by location and matching id.
io_ops()
{
    trace_defs "$1" >"$work/.io_defs"
    _f=$(trace_file "$1")
    # the event lines, a completion followed by its attribute line marked with " io_error"
    awk '$1 == "IO_OPERATION_COMPLETE" { if (c != "") print c; c = $0; next }
         c != "" && /ADDITIONAL ATTRIBUTES: .*"io_error"/ { print c " io_error"; c = ""; next }
         $3 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $1 ~ /^[A-Z][A-Z0-9_]*$/ { if (c != "") print c; c = ""; if ($1 ~ /^IO_/) print }
         END { if (c != "") print c }' "$_f" | awk -v defs="$work/.io_defs" "$IO_HANDLES_AWK"'
        function field(name,  s) { match($0, name ": [0-9]+"); s = substr($0, RSTART, RLENGTH); sub(/.*: /, "", s); return s }
        $1 == "IO_OPERATION_BEGIN" {
            m = $0; sub(/.*Mode: /, "", m); sub(/,.*/, "", m)
            mode[$2, field("Matching Id")] = m
        }
        $1 == "IO_OPERATION_COMPLETE" {
            h = handle(); k = $2 SUBSEP field("Matching Id")
            b = field("Bytes Result"); m = mode[k]
            if (b == "18446744073709551615") { m = ($NF == "io_error" ? "FAILED-" : "UNSIZED-") m; b = 0 }
            key = par[h] " " file[h] " " m " " $2
            ops[key]++; bytes[key] += b
        }
        END { for (k in ops) print k, ops[k], bytes[k] }' | sort
}

# io_events EXPDIR TYPE: number of events of an I/O record type (IO_CREATE_HANDLE, IO_SEEK, ...)
io_events()
{
    trace_other "$1" | awk -v t="$2" '$1 == t { n++ } END { print n + 0 }'
}

# io_report EXPDIR NAME: scorep-report's per-file I/O rows of EXPDIR, from the page's data
# block (NAME.html): "PARADIGM FILE READ_BYTES WRITE_BYTES READS WRITES FLUSHES FAILED
# ranks R... sizes READ_HIST / WRITE_HIST" sorted; and, when chromium is installed, the rows
# the rendered page shows (NAME.dom.rows, the same without sizes)
io_report()
{
    "$top_builddir/scorep-report" -o "$2.html" "$1" >/dev/null || fail "scorep-report $1"
    python3 - "$2.html" <<'PYEOF' || fail "the report's data block of $1"
import json, re, sys
s = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'<script type="application/json" id="report-data">(.*?)</script>', s, re.S).group(1))
for r in sorted(d.get("io", {}).get("rows", []), key=lambda r: (r["paradigm"], r["file"])):
    print(r["paradigm"], r["file"], r["read_bytes"], r["write_bytes"], r["read_ops"], r["write_ops"],
          r["flushes"], r["failed"], "ranks", " ".join(map(str, r["ranks"])), "sizes",
          ",".join(map(str, r["read_sizes"])), "/", ",".join(map(str, r["write_sizes"])))
if "read_bins" in d.get("io", {}):
    print("bins", round(sum(d["io"]["read_bins"])), round(sum(d["io"]["write_bins"])))
if d.get("io", {}).get("source") == "summary":
    print("from the summaries")
PYEOF
}

# io_render NAME: the I/O rows of NAME.html as Chromium renders them (report_dom.py), sorted;
# "" without chromium (the caller says SKIP)
io_render()
{
    chromium_headless "$1.chromium.err" --window-size=1400,2000 \
        --dump-dom "file://$(pwd -P)/$1.html" >"$1.dom"
    python3 "$top_srcdir/test/integration/report_dom.py" "$1.dom" >"$1.facts" || fail "report_dom.py $1.dom"
    grep -E '^(status|io|io-chart)( |$)' "$1.facts" | sort
}

# io_handle_events EXPDIR TYPE...: one line per event of the TYPEs (IO_ACQUIRE_LOCK,
# IO_SEEK, ...) as "TYPE PARADIGM FILE DETAILS" (PARADIGM and FILE of its handle as in
# io_ops; DETAILS: the record's fields after the handle), sorted, with their count first
io_handle_events()
{
    _d=$1
    shift
    trace_defs "$_d" >"$work/.io_defs"
    trace_other "$_d" | awk -v defs="$work/.io_defs" -v types=" $* " "$IO_HANDLES_AWK"'
        index(types, " " $1 " ") {
            h = handle(); rest = substr($0, RSTART + RLENGTH); sub(/^, */, "", rest)
            print $1, par[h], file[h], rest
        }' | sort | uniq -c | sed 's/^ *//' | sort
}

# io_profile_leaves EXPDIR NAMES: "region visits io_bytes_written io_bytes_read" of the
# regions NAMES lists ("|name|name|...|"), each summed over its call paths, sorted
io_profile_leaves()
{
    profile_dump "$1" -m visits,io_bytes_written,io_bytes_read | awk -F'\t' -v n="$2" '
        { k = $2; sub(/.*\//, "", k); if (!index(n, "|" k "|")) next
          split($4, a, "="); split($5, b, "="); split($6, c, "=")
          v[k] += a[2]; w[k] += b[2]; r[k] += c[2] }
        END { for (k in v) print k, v[k], w[k], r[k] }' | sort
}

# io_region_roles EXPDIR: "name ROLE" of every region the trace defines, sorted, once each
io_region_roles()
{
    trace_defs "$1" | awk '$1 == "REGION" {
        n = $0; sub(/.*Name: "/, "", n); sub(/".*/, "", n)
        r = $0; sub(/.*Role: /, "", r); sub(/,.*/, "", r); print n, r }' | sort -u
}
