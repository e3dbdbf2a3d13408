/* Lines whose only code is an assignment that the analysis build (-O0,
   then mem2reg) folds into a phi, and a line the entry never calls. */
int bisect(double lo, double hi, double t) {
  for (int i = 0; i < 3; i++) {
    double mid = (lo + hi) / 2;
    if (mid < t)
      lo = mid;
    else
      hi = mid;
  }
  return lo < hi;
}
int sign(double x) {
  int s = 0;
  if (x < 0.0)
    s = -1;
  return s;
}
int never(double x) { return x > 1.0; }
