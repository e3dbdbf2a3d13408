// |x| is never negative (NaN aside): fully explored, no finding.
// expect-verdict: verified
// expect-paths: 2
#include <assert.h>
extern float __VERIFIER_nondet_float(void);

int main(void) {
  float x = __VERIFIER_nondet_float();
  float y = x > 0.0f ? x : -x;
  if (x > 0.0f) y = x; else y = -x;
  assert(!(y < 0.0f));
  return 0;
}
