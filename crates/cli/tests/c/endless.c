// Halving a symbolic float until it reaches zero: a path per iteration
// count, more than any budget allows.
extern float __VERIFIER_nondet_float(void);

int main(void) {
  float x = __VERIFIER_nondet_float();
  int n = 0;
  while (x != 0.0f && x == x) {
    x = x / 2.0f;
    n++;
  }
  return n;
}
