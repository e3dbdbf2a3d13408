// The `long double` forms (sinl, expl, logl, powl, ...: x87's 80-bit
// format, glibc's own x87 functions), under `fpsym run --libm symbolic`:
// targets behind the call that need a range of the function's value,
// several beyond double's range or precision. The error bounds are glibc
// 2.36's `ldouble` ulps for x86_64 (libm-test-ulps). Cases: see
// libm_trig.c.
#include <assert.h>
#include <fenv.h>
#include <float.h>
#include <math.h>

// sinl near its maximum, closer than a double's sin can tell apart from
// 1 - 1e-11 comfortably: |x - pi/2| < 4.4e-6.
// case: sinl_peak --range x=[1,2] => found assertion-failure
int sinl_peak(long double x) {
  if (sinl(x) > 0.99999999999L) assert(0); // T:sinl_peak
  return 0;
}

// glibc's sinl is within 3 ulps of the true value (libm-test-ulps, all
// modes): |sinl(x)| <= 1 + 2^-61 for every long double, NaN for ±inf.
// case: sinl_bounded => verified
int sinl_bounded(long double x) {
  if (sinl(x) > 1.0000001L || sinl(x) < -1.0000001L) assert(0);
  return 0;
}

// cosl decreases on [0,1] from 1 to cos(1) = 0.5403.
// case: cosl_floor --range x=[0,1] => verified
int cosl_floor(long double x) {
  if (cosl(x) < 0.54L) assert(0);
  return 0;
}

// expl above 1e4000 (far beyond DBL_MAX): x > 9210.3.
// case: expl_big => found assertion-failure
int expl_big(long double x) {
  if (expl(x) > 1e4000L) assert(0); // T:expl_big
  return 0;
}

// expl is finite up to 11000 (it overflows past 11356.5).
// case: expl_finite --range x=[0,11000] => verified
int expl_finite(long double x) {
  if (expl(x) > LDBL_MAX) assert(0);
  return 0;
}

// Rounding downward, glibc's expl gives LDBL_MAX, not infinity, past
// 11356.5.
// case: expl_downward => found assertion-failure
int expl_downward(long double x) {
  fesetround(FE_DOWNWARD);
  long double e = expl(x);
  fesetround(FE_TONEAREST);
  if (e == LDBL_MAX) assert(0); // T:expl_downward
  return 0;
}

// logl below -11000: x below e^-11000 = 1e-4777 (a long double far below
// double's subnormals).
// case: logl_tiny => found assertion-failure
int logl_tiny(long double x) {
  if (logl(x) < -11000.0L) assert(0); // T:logl_tiny
  return 0;
}

// log10l on [0, 1000] is at most 3 (+ 2 ulps).
// case: log10l_bounded --range x=[0,1000] => verified
int log10l_bounded(long double x) {
  if (log10l(x) > 3.0000001L) assert(0);
  return 0;
}

// powl overflows with a base in (1, 10): y > 4932 at least (beyond
// double's range: pow(10, y) overflows a double past y = 308.3).
// case: powl_overflow => found assertion-failure
int powl_overflow(long double x, long double y) {
  if (x > 1 && x < 10 && powl(x, y) == INFINITY) assert(0); // T:powl_overflow
  return 0;
}

// x^y <= 2^3 = 8 for x in [0,2], y in [0,3] (powl: 4 ulps; powl(0,0) = 1).
// case: powl_bounded --range x=[0,2] --range y=[0,3] => verified
int powl_bounded(long double x, long double y) {
  if (powl(x, y) > 8.001L) assert(0);
  return 0;
}

// tanhl is in [-1, 1] (4 ulps) or NaN.
// case: tanhl_bounded => verified
int tanhl_bounded(long double x) {
  if (tanhl(x) > 1.0001L || tanhl(x) < -1.0001L) assert(0);
  return 0;
}

// erfcl underflows to 0 past 106.5 (double's erfc already past 27.3).
// case: erfcl_zero --range x=[100,200] => found assertion-failure
int erfcl_zero(long double x) {
  if (erfcl(x) == 0) assert(0); // T:erfcl_zero
  return 0;
}

// atan2l is in [-pi, pi] or NaN.
// case: atan2l_range => verified
int atan2l_range(long double y, long double x) {
  if (atan2l(y, x) > 3.1416L || atan2l(y, x) < -3.1416L) assert(0);
  return 0;
}
