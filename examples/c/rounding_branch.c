/* A branch taken only under a non-default rounding mode.  For x in [1, 2),
   x + 2^-30 rounds back to x to nearest (and downward, toward zero), but
   to the next float above x when rounding upward.  The mode is chosen by an
   input and set with fesetround (one constant mode per case: fpsym
   concretizes a symbolic fesetround argument to a single value).
   fpsym should find reach_error at line 28 with mode = 1 (FE_UPWARD), and
   no path to it with the other modes. */
#include <fenv.h>
extern float __VERIFIER_nondet_float(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);
extern void reach_error(void);

int main(void) {
  float x = __VERIFIER_nondet_float();
  int mode = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 1.0f && x < 2.0f);
  switch (mode) {
  case 1: fesetround(FE_UPWARD); break;
  case 2: fesetround(FE_DOWNWARD); break;
  case 3: fesetround(FE_TOWARDZERO); break;
  default: fesetround(FE_TONEAREST); break;
  }
  float y = x + 0x1p-30f;
  fesetround(FE_TONEAREST);

  if (y != x)
    reach_error();
  return 0;
}
// expect: lines >= 100%, findings >= 1 (all confirmed by replay)
