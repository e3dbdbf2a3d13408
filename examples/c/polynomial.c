/* Seed 001 (FPCS), polynomial: (a*a + b + 1e-5) * c in binary32 for
   a, c in [1e3, 1e4], b in [0, 1]; over the reals the minimum is
   1000000000.01.  1e-5 (and b) are absorbed by a*a >= 1e6.
   - reach_error line 25: the result below the double 1000000000.01:
     reachable (a = 1000, b = 0, c = 1000 gives exactly 1e9);
   - assert line 23: the same bound as a float, 1000000000.01f == 1e9, holds
     by monotonicity.
   fpsym should report reach-error at 25, nothing at 23. */
#include <assert.h>
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int cond);
extern void reach_error(void);

float polynomial(float a, float b, float c) { return (a * a + b + 1e-5f) * c; }

int main(void) {
  float a = __VERIFIER_nondet_float();
  float b = __VERIFIER_nondet_float();
  float c = __VERIFIER_nondet_float();
  __VERIFIER_assume(a >= 1e3f && a <= 1e4f && b >= 0.0f && b <= 1.0f);
  __VERIFIER_assume(c >= 1e3f && c <= 1e4f);
  float r = polynomial(a, b, c);
  assert(r >= 1000000000.01f);
  if ((double)r < 1000000000.01)
    reach_error();
  return 0;
}
// expect: lines >= 100%, findings >= 1 (all confirmed by replay)
