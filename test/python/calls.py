# SPDX-License-Identifier: BSD-3-Clause
# calls.py LIB: Python calls with known counts (test_python.sh): outer 10 x inner 100, the
# method Shape.area 5 times, a generator of 4 values, the C function cwork of LIB called 3
# times through ctypes from call_c, an exception that unwinds boom into catcher, a recursion
# 300 deep (rec: 301 calls, deeper than the hook's first stack), and a thread whose worker
# calls call_c once more.
import ctypes
import sys
import threading

lib = ctypes.CDLL(sys.argv[1])


def inner(i):
    return i + 1


def outer():
    s = 0
    for i in range(100):
        s += inner(i)
    return s


class Shape:
    def __init__(self, w, h):
        self.w = w
        self.h = h

    def area(self):
        return self.w * self.h


def squares(n):
    for i in range(n):
        yield i * i


def call_c():
    for _ in range(3):
        lib.cwork(1000)


def boom():
    raise ValueError("unwinds two frames")


def catcher():
    try:
        boom()
    except ValueError:
        return 1


def rec(n):
    return 0 if n == 0 else rec(n - 1) + 1


def worker():
    call_c()


for _ in range(10):
    outer()
shape = Shape(2, 3)
for _ in range(5):
    shape.area()
print("squares", sum(squares(4)))
call_c()
catcher()
rec(300)
t = threading.Thread(target=worker)
t.start()
t.join()
