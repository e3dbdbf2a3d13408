// sgemv_relerr_bug.c: BLAS-style sgemv y := A*x for a 2x3 float matrix and
// x in [-1, 1]^3, compared with a double-precision reference (float products
// are exact in double). It asserts the "half an ulp" bound
// |y_f - y_d| <= 2^-24 * |y_d| for each row, which ignores cancellation: the
// rounding errors of the partial sums are relative to the partial sums, not
// to the (possibly much smaller) final result.
// expect: bug
// witness: A = {{1, 0x1p-30f, -1}, {0, 0, 0}}, x = {1, 1, 1}: sf = 0, sd = 2^-30
#include <math.h>

extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

#define M 2
#define N 3

int main(void) {
  float A[M][N], x[N];
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = __VERIFIER_nondet_float();
      __VERIFIER_assume(A[i][j] >= -1.0f && A[i][j] <= 1.0f);
    }
  for (int j = 0; j < N; j++) {
    x[j] = __VERIFIER_nondet_float();
    __VERIFIER_assume(x[j] >= -1.0f && x[j] <= 1.0f);
  }
  for (int i = 0; i < M; i++) {
    float sf = 0.0f;
    double sd = 0.0;
    for (int j = 0; j < N; j++) {
      sf += A[i][j] * x[j];
      sd += (double)A[i][j] * (double)x[j];
    }
    if (!(fabs((double)sf - sd) <= 0x1p-24 * fabs(sd)))
      reach_error();
  }
  return 0;
}
