// 1/3 in binary32 under each rounding mode: down and toward zero agree,
// up and to-nearest agree (1/3 rounds up to nearest), and down < up.
// expect-finding: reach-error 21
// expect-paths: 2
#include <fenv.h>
extern float __VERIFIER_nondet_float(void);
extern void reach_error(void);

int main(void) {
  float x = __VERIFIER_nondet_float();
  if (x != 3.0f) return 0;
  fesetround(FE_DOWNWARD);
  float d = 1.0f / x;
  fesetround(FE_UPWARD);
  float u = 1.0f / x;
  fesetround(FE_TOWARDZERO);
  float z = 1.0f / x;
  fesetround(FE_TONEAREST);
  float n = 1.0f / x;
  if (d < u && z == d && n == u)
    reach_error();
  return 0;
}
