// Logarithms (log, log2, log10, log1p; double and float forms). Cases: see
// libm_trig.c.
#include <assert.h>
#include <math.h>

// log below -710 needs x < 4.4e-309: a subnormal (log(DBL_MIN) = -708.4).
// case: log_tiny => found assertion-failure
int log_tiny(double x) {
  if (log(x) < -710) assert(0); // T:log_tiny
  return 0;
}

// log is >= 0 on [1,2] (glibc: log(1) = +0 exactly, log increasing).
// case: log_nonneg --range x=[1,2] => verified
int log_nonneg(double x) {
  if (log(x) < 0) assert(0);
  return 0;
}

// log's pole: log(±0) = -inf.
// case: log_pole => found assertion-failure
int log_pole(double x) {
  if (log(x) == -INFINITY) assert(0); // T:log_pole
  return 0;
}

// log2f below -140: x < 2^-140, a float subnormal.
// case: log2f_tiny => found assertion-failure
int log2f_tiny(float x) {
  if (log2f(x) < -140.0f) assert(0); // T:log2f_tiny
  return 0;
}

// log10 <= 3 on (0, 1000] (log10(1000) = 3 exactly in glibc; 2 ulps error).
// case: log10_bounded --range x=[0,1000] => verified
int log10_bounded(double x) {
  if (log10(x) > 3.0000001) assert(0);
  return 0;
}

// log1p near its pole at -1: 1 + x < 9.4e-14.
// case: log1p_steep --range x=[-1,0] => found division-by-zero
int log1p_steep(double x) {
  int zero = 0;
  if (log1p(x) < -30) return 1 / zero; // T:log1p_steep
  return 0;
}
