// expect: true
// A second-order low-pass section, y = 0.3 x + 1.2 y1 - 0.5 y2, poles of
// modulus sqrt(0.5); |x| <= 1 gives |y| <= 0.3 * sum |h_k| (about 1.6).
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) {}
void assume_abort_if_not(int c) { if (!c) abort(); }

int main(void) {
  double y1 = 0.0, y2 = 0.0;
  while (__VERIFIER_nondet_int()) {
    double x = __VERIFIER_nondet_double();
    assume_abort_if_not(x >= -1.0 && x <= 1.0);
    double y = 0.3 * x + 1.2 * y1 - 0.5 * y2;
    y2 = y1;
    y1 = y;
    if (y < -4.0 || y > 4.0) reach_error();
  }
  return 0;
}
