// The logistic function written naively: exp(x) / (1 + exp(x)) is
// inf / inf = NaN once exp overflows (x > 709.78).
#include <assert.h>
#include <math.h>

double logistic_naive(double x) {
  double e = exp(x);
  double s = e / (1.0 + e);
  assert(!isnan(s));
  return s;
}

// The stable form never makes NaN from a finite x, and stays in [0, 1].
double logistic_stable(double x) {
  double s;
  if (x >= 0) {
    s = 1.0 / (1.0 + exp(-x));
  } else {
    double e = exp(x);
    s = e / (1.0 + e);
  }
  assert(s >= 0.0 && s <= 1.0);
  return s;
}

// Two-class softmax, naive: both exponentials overflow -> NaN.
double softmax2(double a, double b) {
  double ea = exp(a), eb = exp(b);
  double p = ea / (ea + eb);
  assert(p >= 0.0 && p <= 1.0);
  return p;
}
