// long double (x87's 80-bit format): glibc's powl, sinl, expl, whose
// values the cp solver encloses with glibc's `ldouble` error bounds
// (libm-test-ulps: powl 4 ulps, sinl 3, expl 2).
#include <assert.h>
#include <math.h>

// Compound growth in long double: p (1 + r)^n stays finite much longer
// than in double (LDBL_MAX = 1.19e4932), but not for every horizon:
// with r = 0.1 it overflows past n = 11356.5 / ln(1.1) = 119150 periods.
long double growthl(long double principal, long double rate, long double periods) {
  long double v = principal * powl(1.0L + rate, periods);
  assert(v <= 1.1e4932L);
  return v;
}

// sinl is within 3 ulps of the true sine: never above 1 + 1e-9.
long double sinl_bound(long double x) {
  long double s = sinl(x);
  assert(!(s > 1.000000001L || s < -1.000000001L));
  return s;
}

// expl on [-10, 10] is in (4.5e-5, 22026.5) (expl(10) = 22026.4658).
long double expl_bounded(long double x) {
  long double e = expl(x);
  assert(e > 4.5e-5L && e < 22026.5L);
  return e;
}
