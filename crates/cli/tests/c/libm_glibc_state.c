// What glibc's functions leave beside their value, and which glibc: each
// case once made fpsym say "verified" while the native run failed.
// Cases: see libm_trig.c.
#include <assert.h>
#include <errno.h>
#include <math.h>

// glibc's cbrt (1 ulp, not correctly rounded) gives 0.9999365930688625
// here; a port linked into fpsym gave the next float down.
// case: cbrt_glibc => found assertion-failure
int cbrt_glibc(double x) {
  if (x == 0.9998097912676489 && cbrt(x) == 0.9999365930688625) assert(0); // T:cbrt_glibc
  return 0;
}

// glibc sets ERANGE when exp underflows to zero (x = -1000).
// case: exp_underflow_errno => found assertion-failure
int exp_underflow_errno(double x) {
  errno = 0;
  double e = exp(x);
  if (errno == ERANGE && e == 0.0) assert(0); // T:exp_underflow_errno
  return 0;
}

// ... and when pow does (0.5^2000), but not for pow(0, 2) = 0 exactly.
// case: pow_underflow_errno => found assertion-failure
int pow_underflow_errno(double x, double y) {
  errno = 0;
  double p = pow(x, y);
  if (errno == ERANGE && p == 0.0 && x != 0.0) assert(0); // T:pow_underflow_errno
  return 0;
}

// lgamma writes signgam (negative for x = -0.5): not modelled, so never
// verified. (The fuzzing phase finds x = -0.5 natively, a finding of its
// own: off here, where the symbolic run's answer is the point.)
// case: lgamma_signgam --fuzz-time 0 => no-finding
int lgamma_signgam(double x) {
  double l = lgamma(x);
  if (signgam < 0 && l < 100) assert(0);
  return 0;
}
