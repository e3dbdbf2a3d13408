// dgemv3_safe.c: BLAS-style dgemv y := A*x on a 3x3 double matrix with all
// entries of A and x in [-1, 1] (row-major, left-to-right accumulation);
// asserts |y[i]| <= 3.
// expect: safe
// why-safe: every exact product has magnitude <= 1 (a double), so each
// rounded product is in [-1, 1]; partial sums are then bounded by 2 and 3 in
// exact arithmetic, both doubles, and monotone rounding preserves the bounds.
#include <math.h>

extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

#define M 3
#define N 3

static void dgemv(double A[M][N], const double *x, double *y) {
  for (int i = 0; i < M; i++) {
    double s = 0.0;
    for (int j = 0; j < N; j++)
      s += A[i][j] * x[j];
    y[i] = s;
  }
}

int main(void) {
  double A[M][N], x[N], y[M];
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = __VERIFIER_nondet_double();
      __VERIFIER_assume(A[i][j] >= -1.0 && A[i][j] <= 1.0);
    }
  for (int j = 0; j < N; j++) {
    x[j] = __VERIFIER_nondet_double();
    __VERIFIER_assume(x[j] >= -1.0 && x[j] <= 1.0);
  }
  dgemv(A, x, y);
  for (int i = 0; i < M; i++)
    if (!(fabs(y[i]) <= 3.0))
      reach_error();
  return 0;
}
