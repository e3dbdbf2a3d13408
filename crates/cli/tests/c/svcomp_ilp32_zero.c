// SV-COMP task whose verdict is the data model's (crates/cli/tests/competition.rs):
// rounding toward negative, i386 converts an unsigned 32-bit zero to -0.0
// (it computes (2^52 | u) - 2^52 in double): false(unreach-call). x86-64
// converts it to +0.0: true.
#include <fenv.h>
#include <math.h>
extern unsigned int __VERIFIER_nondet_uint(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void) {
  fesetround(FE_DOWNWARD);
  unsigned int u = __VERIFIER_nondet_uint();
  double d = u;
  if (u < 10 && signbit(d)) reach_error();
  return 0;
}
