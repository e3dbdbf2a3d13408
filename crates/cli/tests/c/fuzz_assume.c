/* Under unreach-call, assume_abort_if_not's abort ends a run normally:
   the fuzzer goes on past the many inputs the assumption rejects (it
   used to take each abort for a crash and stop after 32) and finds the
   one call of reach_error. */
extern double __VERIFIER_nondet_double(void);
extern void abort(void);
void reach_error(void) {}
void assume_abort_if_not(int c) {
  if (!c)
    abort();
}

int main(void) {
  double x = __VERIFIER_nondet_double();
  assume_abort_if_not(x >= 1.0 && x <= 2.0);
  if (x * x > 3.999)
    reach_error();
  return 0;
}
