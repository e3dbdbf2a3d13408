/* Seed 001 (FPCS), Heron: squared area s*(s-a)*(s-b)*(s-c), s = (a+b+c)/2,
   in binary32, for a in [5, 10] (the longest side), b, c in [0, 5] and a
   valid triangle (a <= b + c).  Over the reals 0 <= squared_area <= 156.25.
   Critical values with tolerance 1e-5 (the paper finds both):
   - reach_error line 33: squared_area < -1e-5 (cancellation in s - a);
   - reach_error line 35: squared_area > 156.25001 (paper: 156.25003).
   With tolerance 1e-3 there are none (the paper proves it): the assert at
   line 31 never fails.  fpsym should report reach-error at 33 and 35 only. */
#include <assert.h>
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int cond);
extern void reach_error(void);

float heron(float a, float b, float c) {
  float s, squared_area;
  squared_area = 0.0f;
  if (a <= b + c) {
    s = (a + b + c) / 2.0f;
    squared_area = s * (s - a) * (s - b) * (s - c);
  }
  return squared_area;
}

int main(void) {
  float a = __VERIFIER_nondet_float();
  float b = __VERIFIER_nondet_float();
  float c = __VERIFIER_nondet_float();
  __VERIFIER_assume(a >= 5.0f && a <= 10.0f && b >= 0.0f && b <= 5.0f);
  __VERIFIER_assume(c >= 0.0f && c <= 5.0f && a <= b + c);
  float sa = heron(a, b, c);
  assert(sa >= -1e-3f && sa <= 156.251f);
  if (sa < -1e-5f)
    reach_error();
  if (sa > 156.25001f)
    reach_error();
  return 0;
}
// expect: lines >= 85%, findings >= 1 (all confirmed by replay)
