// One branch whose query takes the solver seconds: factoring a semiprime
// (p * q == N with p, q > 1, in 64-bit arithmetic). With a short
// --solver-timeout the branch times out first and is found by the retries
// with doubled timeouts (tests/limits.rs). N can be set with -D N=...
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);

#ifndef N
#define N 20707720771ULL /* 35933 * 576287 */
#endif

int main(void) {
  unsigned p = __VERIFIER_nondet_uint();
  unsigned q = __VERIFIER_nondet_uint();
  if (p > 1 && q > 1) {
    if ((unsigned long long)p * q == N)
      reach_error();
  }
  return 0;
}
