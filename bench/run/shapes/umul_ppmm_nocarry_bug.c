// umul_ppmm_nocarry_bug.c: GMP-style 32x32 -> 64-bit limb multiply (hi:lo)
// from 16-bit half-limb products, but the carry out of the cross-term sum
// x1 + x2 is dropped; checked against the double product:
// (double)(hi*2^32 + lo) must equal (double)u * (double)v. When both cross
// products are large the sum wraps and hi loses 2^16.
// expect: bug
// witness: u = 0xffffffff, v = 0xffffffff (x1 + x2 wraps, hi is 2^16 too small)
#include <stdint.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern void reach_error(void);

static void umul_ppmm(uint32_t *hi, uint32_t *lo, uint32_t u, uint32_t v) {
  uint32_t ul = u & 0xffffu, uh = u >> 16;
  uint32_t vl = v & 0xffffu, vh = v >> 16;
  uint32_t x0 = ul * vl;
  uint32_t x1 = ul * vh;
  uint32_t x2 = uh * vl;
  uint32_t x3 = uh * vh;
  x1 += x0 >> 16;
  x1 += x2; /* BUG: overflow of this sum is not carried into x3 */
  *hi = x3 + (x1 >> 16);
  *lo = (x1 << 16) + (x0 & 0xffffu);
}

int main(void) {
  uint32_t u = __VERIFIER_nondet_uint();
  uint32_t v = __VERIFIER_nondet_uint();
  uint32_t hi, lo;
  umul_ppmm(&hi, &lo, u, v);
  double p = (double)hi * 4294967296.0 + (double)lo;
  if (!(p == (double)u * (double)v))
    reach_error();
  return 0;
}
