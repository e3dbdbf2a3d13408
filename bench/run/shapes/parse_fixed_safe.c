// parse_fixed_safe.c: hand-written decimal parser for a 6-char buffer of
// symbolic digits with at most one '.', e.g. "123.45" or "0.0071". It
// accumulates the digits as an integer mantissa m and the number of
// fraction digits k, then returns v = m / 10^k; checks 0 <= v <= m < 10^6
// and that rescaling recovers the mantissa: (long)(v * 10^k + 0.5) == m.
// expect: safe
// why-safe: m < 10^6 and 10^k are exact doubles, v = m/10^k is one rounding and
// v*10^k another, so |v*10^k - m| <= 2^-51 * m < 1e-9 and adding 0.5 then
// truncating gives back m; v <= m since 10^k >= 1 and division is monotone.
#include <stdint.h>

extern char __VERIFIER_nondet_char(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

#define LEN 6

static const double P10[LEN + 1] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6};

int main(void) {
  char s[LEN];
  for (int i = 0; i < LEN; i++) {
    s[i] = __VERIFIER_nondet_char();
    __VERIFIER_assume((s[i] >= '0' && s[i] <= '9') || s[i] == '.');
  }
  long m = 0;
  int k = 0, dot = 0;
  for (int i = 0; i < LEN; i++) {
    char c = s[i];
    if (c == '.') {
      if (dot)
        return 0; /* malformed: rejected */
      dot = 1;
    } else {
      m = m * 10 + (c - '0');
      if (dot)
        k++;
    }
  }
  double v = (double)m / P10[k];
  if (!(v >= 0.0 && v <= (double)m && m < 1000000))
    reach_error();
  if (!((long)(v * P10[k] + 0.5) == m))
    reach_error();
  return 0;
}
