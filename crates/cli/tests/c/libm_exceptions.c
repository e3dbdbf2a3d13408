// `fpsym exceptions` on transcendental calls: overflow of exp (glibc's
// threshold), of pow, hypot and lgamma (decided on the call's symbolic
// result: an infinity from finite arguments that are not a pole).
#include <math.h>

double grow(double x) {
  return exp(x); // overflow for x > 709.78
}

double power(double x, double y) {
  return pow(x, y); // overflow: x > 1 and y large; pole: pow(0, y < 0)
}

double norm(double x, double y) {
  return hypot(x, y); // overflow: both near DBL_MAX
}

double log_gamma(double x) {
  return lgamma(x); // overflow: x > 2.6e305; poles at 0, -1, -2, ...
}

double sine(double x) {
  return sin(x); // never overflows
}
