// sdot4_order_bug.c: BLAS-style sdot of two 4-float vectors with entries in
// [-1, 1], computed once front-to-back and once back-to-front (as an unrolled
// or reversed loop would), asserting both give the same float. Float addition
// is not associative, so the two orders can round differently.
// expect: bug
// witness: x = y = {1, 0x1p-12f, 0x1p-12f, 0} (input order x0 y0 x1 y1 ...): fwd = 1, bwd = 1 + 2^-23
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

#define N 4

int main(void) {
  float x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = __VERIFIER_nondet_float();
    __VERIFIER_assume(x[i] >= -1.0f && x[i] <= 1.0f);
    y[i] = __VERIFIER_nondet_float();
    __VERIFIER_assume(y[i] >= -1.0f && y[i] <= 1.0f);
  }
  float fwd = 0.0f, bwd = 0.0f;
  for (int i = 0; i < N; i++)
    fwd += x[i] * y[i];
  for (int i = N - 1; i >= 0; i--)
    bwd += x[i] * y[i];
  if (!(fwd == bwd))
    reach_error();
  return 0;
}
