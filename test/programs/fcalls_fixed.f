C SPDX-License-Identifier: BSD-3-Clause
C     fcalls_fixed.f: a fixed-form subroutine of fcalls.F90 (adds 1 to its argument)
      SUBROUTINE FIXED_SUB(N)
      INTEGER N
      N = N + 1
      END
