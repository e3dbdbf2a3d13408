// Float bits through a union and memcpy: the bit pattern of +inf.
// expect-finding: reach-error 16
#include <string.h>
extern float __VERIFIER_nondet_float(void);
extern void reach_error(void);

union pun { float f; unsigned u; };

int main(void) {
  float x = __VERIFIER_nondet_float();
  union pun p;
  p.f = x;
  unsigned bits;
  memcpy(&bits, &x, sizeof bits);
  if (p.u == 0x7f800000u && bits == p.u && x > 3.4e38f)
    reach_error();
  return 0;
}
