// GSL-style special-function guards (after gsl/specfunc/exp.c and
// gamma.c): the guard decides whether the libm call is safe.
#include <assert.h>
#include <math.h>

#define GSL_LOG_DBL_MAX 7.0978271289338397e+02
#define GSL_LOG_DBL_MIN (-7.0839641853226408e+02)
#define GSL_DBL_EPSILON 2.2204460492503131e-16
#define GSL_SUCCESS 0
#define GSL_EOVRFLW 16
#define GSL_EUNDRFLW 15

typedef struct { double val, err; } gsl_sf_result;

// gsl_sf_exp_e: on success the value is finite and positive (GSL's
// constants are glibc's exp thresholds: 709.78 is the largest argument
// with a finite result).
int sf_exp_e(double x) {
  gsl_sf_result r;
  if (x > GSL_LOG_DBL_MAX) return GSL_EOVRFLW;
  if (x < GSL_LOG_DBL_MIN) return GSL_EUNDRFLW;
  r.val = exp(x);
  r.err = 2.0 * GSL_DBL_EPSILON * fabs(r.val);
  assert(isfinite(r.val) && r.val > 0 && isfinite(r.err));
  return GSL_SUCCESS;
}

// A gamma guard with the wrong constant: tgamma overflows above 171.62.
#define GAMMA_XMAX 172.0
int sf_gamma_e(double x) {
  if (x <= 0 || x > GAMMA_XMAX) return GSL_EOVRFLW;
  double g = tgamma(x);
  assert(isfinite(g));
  return GSL_SUCCESS;
}

// GSL's constant (171.0) is right at the top, but tgamma(x) ~ 1/x
// overflows too for x below 5.6e-309: a guard x <= 0 misses it.
int sf_gamma_tiny(double x) {
  if (x <= 0 || x > 171.0) return GSL_EOVRFLW;
  double g = tgamma(x);
  assert(isfinite(g));
  return GSL_SUCCESS;
}

// Both ends guarded: tgamma is finite on [1e-300, 171].
int sf_gamma_ok(double x) {
  if (x < 1e-300 || x > 171.0) return GSL_EOVRFLW;
  double g = tgamma(x);
  assert(isfinite(g));
  return GSL_SUCCESS;
}
