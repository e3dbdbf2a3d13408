// Trigonometric functions (sin, cos, tan; double and float forms) under
// `fpsym run --libm symbolic`: targets behind the call that need a range of
// the function's value. Cases, read by tests/transcendental.rs:
//   `// case: FUNCTION [fpsym flags] => found KIND | verified | no-finding`;
// a found target's line ends with `// T:FUNCTION`.
#include <assert.h>
#include <math.h>

// sin near its maximum: |x - pi/2| < 4.4e-4.
// case: sin_peak --range x=[1,2] => found assertion-failure
int sin_peak(double x) {
  if (sin(x) > 0.9999999) assert(0); // T:sin_peak
  return 0;
}

// glibc's sin is within 1 ulp of the true value (libm-test-ulps: 1), so
// |sin(x)| <= 1 + 2^-52 for every double; 1.0000001 leaves the margin the
// enclosure needs. sin(±inf) and sin(NaN) are NaN: both comparisons false.
// case: sin_bounded => verified
int sin_bounded(double x) {
  if (sin(x) > 1.0000001 || sin(x) < -1.0000001) assert(0);
  return 0;
}

// Exactly 1.0 is not exceeded by glibc either, but an enclosure widened by
// glibc's error cannot show it: the run must not claim a finding (any would
// fail replay); verified or incomplete are both right.
// case: sin_at_most_one --max-time 20 => no-finding
int sin_at_most_one(double x) {
  if (sin(x) > 1.0) assert(0);
  return 0;
}

// cos near -1: x near pi.
// case: cos_trough --range x=[3,3.3] => found assertion-failure
int cos_trough(float x) {
  if (cosf(x) < -0.99999f) assert(0); // T:cos_trough
  return 0;
}

// cos decreases on [0,1] from 1 to cos(1) = 0.5403; cosf's error is 1 ulp.
// case: cos_floor --range x=[0,1] => verified
int cos_floor(float x) {
  if (cosf(x) < 0.54f) assert(0);
  return 0;
}

// tan near its pole: tan(pi/2 rounded) = 1.6e16.
// case: tan_pole --range x=[1.5,1.6] => found division-by-zero
int tan_pole(double x) {
  int zero = 0;
  if (tan(x) > 1e10) return 1 / zero; // T:tan_pole
  return 0;
}

// tan increases on [0,0.5] up to tan(0.5) = 0.546302; 1 ulp error.
// case: tan_small --range x=[0,0.5] => verified
int tan_small(double x) {
  if (tan(x) > 0.5464) assert(0);
  return 0;
}
