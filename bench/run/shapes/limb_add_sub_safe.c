// limb_add_sub_safe.c: GMP-style 3-limb add with carry (uint32_t limbs,
// least significant first) of two numbers whose top limb is 0 and second
// limb is < 2^20 (so values are < 2^52), then subtracts b back with borrow.
// Checks: the sum converted to double equals the double sum of the inputs,
// no carry/borrow out, and a - b + b round-trips limb by limb.
// expect: safe
// why-safe: all values are < 2^53, so limb-to-double conversion
// (hi*2^64 + mid*2^32 + lo, evaluated exactly) and the double addition are
// exact, and the limb loops compute exact multi-precision sums/differences.
#include <stdint.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

#define NL 3

static uint32_t add_n(uint32_t *r, const uint32_t *a, const uint32_t *b) {
  uint32_t cy = 0;
  for (int i = 0; i < NL; i++) {
    uint32_t s = a[i] + cy;
    cy = (s < cy);
    s += b[i];
    cy += (s < b[i]);
    r[i] = s;
  }
  return cy;
}

static uint32_t sub_n(uint32_t *r, const uint32_t *a, const uint32_t *b) {
  uint32_t bw = 0;
  for (int i = 0; i < NL; i++) {
    uint32_t d = a[i] - bw;
    bw = (d > a[i]);
    uint32_t e = d - b[i];
    bw += (e > d);
    r[i] = e;
  }
  return bw;
}

static double to_double(const uint32_t *x) {
  double v = 0.0;
  for (int i = NL - 1; i >= 0; i--)
    v = v * 4294967296.0 + (double)x[i];
  return v;
}

int main(void) {
  uint32_t a[NL], b[NL], s[NL], d[NL];
  for (int i = 0; i < 2; i++) {
    a[i] = __VERIFIER_nondet_uint();
    b[i] = __VERIFIER_nondet_uint();
  }
  a[2] = 0;
  b[2] = 0;
  __VERIFIER_assume(a[1] < (1u << 20) && b[1] < (1u << 20));

  uint32_t cy = add_n(s, a, b);
  if (!(cy == 0 && s[2] == 0))
    reach_error();
  if (!(to_double(s) == to_double(a) + to_double(b)))
    reach_error();
  uint32_t bw = sub_n(d, s, b);
  if (!(bw == 0))
    reach_error();
  for (int i = 0; i < NL; i++)
    if (!(d[i] == a[i]))
      reach_error();
  return 0;
}
