// limb2_to_float_bug.c: converts a 2-limb number (hi:lo, uint32_t limbs,
// hi < 2^31) to float as (float)hi * 2^32 + (float)lo, and claims the result
// equals the correctly rounded conversion of the 64-bit value. Rounding hi
// first and then adding lo is a double rounding: when hi is halfway between
// two floats, lo (ignored by the first rounding) can decide the other way.
// expect: bug
// witness: hi = 0x1000001, lo = 1: (float)hi ties to 2^24, giving 2^56, but the exact value rounds to (2^24+2)*2^32
#include <stdint.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
  uint32_t hi = __VERIFIER_nondet_uint();
  uint32_t lo = __VERIFIER_nondet_uint();
  __VERIFIER_assume(hi < 0x80000000u);
  float f = (float)hi * 4294967296.0f + (float)lo;
  int64_t whole = (int64_t)(((uint64_t)hi << 32) | (uint64_t)lo);
  float ref = (float)whole; /* correctly rounded int64 -> float */
  if (!(f == ref))
    reach_error();
  return 0;
}
