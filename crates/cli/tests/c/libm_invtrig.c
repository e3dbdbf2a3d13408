// Inverse trigonometric functions (asin, acos, atan). Cases: see
// libm_trig.c.
#include <assert.h>
#include <math.h>

// asin near pi/2: x > sin(1.57) = 0.99999968.
// case: asin_top --range x=[0,1] => found assertion-failure
int asin_top(double x) {
  if (asin(x) > 1.57) assert(0); // T:asin_top
  return 0;
}

// acos is in [0, pi] (glibc: acos(1) = +0, acos(-1) = pi rounded =
// 3.141592653589793, 1 ulp error) or NaN outside [-1, 1]: neither side
// can be left by more than the margin.
// case: acos_range => verified
int acos_range(double x) {
  if (acos(x) < -0.001 || acos(x) > 3.1416) assert(0);
  return 0;
}

// atanf above 1.5707: x > tan(1.5707) = 10381.
// case: atan_flat --range x=[1,1e30] => found assertion-failure
int atan_flat(float x) {
  if (atanf(x) > 1.5707f) assert(0); // T:atan_flat
  return 0;
}

// |atan(x)| < pi/2 = 1.5707963 for every x (atan(±inf) = ±pi/2 rounded).
// case: atan_range => verified
int atan_range(double x) {
  if (atan(x) > 1.6 || atan(x) < -1.6) assert(0);
  return 0;
}
