// bisect_sqrt_safe.c: double square root of x in [0, 4] by 12 bisection
// steps on [0, max(1, x)], returning the lower end lo; checks lo*lo <= x and
// x - lo*lo <= 0.01.
// expect: safe
// why-safe: lo only takes values whose computed square is <= x (or 0), and
// sqrt(x) stays within the bracket (up to one rounding), whose width after 12
// halvings is <= 4/4096, so x - lo^2 <= (sqrt(x) - lo)(sqrt(x) + lo) <=
// 0.001 * 4 < 0.01.
#include <math.h>

extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
  double x = __VERIFIER_nondet_double();
  __VERIFIER_assume(x >= 0.0 && x <= 4.0);
  double lo = 0.0;
  double hi = x > 1.0 ? x : 1.0;
  for (int i = 0; i < 12; i++) {
    double mid = 0.5 * (lo + hi);
    if (mid * mid <= x)
      lo = mid;
    else
      hi = mid;
  }
  double sq = lo * lo;
  if (!(sq <= x))
    reach_error();
  if (!(x - sq <= 0.01))
    reach_error();
  return 0;
}
