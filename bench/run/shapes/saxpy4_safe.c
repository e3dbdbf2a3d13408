// saxpy4_safe.c: BLAS-style saxpy y := a*x + y on 4 floats with
// a in [-2, 2] and x[i], y[i] in [-10, 10]; asserts |y[i]| <= 30 afterwards.
// expect: safe
// why-safe: |a*x[i]| <= 20 exactly and 20 is a float, so the rounded product is
// in [-20, 20]; the exact sum then lies in [-30, 30], 30 is a float, and
// round-to-nearest is monotone, so the rounded sum stays in [-30, 30].
#include <math.h>

extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

#define N 4

static void saxpy(int n, float a, const float *x, float *y) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int main(void) {
  float a = __VERIFIER_nondet_float();
  __VERIFIER_assume(a >= -2.0f && a <= 2.0f);
  float x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = __VERIFIER_nondet_float();
    __VERIFIER_assume(x[i] >= -10.0f && x[i] <= 10.0f);
  }
  for (int i = 0; i < N; i++) {
    y[i] = __VERIFIER_nondet_float();
    __VERIFIER_assume(y[i] >= -10.0f && y[i] <= 10.0f);
  }
  saxpy(N, a, x, y);
  for (int i = 0; i < N; i++)
    if (!(fabsf(y[i]) <= 30.0f))
      reach_error();
  return 0;
}
