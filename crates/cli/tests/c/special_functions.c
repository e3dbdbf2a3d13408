// expect-finding: reach-error 14
// expect-verdict: bug-found
// erf, erfc, tgamma, lgamma and their float forms are glibc's own values
// (computed natively on concrete arguments; the names' f suffix is not
// confused with erf's own f).
#include <math.h>
extern void reach_error(void);

int main(void) {
  double a = erf(1.0), b = erfc(1.0), g = tgamma(5.0), l = lgamma(1.0);
  float af = erff(1.0f), cf = erfcf(1.0f), gf = tgammaf(4.0f), lf = lgammaf(3.0f);
  if (a + b == 1.0 && g == 24.0 && l == 0.0 && af > 0.84f && cf < 0.16f && gf > 5.99f && gf < 6.01f && /* glibc: not exactly 6 */
      lf > 0.69f && lf < 0.7f)
    reach_error();
  return 0;
}
