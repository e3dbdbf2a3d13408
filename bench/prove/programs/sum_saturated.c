// expect: true
// A running sum of samples in [-2, 2], saturated to [-50, 50].
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

int main(void) {
  double s = 0.0;
  while (__VERIFIER_nondet_int()) {
    double x = __VERIFIER_nondet_double();
    if (!(x >= -2.0 && x <= 2.0)) continue;
    s = s + x;
    if (s > 50.0) s = 50.0;
    if (s < -50.0) s = -50.0;
  }
  if (s > 50.0 || s < -50.0) reach_error();
  return 0;
}
