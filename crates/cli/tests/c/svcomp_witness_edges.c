// SV-COMP task (crates/cli/tests/competition.rs): reach_error() needs a
// negative zero, a positive subnormal double, +infinity and a NaN from the
// nondet calls, so the witness carries each edge class and its native check
// must hand each back exactly.
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void) {
  float z = __VERIFIER_nondet_float();
  double s = __VERIFIER_nondet_double();
  float i = __VERIFIER_nondet_float();
  double n = __VERIFIER_nondet_double();
  if (z == 0.0f && 1.0f / z < 0.0f && s > 0.0 && s < 0x1p-1022 && i > 3.4e38f && i == i * 2.0f && n != n)
    reach_error();
  return 0;
}
