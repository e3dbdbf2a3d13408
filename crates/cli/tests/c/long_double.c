// x86_fp80 keeps 64 bits: 1 + 2^-60 is not 1 in long double, but is in double.
// expect-finding: reach-error 11
extern double __VERIFIER_nondet_double(void);
extern void reach_error(void);

int main(void) {
  double d = __VERIFIER_nondet_double();
  long double x = d;
  if (d > 0.0 && d < 1e-17) {
    if ((double)(1.0L + x) == 1.0 && 1.0L + x != 1.0L && x * 1.1L > 1.1L * 2e-18L)
      reach_error();
  }
  return 0;
}
