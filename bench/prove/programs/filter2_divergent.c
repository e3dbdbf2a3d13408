// expect: false
// y = x + 1.9 y1 - 0.85 y2 has poles 1.18 and 0.72: it diverges, and
// samples of 1 take y past 1e3 within a few dozen steps.
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

int main(void) {
  double y1 = 0.0, y2 = 0.0;
  int n = 0;
  while (n < 200 && __VERIFIER_nondet_int()) {
    double x = __VERIFIER_nondet_double();
    if (!(x >= -1.0 && x <= 1.0)) return 0;
    double y = x + 1.9 * y1 - 0.85 * y2;
    y2 = y1;
    y1 = y;
    if (y > 1e3) reach_error();
    n++;
  }
  return 0;
}
