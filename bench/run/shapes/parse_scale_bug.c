// parse_scale_bug.c: parses a 4-char decimal "D.DD" (symbolic digits) the
// naive way: integer part, then each fraction digit times a running scale
// (scale *= 0.1). It claims the result equals the correctly rounded value
// m / 100 (m = the three digits as an integer). 0.1 and 0.01 are not exact
// in binary and the partial sums are rounded, so the claim fails for many
// strings.
// expect: bug
// witness: s = "0.30" -> v = 3*0.1 = 0.30000000000000004 != 30/100.0 = 0.3
extern char __VERIFIER_nondet_char(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
  char s[4];
  for (int i = 0; i < 4; i++)
    s[i] = __VERIFIER_nondet_char();
  __VERIFIER_assume(s[0] >= '0' && s[0] <= '9');
  __VERIFIER_assume(s[1] == '.');
  __VERIFIER_assume(s[2] >= '0' && s[2] <= '9');
  __VERIFIER_assume(s[3] >= '0' && s[3] <= '9');

  double v = (double)(s[0] - '0');
  double scale = 0.1;
  for (int i = 2; i < 4; i++) {
    v += (s[i] - '0') * scale;
    scale *= 0.1;
  }
  int m = (s[0] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  if (!(v == (double)m / 100.0))
    reach_error();
  return 0;
}
