// An SV-COMP task in the unreach-call style: inputs restricted with
// assume_abort_if_not (abort), an assertion checked with
// __VERIFIER_assert. reach_error() IS reachable (x = 10 gives 98 > 97):
// under --property unreach-call the verdict is false(unreach-call) with
// one finding, reach-error at line 11. abort(), the failed assert() and
// the division by zero end their paths without a finding.
#include <assert.h>
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "svcomp_unreach_false.c", 10, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } }
void assume_abort_if_not(int cond) { if (!cond) { abort(); } }
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);

int main() {
  int k = __VERIFIER_nondet_int();
  if (k == 7) {
    assert(k != 7);
  }
  if (k == 5) {
    return 100 / (k - 5);
  }
  double x = __VERIFIER_nondet_double();
  assume_abort_if_not(x >= 0.0 && x <= 10.0);
  double y = x * x - 2.0;
  __VERIFIER_assert(y < 97.0);
  return 0;
}
