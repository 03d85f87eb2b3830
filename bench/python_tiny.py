# SPDX-License-Identifier: BSD-3-Clause
# python_tiny.py N [empty]: N calls of a tiny Python function (bench/run_python_bench.sh);
# with "empty" under an empty C profile hook (python_empty_hook.c, built on sys.path).
import sys


def tiny(x):
    return x


def main(n):
    for i in range(n):
        tiny(i)


if sys.argv[2:] == ["empty"]:
    import empty_hook

    empty_hook.on()
main(int(sys.argv[1]))
