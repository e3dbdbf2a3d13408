// expect: false
// The same bisection with a check that the bracket is narrow after only
// 3 steps: with c = 1000 it is still 1.25 wide.
extern double __VERIFIER_nondet_double(void);
void reach_error(void) {}

int main(void) {
  double c = __VERIFIER_nondet_double();
  if (!(c >= 0.0 && c <= 1000.0)) return 0;
  double lo = 0.0, hi = 10.0;
  for (int i = 0; i < 3; i++) {
    double mid = 0.5 * (lo + hi);
    if (mid * mid * mid > c)
      hi = mid;
    else
      lo = mid;
  }
  if (hi - lo > 1.0) reach_error();
  return 0;
}
