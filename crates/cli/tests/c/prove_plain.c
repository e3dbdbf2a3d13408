// A plain run (every finding) through a loop without a bound: no division
// by zero (the divisor is checked first), no failed assertion (y stays in
// [0, 2]). With DIVISOR_UNCHECKED the divisor may be 0.
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = 0;
  double y = 0.0;
  while (__VERIFIER_nondet_int()) {
    int d = __VERIFIER_nondet_int();
#ifndef DIVISOR_UNCHECKED
    if (d < 1 || d > 10)
      continue;
#else
    if (d < 0 || d > 10)
      continue;
#endif
    n = (n + 100 / d) % 1000;
    y = 0.5 * y + 1.0;
    assert(y <= 2.0);
  }
  return n > 0;
}
