// The bytes of a symbolic double read one at a time through a char
// pointer: all eight come from one bit-pattern variable of the double.
// expect-finding: reach-error 14
extern double __VERIFIER_nondet_double(void);
extern void reach_error(void);

int main(void) {
  double x = __VERIFIER_nondet_double();
  const unsigned char *b = (const unsigned char *)&x;
  unsigned sum = 0;
  for (int i = 0; i < 8; i++) sum += b[i];
  /* -2.0 is c0 00 00 00 00 00 00 00 (little-endian: b[7] = 0xc0). */
  if (b[7] == 0xc0 && sum == 0xc0 && x < -1.0)
    reach_error();
  return 0;
}
