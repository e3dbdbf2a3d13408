// libm functions IEEE 754 defines exactly: modf, ldexp (over- and underflow), frexp.
// expect-finding: reach-error 13
#include <math.h>
#include <assert.h>
extern double __VERIFIER_nondet_double(void);
extern void reach_error(void);
int main(void) {
  double x = __VERIFIER_nondet_double();
  double ip;
  double fr = modf(x, &ip);
  if (x > 2.0 && x < 3.0 && fr > 0.75) {
    assert(ip == 2.0);
    if (ldexp(fr, 2) > 3.5) reach_error();
  }
  int e;
  double m = frexp(48.0, &e);
  assert(m == 0.75 && e == 6);
  assert(ldexp(1.0, -1074) > 0.0 && ldexp(1.0, -1075) == 0.0);
  assert(ldexp(3.0, 1023) == INFINITY);
  return 0;
}
