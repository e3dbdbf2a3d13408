// quadrant_reduce_bug.c: naive float argument reduction for sin/cos:
// k = (int)(x / (pi/2)), r = x - k*(pi/2) for x in [0, 1e5], asserting the
// reduced argument lies in [0, pi/2). The rounded quotient can round up to the
// next integer when x is just below a multiple of pi/2, and the product k*(pi/2)
// is rounded as well, so r can come out negative or >= pi/2.
// expect: bug
// witness: x = 0x1.f6a7a2p+2f (7.85398149f, just below 5*pi/2): x/(pi/2) rounds to 5.0f, k = 5, r < 0
#include <math.h>

extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

#define HALF_PI_F 1.57079637f

int main(void) {
  float x = __VERIFIER_nondet_float();
  __VERIFIER_assume(x >= 0.0f && x <= 100000.0f);
  int k = (int)(x / HALF_PI_F);
  float r = x - (float)k * HALF_PI_F;
  if (!(r >= 0.0f && r < HALF_PI_F))
    reach_error();
  return 0;
}
