# SPDX-License-Identifier: BSD-3-Clause
# lib_cv.sh: $CV FILE QUERY ARGS... (= cv) asks cube_values.py, the reader of scout.cubex that
# shares no code with the writer, as `python3 cube_values.py FILE QUERY ARGS...` would, but one
# process of it (its batch mode) answers every query of the test. Sourced after lib.sh (and
# after the test's SKIP checks for python3).
CV=cv

# One cube_values.py (batch mode) answers every query of the test: the queries go through the
# FIFO on file descriptor 8, the line "K STATUS" comes back on the FIFO on descriptor 9 and the
# K-th answer's output and error message lie in .cv/K.out and .cv/K.err (files, so that a
# reader that stops early, `$CV ... | head -1`, leaves nothing behind in the FIFO). It ends when
# the test ends (its query FIFO closes, or its parent is gone).
mkdir "$work/.cv"
mkfifo "$work/.cv/q" "$work/.cv/a"
python3 "$top_srcdir/test/analysis/cube_values.py" batch - "$work/.cv" <"$work/.cv/q" \
    >"$work/.cv/a" 2>"$work/.cv/python.err" &
exec 8>"$work/.cv/q" 9<"$work/.cv/a"

# cv FILE QUERY ARGS... (the arguments of cube_values.py's one-shot form, none with a tab or
# a newline): its output, its error message on stderr, its exit status
cv()
{
    _cvq=$1
    shift
    for _cva in "$@"; do
        _cvq="$_cvq	$_cva"
    done
    # in a subshell: a write to a FIFO whose reader died ends that, not the test (SIGPIPE)
    (printf '%s\n' "$_cvq" >&8) 2>/dev/null && read -r _cvk _cvs <&9 || {
        echo "cube_values.py batch gave no answer to '$_cvq': $(cat "$work/.cv/python.err")" >&2
        return 1
    }
    cat "$work/.cv/$_cvk.err" >&2
    cat "$work/.cv/$_cvk.out"
    return "$_cvs"
}
