// umul_ppmm_safe.c: GMP-style 32x32 -> 64-bit limb multiply (hi:lo) built
// from 16-bit half-limb products with the cross-term carry, checked against
// the double product: hi*2^32 + lo, converted to double, must equal
// (double)u * (double)v; also lo must equal the wrapped product u*v.
// expect: safe
// why-safe: the half-limb algorithm (with the carry when x1 + x2 overflows)
// computes the exact 64-bit product P; hi*2^32 and lo are exact doubles, so
// their sum is P rounded once, and (double)u*(double)v is also P rounded
// once, hence equal.
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
  x1 += x0 >> 16;      /* cannot overflow */
  x1 += x2;            /* may overflow */
  if (x1 < x2)
    x3 += 0x10000u;    /* carry into the high half-limb position */
  *hi = x3 + (x1 >> 16);
  *lo = (x1 << 16) + (x0 & 0xffffu);
}

int main(void) {
  uint32_t u = __VERIFIER_nondet_uint();
  uint32_t v = __VERIFIER_nondet_uint();
  uint32_t hi, lo;
  umul_ppmm(&hi, &lo, u, v);
  if (!(lo == u * v))
    reach_error();
  double p = (double)hi * 4294967296.0 + (double)lo;
  if (!(p == (double)u * (double)v))
    reach_error();
  return 0;
}
