// Exponential functions (exp, exp2, expm1; double and float forms). Cases:
// see libm_trig.c.
#include <assert.h>
#include <fenv.h>
#include <float.h>
#include <math.h>

// exp above 1e300: x > 690.78 (and +inf).
// case: exp_big => found assertion-failure
int exp_big(double x) {
  if (exp(x) > 1e300) assert(0); // T:exp_big
  return 0;
}

// exp is never negative (exp(-inf) = +0, underflow gives +0 or a positive
// subnormal; NaN compares false). The margin covers the enclosure's slack
// below the subnormals.
// case: exp_positive => verified
int exp_positive(double x) {
  if (exp(x) < -1e-300) assert(0);
  return 0;
}

// Exactly 0 is not undershot either (glibc's exp returns +0 or a positive
// value, never a negative one): the enclosure, widened below a tiny true
// value, is cut to exp's range [+0, +inf] (checked against glibc in
// every rounding mode), so this is proved.
// case: exp_nonneg => verified
int exp_nonneg(double x) {
  if (exp(x) < 0) assert(0);
  return 0;
}

// expf underflows to 0 below -103.97; above -100 it is at least
// expf(-100) = 3.7e-44 (26 subnormal steps above 0; 1 ulp error).
// case: expf_no_zero => verified
int expf_no_zero(float x) {
  if (x > -100.0f && expf(x) == 0.0f) assert(0);
  return 0;
}

// ... but above -110 it is 0 for x in (-110, -103.97).
// case: expf_zero => found assertion-failure
int expf_zero(float x) {
  if (x > -110.0f && expf(x) == 0.0f) assert(0); // T:expf_zero
  return 0;
}

// exp2 hits 1024 exactly (x = 10: glibc's exp2 is exact at integers).
// case: exp2_exact --range x=[0,20] => found assertion-failure
int exp2_exact(double x) {
  if (exp2(x) == 1024.0) assert(0); // T:exp2_exact
  return 0;
}

// expm1 close to -1: x < -16.1.
// case: expm1_floor_hit => found assertion-failure
int expm1_floor_hit(double x) {
  if (expm1(x) < -0.9999999) assert(0); // T:expm1_floor_hit
  return 0;
}

// expm1 > -1 for every x (expm1(-inf) = -1).
// case: expm1_floor => verified
int expm1_floor(double x) {
  if (expm1(x) < -1.0001) assert(0);
  return 0;
}

// ... and never below -1 itself, in any rounding mode (glibc's range of
// expm1 and expm1f; x87's expm1l is not clamped: it returns -1 - ulp).
// case: expm1_range => verified
int expm1_range(double x, float y) {
  if (expm1(x) < -1.0 || expm1f(y) < -1.0f) assert(0);
  return 0;
}

// The logistic function, stable form: in [0, 1] for every finite x (the
// exp in each branch is in [+0, 1 + a few ulps]).
// case: logistic --finite-inputs => verified
double logistic(double x) {
  double s;
  if (x >= 0) {
    s = 1.0 / (1.0 + exp(-x));
  } else {
    double e = exp(x);
    s = e / (1.0 + e);
  }
  if (!(s >= 0.0 && s <= 1.0)) assert(0);
  return s;
}

// The call rounds in the program's mode: rounding downward, glibc's exp
// gives the largest finite double, not infinity, past 709.78.
// case: exp_downward => found assertion-failure
int exp_downward(double x) {
  fesetround(FE_DOWNWARD);
  double e = exp(x);
  fesetround(FE_TONEAREST);
  if (e == DBL_MAX) assert(0); // T:exp_downward
  return 0;
}
