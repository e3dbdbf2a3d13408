// newton_sqrt6_safe.c: square root of a double x in [1, 4] by 6 Newton
// (Heron) steps r = (r + x/r)/2 from the fixed start r = 1.5, branch-free;
// checks |r*r - x| <= 1e-12.
// expect: safe
// why-safe: the start has relative error in [-0.25, 0.5], Newton's relative
// error e' = e^2/(2(1+e)) drops it below 1e-10 after 4 steps, after which
// rounding keeps r within a few ulps of sqrt(x) <= 2, so |r*r - x| is about
// 1e-15, far below 1e-12.
#include <math.h>

extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
  double x = __VERIFIER_nondet_double();
  __VERIFIER_assume(x >= 1.0 && x <= 4.0);
  double r = 1.5;
  for (int i = 0; i < 6; i++)
    r = 0.5 * (r + x / r);
  double err = fabs(r * r - x);
  if (!(err <= 1e-12))
    reach_error();
  if (!(r >= 1.0 && r <= 2.0))
    reach_error();
  return 0;
}
