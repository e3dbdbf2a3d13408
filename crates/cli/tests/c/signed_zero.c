// -0.0 == +0.0, but 1/-0.0 is -inf.
// expect-finding: reach-error 10
extern double __VERIFIER_nondet_double(void);
extern void reach_error(void);

int main(void) {
  double x = __VERIFIER_nondet_double();
  if (x == 0.0) {
    if (1.0 / x < 0.0)
      reach_error();
  }
  return 0;
}
