/* Two results written through `out`: a sum, and the sum minus x[0]. */
void pair(const double *x, double *out) {
  out[0] = x[0] + x[1];
  out[1] = (x[0] + x[1]) - x[0];
}
