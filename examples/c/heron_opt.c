/* Seed 001 (FPCS), optimized Heron: the squared area rewritten without the
   cancellation of s - a (Kahan's form, a >= b >= c not required here):
   ((a+(b+c)) * (c-(a-b)) * (c+(a-b)) * (a+(b-c))) / 16, binary32,
   a in [5, 10], b, c in [0, 5], a <= b + c.  Over the reals the result is
   in [0, 156.25].
   - reach_error line 33: squared_area < -1e-5 is still reachable
     (the paper: -1.0000001e-5);
   - assert line 31: squared_area <= 156.25001f holds (the paper proves it);
   - reach_error line 35: the same bound as a double, 156.25001 (C literal
     without f), is exceeded only by the float 156.25001f itself.
   fpsym should report reach-error at 33 and 35, nothing at 31. */
#include <assert.h>
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int cond);
extern void reach_error(void);

float heron_opt(float a, float b, float c) {
  float squared_area = 0.0f;
  if (a <= b + c)
    squared_area = ((a + (b + c)) * (c - (a - b)) * (c + (a - b)) * (a + (b - c))) / 16.0f;
  return squared_area;
}

int main(void) {
  float a = __VERIFIER_nondet_float();
  float b = __VERIFIER_nondet_float();
  float c = __VERIFIER_nondet_float();
  __VERIFIER_assume(a >= 5.0f && a <= 10.0f && b >= 0.0f && b <= 5.0f);
  __VERIFIER_assume(c >= 0.0f && c <= 5.0f && a <= b + c);
  float sa = heron_opt(a, b, c);
  assert(sa <= 156.25001f);
  if (sa < -1e-5f)
    reach_error();
  if (sa > 156.25001)
    reach_error();
  return 0;
}
// expect: lines >= 85%, findings >= 0 (all confirmed by replay)
