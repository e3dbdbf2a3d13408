// Near-extremum of sin: the target needs x within 1.4e-4 of pi/2 + 2k pi.
#include <assert.h>
#include <math.h>

int sin_peak(double x) {
  double s = sin(x);
  if (s > 0.99999999) assert(0);
  return s > 0.5;
}

// sin never exceeds 1 (glibc: within 1 ulp); the margin 1e-9 is what a
// sound enclosure widened by glibc's documented error can show.
int sin_bound(double x) {
  double s = sin(x);
  if (s > 1.000000001) assert(0);
  return s > 0.5;
}
