#include <stdint.h>
/* (uint64_t)x of x >= 2^64 is 0x8000000000000000 natively on x86-64:
   line 6 is reachable, never "infeasible". */
int f(double x) {
  if (x > 1.8e19 && (uint64_t)x == 0x8000000000000000ULL)
    return 1;
  return 0;
}
