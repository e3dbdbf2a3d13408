// fmod_angle_bug.c: reduces an angle a in [-1e6, 1e6] (double) into
// [0, 2pi) with r = fmod(a, 2pi) followed by "if (r < 0) r += 2pi", and
// asserts 0 <= r < 2pi. fmod is exact, but the correction is a rounded
// addition: a tiny negative remainder plus 2pi rounds to exactly 2pi.
// expect: bug
// witness: a = -1e-20 -> fmod gives -1e-20, -1e-20 + 2pi rounds to 2pi, r < 2pi fails
#include <math.h>

extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

#define TWO_PI 6.283185307179586

int main(void) {
  double a = __VERIFIER_nondet_double();
  __VERIFIER_assume(a >= -1e6 && a <= 1e6);
  double r = fmod(a, TWO_PI);
  if (r < 0.0)
    r += TWO_PI;
  if (!(r >= 0.0 && r < TWO_PI))
    reach_error();
  return 0;
}
