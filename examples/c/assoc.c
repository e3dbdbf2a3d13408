/* Floating-point addition is not associative: for finite floats a, b, c,
   (a + b) + c can differ from a + (b + c) by rounding (e.g. a = 1e8,
   b = -1e8, c = 1: 1 versus 0) or by overflow.
   fpsym should find reach_error at line 15. */
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int cond);
extern void reach_error(void);

int main(void) {
  float a = __VERIFIER_nondet_float();
  float b = __VERIFIER_nondet_float();
  float c = __VERIFIER_nondet_float();
  __VERIFIER_assume(a == a && b == b && c == c); /* no NaN inputs */
  if ((a + b) + c != a + (b + c))
    reach_error();
  return 0;
}
// expect: lines >= 100%, findings >= 1 (all confirmed by replay)
