/* SPDX-License-Identifier: BSD-3-Clause */
/* sampling_dlopen_lib.c: the library that sampling_dlopen.c maps and unmaps. */
int sampling_dlopen_lib(int x)
{
    return x + 1;
}
