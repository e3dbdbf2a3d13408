// expect: true
// A resonant section in float: y = x + 1.6 y1 - 0.8 y2 (poles of modulus
// sqrt(0.8)); |x| <= 0.1 gives |y| below about 1.3.
extern float __VERIFIER_nondet_float(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}

int main(void) {
  float y1 = 0.0f, y2 = 0.0f;
  while (__VERIFIER_nondet_int()) {
    float x = __VERIFIER_nondet_float();
    if (!(x >= -0.1f && x <= 0.1f)) continue;
    float y = x + 1.6f * y1 - 0.8f * y2;
    y2 = y1;
    y1 = y;
  }
  if (y1 > 3.0f || y1 < -3.0f) reach_error();
  return 0;
}
