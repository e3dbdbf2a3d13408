// (int) truncates toward zero.
// expect-finding: reach-error 9
extern double __VERIFIER_nondet_double(void);
extern void reach_error(void);

int main(void) {
  double d = __VERIFIER_nondet_double();
  int i = (int)d;
  if (i == 7 && d > 7.5) reach_error();
  return 0;
}
