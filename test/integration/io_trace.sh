# io_trace.sh: reads the I/O records of a trace back through otf2-print (sourced by the I/O
# tests after lib.sh).
# io_ops EXPDIR: one line per (paradigm, file, mode, location) with the operations completed and
# their bytes: "PARADIGM FILE MODE LOCATION OPS BYTES" (FILE: the file's path, "-" for a handle
# without file; bytes of failed operations count 0, their number as FAILED in MODE FAILED-<mode>).
# Begin and complete are paired by location and matching id.
io_ops()
{
    trace_defs "$1" >"$work/.io_defs"
    trace_other "$1" | awk -v defs="$work/.io_defs" '
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
        function field(name,  s) { match($0, name ": [0-9]+"); s = substr($0, RSTART, RLENGTH); sub(/.*: /, "", s); return s }
        $1 == "IO_OPERATION_BEGIN" {
            m = $0; sub(/.*Mode: /, "", m); sub(/,.*/, "", m)
            mode[$2, field("Matching Id")] = m
        }
        $1 == "IO_OPERATION_COMPLETE" {
            h = handle(); k = $2 SUBSEP field("Matching Id")
            b = field("Bytes Result"); m = mode[k]
            if (b == "18446744073709551615") { m = "FAILED-" m; b = 0 }
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
