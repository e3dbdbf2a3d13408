/* Error metrics: det's result cancels (a large relative error near its
   zeros); nan_diff overflows to inf - inf = NaN where the exact result
   is 0 (the largest relative error, 0 by FPGen's rule). */
double det(double a, double b, double c, double d) { return a * d - b * c; }

double nan_diff(double x) {
  double y = x * 1e300;
  return y - y;
}

/* Never returns for x > 99: the native phase gives up on those inputs
   and the search ends on time. */
double hang(double x) {
  volatile double y = x;
  while (y > 99) {
  }
  return (y + 1e-9) - y;
}
