// expect: true
// Newton's iteration for sqrt(a), a in [1, 100], 30 steps: the iterate
// stays positive (x > 0 and a > 0 give (x + a/x)/2 > 0).
extern double __VERIFIER_nondet_double(void);
void reach_error(void) {}

int main(void) {
  double a = __VERIFIER_nondet_double();
  if (!(a >= 1.0 && a <= 100.0)) return 0;
  double x = a;
  for (int i = 0; i < 30; i++) {
    x = 0.5 * (x + a / x);
  }
  if (!(x > 0.0)) reach_error();
  return 0;
}
