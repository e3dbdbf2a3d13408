// erf, erfc, tgamma, lgamma (double and float forms). Cases: see
// libm_trig.c.
#include <assert.h>
#include <math.h>

// erf close to 1: x > 3.46.
// case: erf_top => found assertion-failure
int erf_top(double x) {
  if (erf(x) > 0.999999) assert(0); // T:erf_top
  return 0;
}

// |erf(x)| <= 1 for every x (erf(±inf) = ±1; 1 ulp error).
// case: erf_range => verified
int erf_range(double x) {
  if (erf(x) > 1.001 || erf(x) < -1.001) assert(0);
  return 0;
}

// erfcf in its far tail: tiny but not zero (x in about (8.15, 10.05)).
// case: erfc_tail --range x=[0,20] => found assertion-failure
int erfc_tail(float x) {
  if (erfcf(x) < 1e-30f && erfcf(x) > 0.0f) assert(0); // T:erfc_tail
  return 0;
}

// tgamma above 1e100: x > 70.96.
// case: tgamma_big --range x=[1,100] => found assertion-failure
int tgamma_big(double x) {
  if (tgamma(x) > 1e100) assert(0); // T:tgamma_big
  return 0;
}

// The minimum of Gamma on [1,2] is 0.8856 (at 1.4616); 9 ulps error.
// case: tgamma_min --range x=[1,2] => verified
int tgamma_min(double x) {
  if (tgamma(x) < 0.88) assert(0);
  return 0;
}

// tgamma's pole at +0 (tgamma(+0) = +inf), and its overflow for x below
// 5.6e-309.
// case: tgamma_pole --range x=[0,0.5] => found assertion-failure
int tgamma_pole(double x) {
  if (tgamma(x) == INFINITY) assert(0); // T:tgamma_pole
  return 0;
}

// lgamma above 1000: x > 226.5.
// case: lgamma_big --range x=[1,1000] => found assertion-failure
int lgamma_big(double x) {
  if (lgamma(x) > 1000) assert(0); // T:lgamma_big
  return 0;
}
