// expect: true
// Bisection for the root of t^3 - c in [0, 10], c in [0, 1000], 80 steps:
// the bracket stays inside [0, 10].
extern double __VERIFIER_nondet_double(void);
void reach_error(void) {}

int main(void) {
  double c = __VERIFIER_nondet_double();
  if (!(c >= 0.0 && c <= 1000.0)) return 0;
  double lo = 0.0, hi = 10.0;
  for (int i = 0; i < 80; i++) {
    double mid = 0.5 * (lo + hi);
    if (mid * mid * mid > c)
      hi = mid;
    else
      lo = mid;
  }
  if (lo < 0.0 || hi > 10.0) reach_error();
  return 0;
}
