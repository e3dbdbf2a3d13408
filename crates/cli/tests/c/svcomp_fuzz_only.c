// A task only the fuzzing phase decides in a short run: the error lies
// past two million iterations of a floating-point recurrence, which the
// native fuzzer runs in milliseconds and the symbolic search (a term per
// iteration) does not get through in its time. The crash is then run on
// the engine concretely: its finding has a test and a witness.
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void) {
  int slow = __VERIFIER_nondet_int();
  double x = __VERIFIER_nondet_double();
  double k = slow > 0 ? 0.75 : 0.5;
  double s = 0.0;
  for (int i = 0; i < 2000000; i++)
    s = s * k + x;
  // s tends to x / (1 - k): the error needs |x| > 1.5 (0.75 with k = 0.75).
  if (s > 3.0 || s < -3.0)
    reach_error();
  return 0;
}
