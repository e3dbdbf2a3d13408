// A finding, then a branch whose query a lying cross-check backend answers
// wrongly (tests/limits.rs: the liar says unsat to queries naming 12345).
// The run must stop with the solver fault (exit 3) and keep the finding.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void) {
  int a = __VERIFIER_nondet_int();
  if (a == 7)
    reach_error();
  if (a == 12345)
    return 1;
  return 0;
}
