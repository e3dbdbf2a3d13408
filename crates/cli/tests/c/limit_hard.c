// The first branch needs a query no backend decides in minutes: factoring
// a 62-bit semiprime (1000000007 * 3735928579; factors far from the powers
// of two a local search starts from). Used to check that --max-time and
// Ctrl-C stop a run while a solver is running (tests/limits.rs).
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int main(void) {
  unsigned p = __VERIFIER_nondet_uint();
  unsigned q = __VERIFIER_nondet_uint();
  if ((unsigned long long)p * q == 3735928605151500053ULL && p > 1 && q > 1)
    reach_error();
  return 0;
}
