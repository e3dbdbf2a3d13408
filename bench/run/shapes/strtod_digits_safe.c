// strtod_digits_safe.c: calls strtod on a symbolic string of the form
// [sign-or-digit][digit][digit][digit] and checks that the whole string is
// consumed and the result equals the integer computed from the digits
// (with the sign applied).
// expect: safe
// why-safe: strtod accepts an optional sign followed by decimal digits and
// rounds correctly, and every integer of magnitude <= 9999 is exactly
// representable, so the parsed value equals the exact integer (-0 == +0).
#include <stdlib.h>

extern char __VERIFIER_nondet_char(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
  char s[5];
  for (int i = 0; i < 4; i++)
    s[i] = __VERIFIER_nondet_char();
  __VERIFIER_assume((s[0] >= '0' && s[0] <= '9') || s[0] == '-' || s[0] == '+');
  for (int i = 1; i < 4; i++)
    __VERIFIER_assume(s[i] >= '0' && s[i] <= '9');
  s[4] = '\0';

  int neg = 0, start = 0, n = 0;
  if (s[0] == '-' || s[0] == '+') {
    neg = (s[0] == '-');
    start = 1;
  }
  for (int i = start; i < 4; i++)
    n = n * 10 + (s[i] - '0');
  double expect = neg ? -(double)n : (double)n;

  char *end;
  double v = strtod(s, &end);
  if (!(end == s + 4))
    reach_error();
  if (!(v == expect))
    reach_error();
  return 0;
}
