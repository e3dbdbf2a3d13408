// A symbolic index into an array of floats, and the same index unchecked.
// expect-finding: reach-error 12
// expect-finding: out-of-bounds 14
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

float table[4] = {0.5f, 1.5f, 2.5f, 3.5f};

int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i >= 0 && i < 4) {
    if (table[i] > 3.0f) reach_error();
  }
  return table[i] > 0.0f;
}
