/* SPDX-License-Identifier: BSD-3-Clause */
/* main.cc: a small C++ program calling the library: `make` links it without the wrapper,
 * `make installcheck` with it (scorep-cc --libwrap). Add calls to the library. */
#include "libwrap.h"

int main()
{
    return 0;
}
