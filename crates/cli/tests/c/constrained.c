#include <fenv.h>
#include <klee/klee.h>
#pragma STDC FENV_ACCESS ON
extern void reach_error(void);

int main(void) {
  int n = klee_range(1, 9, "n");
  double x = n;               /* constrained sitofp */
  if (n % 2 == 1)
    fesetround(FE_UPWARD);
  double q = x + 0x1p-60;     /* constrained fadd, round.dynamic: next above x */
  fesetround(FE_TONEAREST);
  double back = q - 0x1p-60;  /* constrained fsub, to nearest: stays above x */
  if (back != x)              /* constrained fcmp */
    reach_error();
  int i = (int)(x * 2.5);     /* constrained fptosi */
  float f = (float)x;         /* constrained fptrunc */
  if (i == 5 && f > 1.9f)
    return 1;
  return 0;
}
// expect-finding: reach-error 15
// expect-paths: 3
// Under FENV_ACCESS clang emits llvm.experimental.constrained.* (fadd,
// fsub and fmul with round.dynamic, fcmp/fcmps with their predicate as
// metadata, sitofp, fptosi, fptrunc): x + 2^-60 rounded upward (odd n) is
// the next double above x, and subtracting 2^-60 to nearest stays there.
