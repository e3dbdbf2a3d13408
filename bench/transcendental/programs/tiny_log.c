// Tiny-argument log: log(x) < -740 needs x < 4.2e-322, a subnormal.
#include <assert.h>
#include <math.h>

int tiny_log(double x) {
  if (x <= 0) return -1;
  double l = log(x);
  if (l < -740) assert(0);
  return l > 0;
}

// log(x) >= log(DBL_TRUE_MIN) = -744.44 for every positive double.
int log_floor(double x) {
  if (x <= 0) return -1;
  double l = log(x);
  if (l < -745) assert(0);
  return l > 0;
}
