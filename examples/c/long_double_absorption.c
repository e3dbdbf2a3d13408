/* Absorption in long double (x86_fp80, 64-bit significand) versus double
   (53 bits).  x is a symbolic long double made with klee_make_symbolic.
   - reach_error line 20: x + 1 is absorbed in double but not in long double;
     reachable for |x| in about [2^53, 2^64) (e.g. x = 2^60).
   - assert line 21: absorption in long double implies absorption in double
     (holds for every non-NaN value, infinities included).
   fpsym should report reach-error at line 20 only. */
#include <assert.h>
#include <klee/klee.h>
extern void reach_error(void);

int main(void) {
  long double x;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_assume(x == x); /* not NaN */
  double d = (double)x;
  int abs_ld = (x + 1.0L == x);
  int abs_d = (d + 1.0 == d);
  if (abs_d && !abs_ld)
    reach_error();
  assert(!abs_ld || abs_d);
  return 0;
}
// expect: lines >= 100%, findings >= 1 (all confirmed by replay)
