// SV-COMP task for the competition formats (crates/cli/tests/competition.rs):
// reach_error() IS reachable (false(unreach-call)): with k = 3, d = a and
// a > 1 of moderate size, d * k == a * 3.0 exactly. The inputs come from
// __VERIFIER_nondet_* calls of three types, two of them on one line, one in
// a function other than main.
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

static double scaled(int k) {
  double d = __VERIFIER_nondet_double();
  return d * k;
}

int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 2 || k > 5) return 0;
  float a = __VERIFIER_nondet_float(), b = __VERIFIER_nondet_float();
  double s = scaled(k);
  if (a > 1.0f && b < a && s == (double)a * 3.0 && s + 1.0 != s) reach_error();
  return 0;
}
