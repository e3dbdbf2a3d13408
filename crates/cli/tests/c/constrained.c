#include <fenv.h>
#include <klee/klee.h>
#pragma STDC FENV_ACCESS ON
extern void reach_error(void);

int main(void) {
  int n = klee_range(1, 9, "n");
  double x = n;               /* constrained sitofp */
  fesetround(FE_UPWARD);
  double q = 1.0 / x;         /* constrained fdiv, round.dynamic */
  fesetround(FE_TONEAREST);
  double back = q * x;        /* constrained fmul */
  if (back != 1.0)            /* constrained fcmp */
    reach_error();            /* e.g. x = 3: 1/3 rounded up, times 3 */
  int i = (int)(x * 2.5);     /* constrained fptosi */
  float f = (float)x;         /* constrained fptrunc */
  if (i == 7 && f > 2.9f)
    return 1;
  return 0;
}
// expect-finding: reach-error 14
// expect-paths: 3
// Under FENV_ACCESS clang emits llvm.experimental.constrained.* (fdiv and
// fmul with round.dynamic, fcmp/fcmps with their predicate as metadata,
// sitofp, fptosi, fptrunc): 1/3 rounded upward, times 3, is not 1.
