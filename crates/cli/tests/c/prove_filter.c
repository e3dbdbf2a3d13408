// A low-pass filter over bounded samples, run without bound: its output
// stays in [-2, 2] (y = y/2 + x with |x| <= 1), which symbolic execution
// alone cannot show (the loop has no bound) and the abstract
// interpretation proves with the invariant y in [-2, 2].
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) {}
void assume_abort_if_not(int c) {
  if (!c) abort();
}

int main(void) {
  double y = 0.0;
  while (__VERIFIER_nondet_int()) {
    double x = __VERIFIER_nondet_double();
    assume_abort_if_not(x >= -1.0 && x <= 1.0);
    y = 0.5 * y + x;
    if (!(y >= -2.5 && y <= 2.5)) reach_error();
  }
  return 0;
}
