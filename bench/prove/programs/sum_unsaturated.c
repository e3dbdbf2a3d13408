// expect: false
// The same sum saturated only from above: it falls below -50 after 26
// samples of -2.
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

int main(void) {
  double s = 0.0;
  int n = 0;
  while (n < 40 && __VERIFIER_nondet_int()) {
    double x = __VERIFIER_nondet_double();
    if (!(x >= -2.0 && x <= 2.0)) return 0;
    s = s + x;
    if (s > 50.0) s = 50.0;
    n++;
  }
  if (s < -50.0) reach_error();
  return 0;
}
