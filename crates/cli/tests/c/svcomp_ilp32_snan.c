// SV-COMP task whose verdict is the data model's (crates/cli/tests/competition.rs):
// i386 returns a double in the x87 register st0, and loading a signalling
// NaN there sets its quiet bit, so a signalling NaN's bits do not survive
// a call of `pass`: false(unreach-call). x86-64 returns it in xmm0,
// unchanged: true.
#include <string.h>
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern void abort(void);
void reach_error(void) { abort(); }

static double pass(double x) { return x; }

int main(void) {
  unsigned long long bits = __VERIFIER_nondet_ulonglong(), back;
  double d, e;
  memcpy(&d, &bits, sizeof d);
  e = pass(d);
  memcpy(&back, &e, sizeof back);
  if (back != bits) reach_error();
  return 0;
}
