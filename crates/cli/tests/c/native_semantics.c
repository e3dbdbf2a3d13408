// Operations whose result C leaves open, modelled as clang-14's x86-64 code
// computes them (each finding below is one native execution reaches, and each
// unreached check is one it never reaches).
// expect-finding: assertion-failure 21
// expect-finding: reach-error 28
// expect-finding: reach-error 32
// expect-finding: reach-error 35
// expect-finding: reach-error 40
#include <assert.h>
#include <math.h>
#include <stdint.h>
extern double __VERIFIER_nondet_double(void);
void klee_make_symbolic(void *, unsigned long, const char *);
extern void reach_error(void);

int main(void) {
  double a = __VERIFIER_nondet_double(), b = __VERIFIER_nondet_double();
  // fmax of two variables that are zeros of opposite signs is the first
  // (inline maxsd): fmax(-0.0, +0.0) is -0.0, fmax(+0.0, -0.0) is +0.0.
  if (a == 0.0 && b == 0.0 && signbit(a) && !signbit(b))
    assert(!signbit(fmax(a, b)));
  if (a == 0.0 && b == 0.0 && !signbit(a) && signbit(b))
    assert(!signbit(fmax(a, b)) && !signbit(fmin(a, b)));
  // double -> uint64_t: NaN, infinities and values of at least 2^64 give
  // 0x8000000000000000; long double (x87) gives 0 for them.
  double x = __VERIFIER_nondet_double();
  if (x > 1.8e19 && (uint64_t)x == 0x8000000000000000ULL)
    reach_error();
  long double l;
  klee_make_symbolic(&l, sizeof l, "l");
  if (l > 1.9e19L && (uint64_t)l == 0)
    reach_error();
  // double -> uint16_t goes through int32_t: 70000.0 gives 4464.
  if ((uint16_t)x == 4464 && x > 65536.0)
    reach_error();
  // A NaN input may have either sign (NAN is positive); 0/0 is x86's
  // default NaN, negative: the second check is never reached.
  double n = x / x;
  if (isnan(x) && !signbit(x))
    reach_error();
  if (x == 0.0 && !signbit(n))
    reach_error();
  return 0;
}
