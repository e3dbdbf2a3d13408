// SV-COMP task whose verdict is the data model's (crates/cli/tests/competition.rs):
// `unsigned long` wraps at 2^32 under ILP32, so n * 3 == 1 for
// n = 0xaaaaaaab = 2863311531, which a double in range holds:
// false(unreach-call). Under LP64 the n with n * 3 == 1 (mod 2^64) is
// 0xaaaaaaaaaaaaaaab, about 1.2e19, out of x's range: true.
extern long __VERIFIER_nondet_long(void);
extern double __VERIFIER_nondet_double(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void) {
  double x = __VERIFIER_nondet_double();
  if (!(x >= 0.0 && x <= 1.0e10)) return 0;
  unsigned long n = (unsigned long)__VERIFIER_nondet_long();
  if (n * 3UL == 1UL && (double)n == x) reach_error();
  return 0;
}
