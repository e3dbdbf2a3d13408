// A NaN is the only float unequal to itself.
// expect-finding: reach-error 9
extern float __VERIFIER_nondet_float(void);
extern void reach_error(void);

int main(void) {
  float x = __VERIFIER_nondet_float();
  if (x != x)
    reach_error();
  return 0;
}
