// strtod_exponent_bug.c: calls strtod on a symbolic 4-char string over the
// alphabet [0-9 . e -] and, when the whole string was consumed, asserts the
// value is at most 9999 in magnitude ("four characters can't exceed 9999").
// The exponent form (e.g. "9e99") breaks that assumption.
// expect: bug
// witness: s = "9e99" -> v = 9e99 > 9999
#include <stdlib.h>
#include <math.h>

extern char __VERIFIER_nondet_char(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

static int ok_char(char c) {
  return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == '-';
}

int main(void) {
  char s[5];
  for (int i = 0; i < 4; i++) {
    s[i] = __VERIFIER_nondet_char();
    __VERIFIER_assume(ok_char(s[i]));
  }
  s[4] = '\0';
  char *end;
  double v = strtod(s, &end);
  if (end == s + 4) {
    if (!(fabs(v) <= 9999.0))
      reach_error();
  }
  return 0;
}
