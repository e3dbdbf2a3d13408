// bisect_sqrtf_bug.c: float square root of x in [0, 4] by 12 bisection steps
// on [0, hi]. The upper bracket is taken as hi = x, assuming sqrt(x) <= x,
// which is false for x < 1, so the result is clamped near x; checks
// |r*r - x| <= 0.01.
// expect: bug
// witness: x = 0.5f -> r ~ 0.5, |r*r - x| ~ 0.25 > 0.01
#include <math.h>

extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
  float x = __VERIFIER_nondet_float();
  __VERIFIER_assume(x >= 0.0f && x <= 4.0f);
  float lo = 0.0f;
  float hi = x; /* BUG: should be (x > 1.0f ? x : 1.0f) */
  for (int i = 0; i < 12; i++) {
    float mid = 0.5f * (lo + hi);
    if (mid * mid <= x)
      lo = mid;
    else
      hi = mid;
  }
  float r = lo;
  if (!(fabsf(r * r - x) <= 0.01f))
    reach_error();
  return 0;
}
