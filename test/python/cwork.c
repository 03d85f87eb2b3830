/* SPDX-License-Identifier: BSD-3-Clause */
/* cwork.c: a C function measured by scorep-cc's instrumentation, called from Python through
 * ctypes (test_python.sh): its visits must sit under the Python function that called it. */
int cwork(int n);

int cwork(int n)
{
    volatile int s = 0;
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}
