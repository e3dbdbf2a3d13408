// newton_sqrtf_iters_bug.c: float square root of x in [1, 1000] by Newton
// steps started at r = x, but with only 4 iterations; checks the relative
// residual |r*r - x| <= 0.01*x. From r = x the error only halves per step
// while r >> sqrt(x), so 4 steps are far too few for large x.
// expect: bug
// witness: x = 1000.0f -> r ~ 67.7, r*r - x ~ 3.6e3 > 10
#include <math.h>

extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
  float x = __VERIFIER_nondet_float();
  __VERIFIER_assume(x >= 1.0f && x <= 1000.0f);
  float r = x;
  for (int i = 0; i < 4; i++)
    r = 0.5f * (r + x / r);
  if (!(fabsf(r * r - x) <= 0.01f * x))
    reach_error();
  return 0;
}
