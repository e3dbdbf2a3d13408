// expect: false
// A leaky integrator y = 0.95 y + x, x in [0, 1]: y tends to 20, and the
// check at 19 is passed after about 60 samples of 1.
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

int main(void) {
  double y = 0.0;
  int n = 0;
  while (n < 100 && __VERIFIER_nondet_int()) {
    double x = __VERIFIER_nondet_double();
    if (!(x >= 0.0 && x <= 1.0)) return 0;
    y = 0.95 * y + x;
    if (y > 19.0) reach_error();
    n++;
  }
  return 0;
}
