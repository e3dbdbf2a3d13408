// Positive floats below FLT_MIN are subnormal; multiplying by 2^23 brings
// them back into the normal range exactly.
// expect-finding: reach-error 11
#include <float.h>
extern float __VERIFIER_nondet_float(void);
extern void reach_error(void);

int main(void) {
  float x = __VERIFIER_nondet_float();
  if (x > 0.0f && x < FLT_MIN && x * 8388608.0f == 3.0f * FLT_MIN)
    reach_error();
  return 0;
}
