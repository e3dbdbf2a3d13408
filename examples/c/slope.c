/* Seed 001 (FPCS), slope: the finite-difference derivative of x^2 at
   x0 = 13, ((x0+h)^2 - (x0-h)^2) / (2h), in binary32 for h in [1e-6, 1e-3].
   Over the reals it is exactly 26.  Over the floats the result ranges over
   [19.2000008, 32] (exhaustively, cp_design.md 6.4).
   - reach_error line 27: a critical value with tolerance 1 (|res-26| > 1),
     reachable (cancellation in fx1 - fx2);
   - assert line 25: the denominator 2h is never zero and the result stays
     in [19, 32]: holds.
   fpsym should report reach-error at 27, nothing at 25. */
#include <assert.h>
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int cond);
extern void reach_error(void);

float slope(float x0, float h) {
  float x1 = x0 + h, x2 = x0 - h;
  float fx1 = x1 * x1, fx2 = x2 * x2;
  return (fx1 - fx2) / (2.0f * h);
}

int main(void) {
  float h = __VERIFIER_nondet_float();
  __VERIFIER_assume(h >= 1e-6f && h <= 1e-3f);
  float res = slope(13.0f, h);
  assert(2.0f * h != 0.0f && res >= 19.0f && res <= 32.0f);
  if (res < 25.0f || res > 27.0f)
    reach_error();
  return 0;
}
// expect: lines >= 100%, findings >= 1 (all confirmed by replay)
