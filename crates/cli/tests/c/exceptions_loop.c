/* Exponential smoothing of n samples alternating between lo and hi, scaled
   by the range: a loop without a bound (n is any int), so the symbolic run
   cannot finish. With lo in [-10, 10] and hi in [20, 30] no operation can
   overflow or divide by zero (s stays in [lo, hi]); with any doubles,
   hi - lo overflows. */
double smooth(double lo, double hi, int n) {
  double s = lo;
  for (int i = 0; i < n; i++) {
    double x = (i % 2) ? hi : lo;
    s = 0.5 * s + 0.5 * x;
  }
  return s / (hi - lo + 1.0);
}
