// Two sums of the same inputs, one in a global: equal after every
// iteration, which no interval shows (both grow without bound) and
// k-induction proves with k = 1.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern double __VERIFIER_nondet_double(void);
extern void abort(void);
void assume_abort_if_not(int c) { if (!c) abort(); }
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
double total;
int main(void) {
  double x = 0.0;
  while (__VERIFIER_nondet_int()) {
    double d = __VERIFIER_nondet_double();
    assume_abort_if_not(d >= 0.0 && d <= 1.0);
    x = x + d;
    total = total + d;
    __VERIFIER_assert(x == total);
  }
  return 0;
}
