// Two-argument functions (pow, hypot, atan2) and cbrt. Cases: see
// libm_trig.c.
#include <assert.h>
#include <math.h>

// pow overflows with a base below 10 (x in (1, 10), y large; or the pole
// pow(±0, y < 0)).
// case: pow_overflow => found assertion-failure
int pow_overflow(double x, double y) {
  if (pow(x, y) == INFINITY && x < 10) assert(0); // T:pow_overflow
  return 0;
}

// x^y <= 2^3 = 8 for x in [0,2], y in [0,3] (pow: 1 ulp error; pow(0,0) = 1).
// case: pow_bounded --range x=[0,2] --range y=[0,3] => verified
int pow_bounded(double x, double y) {
  if (pow(x, y) > 8.001) assert(0);
  return 0;
}

// hypot overflows with both arguments finite.
// case: hypot_overflow --range x=[0,1.7e308] --range y=[0,1.7e308] => found assertion-failure
int hypot_overflow(double x, double y) {
  if (hypot(x, y) > 1.7976931348623157e308) assert(0); // T:hypot_overflow
  return 0;
}

// hypot(3, 4) = 5 is the largest on [0,3] x [0,4] (1 ulp error).
// case: hypot_bounded --range x=[0,3] --range y=[0,4] => verified
int hypot_bounded(float x, float y) {
  if (hypotf(x, y) > 5.0001f) assert(0);
  return 0;
}

// atan2 near -pi: y just below 0 (or -0) and x < 0.
// case: atan2_minus_pi => found assertion-failure
int atan2_minus_pi(double y, double x) {
  if (atan2(y, x) < -3.14159) assert(0); // T:atan2_minus_pi
  return 0;
}

// atan2 is in [-pi, pi] (pi rounded = 3.141592653589793) or NaN.
// case: atan2_range => verified
int atan2_range(double y, double x) {
  if (atan2(y, x) > 3.1416 || atan2(y, x) < -3.1416) assert(0);
  return 0;
}

// cbrt(1000) = 10 (5 ulps error): nothing below 1000 goes past 10.001.
// case: cbrt_bounded --range x=[-1e6,1000] => verified
int cbrt_bounded(double x) {
  if (cbrt(x) > 10.001) assert(0);
  return 0;
}
