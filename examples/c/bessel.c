/* Seed 003 (Ariadne), Fig. 2 style: the large-x asymptotic expansion of the
   Bessel function J_nu(x), written after GSL's gsl_sf_bessel_Jnu_asympx_e,
   for x > nu*nu + 1 (the expansion's precondition), nu >= 0, both finite.
   Property: the result is finite.  It is not: for nu > ~6.7e76, mu = 4 nu^2
   makes mum1 * mum9 overflow to +inf while 128 x x also overflows, and
   inf / inf = NaN (e.g. nu = 1e77, x = 1e155), so P and the result are NaN.
   cos and sin are transcendental: fpsym evaluates them natively on concrete
   arguments, so chi (hence nu and x) is made concrete at line 25 (an event)
   and the run is never "verified".  The NaN comes from P (line 22), which
   does not depend on cos, but whether fpsym still finds it depends on the
   value chi is concretized to.  Expected: assertion-failure at line 37. */
#include <assert.h>
#include <math.h>
extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_assume(int cond);

double bessel_Jnu_asympx(double nu, double x) {
  double mu = 4.0 * nu * nu;
  double mum1 = mu - 1.0;
  double mum9 = mu - 9.0;
  double chi = x - (0.5 * nu + 0.25) * M_PI;
  double P = 1.0 - mum1 * mum9 / (128.0 * x * x);
  double Q = mum1 / (8.0 * x);
  double pre = sqrt(2.0 / (M_PI * x));
  double c = cos(chi);
  double s = sin(chi);
  return pre * (c * P - s * Q);
}

int main(void) {
  double nu = __VERIFIER_nondet_double();
  double x = __VERIFIER_nondet_double();
  __VERIFIER_assume(isfinite(nu) && isfinite(x) && nu >= 0.0);
  __VERIFIER_assume(x > nu * nu + 1.0);
  double val = bessel_Jnu_asympx(nu, x);

  assert(isfinite(val));
  return 0;
}
// expect: lines >= 100%, findings >= 0 (all confirmed by replay)
