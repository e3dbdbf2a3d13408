/* x + 1 == x: absorption. For which doubles does adding one change nothing?
   fpsym finds one (|x| >= 2^53, an infinity, or NaN on the other branch)
   and writes it as a test. */
#include <assert.h>
extern double __VERIFIER_nondet_double(void);

int main(void) {
  double x = __VERIFIER_nondet_double();
  if (x == x && x + 1.0 == x) {
    /* Only infinities and huge values get here. */
    assert(x > 1e15 || x < -1e15);
    return 1;
  }
  return 0;
}
// expect: lines >= 100%, findings >= 0 (all confirmed by replay)
