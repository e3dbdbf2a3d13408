/* The fuzzing phase's fixture: the failed assertion needs x = +inf (or a
   huge x) with y = 0, a NaN product; the FP-aware mutator puts infinities
   in quickly. Expected: one assertion-failure at line 11, found by the
   fuzzing phase with --fuzz-time, and by the symbolic search alone. */
#include <assert.h>

int classify(double x, double y) {
  double r = x * y;
  if (x > 0.1 && y <= 0.0) {
    if (r != r)
      assert(0 && "NaN product");
    return 1;
  }
  if (x == 2.5e-3)
    return 2;
  return 0;
}
