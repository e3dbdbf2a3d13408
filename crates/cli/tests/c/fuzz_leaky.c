/* A leaky integrator fed samples in [0, 1]: it passes 9.5 only after a
   run of about thirty samples close to 1 (its limit is 10). The fuzzer
   gets there by repeating one iteration's records in place; one record
   at a time, it never does. */
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

int main(void) {
  double acc = 0.0;
  for (int k = 0; k < 1000 && __VERIFIER_nondet_int(); k++) {
    double x = __VERIFIER_nondet_double();
    if (!(x >= 0.0 && x <= 1.0))
      return 0;
    acc = 0.9 * acc + x;
    if (acc > 9.5)
      reach_error();
  }
  return 0;
}
