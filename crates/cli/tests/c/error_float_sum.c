/* Recursive summation of 32 floats in double, as FPGen's harness runs
   it: a double sum of floats is exact unless a tiny input's low bits
   fall below the accumulator's ulp, so a large error needs an absorption
   and an exact cancellation at once (v, t, -v: computed 0, exact t). */
double sum(const float *x) {
  double s = 0.0;
  for (int i = 0; i < 32; i++)
    s += x[i];
  return s;
}
