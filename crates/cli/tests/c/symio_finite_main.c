/* --finite-inputs on main's inputs: klee_make_symbolic objects of float
 * type and __VERIFIER_nondet_double. Each assertion needs a NaN or an
 * infinity; the last one a finite value. */
#include <assert.h>
#include <klee/klee.h>

extern double __VERIFIER_nondet_double(void);

int main(void) {
  double a[2];
  klee_make_symbolic(a, sizeof a, "a");
  double x = __VERIFIER_nondet_double();
  assert(a[0] == a[0]);
  assert(x - x == 0.0);
  assert(a[1] < 1e308);
  return 0;
}
