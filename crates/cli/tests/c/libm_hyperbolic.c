// Hyperbolic functions (sinh, cosh, tanh, asinh, acosh, atanh). Cases: see
// libm_trig.c.
#include <assert.h>
#include <math.h>

// sinh above 1e300: x > 691.5 (finite up to 710.47).
// case: sinh_big --range x=[0,1000] => found assertion-failure
int sinh_big(double x) {
  if (sinh(x) > 1e300) assert(0); // T:sinh_big
  return 0;
}

// cosh(x) >= 1 for every x (cosh(0) = 1; 3 ulps error); NaN compares false.
// case: cosh_floor => verified
int cosh_floor(double x) {
  if (cosh(x) < 0.999) assert(0);
  return 0;
}

// tanh rounds to exactly 1 for x above about 18.7.
// case: tanh_one --range x=[0,30] => found assertion-failure
int tanh_one(double x) {
  if (tanh(x) == 1.0) assert(0); // T:tanh_one
  return 0;
}

// |tanhf(x)| <= 1 for every x (3 ulps error, but glibc never goes past
// 1: the enclosure is cut to the range checked against glibc), also for
// tanh, and cosh >= 1.
// case: tanh_range => verified
int tanh_range(float x) {
  if (tanhf(x) > 1.0f || tanhf(x) < -1.0f || tanh(x) > 1.0 || cosh(x) < 1.0) assert(0);
  return 0;
}

// atanh(x) > 10 needs 1 - x < 4.1e-9.
// case: atanh_steep --range x=[0,0.9999999999] => found assertion-failure
int atanh_steep(double x) {
  if (atanh(x) > 10) assert(0); // T:atanh_steep
  return 0;
}

// atanh increases: atanh(0.99999) = 6.103 < 10 (3 ulps error).
// case: atanh_bounded --range x=[0,0.99999] => verified
int atanh_bounded(double x) {
  if (atanh(x) > 10) assert(0);
  return 0;
}

// asinh above 700: x > 5e303.
// case: asinh_big --range x=[0,1e308] => found assertion-failure
int asinh_big(double x) {
  if (asinh(x) > 700) assert(0); // T:asinh_big
  return 0;
}

// acosh is >= 0 (acosh(1) = +0) or NaN below 1.
// case: acosh_floor => verified
int acosh_floor(double x) {
  if (acosh(x) < -0.001) assert(0);
  return 0;
}
