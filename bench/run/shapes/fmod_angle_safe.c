// fmod_angle_safe.c: reduces an angle a in [-1e15, 1e15] (double) into
// [0, 2pi): r = fmod(a, 2pi); if r < 0 add 2pi; if the sum rounded up to 2pi
// subtract it again; asserts 0 <= r < 2pi.
// expect: safe
// why-safe: fmod is exact with |r| < 2pi, so for r < 0 the real sum r + 2pi
// lies in [2pi - pred(2pi), 2pi) and rounds to a value in (0, 2pi], and the
// only out-of-range result, exactly 2pi, is mapped to 0 by the final step.
#include <math.h>

extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

#define TWO_PI 6.283185307179586

int main(void) {
  double a = __VERIFIER_nondet_double();
  __VERIFIER_assume(a >= -1e15 && a <= 1e15);
  double r = fmod(a, TWO_PI);
  if (r < 0.0)
    r += TWO_PI;
  if (r >= TWO_PI)
    r -= TWO_PI;
  if (!(r >= 0.0 && r < TWO_PI))
    reach_error();
  return 0;
}
