// Compound growth: principal * (1 + rate)^periods overflows for long
// horizons.
#include <assert.h>
#include <math.h>

double grow(double principal, double rate, double periods) {
  double v = principal * pow(1.0 + rate, periods);
  assert(!isinf(v));
  return v;
}

// Bounded horizon: (1 + 0.1)^100 * 1e6 = 1.4e10, far from overflow.
double grow_bounded(double principal, double rate, double periods) {
  double v = principal * pow(1.0 + rate, periods);
  assert(v <= 1.4e10);
  return v;
}
