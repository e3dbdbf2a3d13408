/* Seed 000 (FPSE), Fig. 2: dichotomic search for the root sqrt(2) of
   f(x) = x*x - 2 in binary32, with the figure's test `f(xL)*f(xM) > -1.0F`.
   Inputs: a bracket xL < sqrt(2) < xR in [1, 2] of width in (0.0001, 0.001],
   so the loop runs 1 to 4 times (use --loop-bound 6).
   Property: a bisection should return x with |f(x)| < 0.0005.  Because the
   figure's test is `> -1.0F` rather than `> 0.0F`, the product of two small
   f values always exceeds -1, xL always moves and the result stays near xR.
   fpsym should find a bracket violating the assertion (assert, line 34). */
#include <assert.h>
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assume(int cond);

float f(float x) { return x * x - 2.0F; }

float dichotomic(float xL, float xR) {
  float xM = 1.0F;
  while ((xR - xL) > 0.0001F) {
    xM = (xR + xL) / 2.0F;
    if ((f(xL) * f(xM)) > -1.0F) { xL = xM; }
    else { xR = xM; }
  }
  return xM;
}

int main(void) {
  float xL = __VERIFIER_nondet_float();
  float xR = __VERIFIER_nondet_float();
  __VERIFIER_assume(xL >= 1.0F && xR <= 2.0F);
  __VERIFIER_assume(f(xL) < 0.0F && f(xR) > 0.0F);   /* sqrt(2) is bracketed */
  __VERIFIER_assume(xR - xL > 0.0001F && xR - xL <= 0.001F);
  float r = dichotomic(xL, xR);
  float fr = f(r);

  assert(fr < 0.0005F && fr > -0.0005F);
  return 0;
}
// expect: lines >= 90%, findings >= 1 (all confirmed by replay)
// fpsym-flags: --loop-bound 6
