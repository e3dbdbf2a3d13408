// 1 + 2^-24 rounds to 1 to nearest but above 1 upward.
// expect-finding: reach-error 13
#include <fenv.h>
extern float __VERIFIER_nondet_float(void);
extern void reach_error(void);

int main(void) {
  float t = __VERIFIER_nondet_float();
  if (!(t > 0.0f && t < 1e-7f))
    return 0;
  if (1.0f + t > 1.0f) return 1;   /* only for t > 2^-24 */
  fesetround(FE_UPWARD);
  if (1.0f + t > 1.0f) reach_error();
  return 0;
}
