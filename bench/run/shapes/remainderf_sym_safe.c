// remainderf_sym_safe.c: symmetric range reduction of any finite float x
// into [-pi, pi] with remainderf(x, 2pi_f); asserts |r| <= pi_f, and that
// inputs already in [-pi_f, pi_f] are returned unchanged.
// expect: safe
// why-safe: remainderf is exact and returns x - n*y with n = x/y rounded to
// nearest-even, so |r| <= y/2, and y/2 = 6.28318548f/2 = 3.14159274f is exact;
// for |x| <= y/2 the quotient rounds to 0 (ties to even) so r == x.
#include <math.h>

extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

#define TWO_PI_F 6.28318548f
#define PI_F 3.14159274f

int main(void) {
  float x = __VERIFIER_nondet_float();
  __VERIFIER_assume(x - x == 0.0f); /* finite */
  float r = remainderf(x, TWO_PI_F);
  if (!(fabsf(r) <= PI_F))
    reach_error();
  if (x >= -PI_F && x <= PI_F) {
    if (!(r == x))
      reach_error();
  }
  return 0;
}
