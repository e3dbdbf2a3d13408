/* Seed 002 (FPGen), Fig. 1: recursive, pairwise and compensated summation,
   here of 4 floats in [-100, 100] (binary32 instead of the figure's double).
   Each result is compared with a double-precision reference sum; the
   property "relative error at most 1e-3" fails for every algorithm when the
   sum cancels (FPGen's point: a rounded-off small element dominates the
   tiny exact result), e.g. {1e-6, 100, -100, 0} for pairwise and
   {0, -100, 100, 1e-6} for recursive and compensated.  A nondet
   selector checks one algorithm per path.  fpsym should find assertion
   failures at lines 46, 47 and 48 (one input each). */
#include <assert.h>
#include <math.h>
extern float __VERIFIER_nondet_float(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

float recursive_summation(float *A, int size) {
  for (int i = size - 1; i > 0; i--) A[i - 1] += A[i];
  return A[0];
}
float pairwise_summation(float a1, float a2, float a3, float a4) {
  a1 += a2; a3 += a4;
  a1 += a3;
  return a1;
}
float compensated_summation(float *A, int size) {
  float sum, a, e = 0;
  for (int i = size - 1; i > 0; i--) {
    sum = A[i];
    a = A[i - 1] + e;
    A[i - 1] = sum + a;
    e = (sum - A[i - 1]) + a;
  }
  return A[0];
}

int main(void) {
  float x[4], r[4], c[4];
  for (int i = 0; i < 4; i++) {
    x[i] = __VERIFIER_nondet_float();
    __VERIFIER_assume(x[i] >= -100.0f && x[i] <= 100.0f);
    r[i] = c[i] = x[i];
  }
  double ref = ((double)x[0] + (double)x[1]) + ((double)x[2] + (double)x[3]);
  double tol = 1e-3 * fabs(ref);
  switch (__VERIFIER_nondet_int()) { /* one algorithm per path */
  case 0: assert(fabs(recursive_summation(r, 4) - ref) <= tol); break;
  case 1: assert(fabs(pairwise_summation(x[0], x[1], x[2], x[3]) - ref) <= tol); break;
  default: assert(fabs(compensated_summation(c, 4) - ref) <= tol); break;
  }
  return 0;
}
// expect: lines >= 95%, findings >= 3 (all confirmed by replay)
// fpsym-flags: --solver-timeout 60
