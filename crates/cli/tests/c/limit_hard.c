// The first branch needs a query no backend decides in minutes: factoring
// a 61-bit semiprime (1073741827 * 1610612741). Used to check that
// --max-time and Ctrl-C stop a run while a solver is running
// (tests/limits.rs).
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int main(void) {
  unsigned p = __VERIFIER_nondet_uint();
  unsigned q = __VERIFIER_nondet_uint();
  if ((unsigned long long)p * q == 1729382267110817807ULL && p > 1 && q > 1)
    reach_error();
  return 0;
}
