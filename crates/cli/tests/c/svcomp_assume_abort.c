// SV-COMP task (crates/cli/tests/competition.rs): inputs outside the
// assumption abort() (not a violation of unreach-call), inputs inside may
// reach reach_error(), which fails an assertion. The fuzzing phase finds
// both kinds of crash; the symbolic run follows them as seeds. Expected:
// false(unreach-call), e.g. for t = 2.9 (q = 8.41 > 8.4).
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "svcomp_assume_abort.c", 10, "reach_error"); }
extern double __VERIFIER_nondet_double(void);
void assume_abort_if_not(int cond) { if (!cond) { abort(); } }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }

int main() {
  double t = __VERIFIER_nondet_double();
  assume_abort_if_not(t >= 0.0 && t <= 3.0);
  double q = t * t;
  __VERIFIER_assert(q <= 8.4);
  return 0;
}
