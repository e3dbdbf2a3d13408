// fpsym export and show (crates/cli/tests/export.rs, show.rs): findings
// whose reproducers must build with clang-14 and fail the same way.
//
// main: inputs from klee_make_symbolic (an array, an int) and from
// __VERIFIER_nondet_double; a reach_error (line 27) and a failed assertion
// (line 29).
// --function scale: a double, an int and a float array; under `fpsym
// exceptions --kinds overflow,divide-by-zero` an overflow (line 16) and a
// division by zero (line 17).
#include <assert.h>
#include <klee/klee.h>
extern void reach_error(void);
extern double __VERIFIER_nondet_double(void);

double scale(double x, int n, const float *a) {
  if (n == 3) return x * 1e300; /* line 16 */
  return a[0] / x;              /* line 17 */
}

int main(void) {
  double d[2];
  int k;
  klee_make_symbolic(d, sizeof d, "d");
  klee_make_symbolic(&k, sizeof k, "k");
  double v = __VERIFIER_nondet_double();
  if (k == 7 && d[1] > 1.5)
    reach_error(); /* line 27 */
  if (v < -2.0 && d[0] == 0.25)
    assert(k < 0); /* line 29 */
  return 0;
}
