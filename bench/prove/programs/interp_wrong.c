// expect: false
// The same table checked against a bound the table itself exceeds.
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

static const double cal[7] = {-1.0, -0.25, 0.5, 2.0, 1.5, 3.0, 2.5};

int main(void) {
  while (__VERIFIER_nondet_int()) {
    double t = __VERIFIER_nondet_double();
    if (!(t >= 0.0 && t < 6.0)) continue;
    int k = (int)t;
    double y = cal[k] + (t - k) * (cal[k + 1] - cal[k]);
    if (y > 2.9) reach_error();
  }
  return 0;
}
