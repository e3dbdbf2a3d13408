// The filter with a coefficient above 1: y grows past 1e6 within a few
// dozen samples of 1.0, and reach_error is called.
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) {}

int main(void) {
  double y = 0.0;
  int n = 0;
  while (n < 100 && __VERIFIER_nondet_int()) {
    double x = __VERIFIER_nondet_double();
    if (!(x >= -1.0 && x <= 1.0)) abort();
    y = 1.5 * y + x;
    if (y > 1e6) reach_error();
    n++;
  }
  return 0;
}
