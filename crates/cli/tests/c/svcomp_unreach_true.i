# 1 "svcomp_unreach_true.c"
# 1 "<built-in>"
# 1 "<command-line>"
# 1 "svcomp_unreach_true.c"
// Preprocessed (.i) SV-COMP task: reach_error() is NOT reachable (for x in
// [0, 10], x * x - 2 <= 98 in binary64 since rounding is monotone).
// Under --property unreach-call the verdict is true; the inputs outside
// [0, 10] (and NaN) end in abort(), which is no finding.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "svcomp_unreach_true.c", 9, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
void assume_abort_if_not(int cond) { if (!cond) { abort(); } }
extern double __VERIFIER_nondet_double(void);

int main() {
  double x = __VERIFIER_nondet_double();
  assume_abort_if_not(x >= 0.0 && x <= 10.0);
  double y = x * x - 2.0;
  __VERIFIER_assert(y <= 98.0);
  return 0;
}
