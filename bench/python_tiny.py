# python_tiny.py N: N calls of a tiny Python function (bench/run_python_bench.sh).
import sys


def tiny(x):
    return x


def main(n):
    for i in range(n):
        tiny(i)


main(int(sys.argv[1]))
