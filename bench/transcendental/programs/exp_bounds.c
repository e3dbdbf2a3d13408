// exp bounds on [-10, 10]: exp(-10) = 4.5e-5, exp(10) = 22026.47.
#include <assert.h>
#include <math.h>

double exp_bounded(double x) {
  double e = exp(x);
  assert(e > 4.5e-5 && e < 22026.5);
  return e;
}

// The float form near its overflow: expf(x) > 3e38 for x in (88.59, 88.72].
float expf_near_max(float x) {
  float e = expf(x);
  assert(!(e > 3e38f && e != INFINITY));
  return e;
}
