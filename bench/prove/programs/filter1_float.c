// expect: true
// An exponential moving average in float: m = 0.9 m + 0.1 x, x in [0, 50].
extern float __VERIFIER_nondet_float(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

int main(void) {
  float m = 0.0f;
  while (__VERIFIER_nondet_int()) {
    float x = __VERIFIER_nondet_float();
    if (!(x >= 0.0f && x <= 50.0f)) continue;
    m = 0.9f * m + 0.1f * x;
    if (m > 51.0f || m < -1.0f) reach_error();
  }
  return 0;
}
