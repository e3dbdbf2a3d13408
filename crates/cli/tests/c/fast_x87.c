// An x87 long double moved without arithmetic (load, fneg, store): the
// exception checker reports such operations as not modelled, so the fast
// path leaves them to the executor (tests/run.rs).
extern double __VERIFIER_nondet_double(void);
long double g = 1.5L;
int main(void) {
  double x = __VERIFIER_nondet_double();
  g = -g;
  if (x == 1.0) return 1;
  return 0;
}
