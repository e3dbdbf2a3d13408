// Range of a projectile: v^2 sin(2 theta) / g, for a launch speed up to
// 100 m/s and an angle in [0, pi/2]: at most 100^2 / 9.81 = 1019.37 m.
#include <assert.h>
#include <math.h>

double range_ok(double v, double theta) {
  double r = v * v * sin(2 * theta) / 9.81;
  assert(r <= 1019.4); // the physical bound, with rounding margin
  return r;
}

// A safety limit below the maximum: reached near theta = pi/4, v = 100.
double range_limit(double v, double theta) {
  double r = v * v * sin(2 * theta) / 9.81;
  assert(r <= 1019.3);
  return r;
}
