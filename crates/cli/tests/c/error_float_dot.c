/* A dot product of four float pairs accumulated in double, as FPGen's
   harness calls Meschach's in_prod: each product is exact in double, so
   an error needs a product absorbed by a larger one that a later product
   cancels exactly (x[k] * y[k] == -(x[i] * y[i])). */
double dot(const float *x, const float *y) {
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += (double)x[i] * (double)y[i];
  return s;
}
